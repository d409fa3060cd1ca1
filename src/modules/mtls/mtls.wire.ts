import { iso } from '../../platform/http/wire.js';
import type { MtlsCertificateRow } from './mtls.tables.js';

export function toCertificate(row: MtlsCertificateRow) {
  return {
    id: row.id,
    name: row.name,
    fingerprint_sha256: row.fingerprint_sha256,
    subject: row.subject,
    expires_at: iso(row.expires_at),
    created_at: iso(row.created_at)!,
  };
}
