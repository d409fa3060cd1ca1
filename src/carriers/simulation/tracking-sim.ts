import type { Address, SandboxOptions, SandboxScenario, TrackingEvent, TrackingLocation, TrackingMilestone, TrackingStatus, TrackResult } from '../types.js';

/**
 * The simulated scan schedule every built-in carrier shares. Deterministic from the purchase
 * time and the promised delivery date, all in UTC:
 *
 * - label_created at purchase;
 * - picked_up at 18:00 on the purchase day if bought on a weekday before 17:00, else at 18:00
 *   on the next weekday (the first carrier scan: a label can be voided until then);
 * - a departure scan 4 h after pickup, then an arrival scan at 06:00 on each weekday in between;
 * - out_for_delivery at 08:00 and delivered at 14:00 on the estimated delivery date (or the
 *   weekday after pickup, if the promised date is not after it).
 *
 * Sandbox scenarios change the ending (see SandboxScenario), and a time scale compresses the
 * whole schedule towards the purchase time: an event due `d` after purchase happens `d / scale`
 * after it in real time, so with 3600 a three-day journey takes about 72 seconds.
 */

const HOUR_MS = 3_600_000;
const PICKUP_CUTOFF_HOUR_UTC = 17;
const PICKUP_HOUR_UTC = 18;

export interface ScanInput {
  carrier_name: string;
  purchased_at: string;
  estimated_delivery_date: string;
  ship_from: Address;
  ship_to: Address;
  sandbox?: SandboxOptions;
  /** The package's place in a multi-piece shipment (0 = the master); absent = 0. */
  piece?: number;
}

/**
 * The pieces of a multi-piece shipment travel together, but a driver hands them over one by
 * one: each later piece is delivered this much after the one before (so a shipment is
 * delivered only when its last piece is).
 */
const PIECE_DELIVERY_STAGGER_MS = 10 * 60_000;

const NORMAL: SandboxOptions = { time_scale: 1, scenario: 'normal' };

/** A simulated instant mapped onto the real clock under the time scale. */
function compress(purchasedAtMs: number, simulatedMs: number, scale: number): number {
  return purchasedAtMs + Math.round((simulatedMs - purchasedAtMs) / scale);
}

/** When the first carrier scan happens on the real clock (the label can be voided until then). */
export function firstScanAtScaled(purchasedAt: string, sandbox: SandboxOptions = NORMAL): Date {
  const purchased = new Date(purchasedAt).getTime();
  if (sandbox.scenario === 'delivered') return new Date(purchased);
  // Never handed over: no scan ever comes (8.64e15 ms is the largest valid Date).
  if (sandbox.scenario === 'unused') return new Date(8.64e15);
  return new Date(compress(purchased, firstScanAt(purchasedAt).getTime(), validScale(sandbox.time_scale)));
}

function validScale(scale: number): number {
  return Number.isFinite(scale) && scale > 0 ? scale : 1;
}

/** When the carrier first scans the parcel. */
export function firstScanAt(purchasedAt: string): Date {
  const purchased = new Date(purchasedAt);
  const day = startOfUtcDay(purchased);
  const sameDay = isWeekday(day) && purchased.getUTCHours() < PICKUP_CUTOFF_HOUR_UTC;
  const pickupDay = sameDay ? day : nextWeekday(day);
  return new Date(pickupDay.getTime() + PICKUP_HOUR_UTC * HOUR_MS);
}

/** Every event of the schedule, past and future, oldest first. */
export function scheduleScans(input: ScanInput): TrackingEvent[] {
  const origin = locationOf(input.ship_from);
  const destination = locationOf(input.ship_to);
  const transit: TrackingLocation = { city: null, state: input.ship_to.state ?? null, postal_code: null, country: input.ship_to.country };
  const pickup = firstScanAt(input.purchased_at);
  const pickupDay = startOfUtcDay(pickup);
  let deliveryDay = new Date(`${input.estimated_delivery_date}T00:00:00Z`);
  if (Number.isNaN(deliveryDay.getTime()) || deliveryDay <= pickupDay) deliveryDay = nextWeekday(pickupDay);

  const events: TrackingEvent[] = [
    event(input.purchased_at, 'pre_transit', 'label_created', 'label_created', 'LC', 'Shipping label created', origin),
    event(pickup, 'in_transit', 'picked_up', 'picked_up', 'PU', `Picked up by ${input.carrier_name}`, origin),
    event(new Date(pickup.getTime() + 4 * HOUR_MS), 'in_transit', 'in_transit', 'departed_facility', 'DP', 'Departed origin facility', origin),
  ];
  for (let day = nextWeekday(pickupDay); day < deliveryDay; day = nextWeekday(day)) {
    events.push(event(new Date(day.getTime() + 6 * HOUR_MS), 'in_transit', 'in_transit', 'arrived_at_facility', 'AR', 'Arrived at sort facility', transit));
  }
  events.push(
    event(new Date(deliveryDay.getTime() + 8 * HOUR_MS), 'out_for_delivery', 'out_for_delivery', 'out_for_delivery', 'OD', 'Out for delivery', destination),
    event(
      new Date(deliveryDay.getTime() + 14 * HOUR_MS + (input.piece ?? 0) * PIECE_DELIVERY_STAGGER_MS),
      'delivered',
      'delivered',
      'delivered',
      'DL',
      'Delivered',
      destination,
    ),
  );
  return events;
}

