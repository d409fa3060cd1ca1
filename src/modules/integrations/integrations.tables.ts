import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Timestamp, NullableTimestamp, NullableJson } from '../../platform/db/columns.js';
import type { IntegrationHealth } from './integrations.health.js';

/** A discovered store platform's slug (src/channels/<slug>/), or `custom`. */
export type IntegrationPlatform = string;
export type ConnectionState = 'pending_authorization' | 'active' | 'paused' | 'disconnected';

/** docs/channels.md `settings`; stored as given, defaults filled in on read. */
export interface ChannelSettings {
  import_statuses: string[];
  write_back: boolean;
  notify_customer: boolean;
  backfill_days: number;
  reconcile_interval_minutes: number;
}

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
  /** A real platform's store (docs/channels.md): Shopify shop domain, WooCommerce site URL, BigCommerce store hash. */
  store_ref: string | null;
  /** Replaces the platform's origin (a test double or egress proxy); only with CHANNEL_ALLOW_BASE_URL_OVERRIDE. */
  base_url: string | null;
  connection_state: ConnectionState | null;
  connected_at: NullableTimestamp;
  scopes: NullableJson<string[]>;
  settings: ColumnType<Partial<ChannelSettings>, string | undefined, string>;
  /** SHA-256 of the pending OAuth `state` (single-use). */
  oauth_state_hash: string | null;
  oauth_state_expires_at: NullableTimestamp;
  /** The install link handed to the merchant while the connection waits for authorization. */
  oauth_authorize_url: string | null;
  /** A secret we generated for the platform's webhooks (WooCommerce, BigCommerce), sealed like the credentials. */
  /** The credentials as answers show them (secrets masked), kept beside the sealed ones so a read decrypts nothing. */
  credentials_masked: NullableJson<Record<string, unknown>>;
  last_webhook_at: NullableTimestamp;
  last_reconciled_at: NullableTimestamp;
  /** Reconciliation reads orders updated since this instant (minus an overlap). */
  sync_watermark: NullableTimestamp;
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
