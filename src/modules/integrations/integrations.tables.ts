import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Timestamp, NullableTimestamp } from '../../platform/db/columns.js';
import type { IntegrationHealth } from './integrations.health.js';

export type IntegrationPlatform = 'shopify' | 'woocommerce' | 'bigcommerce' | 'custom';

export interface IntegrationsTable {
  id: string;
  workspace_id: string;
  environment: 'test' | 'live';
  name: string;
  platform: IntegrationPlatform;
  config: ColumnType<Record<string, unknown>, string | undefined, string>;
  /** AES-256-GCM (platform/secret-box.ts) of the credentials JSON, bound to the row id. */
  credentials_sealed: string | null;
  ingest_key_hash: string;
  ingest_key_last4: string;
  token_expires_at: NullableTimestamp;
  health: IntegrationHealth;
  health_reason: string | null;
  health_checked_at: NullableTimestamp;
  health_changed_at: NullableTimestamp;
  /** Intake failures before this instant no longer count (a success or a token update). */
  failures_reset_at: NullableTimestamp;
  last_intake_at: NullableTimestamp;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IntegrationIntakeFailuresTable {
  id: Generated<number>;
  integration_id: string;
  workspace_id: string;
  environment: string;
  at: ColumnType<Date, Date | string, Date | string>;
  code: string;
  details: ColumnType<unknown, string | null, string | null>;
}

export type IntegrationRow = Selectable<IntegrationsTable>;

declare module '../../platform/db/types.js' {
  interface Tables {
    integrations: IntegrationsTable;
    integration_intake_failures: IntegrationIntakeFailuresTable;
  }
}
