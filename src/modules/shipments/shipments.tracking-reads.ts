import type { Scope } from '../../platform/context.js';
import * as repo from './shipments.repo.js';
import type { PublicTracking, Tracking } from './shipments.schemas.js';
import { isDue } from './shipments.tracking.js';
import { lookupTracking, normalizeTrackingNumber, toTrackingFound, type TrackingFound, type TrackingLookupDeps } from './shipments.tracking-lookup.js';
import { publicOf } from './shipments.wire.js';

/**
 * Tracking reads kept per tracking number (or shipment id) until the shipment changes. Buyers
 * and stores poll GET /v1/tracking/:n and the public page far more often than a parcel is
 * scanned, and the full read (the row with its events as JSON, then the timeline) costs several
 * times a point select. A read first asks the row's version (repo.trackingVersion, one narrow
 * indexed read); when it is the version a kept answer was read at, and no scan is due (a due
 * scan is brought up to date by the read itself), the kept answer is the answer. Every update of
 * the row, and every new event, moves the version, so an answer is never older than the row, in
 * any process: each process keeps its own answers and checks them against the database.
 */
export class TrackingReads<T> {
  private readonly entries = new Map<string, { version: string; value: T }>();

  constructor(private readonly maxEntries = 5_000) {}

  get(key: string, version: string): T | undefined {
    const hit = this.entries.get(key);
    if (!hit || hit.version !== version) return undefined;
    // Most recently used last, so the oldest is evicted first.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: string, version: string, value: T): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { version, value });
  }
}

type Lookup = { id: string } | { trackingNumber: string };

/**
 * The tracking reads of the API (scoped) and the public page (any tenant), each kept as above.
 * Kept are the reads of a shipment by its id or its own number (what buyers and stores poll);
 * a package's or a tracker's number is looked up afresh (shipments.tracking-lookup.ts).
 */
export class TrackingReader {
  private readonly scoped = new TrackingReads<Tracking>();
  private readonly open = new TrackingReads<PublicTracking>();

  constructor(private readonly lookup: () => TrackingLookupDeps) {}

  /** GET /v1/tracking/:id: a shipment id, or a number of the scope's. */
  async get(scope: Scope, idOrNumber: string): Promise<Tracking | undefined> {
    const by = lookupOf(idOrNumber);
    const key = `${scope.workspaceId}|${scope.environment}|${'id' in by ? by.id : by.trackingNumber}`;
    return this.read(this.scoped, key, scope, by, toTrackingFound);
  }

  /** Public tracking by number (any tenant), without names, streets, emails or phones. */
  async getPublic(trackingNumber: string): Promise<PublicTracking | undefined> {
    const by = { trackingNumber: normalizeTrackingNumber(trackingNumber) };
    return this.read(this.open, by.trackingNumber, null, by, (found) => publicOf(toTrackingFound(found)));
  }

  private async read<T>(kept: TrackingReads<T>, key: string, scope: Scope | null, by: Lookup, answer: (found: TrackingFound) => T): Promise<T | undefined> {
    const deps = this.lookup();
    const current = await repo.trackingVersion(deps.db, scope, by);
    // A read of a shipment whose scan is due and whose driver answers in process brings it up to
    // date (a write): not kept. A real carrier's shipment is never synced by a read (the poll job
    // and refresh ask the carrier).
    const keepable = current !== undefined && (!isDue(current, deps.now()) || !deps.tracking.syncsOnRead(current));
    if (keepable) {
      const hit = kept.get(key, current.version);
      if (hit) return hit;
    }
    const found = await lookupTracking(deps, scope, 'id' in by ? by.id : by.trackingNumber);
    if (!found) return undefined;
    const value = answer(found);
    // Read after the version: if the row moved in between, this answer is newer than the version
    // it is kept under, which then no longer matches, so it is never served stale.
    if (keepable && found.kind === 'shipment' && found.row.id === current.id) kept.set(key, current.version, value);
    return value;
  }
}

/** A shipment id (`shp_…`), or else a tracking number as printed (spaces dropped, upper case). */
export function lookupOf(idOrNumber: string): Lookup {
  return idOrNumber.startsWith('shp_') ? { id: idOrNumber } : { trackingNumber: normalizeTrackingNumber(idOrNumber) };
}
