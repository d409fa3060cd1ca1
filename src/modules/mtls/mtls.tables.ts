import type { Selectable } from 'kysely';
import type { Timestamp, NullableTimestamp } from '../../platform/db/columns.js';

export interface MtlsCertificatesTable {
  id: string;
  workspace_id: string;
  name: string;
  fingerprint_sha256: string;
  subject: string | null;
  expires_at: NullableTimestamp;
  created_by: string | null;
  created_at: Timestamp;
}

export type MtlsCertificateRow = Selectable<MtlsCertificatesTable>;

declare module '../../platform/db/types.js' {
  interface Tables {
    mtls_certificates: MtlsCertificatesTable;
  }
}
