import type { ColumnType, Generated, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string | null | undefined, string | null>;

export const ACCOUNT_DRIVERS = ['simulated', 'api'] as const;
export type AccountDriver = (typeof ACCOUNT_DRIVERS)[number];
export const ACCOUNT_MODES = ['sandbox', 'production'] as const;
export type AccountMode = (typeof ACCOUNT_MODES)[number];
export const HEALTH_STATUSES = ['ok', 'invalid_credentials', 'unreachable', 'unknown'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

export interface CarrierAccountsTable {
  id: string;
  workspace_id: string;
  environment: 'test' | 'live';
  carrier: string;
  driver: AccountDriver;
  /** 'seed': the simulated default made on the workspace's first use. */
  origin: ColumnType<'user' | 'seed', 'user' | 'seed' | undefined, never>;
  mode: ColumnType<AccountMode, AccountMode | undefined, AccountMode>;
  description: string | null;
  account_number: string | null;
  /** AES-256-GCM (platform/secret-box.ts) of the credentials JSON, bound to the row id. */
  credentials_sealed: string | null;
  /** The same credentials with every writeOnly field masked: what responses show. */
  credentials_masked: Json<Record<string, unknown> | null>;
  base_url: string | null;
  is_default: Generated<boolean>;
  enabled: Generated<boolean>;
  health_status: ColumnType<HealthStatus, HealthStatus | undefined, HealthStatus>;
  health_checked_at: NullableTimestamp;
  health_latency_ms: number | null;
  health_message: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface CarrierExchangesTable {
  id: string;
  carrier_account_id: string;
  workspace_id: string;
  environment: string;
  operation: string;
  method: string;
  path: string;
  status: number | null;
  duration_ms: number;
  outcome: string;
  request_body: Json<unknown>;
  response_body: Json<unknown>;
  request_id: string | null;
  created_at: Timestamp;
}

export type CarrierAccountRow = Selectable<CarrierAccountsTable>;
export type CarrierExchangeRow = Selectable<CarrierExchangesTable>;

declare module '../../platform/db/types.js' {
  interface Tables {
    carrier_accounts: CarrierAccountsTable;
    carrier_exchanges: CarrierExchangesTable;
  }
}
