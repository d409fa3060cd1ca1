import type { ColumnType } from 'kysely';

export interface SettingsTable {
  key: string;
  value: ColumnType<unknown, string, string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  updated_by: string | null;
}

declare module '../../platform/db/types.js' {
  interface Tables {
    settings: SettingsTable;
  }
}
