import type { TrackingEvent, TrackingMilestone, TrackingStatus } from '../../carriers/types.js';
import { newId } from '../../platform/ids.js';

/** One piece's parcel, as the shipment keeps it. */
export interface PackageParcel {
  weight_oz: number;
  length_in: number;
  width_in: number;
  height_in: number;
  package_id?: string;
}

/**
 * One package of a multi-piece shipment (the shipments.packages column): its own tracking number
 * and parcel, and where its own journey stands (docs/api-conventions.md, "Multi-piece shipments").
 */
export interface StoredPackage {
  tracking_number: string;
  parcel: PackageParcel;
  tracking_status: TrackingStatus;
  /**
   * The package's own scans, oldest first (GET /v1/tracking/:number answers them for a package's
   * number). The shipment's tracking_events hold the roll-up's; absent on packages tracked before
   * packages kept their own.
   */
  events?: PackageEvent[];
}

/** One scan of one package, as a tracking event reads; `key` identifies it at its carrier. */
export interface PackageEvent {
  id: string;
  key: string;
  occurred_at: string;
  status: TrackingStatus;
  status_detail: string;
  milestone: TrackingMilestone | null;
  description: string;
  location: { city: string | null; state: string | null; postal_code: string | null; country: string | null };
  carrier_status_code: string;
}

/** The kept scans plus those not seen before (by `keyOf`), oldest first. */
export function mergePackageEvents(kept: readonly PackageEvent[], reported: readonly TrackingEvent[], keyOf: (e: TrackingEvent) => string): PackageEvent[] {
  const seen = new Set(kept.map((e) => e.key));
  const out = [...kept];
  for (const e of reported) {
    const key = keyOf(e);
    if (seen.has(key)) continue;
    seen.add(key);
    const at = new Date(e.occurred_at).toISOString();
    const location = {
      city: e.location.city ?? null,
      state: e.location.state ?? null,
      postal_code: e.location.postal_code ?? null,
      country: e.location.country ?? null,
    };
    out.push({
      id: newId('trackingEvent'),
      key,
      occurred_at: at,
      status: e.status,
      status_detail: e.status_detail,
      milestone: e.milestone ?? null,
      description: e.description,
      location,
      carrier_status_code: e.carrier_status_code,
    });
  }
  return out.sort((a, b) => Date.parse(a.occurred_at) - Date.parse(b.occurred_at));
}

/** The packages of a shipment: those stored, else its one parcel under the shipment's own tracking number. */
export function packagesOf(row: {
  packages?: StoredPackage[] | null;
  tracking_number: string;
  parcel: PackageParcel;
  tracking_status: TrackingStatus;
}): StoredPackage[] {
  if (row.packages && row.packages.length > 0) return row.packages;
  return [{ tracking_number: row.tracking_number, parcel: row.parcel, tracking_status: row.tracking_status }];
}

/** How far a journey has come, for the roll-up (a problem outranks any progress). */
const PROGRESS: Record<TrackingStatus, number> = {
  unknown: 0,
  pre_transit: 1,
  in_transit: 2,
  out_for_delivery: 3,
  available_for_pickup: 4,
  delivered: 5,
  cancelled: 6,
  return_to_sender: 7,
  failure: 8,
};

const PROBLEMS: readonly TrackingStatus[] = ['failure', 'return_to_sender', 'cancelled'];

/**
 * The index of the package whose status is the shipment's: a package in trouble (the worst
 * one), else the one furthest behind (the last such, whose events come latest) — so the
 * shipment is delivered only when every package is.
 */
export function rollUpIndex(statuses: readonly TrackingStatus[]): number {
  let at = 0;
  statuses.forEach((s, i) => {
    const current = statuses[at]!;
    const problem = PROBLEMS.includes(s);
    if (problem ? !PROBLEMS.includes(current) || PROGRESS[s] > PROGRESS[current] : !PROBLEMS.includes(current) && PROGRESS[s] <= PROGRESS[current]) at = i;
  });
  return at;
}

/** The shipment's tracking status from its packages' (see rollUpIndex). */
export function rollUp(statuses: readonly TrackingStatus[]): TrackingStatus {
  return statuses[rollUpIndex(statuses)]!;
}
