import type { TrackingStatus } from '../../carriers/types.js';

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
}

/** The packages of a shipment: those stored, else its one parcel under the shipment's own tracking number. */
export function packagesOf(row: { packages?: StoredPackage[] | null; tracking_number: string; parcel: PackageParcel; tracking_status: TrackingStatus }): StoredPackage[] {
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
