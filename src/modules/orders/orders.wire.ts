import type { Order } from './orders.schemas.js';
import type { OrderRow } from './orders.tables.js';
import { isParcelDerived } from './orders.parcel.js';
import { iso } from '../../platform/http/wire.js';
import { toOrderCustoms } from '../customs/index.js';
import { resolveOptions } from '../shipment-options/index.js';

/** Summaries other modules attach to an order (shipments, office PINs); empty until they exist. */
export interface OrderAttachments {
  shipments?: Order['shipments'];
  office_pins?: Order['office_pins'];
}

export function toOrder(row: OrderRow, attachments: OrderAttachments = {}): Order {
  return {
    id: row.id,
    external_id: row.external_id,
    external_number: row.external_number ?? null,
    source: row.source,
    needs_review: row.needs_review ?? null,
    environment: row.environment,
    status: row.status,
    archived: row.archived,
    customer: { name: row.customer_name, email: row.customer_email, phone: row.customer_phone },
    ship_to: row.ship_to,
    ship_from: row.ship_from ?? null,
    location_id: row.location_id ?? null,
    line_items: row.line_items,
    parcel: row.parcel,
    parcels: row.parcels ?? null,
    parcel_derived: isParcelDerived(row.parcel_input),
    requested_service: row.requested_service,
    customs: row.customs ? toOrderCustoms(row.customs) : null,
    options: resolveOptions(row.options ?? null),
    shipments: attachments.shipments ?? [],
    office_pins: attachments.office_pins ?? [],
    notes: row.notes,
    processed_at: iso(row.processed_at),
    shipped_at: iso(row.shipped_at),
    delivered_at: iso(row.delivered_at),
    cancelled_at: iso(row.cancelled_at),
    archived_at: iso(row.archived_at),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}
