import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { Timestamp, NullableTimestamp, Json, NullableJson } from '../../platform/db/columns.js';
import type { Actor } from '../../platform/context.js';

export const BATCH_TYPES = ['purchase_labels', 'import_orders', 'validate_addresses', 'process_orders', 'create_returns'] as const;
export type BatchType = (typeof BATCH_TYPES)[number];
export const BATCH_STATUSES = ['queued', 'running', 'completed', 'completed_with_errors', 'failed', 'cancelled'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];
export const ITEM_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

export interface ItemError {
  code: string;
  message: string;
  details?: unknown;
}

export interface BatchesTable {
  id: string;
  workspace_id: string;
  environment: 'test' | 'live';
  type: BatchType;
  status: BatchStatus;
  label_format: string | null;
  service_code: string | null;
  /** The location (`loc_…`) it ships from; null: none (an address of its own, or from before locations). */
  location_id: ColumnType<string | null, string | null | undefined, string | null>;
  total: number;
  actor: Json<Actor>;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BatchItemsTable {
  id: string;
  batch_id: string;
  workspace_id: string;
  environment: 'test' | 'live';
  idx: number;
  status: ItemStatus;
  input: Json<unknown>;
  result: NullableJson<Record<string, unknown>>;
  error: NullableJson<ItemError>;
  shipment_id: string | null;
  finished_at: NullableTimestamp;
}

export interface BatchLabelsTable {
  batch_id: string;
  content_type: string;
  body: Uint8Array;
  created_at: Timestamp;
}

export type BatchRow = Selectable<BatchesTable>;
export type BatchItemRow = Selectable<BatchItemsTable>;
export type NewBatchRow = Insertable<BatchesTable>;
export type NewBatchItemRow = Insertable<BatchItemsTable>;

declare module '../../platform/db/types.js' {
  interface Tables {
    batches: BatchesTable;
    batch_items: BatchItemsTable;
    batch_labels: BatchLabelsTable;
  }
}
