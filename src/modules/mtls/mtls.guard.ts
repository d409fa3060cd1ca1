import type { TLSSocket } from 'node:tls';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../platform/errors.js';
import type { WorkspacesService } from '../identity/index.js';
import { normalizeFingerprint, type MtlsService } from './mtls.service.js';

/**
 * The SHA-256 fingerprint of the client certificate this request's connection proved, or null.
 * Behind a terminating proxy (MTLS_FINGERPRINT_HEADER set) the proxy's header is the proof;
 * otherwise the TLS socket must have verified the certificate against TLS_CLIENT_CA.
 */
export function presentedFingerprint(request: FastifyRequest, config: Config): string | null {
  if (config.mtlsFingerprintHeader) {
    const header = request.headers[config.mtlsFingerprintHeader];
    if (typeof header === 'string' && header !== '') return normalizeFingerprint(header);
  }
  const socket = request.raw.socket as Partial<TLSSocket>;
  if (!config.tls?.clientCa || typeof socket.getPeerCertificate !== 'function' || !socket.authorized) return null;
  const cert = socket.getPeerCertificate();
  return cert?.fingerprint256 ? normalizeFingerprint(cert.fingerprint256) : null;
}

/**
 * /v1 hook, after the API-key guard: a workspace flagged mtls_required is served only over a
 * connection that presented one of its registered client certificates. 403: the key is
 * valid, the connection is not allowed to use it.
 */
export function clientCertificateGuard(opts: { config: Config; workspaces: WorkspacesService; mtls: MtlsService }) {
  async function check(request: FastifyRequest, workspaceId: string): Promise<void> {
    const limits = await opts.workspaces.limits(workspaceId);
    if (!limits.mtlsRequired) return;
    const fingerprint = presentedFingerprint(request, opts.config);
    if (!fingerprint || !(await opts.mtls.isRegistered(workspaceId, fingerprint))) {
      throw new AppError('forbidden', 'This workspace requires mutual TLS: connect with a client certificate registered for it.');
    }
  }
  // Callback style: the usual case (no scope, or a cached workspace that needs no certificate)
  // is answered without a promise, on every /v1 request.
  return (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void => {
    const scope = request.auth?.scope;
    if (!scope || opts.workspaces.cachedLimits(scope.workspaceId)?.mtlsRequired === false) return done();
    check(request, scope.workspaceId).then(() => done(), done);
  };
}
