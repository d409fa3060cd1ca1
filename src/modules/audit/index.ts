export { writeAudit, type AuditEntry } from './audit.repo.js';
export { maskSecrets } from './audit.mask.js';
export { listAuditLog } from './audit.service.js';
export { superAdminAuditRoutes } from './audit.routes.js';
