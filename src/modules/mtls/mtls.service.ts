import { X509Certificate } from 'node:crypto';
import type { Deps } from '../../platform/deps.js';
import type { Actor, RequestMeta } from '../../platform/context.js';
import { notFound, validationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { paginate } from '../../platform/http/pagination.js';
import { mapDbError } from '../../platform/db/pg-errors.js';
import { TtlCache } from '../../platform/cache/ttl-cache.js';
import { writeAudit } from '../audit/index.js';
import * as repo from './mtls.repo.js';
import type { CreateMtlsCertificateInput } from './mtls.schemas.js';
import { toCertificate } from './mtls.wire.js';

const topic = (workspaceId: string) => `mtls:${workspaceId}`;

/** `AB:CD:…` (openssl, Node) or plain hex → 64 lowercase hex digits; null when it is not one. */
export function normalizeFingerprint(value: string): string | null {
  const hex = value.replace(/[:\s]/g, '').toLowerCase();
  return /^[0-9a-f]{64}$/.test(hex) ? hex : null;
}

/**
 * Client certificates registered per workspace (mutual TLS). The registered fingerprints are
 * read on every /v1 request of an mtls_required workspace, so they are cached per workspace
 * and dropped on every process when one is added or deleted.
 */
export class MtlsService {
  private readonly fingerprints = new TtlCache<Set<string>>(60_000, 10_000);

  constructor(private readonly deps: Deps) {
    deps.bus.subscribe((t) => {
      if (t === '*') this.fingerprints.clear();
      else if (t.startsWith('mtls:')) this.fingerprints.delete(t.slice(5));
    });
  }

  async isRegistered(workspaceId: string, fingerprint: string): Promise<boolean> {
    let set = this.fingerprints.get(workspaceId);
    if (!set) {
      set = new Set(await repo.listFingerprints(this.deps.db, workspaceId));
      this.fingerprints.set(workspaceId, set);
    }
    return set.has(fingerprint);
  }

  async list(workspaceId: string, filter: { limit?: number; cursor?: string }) {
    const page = await paginate(repo.certificatesQuery(this.deps.db, workspaceId), filter);
    return { ...page, data: page.data.map(toCertificate) };
  }

  /**
   * Register a certificate by fingerprint or PEM. A PEM must parse as an X.509 certificate and,
   * when TLS_CLIENT_CA is configured, be issued by it (else the handshake would never verify).
   */
  async create(workspaceId: string, input: CreateMtlsCertificateInput, actor: Actor, meta: RequestMeta) {
    const name = input.name.trim();
    const details = [];
    if (!name) details.push({ field: 'name', message: 'must not be empty' });
    if ((input.pem === undefined) === (input.fingerprint_sha256 === undefined)) {
      details.push({ field: 'fingerprint_sha256', message: 'give exactly one of fingerprint_sha256 and pem' });
    }
    let fingerprint: string | null = null;
    let subject: string | null = null;
    let expiresAt: Date | null = null;
    if (input.fingerprint_sha256 !== undefined) {
      fingerprint = normalizeFingerprint(input.fingerprint_sha256);
      if (!fingerprint) details.push({ field: 'fingerprint_sha256', message: 'must be 64 hex digits (colons allowed)' });
    } else if (input.pem !== undefined) {
      const cert = parseCertificate(input.pem);
      if (!cert) details.push({ field: 'pem', message: 'must be a PEM X.509 certificate' });
      else {
        const ca = this.deps.config.tls?.clientCa ? parseCertificate(this.deps.config.tls.clientCa) : null;
        if (ca && !(cert.checkIssued(ca) && cert.verify(ca.publicKey))) details.push({ field: 'pem', message: 'is not issued by the configured client CA' });
        fingerprint = normalizeFingerprint(cert.fingerprint256);
        subject = cert.subject.replaceAll('\n', ', ');
        expiresAt = new Date(cert.validTo);
      }
    }
    if (details.length) throw validationError(details);
    try {
      return await this.deps.db.transaction().execute(async (trx) => {
        const row = await repo.insertCertificate(trx, {
          id: newId('mtlsCertificate'),
          workspace_id: workspaceId,
          name,
          fingerprint_sha256: fingerprint!,
          subject,
          expires_at: expiresAt && !Number.isNaN(expiresAt.getTime()) ? expiresAt : null,
          created_by: actor.id,
        });
        await writeAudit(trx, actor, meta, {
          action: 'mtls_certificate.created',
          targetType: 'mtls_certificate',
          targetId: row.id,
          workspaceId,
          changes: { name, fingerprint_sha256: row.fingerprint_sha256 },
        });
        await this.deps.bus.publish(topic(workspaceId), trx);
        return toCertificate(row);
      });
    } catch (err) {
      throw mapDbError(err, { unique: { field: 'fingerprint_sha256', message: 'This certificate is already registered.' } });
    }
  }

  async delete(workspaceId: string, id: string, actor: Actor, meta: RequestMeta): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const row = await repo.deleteCertificate(trx, workspaceId, id);
      if (!row) throw notFound('certificate');
      await writeAudit(trx, actor, meta, {
        action: 'mtls_certificate.deleted',
        targetType: 'mtls_certificate',
        targetId: id,
        workspaceId,
        changes: { fingerprint_sha256: row.fingerprint_sha256 },
      });
      await this.deps.bus.publish(topic(workspaceId), trx);
    });
  }
}

function parseCertificate(pem: string): X509Certificate | null {
  try {
    return new X509Certificate(pem);
  } catch {
    return null;
  }
}
