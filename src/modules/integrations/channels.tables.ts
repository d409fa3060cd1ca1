import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Json, NullableJson, NullableTimestamp, Timestamp } from '../../platform/db/columns.js';

// Tables of the store connectors (docs/channels.md): deliveries received from a platform, sync
// runs, each order's sync history, and write-backs.

export type DeliveryStatus = 'pending' | 'applied' | 'failed';
export type SyncRunKind = 'backfill' | 'reconcile' | 'manual';
export type SyncRunStatus = 'queued' | 'running' | 'completed' | 'completed_with_errors' | 'failed';
export type SyncSource = 'webhook' | 'poll' | 'manual';
export type SyncDecision = 'created' | 'updated' | 'unchanged' | 'stale' | 'duplicate' | 'echo' | 'skipped_status' | 'needs_review' | 'error';
export type WriteBackAction = 'fulfill' | 'update_tracking' | 'cancel_fulfillment';
export type WriteBackStatus = 'pending' | 'succeeded' | 'retrying' | 'dead' | 'skipped';

export interface SyncCounts {
  seen: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  failed: number;
}

export interface ChannelDeliveriesTable {
  id: string;
  integration_id: string;
  workspace_id: string;
  environment: 'test' | 'live';
  delivery_id: string;
  topic: string;
  body: Json<unknown>;
  status: ColumnType<DeliveryStatus, DeliveryStatus | undefined, DeliveryStatus>;
  error: string | null;
  received_at: Timestamp;
  applied_at: NullableTimestamp;
}

export interface ChannelSyncRunsTable {
  id: string;
  integration_id: string;
  workspace_id: string;
  environment: 'test' | 'live';
  kind: SyncRunKind;
  status: SyncRunStatus;
  since: NullableTimestamp;
  cursor: string | null;
  counts: Json<SyncCounts>;
  error: string | null;
  created_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

export interface OrderSyncEntriesTable {
  id: Generated<string>;
  workspace_id: string;
  environment: 'test' | 'live';
  integration_id: string;
  external_id: string;
  at: Timestamp;
  source: SyncSource;
  platform_version: string | null;
  decision: SyncDecision;
  changes: Json<string[]>;
  message: string | null;
}

export interface WriteBackError {
  code: string;
  message: string;
  platform_status: number | null;
}

export interface WriteBacksTable {
  id: string;
  workspace_id: string;
  environment: 'test' | 'live';
  shipment_id: string;
  order_id: string;
  integration_id: string;
  action: WriteBackAction;
  /** The tracking number sent: a later store version carrying it is our own write-back echoing back. */
  tracking_number: string;
  /** Our carrier slug: the platform's carrier name and the public tracking page come from it. */
  carrier: string;
  /** The label's service, for platforms whose write-back is a note naming it (WooCommerce). */
  service_code: string | null;
  status: WriteBackStatus;
  attempts: ColumnType<number, number | undefined, number>;
  external_ref: string | null;
  external_refs: NullableJson<string[]>;
  last_error: NullableJson<WriteBackError>;
  next_attempt_at: NullableTimestamp;
  /** An attempt in progress holds the write-back until then: two jobs never write the same tracking twice at once. */
  claimed_until: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  completed_at: NullableTimestamp;
}

/** One request to a store platform and its answer (docs/channels.md), redacted, kept 7 days. */
export interface ChannelExchangesTable {
  id: string;
  integration_id: string;
  workspace_id: string;
  environment: 'test' | 'live';
  operation: string;
  method: string;
  /** Path and query, never the origin. */
  path: string;
  status: number | null;
  outcome: string;
  duration_ms: number;
  attempt: number;
  request_body: NullableJson<unknown>;
  response_body: NullableJson<unknown>;
  request_id: string | null;
  created_at: Timestamp;
}

export type ChannelDeliveryRow = Selectable<ChannelDeliveriesTable>;
export type ChannelExchangeRow = Selectable<ChannelExchangesTable>;
export type SyncRunRow = Selectable<ChannelSyncRunsTable>;
export type OrderSyncEntryRow = Selectable<OrderSyncEntriesTable>;
export type WriteBackRow = Selectable<WriteBacksTable>;

declare module '../../platform/db/types.js' {
  interface Tables {
    channel_deliveries: ChannelDeliveriesTable;
    channel_exchanges: ChannelExchangesTable;
    channel_sync_runs: ChannelSyncRunsTable;
    order_sync_entries: OrderSyncEntriesTable;
    write_backs: WriteBacksTable;
  }
}