/** The whole journey under a scenario, on the real clock (time scale applied), oldest first. */
export function scheduleJourney(input: ScanInput): TrackingEvent[] {
  const sandbox = input.sandbox ?? NORMAL;
  const normal = scheduleScans(input);
  const purchased = new Date(input.purchased_at).getTime();
  const events = withScenario(normal, sandbox.scenario, input);
  if (sandbox.scenario === 'delivered') return events;
  const scale = validScale(sandbox.time_scale);
  if (scale === 1) return events;
  return events.map((e) => ({ ...e, occurred_at: new Date(compress(purchased, Date.parse(e.occurred_at), scale)).toISOString() }));
}

function withScenario(normal: TrackingEvent[], scenario: SandboxScenario, input: ScanInput): TrackingEvent[] {
  const delivered = normal[normal.length - 1];
  const deliveryDay = startOfUtcDay(new Date(delivered.occurred_at));
  const origin = locationOf(input.ship_from);
  switch (scenario) {
    case 'normal':
      return normal;
    case 'unused':
      return normal.slice(0, 1);
    case 'delivered':
      // Every scan at the purchase instant: the shipment reads as delivered at once.
      return [normal[0], normal[1], normal[normal.length - 2], delivered].map((e) => ({ ...e, occurred_at: new Date(input.purchased_at).toISOString() }));
    case 'exception':
      return [
        ...normal.slice(0, -1),
        {
          ...delivered,
          status: 'failure',
          status_detail: 'address_not_found',
          milestone: 'out_for_delivery',
          carrier_status_code: 'EX',
          description: 'Delivery exception: address not found',
        },
      ];
    case 'return_to_sender': {
      const back = nextWeekday(nextWeekday(deliveryDay));
      return [
        ...normal.slice(0, -1),
        {
          ...delivered,
          status: 'return_to_sender',
          status_detail: 'return_to_sender',
          milestone: 'out_for_delivery',
          carrier_status_code: 'RS',
          description: 'Undeliverable: returning to sender',
        },
        event(
          new Date(back.getTime() + 14 * HOUR_MS),
          'return_to_sender',
          'out_for_delivery',
          'returned_to_sender',
          'RD',
          'Delivered back to the sender',
          origin,
        ),
      ];
    }
  }
}

/** The schedule as seen at `now`: events that already happened, and the current status. */
export function trackAt(input: ScanInput, now: string): TrackResult {
  const cutoff = new Date(now).getTime();
  const all = scheduleJourney(input);
  const past = all.filter((e) => new Date(e.occurred_at).getTime() <= cutoff);
  const events = past.length > 0 ? past : all.slice(0, 1);
  const future = all.slice(events.length);
  const expected: Partial<Record<TrackingMilestone, string>> = {};
  const reached = new Set(events.map((e) => e.milestone));
  for (const e of future) {
    if (e.status === 'failure' || e.status === 'return_to_sender') break; // no promise past a failed delivery
    if (!reached.has(e.milestone) && !expected[e.milestone]) expected[e.milestone] = e.occurred_at;
  }
  const deliveredAt = all.find((e) => e.status === 'delivered')?.occurred_at ?? all[all.length - 1].occurred_at;
  return {
    status: events[events.length - 1].status,
    events,
    estimated_delivery_date: deliveredAt.slice(0, 10),
    next_event_at: future[0]?.occurred_at ?? null,
    expected_milestones: expected,
  };
}

function event(
  at: Date | string,
  status: TrackingStatus,
  milestone: TrackingMilestone,
  detail: string,
  code: string,
  description: string,
  location: TrackingLocation,
): TrackingEvent {
  return {
    occurred_at: (typeof at === 'string' ? new Date(at) : at).toISOString(),
    status,
    status_detail: detail,
    milestone,
    description,
    location,
    carrier_status_code: code,
  };
}

function locationOf(a: Address): TrackingLocation {
  return { city: a.city ?? null, state: a.state ?? null, postal_code: a.postal_code || null, country: a.country };
}

function startOfUtcDay(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

function isWeekday(d: Date): boolean {
  const dow = d.getUTCDay();
  return dow !== 0 && dow !== 6;
}

function nextWeekday(d: Date): Date {
  let next = new Date(d.getTime() + 24 * HOUR_MS);
  while (!isWeekday(next)) next = new Date(next.getTime() + 24 * HOUR_MS);
  return next;
}
