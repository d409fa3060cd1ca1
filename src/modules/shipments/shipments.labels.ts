import { createLabelRenderPool, type LabelData, type LabelFormat, type RenderedLabel } from '../labels/index.js';
import type { ShipmentAddress, ShipmentRow } from './shipments.tables.js';

/** What the shipments module needs from label rendering (the labels module's pool fits). */
export interface LabelRenderer {
  renderLabel(data: LabelData, format: LabelFormat): Promise<RenderedLabel>;
  close(): Promise<void>;
}

/** Renders off the event loop (worker threads), started on first use. */
export function lazyRenderPool(): LabelRenderer {
  let pool: ReturnType<typeof createLabelRenderPool> | null = null;
  return {
    renderLabel(data, format) {
      pool ??= createLabelRenderPool();
      return pool.renderLabel(data, format);
    },
    async close() {
      const p = pool;
      pool = null;
      await p?.close();
    },
  };
}

function labelAddress(a: ShipmentAddress) {
  return {
    name: a.name ?? null,
    company: a.company ?? null,
    street1: a.street1 ?? null,
    street2: a.street2 ?? null,
    city: a.city ?? null,
    state: a.state ?? null,
    postal_code: a.postal_code ?? null,
    country: a.country,
    phone: a.phone ?? null,
  };
}

/** The label's content, from the stored shipment (so any format can be rendered again later). */
export function labelDataOf(row: Pick<ShipmentRow, 'id' | 'tracking_number' | 'carrier' | 'service_code' | 'service_name' | 'rate' | 'parcel' | 'ship_from' | 'ship_to' | 'environment'>, carrierName: string, reference: string | null): LabelData {
  return {
    shipment_id: row.id,
    tracking_number: row.tracking_number,
    carrier: row.carrier,
    carrier_name: carrierName,
    service_code: row.service_code,
    service_name: row.service_name,
    zone: row.rate.zone == null ? null : String(row.rate.zone),
    weight_oz: row.parcel.weight_oz,
    ship_date: row.rate.ship_date,
    ship_from: labelAddress(row.ship_from),
    ship_to: labelAddress(row.ship_to),
    reference,
    sample: row.environment === 'test',
  };
}
