import type { ColumnType } from 'kysely';

/** Domain events: the outbox webhooks deliver from (their envelope: docs/api-conventions.md, Webhooks). */
export interface EventsTable {
  id: string;
  workspace_id: string;
  environment: string;
  type: string;
  data: ColumnType<unknown, string, never>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

declare module '../../platform/db/types.js' {
  interface Tables {
    events: EventsTable;
  }
}
