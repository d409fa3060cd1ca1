import { iso } from '../../platform/http/wire.js';
import type { Pickup } from './pickups.schemas.js';
import type { PickupRow } from './pickups.tables.js';

export function toPickup(row: PickupRow): Pickup {
  return {
    id: row.id,
    carrier: row.carrier,
    carrier_account_id: row.carrier_account_id,
    status: row.status,
    confirmation_number: row.confirmation_number,
    location_id: row.location_id,
    address: row.address as Pickup['address'],
    window: row.window_text,
    price: { amount: row.price_amount, currency: row.price_currency },
    cancel_by: iso(row.cancel_by)!,
    shipment_ids: row.shipment_ids,
    package_count: row.package_count,
    instructions: row.instructions,
    cancelled_at: iso(row.cancelled_at),
    completed_at: iso(row.completed_at),
    created_at: iso(row.created_at)!,
  };
}
