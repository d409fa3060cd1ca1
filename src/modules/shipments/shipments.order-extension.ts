import type { Scope } from '../../platform/context.js';
import type { Executor } from '../../platform/db/types.js';
import type { OrderAttachments, OrderExtension } from '../orders/index.js';
import * as repo from './shipments.repo.js';

/**
 * What this module adds to orders: the order read lists its shipments. Orders cannot import
 * this module (this module imports orders), so the service registers it in src/compose.ts.
 */
export function shipmentsOnOrders(): OrderExtension {
  return {
    attachments: {
      name: 'shipments',
      forOrders: attachmentsOf,
      json: (eb) => repo.shipmentsOfOrderJson(eb),
      version: (eb) => repo.shipmentsOfOrderVersion(eb),
      decode: (rows) => ({ shipments: (rows as ShipmentSummaryRow[]).map(toShipmentSummary) }),
    },
  };
}

/** The orders' `shipments` summaries, one query for the page. */
async function attachmentsOf(executor: Executor, scope: Scope, orderIds: readonly string[]): Promise<Map<string, OrderAttachments>> {
  const out = new Map<string, OrderAttachments>();
  for (const s of await repo.shipmentsOfOrders(executor, scope, orderIds)) {
    const list = out.get(s.order_id)?.shipments ?? [];
    list.push(toShipmentSummary(s));
    out.set(s.order_id, { shipments: list });
  }
  return out;
}

type ShipmentSummaryRow = Awaited<ReturnType<typeof repo.shipmentsOfOrders>>[number];

/** A shipment as its order shows it (created_at is text when it comes through JSON). */
function toShipmentSummary(s: ShipmentSummaryRow) {
  return {
    id: s.id,
    carrier: s.carrier,
    service_code: s.service_code,
    tracking_number: s.tracking_number,
    status: s.status,
    created_at: new Date(s.created_at).toISOString(),
  };
}
