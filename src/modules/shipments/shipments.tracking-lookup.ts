import type { TrackingMilestone, TrackingStatus } from '../../carriers/types.js';
import type { Scope } from '../../platform/context.js';
import type { Executor } from '../../platform/db/types.js';
import { iso } from '../../platform/http/wire.js';
import * as repo from './shipments.repo.js';
import type { Tracking } from './shipments.schemas.js';
import type { ShipmentRow, TrackingEventRow } from './shipments.tables.js';
import { isDue, type TrackingSync } from './shipments.tracking.js';
import { timelineOf, toTracking, toTrackingEvent } from './shipments.wire.js';

/** A tracker's journey as the tracking read shows it (the trackers module answers it, up to date). */
export interface TrackerJourney {
  id: string;
  carrier: string;
  tracking_number: string;
  status: TrackingStatus;
  status_detail: string | null;
  estimated_delivery_at: string | null;
  /** Newest first, each with the milestone it reaches (null: none, or kept before milestones were). */
  events: (Tracking['events'][number] & { milestone: TrackingMilestone | null })[];
}

/**
 * Where labels bought elsewhere are found (the trackers module, wired in compose.ts: it builds on
 * this module, so this module cannot import it).
 */
export interface TrackerSource {
  /** The scope's newest tracker of the number, brought up to date as its own read is. */
  inScope(scope: Scope, trackingNumber: string): Promise<TrackerJourney | undefined>;
  /** Any tenant's (public tracking, which finds shipments the same way). */
  anywhere(trackingNumber: string): Promise<TrackerJourney | undefined>;
}

/** What a tracking number (or shipment id) reads as. */
export type TrackingFound =
  | { kind: 'shipment'; row: ShipmentRow; events: TrackingEventRow[] }
  | { kind: 'package'; row: ShipmentRow; events: TrackingEventRow[]; index: number }
  | { kind: 'tracker'; tracker: TrackerJourney };

export interface TrackingLookupDeps {
  db: Executor;
  now(): Date;
  tracking: TrackingSync;
  trackers?: TrackerSource;
}

/**
 * The one lookup behind GET /v1/tracking/:id and public tracking (docs/api-conventions.md,
 * "Tracking by number"), in this order: a shipment id or a shipment's own (master) number; a
 * later package's number of a multi-piece shipment; a tracker's number. Each is brought up to
 * date when a scan is due. `scope` null: any tenant's (public tracking).
 */
export async function lookupTracking(deps: TrackingLookupDeps, scope: Scope | null, idOrNumber: string): Promise<TrackingFound | undefined> {
  const byId = scope !== null && idOrNumber.startsWith('shp_');
  const trackingNumber = normalizeTrackingNumber(idOrNumber);
  const own = byId
    ? await repo.findShipmentWithEvents(deps.db, scope, { id: idOrNumber })
    : scope
      ? await repo.findShipmentWithEvents(deps.db, scope, { trackingNumber })
      : await repo.findShipmentWithEventsAnywhere(deps.db, trackingNumber);
  if (own) return { kind: 'shipment', ...(await upToDate(deps, own)) };
  if (byId) return undefined;
  const ofPackage = await repo.findShipmentWithEventsByPackage(deps.db, scope, trackingNumber);
  if (ofPackage) {
    const fresh = await upToDate(deps, ofPackage);
    const index = (fresh.row.packages ?? []).findIndex((p) => p.tracking_number === trackingNumber);
    if (index > 0) return { kind: 'package', ...fresh, index };
    if (index === 0) return { kind: 'shipment', ...fresh };
  }
  if (!deps.trackers) return undefined;
  const tracker = scope ? await deps.trackers.inScope(scope, trackingNumber) : await deps.trackers.anywhere(trackingNumber);
  return tracker && { kind: 'tracker', tracker };
}

/** A tracking number as printed, as it is stored: spaces dropped, upper case. */
export function normalizeTrackingNumber(n: string): string {
  return n.replace(/\s+/g, '').toUpperCase();
}

/** The row as read, or, when a carrier scan is due, brought up to date and its events read again. */
async function upToDate(
  deps: TrackingLookupDeps,
  found: { row: ShipmentRow; events: TrackingEventRow[] },
): Promise<{ row: ShipmentRow; events: TrackingEventRow[] }> {
  if (!isDue(found.row, deps.now())) return found;
  const row = await deps.tracking.refresh(found.row);
  return { row, events: await repo.eventsOfShipment(deps.db, row.id) };
}

/** The wire tracking of what the lookup found. */
export function toTrackingFound(found: TrackingFound): Tracking {
  if (found.kind === 'shipment') return toTracking(found.row, found.events);
  if (found.kind === 'package') return packageTracking(found.row, found.events, found.index);
  const t = found.tracker;
  const delivered = t.estimated_delivery_at;
  return {
    id: t.id,
    shipment_id: null,
    tracker_id: t.id,
    tracking_number: t.tracking_number,
    master_tracking_number: null,
    package: null,
    carrier: t.carrier,
    status: t.status,
    status_detail: t.status_detail,
    estimated_delivery_date: delivered ? delivered.slice(0, 10) : null,
    events: t.events.map(({ milestone: _milestone, ...e }) => e),
    // A tracker knows only when delivery is expected; the journey ends otherwise on a problem.
    timeline: timelineOf(
      t.events.map((e) => ({ milestone: e.milestone ?? milestoneOf(e.status, e.status_detail), occurred_at: e.occurred_at })),
      delivered ? { delivered } : {},
      !['failure', 'return_to_sender', 'cancelled'].includes(t.status),
    ),
  };
}

/**
 * One later package of a multi-piece shipment: its own scans and status, plus what happened to
 * the whole shipment by hand (a void, a forced delivery: events of no carrier, seq ≥ 10000). A
 * package tracked before packages kept their own scans reads as the shipment's.
 */
function packageTracking(row: ShipmentRow, shipmentEvents: readonly TrackingEventRow[], index: number): Tracking {
  const packages = row.packages!;
  const pkg = packages[index]!;
  const whole = toTracking(row, shipmentEvents);
  const base = { ...whole, tracking_number: pkg.tracking_number, package: { sequence_number: index + 1, count: packages.length } };
  if (!pkg.events) return base;
  const manual = shipmentEvents.filter((e) => e.seq >= 10_000);
  const events = [...manual.map((e) => ({ ...toTrackingEvent(e), milestone: e.milestone })), ...pkg.events.map(({ key: _key, ...e }) => e).reverse()].sort(
    (a, b) => Date.parse(b.occurred_at) - Date.parse(a.occurred_at),
  );
  const byHand = row.status === 'voided' || row.tracking_status_detail === 'delivered_manually';
  const open = !['voided', 'exception', 'returned'].includes(row.status);
  return {
    ...base,
    status: byHand ? row.tracking_status : pkg.tracking_status,
    status_detail: byHand ? row.tracking_status_detail : (pkg.events.at(-1)?.status_detail ?? null),
    events: events.map(({ milestone: _milestone, ...e }) => ({ ...e, occurred_at: iso(e.occurred_at)! })),
    timeline: timelineOf(events, row.expected_milestones, open),
  };
}

/** The milestone of a scan kept without one (trackers' scans before milestones were kept). */
function milestoneOf(status: string, detail: string | null): TrackingMilestone | null {
  if (status === 'pre_transit') return detail === 'label_created' ? 'label_created' : null;
  if (status === 'in_transit') return detail === 'picked_up' ? 'picked_up' : 'in_transit';
  if (status === 'out_for_delivery' || status === 'delivered') return status;
  return null;
}
