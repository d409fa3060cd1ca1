import { packagesOf } from './shipments.packages.js';
import { iso } from '../../platform/http/wire.js';
import type { TrackingMilestone } from '../../carriers/types.js';
import { toShipmentCustoms } from '../customs/index.js';
import { resolveOptions } from '../shipment-options/index.js';
import { MILESTONES, type PublicTracking, type Shipment, type Tracking } from './shipments.schemas.js';
import type { ShipmentRow, TrackingEventRow } from './shipments.tables.js';
import { toRefund } from './shipments.refunds.js';

/** A return label as its outbound shipment lists it. */
export interface ReturnSummary {
  id: string;
  tracking_number: string;
  status: ShipmentRow['status'];
  billing_status: ShipmentRow['billing_status'];
}

export function labelUrl(baseUrl: string, shipmentId: string, format?: string): string {
  return `${baseUrl}/v1/shipments/${shipmentId}/label${format ? `?format=${format}` : ''}`;
}

export function publicTrackingUrl(baseUrl: string, trackingNumber: string): string {
  return `${baseUrl}/track/${encodeURIComponent(trackingNumber)}`;
}

/** A shipment's write-back as its read shows it (the integrations module provides it). */
export type ShipmentWriteBack = Shipment['write_back'];

/**
 * The wire shipment; `returns` are its return labels and `writeBack` its tracking sent back to
 * the store (both loaded by the caller; none for a new label).
 */
export function toShipment(row: ShipmentRow, baseUrl: string, returns: readonly ReturnSummary[] = [], writeBack: ShipmentWriteBack = null): Shipment {
  return {
    id: row.id,
    order_id: row.order_id,
    environment: row.environment,
    carrier: row.carrier,
    service_code: row.service_code,
    service_name: row.service_name,
    tracking_number: row.tracking_number,
    tracking_url: publicTrackingUrl(baseUrl, row.tracking_number),
    status: row.status,
    tracking_status: row.tracking_status,
    status_detail: row.tracking_status_detail,
    estimated_delivery_date: row.estimated_delivery_date,
    price: { amount: row.price_amount, currency: row.price_currency },
    rate: row.rate,
    location_id: row.location_id,
    ship_from: row.ship_from,
    ship_to: row.ship_to,
    ship_to_original: row.ship_to_original,
    address_validation: row.address_validation,
    parcel: row.parcel,
    parcels: row.packages && row.packages.length > 1 ? row.packages.map((p) => p.parcel) : null,
    packages: packagesOf(row).map((p) => ({
      tracking_number: p.tracking_number,
      parcel: p.parcel,
      tracking_status: row.status === 'voided' ? 'cancelled' : p.tracking_status,
    })),
    label: { format: row.label_format, url: labelUrl(baseUrl, row.id), created_at: iso(row.label_created_at)! },
    carrier_account_id: row.carrier_account_id,
    simulated: row.carrier_driver === 'simulated',
    selection: row.selection ?? null,
    customs: row.customs ? toShipmentCustoms(row.customs) : null,
    options: resolveOptions(null, row.options ?? undefined),
    manifest_id: row.manifest_id ?? null,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
    voided_at: iso(row.voided_at),
    delivered_at: iso(row.delivered_at),
    is_return: row.is_return ?? false,
    return_of: row.return_of ?? null,
    charge: row.return_charge ?? null,
    expires_at: iso(row.return_expires_at ?? null),
    rma_number: row.rma_number ?? null,
    reason: row.return_reason ?? null,
    billing_status: row.billing_status ?? 'charged',
    returns: returns.map((r) => ({ ...r })),
    refund: toRefund(row),
    write_back: writeBack,
  };
}

export function toTrackingEvent(row: TrackingEventRow) {
  return {
    id: row.id,
    occurred_at: iso(row.occurred_at)!,
    status: row.status,
    status_detail: row.status_detail,
    description: row.description,
    location: row.location,
    carrier_status_code: row.carrier_status_code,
  };
}

export function toTrackingEventListItem(row: TrackingEventRow) {
  return {
    ...toTrackingEvent(row),
    shipment_id: row.shipment_id,
    tracking_number: row.tracking_number,
    carrier: row.carrier,
    created_at: iso(row.created_at)!,
  };
}

/**
 * The buyer timeline: each milestone in order, reached at its earliest event; a milestone not
 * reached yet carries the carrier's expected time (none once the journey ended otherwise). A
 * later milestone reached implies the earlier ones (a parcel delivered was out for delivery),
 * so a skipped one takes the time of the first later milestone.
 */
export function buildTimeline(row: ShipmentRow, events: readonly TrackingEventRow[]): Tracking['timeline'] {
  return timelineOf(
    events.map((e) => ({ milestone: e.milestone, occurred_at: iso(e.occurred_at)! })),
    row.expected_milestones,
    !['voided', 'exception', 'returned'].includes(row.status),
  );
}

/** The timeline from scans (any order) and the carrier's expected times; `open`: the journey has not ended otherwise. */
export function timelineOf(
  events: readonly { milestone: TrackingMilestone | null; occurred_at: string }[],
  expected: Partial<Record<TrackingMilestone, string>>,
  open: boolean,
): Tracking['timeline'] {
  const reached = new Map<TrackingMilestone, string>();
  for (const e of events) {
    if (!e.milestone) continue;
    const at = e.occurred_at;
    const prev = reached.get(e.milestone);
    if (!prev || at < prev) reached.set(e.milestone, at);
  }
  const timeline = MILESTONES.map((milestone) => ({
    milestone,
    reached_at: reached.get(milestone) ?? null,
    estimated_at: !reached.has(milestone) && open ? (expected[milestone] ?? null) : null,
  }));
  for (let i = timeline.length - 2; i >= 0; i--) {
    if (!timeline[i].reached_at && timeline[i + 1].reached_at) {
      timeline[i].reached_at = timeline[i + 1].reached_at;
      timeline[i].estimated_at = null;
    }
  }
  return timeline;
}

export function toTracking(row: ShipmentRow, events: readonly TrackingEventRow[]): Tracking {
  const count = row.packages && row.packages.length > 1 ? row.packages.length : 0;
  return {
    id: row.id,
    shipment_id: row.id,
    tracker_id: null,
    tracking_number: row.tracking_number,
    master_tracking_number: count ? row.tracking_number : null,
    package: count ? { sequence_number: 1, count } : null,
    carrier: row.carrier,
    status: row.tracking_status,
    status_detail: row.tracking_status_detail,
    estimated_delivery_date: row.estimated_delivery_date,
    events: events.map(toTrackingEvent),
    timeline: buildTimeline(row, events),
  };
}

/** What anyone holding the number may see: no names, streets, emails or phones anywhere. */
export function toPublicTracking(row: ShipmentRow, events: readonly TrackingEventRow[]): PublicTracking {
  return publicOf(toTracking(row, events));
}

/** A tracking read without what only the workspace may see (ids; street-level event locations). */
export function publicOf(t: Tracking): PublicTracking {
  return {
    tracking_number: t.tracking_number,
    master_tracking_number: t.master_tracking_number,
    package: t.package,
    carrier: t.carrier,
    status: t.status,
    status_detail: t.status_detail,
    estimated_delivery_date: t.estimated_delivery_date,
    timeline: t.timeline,
    events: t.events.map((e) => ({
      ...e,
      location: { city: e.location.city, state: e.location.state, postal_code: e.location.postal_code, country: e.location.country },
    })),
  };
}
