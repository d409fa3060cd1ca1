import type { Executor } from '../../platform/db/types.js';
import type { MtlsCertificateRow } from './mtls.tables.js';

// Certificates are workspace-wide (both environments), so the scope is the workspace alone.

export function certificatesQuery(db: Executor, workspaceId: string) {
  return db.selectFrom('mtls_certificates').selectAll().where('workspace_id', '=', workspaceId);
}

export async function insertCertificate(db: Executor, row: Omit<MtlsCertificateRow, 'created_at'>): Promise<MtlsCertificateRow> {
  return db.insertInto('mtls_certificates').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function deleteCertificate(db: Executor, workspaceId: string, id: string): Promise<MtlsCertificateRow | undefined> {
  return db.deleteFrom('mtls_certificates').where('workspace_id', '=', workspaceId).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function listFingerprints(db: Executor, workspaceId: string): Promise<string[]> {
  const rows = await db.selectFrom('mtls_certificates').select('fingerprint_sha256').where('workspace_id', '=', workspaceId).execute();
  return rows.map((r) => r.fingerprint_sha256);
}
