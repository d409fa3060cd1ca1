import type { TrackingEvent, TrackingStatus } from '../../carriers/types.js';
import { AppError, notFound, validationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Deps } from '../../platform/deps.js';
import type { Scope, ServiceContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db/types.js';
import { paginate, type Page } from '../../platform/http/pagination.js';
import { recordEvent } from '../events/index.js';
import { addBusinessDays } from '../rates/index.js';
import { normalizeTrackingNumber, parseTimeScale, TIME_SCALE_SETTING, type TrackerJourney, type TrackerSource } from '../shipments/index.js';
import type { CarrierGateway } from '../carrier-accounts/index.js';
import type { SettingsService } from '../settings/index.js';
import * as repo from './trackers.repo.js';
import type { CreateTrackerInput, Tracker, TrackerListFilter } from './trackers.schemas.js';
import type { TrackerEventRecord, TrackerRow } from './trackers.tables.js';
import { toTracker } from './trackers.wire.js';

export const POLL_TRACKERS_JOB = 'trackers.poll';

/** A simulated journey of a foreign label promises delivery this many business days after it is registered. */
const SIMULATED_TRANSIT_DAYS = 3;
const FAILED_RECHECK_MS = 5 * 60_000;
/** As our own api shipments: daily before the first scan, hourly after, never after 90 days. */
const API_PRE_TRANSIT_MS = 86_400_000;
const API_IN_TRANSIT_MS = 3_600_000;
const TRACKING_HORIZON_MS = 90 * 86_400_000;
const FINAL: readonly TrackingStatus[] = ['delivered', 'cancelled'];

/** What a carrier said about the journey so far (simulation or api driver), oldest first. */
interface Journey {
  status: TrackingStatus;
  events: readonly TrackingEvent[];
  estimated_delivery_at: string | null;
  next_check_at: Date | null;
}

/** A scan's identity at its carrier (as a shipment's): re-reported scans are kept once. */
function eventKey(e: Pick<TrackingEvent, 'carrier_status_code' | 'occurred_at' | 'status_detail'>): string {
  return `${e.carrier_status_code}|${new Date(e.occurred_at).toISOString()}|${e.status_detail}`;
}

/** The simulation has no address for a foreign label: its scans name no place but the country. */
const NOWHERE = { country: 'US', postal_code: '' };

/**
 * Trackers: labels bought elsewhere, followed like our own shipments (docs/api-conventions.md).
 * With `carrier_account_id` (an api account) the carrier's tracking API answers, asked outside
 * any transaction on the poll job's schedule and once at creation; otherwise the carrier's
 * simulation plays a journey from the moment the tracker was made, brought up to date on read.
 * A change of status records `tracking.updated` with the tracker.
 */
export class TrackersService {
  constructor(
    private readonly deps: Deps,
    private readonly gateway: CarrierGateway,
    private readonly settings: SettingsService,
  ) {}

  /** 201 with a new tracker, or the scope's existing tracker of that number (`created: false`). */
  async create(ctx: ServiceContext, input: CreateTrackerInput): Promise<{ tracker: Tracker; created: boolean }> {
    const carrier = this.deps.carriers.get(input.carrier);
    if (!carrier)
      throw validationError([{ field: 'carrier', message: `is not a carrier of this service (${this.deps.carriers.carriers.map((c) => c.slug).join(', ')})` }]);
    const trackingNumber = normalizeTrackingNumber(input.tracking_number);
    if (!carrier.isValidTrackingNumber(trackingNumber)) {
      throw validationError([{ field: 'tracking_number', message: `is not a valid ${carrier.name} tracking number (its format or check digit is wrong)` }]);
    }
    const account = input.carrier_account_id === undefined ? undefined : await this.gateway.accountForPurchase(ctx, carrier.slug, input.carrier_account_id);
    const driver = account?.driver ?? 'simulated';

    const existing = await repo.findTrackerByNumber(this.deps.db, ctx, carrier.slug, trackingNumber);
    if (existing) return { tracker: toTracker(await this.refresh(existing)), created: false };

    const now = this.deps.now();
    const inProcess = this.gateway.inProcessTarget({ carrier: carrier.slug, carrier_driver: driver, carrier_account_id: null }) !== undefined;
    const sandbox =
      ctx.environment === 'test' && inProcess ? { time_scale: parseTimeScale(await this.settings.get(TIME_SCALE_SETTING)), scenario: 'normal' as const } : null;
    const service = carrier.services.find((s) => s.domestic) ?? carrier.services[0]!;
    const base = {
      id: newId('tracking'),
      workspace_id: ctx.workspaceId,
      environment: ctx.environment,
      carrier: carrier.slug,
      tracking_number: trackingNumber,
      carrier_account_id: account?.id ?? null,
      carrier_driver: driver,
      service_code: service.code,
      sandbox: sandbox ? JSON.stringify(sandbox) : null,
      created_at: now,
      updated_at: now,
    } as const;

    // The carrier is asked before anything is stored (outside a transaction); one that cannot
    // answer yet leaves the tracker `unknown`, asked again on the poll schedule.
    const journey = await this.ask(ctx, { ...base, sandbox, status: 'unknown' }, now, ctx.requestId).catch((err: unknown) => {
      if (!(err instanceof AppError)) throw err;
      this.deps.log.warn({ err, tracking_number: trackingNumber }, 'carrier tracking unavailable at tracker creation; will ask again');
      return { status: 'unknown' as const, events: [], estimated_delivery_at: null, next_check_at: new Date(now.getTime() + FAILED_RECHECK_MS) };
    });
    const events = merge([], journey.events);
    const inserted = await repo.insertTracker(this.deps.db, {
      ...base,
      status: journey.status,
      status_detail: events.at(-1)?.status_detail ?? null,
      events: JSON.stringify(events),
      estimated_delivery_at: journey.estimated_delivery_at,
      next_check_at: journey.next_check_at,
    });
    if (inserted) return { tracker: toTracker(inserted), created: true };
    const raced = await repo.findTrackerByNumber(this.deps.db, ctx, carrier.slug, trackingNumber);
    if (!raced) throw new AppError('conflict', 'The tracker was created and removed concurrently; try again.');
    return { tracker: toTracker(raced), created: false };
  }

  async get(scope: Scope, id: string): Promise<Tracker> {
    const row = await repo.findTracker(this.deps.db, scope, id);
    if (!row) throw notFound('tracker');
    return toTracker(await this.refresh(row));
  }

  async list(scope: Scope, filter: TrackerListFilter): Promise<Page<Tracker>> {
    const q = repo.trackersQuery(this.deps.db, scope, {
      status: filter.status,
      carrier: filter.carrier,
      tracking_number: filter.tracking_number === undefined ? undefined : normalizeTrackingNumber(filter.tracking_number),
    });
    const page = await paginate(q, { limit: filter.limit, cursor: filter.cursor });
    const rows = await Promise.all(page.data.map((r) => this.refresh(r)));
    return { ...page, data: rows.map(toTracker) };
  }

  /**
   * What the tracking reads (GET /v1/tracking/:number, public tracking) find of a tracker's
   * number, brought up to date as GET /v1/trackers/:id is (registered in compose.ts).
   */
  readonly source: TrackerSource = {
    inScope: async (scope, trackingNumber) => {
      const row = await repo.findTrackerOfNumber(this.deps.db, scope, trackingNumber);
      return row && journeyOf(await this.refresh(row));
    },
    anywhere: async (trackingNumber) => {
      const row = await repo.findTrackerOfNumberAnywhere(this.deps.db, trackingNumber);
      return row && journeyOf(await this.refresh(row));
    },
  };

  /** DELETE /v1/trackers/:id: the tracker and its journey are gone; the carrier is not told. */
  async remove(scope: Scope, id: string): Promise<void> {
    if (!(await repo.deleteTracker(this.deps.db, scope, id))) throw notFound('tracker');
  }

  /** Every tracker whose scan is due (the poll job); returns how many were looked at. */
  async pollDue(limit = 500): Promise<number> {
    const due = await repo.dueTrackers(this.deps.db, this.deps.now(), limit);
    for (const d of due) {
      const scope: Scope = { workspaceId: d.workspace_id, environment: d.environment };
      try {
        const row = await repo.findTracker(this.deps.db, scope, d.id);
        if (row) await this.sync(row, { quiet: true });
      } catch (err) {
        this.deps.log.error({ err, tracker_id: d.id }, 'tracker sync failed');
      }
    }
    return due.length;
  }

  /**
   * A read brings a tracker up to date when a scan is due and its driver answers in process (it
   * costs nothing else); a tracker of a real carrier is left as it is: reads never wait for a
   * carrier's API.
   */
  private async refresh(row: TrackerRow): Promise<TrackerRow> {
    if (!isDue(row, this.deps.now()) || !this.gateway.inProcessTarget(row)) return row;
    return this.sync(row, { quiet: true });
  }

  private async sync(row: TrackerRow, opts: { quiet: boolean }): Promise<TrackerRow> {
    const now = this.deps.now();
    const scope: Scope = { workspaceId: row.workspace_id, environment: row.environment };
    let journey: Journey;
    try {
      journey = await this.ask(scope, row, now);
    } catch (err) {
      if (!opts.quiet || !(err instanceof AppError)) throw err;
      this.deps.log.warn({ err, tracker_id: row.id }, 'carrier tracking failed; will ask again');
      return repo.updateTracker(this.deps.db, scope, row.id, { next_check_at: new Date(now.getTime() + FAILED_RECHECK_MS) });
    }
    return this.deps.db.transaction().execute(async (trx) => {
      const locked = await repo.findTracker(trx, scope, row.id, { forUpdate: true });
      if (!locked) return row;
      return this.apply(trx, scope, locked, journey, now);
    });
  }

  /** Stores new scans, moves the status (never back from delivered), records `tracking.updated` on a change. */
  private async apply(trx: Executor, scope: Scope, row: TrackerRow, journey: Journey, now: Date): Promise<TrackerRow> {
    const events = merge(row.events, journey.events);
    const added = events.length > row.events.length;
    const status: TrackingStatus = row.status === 'delivered' ? 'delivered' : journey.status;
    const next = FINAL.includes(status) ? null : journey.next_check_at;
    const changed = status !== row.status;
    const updated = await repo.updateTracker(trx, scope, row.id, {
      status,
      status_detail: events.at(-1)?.status_detail ?? row.status_detail,
      events: JSON.stringify(events),
      estimated_delivery_at: journey.estimated_delivery_at ?? row.estimated_delivery_at,
      next_check_at: next,
      ...(added || changed ? { updated_at: now } : {}),
    });
    if (changed) {
      const tracker = toTracker(updated);
      await recordEvent(trx, scope, 'tracking.updated', {
        tracker_id: tracker.id,
        shipment_id: null,
        order_id: null,
        tracking_number: tracker.tracking_number,
        carrier: tracker.carrier,
        status: tracker.status,
        status_detail: tracker.status_detail,
        previous_status: row.status,
        estimated_delivery_at: tracker.estimated_delivery_at,
        latest_event: tracker.events[0] ?? null,
        tracker,
      });
    }
    return updated;
  }

  /**
   * The journey so far, from the tracker's driver through the gateway (its errors are the
   * gateway's), asked outside any transaction. A simulated driver plays a journey that began
   * when the tracker was made; a real carrier reads the number alone.
   */
  private async ask(
    scope: Scope,
    row: Pick<TrackerRow, 'carrier' | 'carrier_driver' | 'carrier_account_id' | 'tracking_number' | 'service_code' | 'created_at' | 'sandbox' | 'status'>,
    now: Date,
    requestId?: string,
  ): Promise<Journey> {
    const carrier = this.deps.carriers.get(row.carrier);
    const target = await this.gateway.targetOf(scope, row);
    if (!carrier?.capabilities.track || !target) return { status: row.status, events: [], estimated_delivery_at: null, next_check_at: null };
    const created = new Date(row.created_at);
    const scans = await this.gateway.call(scope, target, requestId, (driver, ctx) =>
      driver.track(ctx, {
        tracking_number: row.tracking_number,
        service_code: row.service_code,
        purchased_at: created.toISOString(),
        estimated_delivery_date: addBusinessDays(created.toISOString().slice(0, 10), SIMULATED_TRANSIT_DAYS, carrier.observed_holidays),
        ship_from: NOWHERE,
        ship_to: NOWHERE,
        now: now.toISOString(),
        ...(row.sandbox ? { sandbox: row.sandbox } : {}),
      }),
    );
    const estimated = scans.estimated_delivery_date ? `${scans.estimated_delivery_date}T23:59:59.000Z` : null;
    const deliveredAt =
      scans.delivered_at ?? scans.events.find((e) => e.status === 'delivered')?.occurred_at ?? scans.expected_milestones?.delivered ?? estimated;
    // A driver that knows its next scan says when; else the poll schedule.
    const next =
      scans.next_event_at === undefined
        ? await this.nextApiCheck(scans.status, row.created_at, now)
        : scans.status === 'delivered' || scans.next_event_at === null
          ? null
          : new Date(scans.next_event_at);
    return { status: scans.status, events: scans.events, estimated_delivery_at: deliveredAt, next_check_at: next };
  }

  /** The setting `carriers.tracking_poll_interval_seconds` when set, else by status; never after 90 days. */
  private async nextApiCheck(status: TrackingStatus, createdAt: Date | string, now: Date): Promise<Date | null> {
    if (FINAL.includes(status)) return null;
    if (now.getTime() - new Date(createdAt).getTime() > TRACKING_HORIZON_MS) return null;
    const interval = await this.settings.get('carriers.tracking_poll_interval_seconds');
    const wait = interval !== null ? interval * 1000 : status === 'pre_transit' || status === 'unknown' ? API_PRE_TRANSIT_MS : API_IN_TRANSIT_MS;
    return new Date(now.getTime() + wait);
  }
}

/** A tracker as the tracking read shows it: its events newest first, each with its milestone. */
function journeyOf(row: TrackerRow): TrackerJourney {
  const tracker = toTracker(row);
  const milestones = new Map(row.events.map((e) => [e.id, e.milestone ?? null]));
  return { ...tracker, events: tracker.events.map((e) => ({ ...e, milestone: milestones.get(e.id) ?? null })) };
}

function isDue(row: TrackerRow, now: Date): boolean {
  return row.next_check_at !== null && new Date(row.next_check_at).getTime() <= now.getTime();
}

/** The kept scans plus the ones not seen before, oldest first (ties keep the carrier's order). */
function merge(kept: readonly TrackerEventRecord[], reported: readonly TrackingEvent[]): TrackerEventRecord[] {
  const seen = new Set(kept.map((e) => e.key));
  const out = [...kept];
  for (const e of reported) {
    const key = eventKey(e);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      id: newId('trackingEvent'),
      key,
      occurred_at: new Date(e.occurred_at).toISOString(),
      status: e.status,
      status_detail: e.status_detail,
      milestone: e.milestone ?? null,
      description: e.description,
      location: {
        city: e.location.city ?? null,
        state: e.location.state ?? null,
        postal_code: e.location.postal_code ?? null,
        country: e.location.country ?? null,
      },
      carrier_status_code: e.carrier_status_code,
    });
  }
  const order = new Map(out.map((e, i) => [e.id, i]));
  return out.sort((a, b) => Date.parse(a.occurred_at) - Date.parse(b.occurred_at) || order.get(a.id)! - order.get(b.id)!);
}
