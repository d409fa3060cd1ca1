import { iso } from '../../platform/http/wire.js';
import type { ChannelExchangeRow, OrderSyncEntryRow, SyncRunRow, WriteBackRow } from './channels.tables.js';

/** Sync runs, history entries and write-backs on the wire. */

export function toSyncRun(row: SyncRunRow) {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    since: iso(row.since),
    counts: row.counts,
    error: row.error,
    created_at: iso(row.created_at)!,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  };
}

export function toSyncEntry(row: OrderSyncEntryRow) {
  return { at: iso(row.at)!, source: row.source, platform_version: row.platform_version, decision: row.decision, changes: row.changes, message: row.message };
}

export function toWriteBack(row: WriteBackRow) {
  return {
    id: row.id,
    shipment_id: row.shipment_id,
    order_id: row.order_id,
    integration_id: row.integration_id,
    action: row.action,
    status: row.status,
    attempts: row.attempts,
    external_ref: row.external_ref,
    external_refs: row.external_refs ?? (row.external_ref ? [row.external_ref] : []),
    last_error: row.last_error,
    next_attempt_at: iso(row.next_attempt_at),
    created_at: iso(row.created_at)!,
    completed_at: iso(row.completed_at),
  };
}

export function toChannelExchange(row: ChannelExchangeRow) {
  return {
    id: row.id,
    operation: row.operation,
    method: row.method,
    path: row.path,
    status: row.status,
    outcome: row.outcome,
    duration_ms: row.duration_ms,
    attempt: row.attempt,
    request_body: row.request_body,
    response_body: row.response_body,
    request_id: row.request_id,
    created_at: iso(row.created_at)!,
  };
}
