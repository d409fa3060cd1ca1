import type { CarrierAccount } from './carrier-accounts.schemas.js';
import type { CarrierAccountRow, CarrierExchangeRow } from './carrier-accounts.tables.js';

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export function toCarrierAccount(row: CarrierAccountRow): CarrierAccount {
  return {
    id: row.id,
    carrier: row.carrier,
    driver: row.driver,
    mode: row.mode,
    description: row.description,
    account_number: row.account_number,
    credentials: row.credentials_masked ?? {},
    base_url: row.base_url,
    is_default: row.is_default,
    enabled: row.enabled,
    health: {
      status: row.health_status,
      checked_at: row.health_checked_at ? iso(row.health_checked_at) : null,
      latency_ms: row.health_latency_ms,
      message: row.health_message,
    },
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export function toExchange(row: CarrierExchangeRow) {
  return {
    id: row.id,
    operation: row.operation,
    method: row.method,
    path: row.path,
    status: row.status,
    outcome: row.outcome,
    duration_ms: row.duration_ms,
    request_body: row.request_body ?? null,
    response_body: row.response_body ?? null,
    request_id: row.request_id,
    created_at: iso(row.created_at),
  };
}
