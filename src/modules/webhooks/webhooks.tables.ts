import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Timestamp, NullableTimestamp } from '../../platform/db/columns.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'dead';

export interface WebhookEndpointsTable {
  id: string;
  workspace_id: string;
  environment: 'test' | 'live';
  url: string;
  description: string | null;
  events: string[];
  enabled: Generated<boolean>;
  disabled_reason: string | null;
  disabled_at: NullableTimestamp;
  /** AES-256-GCM (platform/secret-box.ts) of the signing secret, bound to the row id. */
  secret_sealed: string;
  /** The secret before the last rotation: still signs until previous_secret_expires_at. */
  previous_secret_sealed: string | null;
  previous_secret_expires_at: NullableTimestamp;
  secret_rotated_at: NullableTimestamp;
  /** First failed attempt since the last success; three days of it disables the endpoint. */
  failing_since: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: string;
  workspace_id: string;
  environment: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: ColumnType<DeliveryStatus, DeliveryStatus | undefined, DeliveryStatus>;
  attempt_count: Generated<number>;
  /** After this many attempts a failure is final; null = the setting webhooks.max_attempts. */
  attempt_limit: number | null;
  next_attempt_at: NullableTimestamp;
  /** A dispatcher's claim: others skip the row until then (a crashed one's claim runs out). */
  locked_until: NullableTimestamp;
  last_attempt_at: NullableTimestamp;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookDeliveryAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  number: number;
  attempted_at: ColumnType<Date, Date | string, Date | string>;
  status_code: number | null;
  latency_ms: number;
  response_body: string | null;
  error: string | null;
}

export type EndpointRow = Selectable<WebhookEndpointsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookDeliveryAttemptsTable>;

declare module '../../platform/db/types.js' {
  interface Tables {
    webhook_endpoints: WebhookEndpointsTable;
    webhook_deliveries: WebhookDeliveriesTable;
    webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  }
}
