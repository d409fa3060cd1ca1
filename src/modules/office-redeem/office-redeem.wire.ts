import { iso } from '../../platform/http/wire.js';
import type { OfficePinRow } from './office-redeem.tables.js';
import type { OfficePin } from './office-redeem.schemas.js';

/** A PIN past its expires_at reads as expired everywhere (lookup, lists, orders). */
export function pinStatus(row: Pick<OfficePinRow, 'status' | 'expires_at'>, now: Date): OfficePin['status'] {
  if (row.status === 'revoked') return 'revoked';
  return new Date(row.expires_at).getTime() <= now.getTime() ? 'expired' : 'active';
}

export function maskPin(pin: string): string {
  return `${'•'.repeat(pin.length - 4)}${pin.slice(-4)}`;
}

export function toOfficePin(row: OfficePinRow, now: Date): OfficePin {
  return {
    id: row.id,
    pin: row.pin,
    product: row.product,
    status: pinStatus(row, now),
    expires_at: iso(row.expires_at)!,
    order_id: row.order_id,
    workspace_id: row.workspace_id,
    environment: row.environment,
    test: row.test,
    lookup_count: row.lookup_count,
    last_lookup_at: iso(row.last_lookup_at),
    revoked_at: iso(row.revoked_at),
    renewed_at: iso(row.renewed_at),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

/** The summary an order carries: the whole PIN on the admin read, else only its last four. */
export function toOrderPin(row: OfficePinRow, now: Date, reveal: boolean) {
  return {
    id: row.id,
    pin: reveal ? row.pin : maskPin(row.pin),
    last4: row.pin.slice(-4),
    product: row.product,
    status: pinStatus(row, now),
    expires_at: iso(row.expires_at),
    test: row.test,
  };
}
