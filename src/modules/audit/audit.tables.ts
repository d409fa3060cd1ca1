import type { ColumnType, Selectable } from 'kysely';

export interface AuditLogTable {
  id: string;
  at: ColumnType<Date, Date | string | undefined, never>;
  workspace_id: string | null;
  environment: string | null;
  actor_type: string;
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  changes: ColumnType<unknown, string | null, never> | null;
  ip: string | null;
  request_id: string | null;
}

export type AuditRow = Selectable<AuditLogTable>;

declare module '../../platform/db/types.js' {
  interface Tables {
    audit_log: AuditLogTable;
  }
}
