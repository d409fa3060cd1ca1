import type { ColumnType } from 'kysely';

export interface ApiRequestCountsTable {
  workspace_id: string;
  environment: string;
  minute: ColumnType<Date, Date | string, Date | string>;
  count: ColumnType<string, number, number>;
}

declare module '../../platform/db/types.js' {
  interface Tables {
    api_request_counts: ApiRequestCountsTable;
  }
}
