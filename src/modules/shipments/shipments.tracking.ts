import type { TrackingEvent, TrackingStatus } from '../../carriers/types.js';
import { scopeOf, trackRequest } from './shipments.track-request.js';
import type { CarrierGateway } from '../carrier-accounts/index.js';
import type { SettingsService } from '../settings/index.js';
import type { CarrierRegistry } from '../../carriers/registry.js';
import type { Deps } from '../../platform/deps.js';
import type { Scope, ServiceContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db/types.js';
import { AppError, rateLimited } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { iso } from '../../platform/http/wire.js';
import { recordEvent } from '../events/index.js';
import { moveOrder } from '../orders/index.js';
import * as repo from './shipments.repo.js';
import { FINAL_STATUSES, statusFromTracking, type ShipmentStatus } from './shipments.states.js';
import type { Updateable } from 'kysely';
import type { NewTrackingEventRow, ShipmentRow, ShipmentsTable, TrackingEventRow } from './shipments.tables.js';
import { buildTimeline } from './shipments.wire.js';
import { nextCheckWithExpiry, returnBillingOnSync } from './shipments.returns.js';
import { mergePackageEvents, rollUpIndex, type StoredPackage } from './shipments.packages.js';
import { isDeepStrictEqual } from 'node:util';

/** How long to wait before asking a carrier again when it gives no next-scan time, or failed. */
const DEFAULT_RECHECK_MS = 30 * 60_000;
const FAILED_RECHECK_MS = 5 * 60_000;
/** A real carrier is polled by status: daily before the first scan, hourly after, never after 90 days. */
const API_PRE_TRANSIT_MS = 86_400_000;
const API_IN_TRANSIT_MS = 3_600_000;
const API_TRACKING_HORIZON_MS = 90 * 86_400_000;

/** What a carrier said about a journey, from the simulation or a real carrier's API. */
interface Scans {
  status: TrackingStatus;
  events: readonly TrackingEvent[];
  estimated_delivery_date?: string | null;
  expected_milestones?: Record<string, string>;
}

/** A stored event's identity at its carrier: re-ingesting the same scan is a no-op. */
export function eventKey(e: Pick<TrackingEvent, 'carrier_status_code' | 'occurred_at' | 'status_detail'>): string {
  return `${e.carrier_status_code}|${new Date(e.occurred_at).toISOString()}|${e.status_detail}`;
}

export function isDue(row: Pick<ShipmentRow, 'status' | 'next_check_at'>, now: Date): boolean {
  return !FINAL_STATUSES.includes(row.status) && row.next_check_at !== null && new Date(row.next_check_at).getTime() <= now.getTime();
}

/**
 * Ingests carrier scans. A shipment carries `next_check_at`, the time the carrier expects its
 * next scan, so reads (which bring tracking up to date so a GET is never stale) and the poll job
 * ask the carrier only when something can have happened; otherwise a read costs nothing extra.
 */
/** POST /v1/tracking/:id/refresh asks the carrier at most this often per shipment. */
const REFRESH_SPACING_MS = 60_000;

/** What a first scan makes of a new shipment's row (TrackingSync.firstScan). */
export interface FirstScan {
  events: NewTrackingEventRow[];
  /** The columns the scan sets (updated_at aside). */
  patch: Updateable<ShipmentsTable>;
  /** The shipment's status or tracking moved: `tracking.updated`. */
  changed: boolean;
  /** Delivered now: the order follows. */
  delivered: boolean;
}

export class TrackingSync {
  constructor(
    private readonly deps: Deps,
    private readonly carriers: Promise<CarrierRegistry>,
    private readonly gateway: CarrierGateway,
    private readonly settings: SettingsService,
  ) {}

  /**
   * The row brought up to date when a scan is due and its driver answers in process (its own
   * transaction), else as it is: reads never wait for a carrier's API (the poll job and POST
   * /v1/tracking/:id/refresh ask it).
   */
  async refresh(row: ShipmentRow): Promise<ShipmentRow> {
    const now = this.deps.now();
    if (!isDue(row, now) || !this.syncsOnRead(row)) return row;
    return (await this.syncInProcess(row.id, now)) ?? row;
  }

  /** Whether a read brings a due shipment up to date: its driver answers in process. */
  syncsOnRead(ref: Pick<ShipmentRow, 'carrier' | 'carrier_driver' | 'carrier_account_id'>): boolean {
    return this.gateway.inProcessTarget(ref) !== undefined;
  }

  /** Every shipment whose scan is due (the poll job); returns how many were looked at. */
  async pollDue(limit = 500): Promise<number> {
    const due = await repo.dueShipments(this.deps.db, this.deps.now(), limit);
    for (const ref of due) {
      try {
        if (this.gateway.inProcessTarget(ref)) {
          await this.syncInProcess(ref.id, this.deps.now());
          continue;
        }
        // Asked outside a transaction: a carrier's deadline must not hold a lock.
        const row = await repo.shipmentById(this.deps.db, ref.id);
        if (row) await this.syncRemote(row, { failQuietly: true });
      } catch (err) {
        this.deps.log.error({ err, shipment_id: ref.id }, 'tracking sync failed');
      }
    }
    return due.length;
  }

  /**
   * POST /v1/tracking/:id/refresh: asks the carrier now (syncNow) about the shipment of an id,
   * its own number or one of its packages' numbers, at most once a minute per shipment (429 with
   * Retry-After).
   */
  async refreshOnRequest(ctx: ServiceContext, by: { id: string } | { trackingNumber: string }): Promise<void> {
    const found =
      (await repo.findShipmentWithEvents(this.deps.db, ctx, by)) ??
      ('trackingNumber' in by ? await repo.findShipmentWithEventsByPackage(this.deps.db, ctx, by.trackingNumber) : undefined);
    if (!found) throw new AppError('not_found', 'No shipment with this id or tracking number.');
    const { row } = found;
    const now = this.deps.now();
    if (!(await repo.claimTrackingRefresh(this.deps.db, row.id, now, REFRESH_SPACING_MS))) {
      const last = row.tracking_refreshed_at ? new Date(row.tracking_refreshed_at).getTime() : now.getTime();
      throw rateLimited(
        "This shipment's tracking was refreshed less than a minute ago; read it with GET /v1/tracking/:id.",
        (last + REFRESH_SPACING_MS - now.getTime()) / 1000,
      );
    }
    await this.syncNow(row, ctx.requestId);
  }

  /**
   * Asks the carrier now, whatever the schedule (POST /v1/tracking/:id/refresh): a driver in
   * process under the row's lock, a real carrier outside any transaction. A final shipment is
   * left as it is.
   */
  async syncNow(row: ShipmentRow, requestId?: string): Promise<void> {
    if (!this.gateway.inProcessTarget(row)) {
      if (row.status !== 'voided') await this.syncRemote(row, { requestId });
      return;
    }
    await this.deps.db.transaction().execute(async (trx) => {
      const locked = await repo.lockShipment(trx, row.id);
      if (locked && !FINAL_STATUSES.includes(locked.status)) await this.syncLocked(trx, locked, this.deps.now(), { force: true });
    });
  }

  private async syncInProcess(id: string, now: Date): Promise<ShipmentRow | undefined> {
    return this.deps.db.transaction().execute(async (trx) => {
      const locked = await repo.lockShipment(trx, id);
      return locked ? this.syncLocked(trx, locked, now) : undefined;
    });
  }

  /**
   * Asks a driver in process for the journey so far (row locked by the caller: it touches no
   * database), stores new events, moves the shipment (never back from delivered) and the order
   * (→ delivered), and records `tracking.updated` when the status changed.
   */
  async syncLocked(trx: Executor, row: ShipmentRow, now: Date, opts: { force?: boolean } = {}): Promise<ShipmentRow> {
    if (!opts.force && !isDue(row, now)) return row;
    const asked = await this.askInProcess(row, now);
    if ('patch' in asked) return repo.updateShipment(trx, row.id, asked.patch);
    return this.applyScans(trx, row, asked.scans, asked.next, now, asked.packages);
  }

  /**
   * The journey so far from a driver in process (no database): its scans, when to ask next and
   * the packages' statuses; or only the row's patch when it cannot be asked (no such driver, or
   * the carrier does not track: never again; unavailable: in a few minutes).
   */
  private async askInProcess(
    row: ShipmentRow,
    now: Date,
  ): Promise<{ scans: Scans; next: Date | string | null; packages: StoredPackage[] | null } | { patch: Updateable<ShipmentsTable> }> {
    const carrier = (await this.carriers).get(row.carrier);
    const target = this.gateway.inProcessTarget(row);
    if (!target || !carrier?.capabilities.track) return { patch: { next_check_at: null } };
    let result;
    const packages = row.packages && row.packages.length > 1 ? row.packages : null;
    let packagesPatch: StoredPackage[] | null = null;
    try {
      const track = (trackingNumber: string, piece?: number) =>
        this.gateway.call(scopeOf(row), target, undefined, (driver, ctx) => driver.track(ctx, trackRequest(row, trackingNumber, now, piece)));
      if (packages) {
        // Each package is tracked; the shipment reads as the package that rolls up (shipments.packages.ts),
        // and is asked again when any package's next scan is due.
        const each = await Promise.all(packages.map((p, i) => track(p.tracking_number, i)));
        const lead = each[rollUpIndex(each.map((r) => r.status))]!;
        const nexts = each
          .map((r) => r.next_event_at)
          .filter((n): n is string => typeof n === 'string')
          .sort();
        result = { ...lead, next_event_at: nexts[0] ?? null };
        packagesPatch = packages.map((p, i) => ({
          ...p,
          tracking_status: each[i]!.status,
          events: mergePackageEvents(p.events ?? [], each[i]!.events, eventKey),
        }));
      } else {
        result = await track(row.tracking_number);
      }
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'carrier_unavailable') throw err;
      this.deps.log.warn({ err, shipment_id: row.id }, 'carrier tracking unavailable; will retry');
      return { patch: { next_check_at: new Date(now.getTime() + FAILED_RECHECK_MS) } };
    }

    const next =
      result.status === 'delivered' ? null : result.next_event_at === undefined ? new Date(now.getTime() + DEFAULT_RECHECK_MS) : result.next_event_at;
    return { scans: result, next, packages: packagesPatch };
  }

  /**
   * The first scan of a label bought through a driver in process, worked out before its row is
   * written (`draft`: the row as it will be inserted, in the state the label leaves it, due
   * now): the columns the row is inserted with instead (one insert, not an insert and an
   * update) and the events, inserted with it. `recordFirstScan` does the rest once they are in.
   */
  async firstScan(draft: ShipmentRow, now: Date): Promise<FirstScan> {
    const asked = await this.askInProcess(draft, now);
    if ('patch' in asked) return { patch: asked.patch, events: [], changed: false, delivered: false };
    return this.scanMove(draft, asked.scans, asked.next, now, asked.packages);
  }

  /** What follows the first scan once its row and events are in (`row`: as inserted with `scan.patch`): the order's move on a delivery, `tracking.updated` on a change. */
  async recordFirstScan(trx: Executor, row: ShipmentRow, previousStatus: ShipmentStatus, scan: FirstScan, now: Date): Promise<void> {
    if (scan.delivered && !row.is_return) await deliverOrder(trx, scopeOf(row), row.order_id, now);
    if (scan.changed) await this.recordTrackingUpdated(trx, row, previousStatus);
  }

  /**
   * A real carrier's journey so far, asked outside any transaction (its deadline must not hold a
   * connection or a lock), then applied to the row locked again. `failQuietly` (the poll job):
   * a carrier that cannot answer is asked again later; else (a refresh) its error is thrown.
   */
  private async syncRemote(row: ShipmentRow, opts: { failQuietly?: boolean; requestId?: string } = {}): Promise<ShipmentRow> {
    const now = this.deps.now();
    const scope = scopeOf(row);
    const account = await this.gateway.targetOf(scope, row);
    if (!account) return repo.updateShipment(this.deps.db, row.id, { next_check_at: null });
    let scans: Scans;
    let packagesPatch: StoredPackage[] | null = null;
    const packages = row.packages && row.packages.length > 1 ? row.packages : null;
    const track = (trackingNumber: string) =>
      this.gateway.call(scope, account, opts.requestId, (driver, ctx) => driver.track(ctx, trackRequest(row, trackingNumber, now)));
    try {
      if (packages && packages.some((p) => p.tracking_number === row.tracking_number)) {
        // Every package has its own number (UPS, FedEx: the master is the first): each is asked,
        // and the shipment reads as the package that rolls up (shipments.packages.ts).
        const each = await Promise.all(packages.map((p) => track(p.tracking_number)));
        scans = each[rollUpIndex(each.map((r) => r.status))]!;
        packagesPatch = packages.map((p, i) => ({ ...p, tracking_status: each[i]!.status }));
      } else {
        scans = await track(row.tracking_number);
        // Pieces of the one number the carrier tracks (DHL Express's waybill) travel as it does.
        if (packages) packagesPatch = packages.map((p) => ({ ...p, tracking_status: scans.status }));
      }
    } catch (err) {
      if (!opts.failQuietly) throw err;
      const unavailable = err instanceof AppError && err.code === 'carrier_unavailable';
      this.deps.log.warn({ err, shipment_id: row.id }, 'carrier tracking failed; will ask again');
      // A carrier that does not know the number yet is asked again on the usual schedule.
      const next = unavailable ? new Date(now.getTime() + FAILED_RECHECK_MS) : await this.nextApiCheck(row.tracking_status, row.purchased_at, now);
      return repo.updateShipment(this.deps.db, row.id, { next_check_at: next });
    }
    const next = await this.nextApiCheck(scans.status, row.purchased_at, now);
    return this.deps.db.transaction().execute(async (trx) => {
      const locked = (await repo.lockShipment(trx, row.id)) ?? row;
      if (locked.status === 'voided') return locked;
      return this.applyScans(trx, locked, scans, next, now, packagesPatch);
    });
  }

  /**
   * When to ask a real carrier next: the setting `carriers.tracking_poll_interval_seconds` when
   * set, else daily before the first scan and hourly after; never after delivery or 90 days.
   */
  async nextApiCheck(status: TrackingStatus, purchasedAt: Date | string, now: Date): Promise<Date | null> {
    if (status === 'delivered' || status === 'cancelled') return null;
    if (now.getTime() - new Date(purchasedAt).getTime() > API_TRACKING_HORIZON_MS) return null;
    const interval = await this.settings.get('carriers.tracking_poll_interval_seconds');
    const wait = interval !== null ? interval * 1000 : status === 'pre_transit' || status === 'unknown' ? API_PRE_TRANSIT_MS : API_IN_TRANSIT_MS;
    return new Date(now.getTime() + wait);
  }

  /** A real carrier's label: its first event is ours (the carrier reports the first scan later). */
  async recordLabelCreated(trx: Executor, row: ShipmentRow, now: Date): Promise<ShipmentRow> {
    // The row was inserted in this transaction: its version is this transaction's already.
    await repo.insertTrackingEvents(
      trx,
      [
        this.eventRow(
          row,
          {
            occurred_at: now.toISOString(),
            status: 'pre_transit',
            status_detail: 'label_created',
            milestone: 'label_created',
            description: 'Label created; the carrier has not scanned the parcel yet',
            location: {
              city: row.ship_from.city ?? null,
              state: row.ship_from.state ?? null,
              postal_code: row.ship_from.postal_code ?? null,
              country: row.ship_from.country,
            },
            carrier_status_code: 'LABEL_CREATED',
          },
          0,
          now,
        ),
      ],
      { rowWritten: true },
    );
    return row;
  }

  /** Stores new events, moves the shipment (never back from delivered) and the order, records `tracking.updated` on a change. */
  private async applyScans(
    trx: Executor,
    row: ShipmentRow,
    result: Scans,
    next: Date | string | null,
    now: Date,
    packages: StoredPackage[] | null = null,
  ): Promise<ShipmentRow> {
    const move = this.scanMove(row, result, next, now, packages);
    // The row is updated just below, in the same transaction: that moves its version.
    const added = await repo.insertTrackingEvents(trx, move.events, { rowWritten: true });
    const updated = await repo.updateShipment(trx, row.id, { ...move.patch, ...(added.length > 0 || move.changed ? { updated_at: now } : {}) });
    // A return never moves its order.
    if (move.delivered && !row.is_return) await deliverOrder(trx, scopeOf(row), row.order_id, now);
    if (move.changed) await this.recordTrackingUpdated(trx, updated, row.status);
    return updated;
  }

  /** What scans do to a row (no database): the events to store, its patch (but updated_at), whether its tracking changed or it was delivered now. */
  private scanMove(row: ShipmentRow, result: Scans, next: Date | string | null, now: Date, packages: StoredPackage[] | null): FirstScan {
    const last = result.events[result.events.length - 1];
    // A return label: billed on its first scan, or expired unused.
    const billing = returnBillingOnSync(row, statusFromTracking(result.status, row.status), now);
    const status = billing.status;
    next = nextCheckWithExpiry(row, next);
    const delivered = status === 'delivered' && row.status !== 'delivered';
    if (status === 'delivered') next = null;
    // A package's new scans alone are no change of the shipment's tracking: its statuses are.
    const changed =
      status !== row.status ||
      result.status !== row.tracking_status ||
      (packages !== null &&
        !isDeepStrictEqual(
          packages.map((p) => p.tracking_status),
          row.packages?.map((p) => p.tracking_status),
        ));
    const patch: Updateable<ShipmentsTable> = {
      ...(packages ? { packages: JSON.stringify(packages) } : {}),
      status,
      tracking_status: result.status,
      tracking_status_detail: last?.status_detail ?? row.tracking_status_detail,
      estimated_delivery_date: result.estimated_delivery_date ?? row.estimated_delivery_date,
      expected_milestones: JSON.stringify(result.expected_milestones ?? row.expected_milestones),
      next_check_at: next,
      ...(delivered ? { delivered_at: result.events.find((e) => e.status === 'delivered')?.occurred_at ?? now } : {}),
      ...billing.patch,
    };
    return { events: result.events.map((e, seq) => this.eventRow(row, e, seq, now)), patch, changed, delivered };
  }

  private eventRow(row: ShipmentRow, e: TrackingEvent, seq: number, now: Date): NewTrackingEventRow {
    return {
      id: newId('trackingEvent'),
      workspace_id: row.workspace_id,
      environment: row.environment,
      shipment_id: row.id,
      tracking_number: row.tracking_number,
      carrier: row.carrier,
      event_key: eventKey(e),
      seq,
      occurred_at: e.occurred_at,
      status: e.status,
      status_detail: e.status_detail,
      milestone: e.milestone,
      description: e.description,
      location: JSON.stringify(e.location),
      carrier_status_code: e.carrier_status_code,
      created_at: now,
    };
  }

  /** `tracking.updated` with the normalised milestones (the webhook buyers' notifications use). */
  async recordTrackingUpdated(trx: Executor, row: ShipmentRow, previousStatus: ShipmentStatus): Promise<void> {
    const events: TrackingEventRow[] = await repo.eventsOfShipment(trx, row.id);
    await recordEvent(trx, scopeOf(row), 'tracking.updated', {
      shipment_id: row.id,
      order_id: row.order_id,
      tracking_number: row.tracking_number,
      carrier: row.carrier,
      status: row.tracking_status,
      status_detail: row.tracking_status_detail,
      shipment_status: row.status,
      previous_shipment_status: previousStatus,
      estimated_delivery_date: row.estimated_delivery_date,
      timeline: buildTimeline(row, events),
      latest_event: events[0]
        ? {
            occurred_at: iso(events[0].occurred_at),
            status: events[0].status,
            status_detail: events[0].status_detail,
            description: events[0].description,
            location: events[0].location,
          }
        : null,
    });
  }
}

/** The order follows its delivered shipment (shipped → delivered); any other order state stays. */
export async function deliverOrder(trx: Executor, scope: Scope, orderId: string, now: Date): Promise<void> {
  try {
    await moveOrder(trx, scope, orderId, 'deliver', now);
  } catch (err) {
    if (!(err instanceof AppError) || (err.code !== 'invalid_state' && err.code !== 'not_found')) throw err;
  }
}
