import { iso } from '../../platform/http/wire.js';
import type { Attempt, Delivery, WebhookEndpoint } from './webhooks.schemas.js';
import type { AttemptRow, DeliveryRow, EndpointRow } from './webhooks.tables.js';

/** The endpoint on the wire: never a secret (only create and rotate add it, once). */
export function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    disabled_at: iso(row.disabled_at),
    environment: row.environment,
    secret_rotated_at: iso(row.secret_rotated_at),
    previous_secret_expires_at: iso(row.previous_secret_expires_at),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

export function toAttempt(row: AttemptRow): Attempt {
  return {
    number: row.number,
    attempted_at: iso(row.attempted_at)!,
    status_code: row.status_code,
    latency_ms: row.latency_ms,
    response_body: row.response_body,
    error: row.error,
  };
}

export function toDelivery(row: DeliveryRow, attempts: AttemptRow[]): Delivery {
  return {
    id: row.id,
    webhook_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempt_count: row.attempt_count,
    next_attempt_at: row.status === 'pending' || row.status === 'failed' ? iso(row.next_attempt_at) : null,
    last_attempt_at: iso(row.last_attempt_at),
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    delivered_at: iso(row.delivered_at),
    // The row and its attempts are two reads: an attempt recorded between them (with the row's
    // new status, in one statement) is not shown beside the row as it was before it.
    attempts: attempts.filter((a) => a.number <= row.attempt_count).map(toAttempt),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}
