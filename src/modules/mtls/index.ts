/** The mtls module's import surface. */
export { MtlsService, normalizeFingerprint } from './mtls.service.js';
export { clientCertificateGuard, presentedFingerprint } from './mtls.guard.js';
export { adminMtlsRoutes } from './mtls.routes.js';
