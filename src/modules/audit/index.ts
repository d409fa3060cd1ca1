export { writeAudit, type AuditEntry } from './audit.repo.js';
export { recordEvent, type EventEnvelope } from './events.repo.js';
