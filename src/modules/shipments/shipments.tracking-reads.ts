import type { Deps } from '../../platform/deps.js';
import type { Scope } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import * as repo from './shipments.repo.js';
import type { PublicTracking, Tracking } from './shipments.schemas.js';
import type { ShipmentRow, TrackingEventRow } from './shipments.tables.js';
import { isDue, type TrackingSync } from './shipments.tracking.js';
import { toPublicTracking, toTracking } from './shipments.wire.js';

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

/** The tracking reads of the API (scoped) and the public page (any tenant), each kept as above. */
export class TrackingReader {
  private readonly scoped = new TrackingReads<Tracking>();
  private readonly open = new TrackingReads<PublicTracking>();

  constructor(
    private readonly deps: Deps,
    private readonly tracking: TrackingSync,
  ) {}

  /** GET /v1/tracking/:id: a tracking number or a shipment id of the scope. */
  async get(scope: Scope, idOrNumber: string): Promise<Tracking> {
    const by = lookupOf(idOrNumber);
    const key = `${scope.workspaceId}|${scope.environment}|${'id' in by ? by.id : by.trackingNumber}`;
    const found = await this.read(this.scoped, key, scope, by, toTracking);
    if (!found) throw new AppError('not_found', 'No shipment with this id or tracking number.');
    return found;
  }

  /** Public tracking by number (any tenant), without names, streets, emails or phones. */
  async getPublic(trackingNumber: string): Promise<PublicTracking> {
    const by = { trackingNumber: normalizeTrackingNumber(trackingNumber) };
    const found = await this.read(this.open, by.trackingNumber, null, by, toPublicTracking);
    if (!found) throw new AppError('not_found', 'No shipment with this tracking number.');
    return found;
  }

  private async read<T>(kept: TrackingReads<T>, key: string, scope: Scope | null, by: Lookup, answer: (row: ShipmentRow, events: TrackingEventRow[]) => T): Promise<T | undefined> {
    const { db } = this.deps;
    const current = await repo.trackingVersion(db, scope, by);
    if (!current) return undefined;
    // A read of a simulated shipment whose scan is due brings it up to date (a write): not kept.
    // A real carrier's shipment is never synced by a read (the poll job and refresh ask the carrier).
    const keepable = current.carrier_driver === 'api' || !isDue(current, this.deps.now());
    if (keepable) {
      const hit = kept.get(key, current.version);
      if (hit) return hit;
    }
    const found = scope ? await repo.findShipmentWithEvents(db, scope, by) : await repo.findShipmentWithEventsAnywhere(db, (by as { trackingNumber: string }).trackingNumber);
    if (!found) return undefined;
    const { row, events } = await this.upToDate(found);
    const value = answer(row, events);
    // Read after the version: if the row moved in between, this answer is newer than the version
    // it is kept under, which then no longer matches, so it is never served stale.
    if (keepable && row.id === current.id) kept.set(key, current.version, value);
    return value;
  }

  /**
   * A tracking read as it was read (one statement), or, when a carrier scan is due, brought up
   * to date first and its events read again.
   */
  private async upToDate(found: { row: ShipmentRow; events: TrackingEventRow[] }): Promise<{ row: ShipmentRow; events: TrackingEventRow[] }> {
    if (!isDue(found.row, this.deps.now())) return found;
    const row = await this.tracking.refresh(found.row);
    return { row, events: await repo.eventsOfShipment(this.deps.db, row.id) };
  }
}

export function normalizeTrackingNumber(n: string): string {
  return n.replace(/\s+/g, '').toUpperCase();
}

/** A shipment id (`shp_…`), or else a tracking number as printed (spaces dropped, upper case). */
export function lookupOf(idOrNumber: string): Lookup {
  return idOrNumber.startsWith('shp_') ? { id: idOrNumber } : { trackingNumber: normalizeTrackingNumber(idOrNumber) };
}
