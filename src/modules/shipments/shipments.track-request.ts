import type { TrackRequest } from '../../carriers/types.js';
import type { Scope } from '../../platform/context.js';
import type { ShipmentRow } from './shipments.tables.js';

/** The scope a shipment row belongs to. */
export function scopeOf(row: ShipmentRow): Scope {
  return { workspaceId: row.workspace_id, environment: row.environment };
}

/** What a driver is asked to track (the sync, a refund's review): the number, and the journey's facts a simulated driver plays it from (a real carrier reads the number alone). */
export function trackRequest(row: ShipmentRow, trackingNumber: string, now: Date, piece?: number): TrackRequest {
  return {
    tracking_number: trackingNumber,
    service_code: row.service_code,
    purchased_at: new Date(row.purchased_at).toISOString(),
    estimated_delivery_date: row.rate.delivery.estimated_delivery_date,
    ship_from: { ...row.ship_from, postal_code: row.ship_from.postal_code ?? '' },
    ship_to: { ...row.ship_to, postal_code: row.ship_to.postal_code ?? '' },
    now: now.toISOString(),
    sandbox: row.sandbox ?? undefined,
    ...(piece ? { piece } : {}),
  };
}
