import { VersionedReads } from '../../platform/cache/versioned-reads.js';
import type { Scope } from '../../platform/context.js';
import * as repo from './shipments.repo.js';
import type { PublicTracking, Tracking } from './shipments.schemas.js';
import { isDue } from './shipments.tracking.js';
import { lookupTracking, normalizeTrackingNumber, toTrackingFound, type TrackingFound, type TrackingLookupDeps } from './shipments.tracking-lookup.js';
import { publicOf } from './shipments.wire.js';

type Lookup = { id: string } | { trackingNumber: string };

/**
 * Tracking reads kept per tracking number (or shipment id) until the shipment changes
 * (platform/cache/versioned-reads.ts): buyers and stores poll GET /v1/tracking/:n and the public
 * page far more often than a parcel is scanned, and the full read (the row with its events as
 * JSON, then the timeline) costs several times a point select. The version is the row's
 * (repo.trackingVersion); every update of the row, and every new event, moves it.
 * The API's reads (scoped) and the public page's (any tenant) are kept apart. Kept are the reads of a shipment by its id or its own number (what buyers and stores poll);
 * a package's or a tracker's number is looked up afresh (shipments.tracking-lookup.ts).
 */
export class TrackingReader {
  private readonly scoped = new VersionedReads<Tracking>();
  private readonly open = new VersionedReads<PublicTracking>();

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

  private async read<T>(kept: VersionedReads<T>, key: string, scope: Scope | null, by: Lookup, answer: (found: TrackingFound) => T): Promise<T | undefined> {
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
    if (keepable && found.kind === 'shipment' && found.row.id === current.id) kept.set(key, current.version, value);
    return value;
  }
}

/** A shipment id (`shp_…`), or else a tracking number as printed (spaces dropped, upper case). */
export function lookupOf(idOrNumber: string): Lookup {
  return idOrNumber.startsWith('shp_') ? { id: idOrNumber } : { trackingNumber: normalizeTrackingNumber(idOrNumber) };
}
