import { describe, expect, it } from 'vitest';
import { discoverCarriers } from './registry.js';
import type { Address, CarrierDefinition, CarrierRate, CustomsDeclaration, Parcel, RateRequest, RouteFacts } from './types.js';

/**
 * One suite for every registered carrier: a new carrier folder is covered automatically.
 * Everything goes through the CarrierAdapter interface; routes are built by hand so the
 * suite does not depend on the platform's zone code.
 */
const registry = await discoverCarriers();

const NY: Address = { name: 'Sender', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const LA: Address = { name: 'Buyer', street1: '9450 Wilshire Blvd', city: 'Beverly Hills', state: 'CA', postal_code: '90210', country: 'US' };
const LONDON: Address = { name: 'Buyer', street1: '10 Downing St', city: 'London', postal_code: 'SW1A 2AA', country: 'GB' };
const BERLIN: Address = { name: 'Sender', street1: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117', country: 'DE' };
const MUNICH: Address = { name: 'Buyer', street1: 'Marienplatz 1', city: 'München', postal_code: '80331', country: 'DE' };
const SMALL_BOX: Parcel = { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 };
/** A declaration every carrier's customs desk clears, for the export lane. */
const CUSTOMS: CustomsDeclaration = {
  contents_type: 'merchandise',
  non_delivery: 'return',
  incoterm: 'DDU',
  eel_pfc: 'NOEEI 30.37(a)',
  items: [
    {
      description: 'Ceramic coffee mug',
      quantity: 2,
      unit_value: { amount: 1250, currency: 'USD' },
      weight_oz: 12,
      hs_tariff_number: '691200',
      origin_country: 'US',
    },
  ],
};

/** A US lane in USPS zone `uspsZone` (9: a territory; else a distance inside that zone's band). */
function domesticRoute(uspsZone: number): RouteFacts {
  const territory = uspsZone === 9;
  return {
    domestic: true,
    origin_country: 'US',
    destination_country: 'US',
    distance_miles: territory ? null : [25, 100, 200, 450, 800, 1200, 1600, 2000][uspsZone - 1]!,
    ground_zone: Math.min(8, Math.max(2, uspsZone)),
    international_group: null,
    international_zone: null,
    territory,
    military: false,
    noncontiguous: territory,
  };
}

function internationalRoute(zone: number, origin = 'US', destination = 'GB'): RouteFacts {
  const groups = ['ca_mx', 'europe', 'asia_pacific', 'rest_of_world'] as const;
  return {
    domestic: false,
    origin_country: origin,
    destination_country: destination,
    distance_miles: null,
    ground_zone: null,
    international_group: groups[zone - 1],
    international_zone: zone,
    territory: false,
    military: false,
    noncontiguous: false,
  };
}

function inCountryRoute(country: string): RouteFacts {
  return { ...internationalRoute(1, country, country), domestic: true, international_group: null, international_zone: null };
}

const LANES: { name: string; from: Address; to: Address; route: (zone: number) => RouteFacts; zones: number[] }[] = [
  { name: 'US domestic', from: NY, to: LA, route: domesticRoute, zones: [1, 2, 3, 4, 5, 6, 7, 8, 9] },
  { name: 'US export', from: NY, to: LONDON, route: (z) => internationalRoute(z), zones: [1, 2, 3, 4] },
  { name: 'in-country outside the US', from: BERLIN, to: MUNICH, route: () => inCountryRoute('DE'), zones: [1] },
];

function request(lane: (typeof LANES)[number], zone: number, parcel: Parcel, residential = false): RateRequest {
  return { ship_from: lane.from, ship_to: lane.to, parcel, ship_date: '2026-03-02', residential, route: lane.route(zone) };
}

async function rate(carrier: CarrierDefinition, req: RateRequest) {
  return carrier.adapter.rate!(req);
}

const WEIGHTS_OZ = [1, 4, 8, 12, 15.5, 16, 17, 32, 48, 80, 160, 320, 640, 800, 1120, 1600, 2400];

describe.each(registry.carriers.map((c) => [c.slug, c] as const))('carrier contract: %s', (slug, carrier) => {
  it('declares coherent metadata', () => {
    expect(carrier.slug).toMatch(/^[a-z][a-z0-9_]*$/);
    expect(carrier.services.length).toBeGreaterThan(0);
    for (const s of carrier.services) {
      expect(s.code.startsWith(`${slug}_`)).toBe(true);
      expect(s.domestic || s.international).toBe(true);
    }
    expect(carrier.rate_table_version).toMatch(new RegExp(`^${slug}-\\d{4}-\\d{2}$`));
  });

  it('answers every service exactly once per lane, as a rate or as unavailable with a reason', async () => {
    for (const lane of LANES) {
      const res = await rate(carrier, request(lane, lane.zones[0], SMALL_BOX));
      const codes = [...res.rates.map((r) => r.service_code), ...res.unavailable.map((u) => u.service_code)].sort();
      expect(codes, lane.name).toEqual(carrier.services.map((s) => s.code).sort());
      for (const u of res.unavailable) expect(u.reason.length).toBeGreaterThan(5);
    }
  });

  it('quotes explainable numbers: price = base + surcharges, billable ≥ actual and DIM', async () => {
    for (const lane of LANES) {
      for (const residential of [false, true]) {
        for (const parcel of [SMALL_BOX, { weight_oz: 900, length_in: 50, width_in: 32, height_in: 6 }]) {
          const res = await rate(carrier, request(lane, lane.zones[lane.zones.length - 1], parcel, residential));
          for (const r of res.rates) {
            const sum = r.base_price.amount + r.surcharges.reduce((t, s) => t + s.amount.amount, 0);
            expect(r.price.amount).toBe(sum);
            expect(r.price.currency).toBe(r.base_price.currency);
            for (const s of r.surcharges) {
              expect(Number.isInteger(s.amount.amount)).toBe(true);
              expect(s.amount.amount).toBeGreaterThan(0);
            }
            expect(Number.isInteger(r.base_price.amount)).toBe(true);
            expect(r.base_price.amount).toBeGreaterThan(0);
            expect(r.billable_weight_oz).toBeGreaterThanOrEqual(parcel.weight_oz);
            if (r.dim_weight_oz !== null) {
              expect(r.billable_weight_oz).toBeGreaterThanOrEqual(r.dim_weight_oz);
              expect(r.dim_divisor).not.toBeNull();
            } else expect(r.dim_divisor).toBeNull();
            expect(r.business_days).toBeGreaterThanOrEqual(1);
            expect(Number.isInteger(r.zone)).toBe(true);
            expect(r.rate_table_version).toBe(carrier.rate_table_version);
            expect(carrier.services.some((s) => s.code === r.service_code)).toBe(true);
          }
        }
      }
    }
  });

  it('is reproducible: the same request gives the same quotes', async () => {
    const req = request(LANES[0], 5, SMALL_BOX, true);
    expect(await rate(carrier, req)).toEqual(await rate(carrier, req));
  });

  it('never charges less for a farther zone or a heavier parcel (per service)', async () => {
    for (const lane of LANES) {
      const grid = new Map<string, number[][]>(); // service → [zoneIndex][weightIndex]
      for (const [zi, zone] of lane.zones.entries()) {
        for (const [wi, weight_oz] of WEIGHTS_OZ.entries()) {
          const res = await rate(carrier, request(lane, zone, { weight_oz, length_in: 6, width_in: 6, height_in: 4 }));
          for (const r of res.rates) {
            const rows = grid.get(r.service_code) ?? lane.zones.map(() => WEIGHTS_OZ.map(() => NaN));
            rows[zi][wi] = r.base_price.amount;
            grid.set(r.service_code, rows);
          }
        }
      }
      for (const [service, rows] of grid) {
        for (let zi = 0; zi < rows.length; zi++) {
          for (let wi = 0; wi < WEIGHTS_OZ.length; wi++) {
            const p = rows[zi][wi];
            if (Number.isNaN(p)) continue;
            const heavier = rows[zi][wi + 1];
            const farther = rows[zi + 1]?.[wi];
            if (heavier !== undefined && !Number.isNaN(heavier)) expect(heavier, `${service} heavier than ${WEIGHTS_OZ[wi]} oz`).toBeGreaterThanOrEqual(p);
            if (farther !== undefined && !Number.isNaN(farther)) expect(farther, `${service} zone after ${lane.zones[zi]}`).toBeGreaterThanOrEqual(p);
          }
        }
      }
    }
  });

  it('charges more for a faster service than for a slower one on the same lane', async () => {
    for (const lane of LANES) {
      // A service's speed class is its slowest promise on the lane (UPS Ground can be 1 day
      // next door but is still the slower product than 3 Day Select).
      const slowest = new Map<string, number>();
      const quotes: CarrierRate[][] = [];
      for (const zone of lane.zones) {
        for (const weight_oz of [8, 16, 80, 320, 1100]) {
          const res = await rate(carrier, request(lane, zone, { weight_oz, length_in: 6, width_in: 6, height_in: 4 }, false));
          quotes.push(res.rates);
          for (const r of res.rates) slowest.set(r.service_code, Math.max(slowest.get(r.service_code) ?? 0, r.business_days));
        }
      }
      for (const rates of quotes) {
        for (const a of rates) {
          for (const b of rates) {
            if (slowest.get(a.service_code)! < slowest.get(b.service_code)!) {
              expect(a.base_price.amount, `${a.service_code} vs ${b.service_code}`).toBeGreaterThan(b.base_price.amount);
            }
          }
        }
      }
    }
  });

  it('makes a bigger but equally light box pay for its size (DIM)', async () => {
    for (const lane of LANES) {
      const small = await rate(carrier, request(lane, lane.zones[0], { weight_oz: 16, length_in: 6, width_in: 6, height_in: 6 }));
      const big = await rate(carrier, request(lane, lane.zones[0], { weight_oz: 16, length_in: 20, width_in: 18, height_in: 16 }));
      for (const s of small.rates) {
        const b = big.rates.find((r) => r.service_code === s.service_code);
        if (!b) continue;
        expect(b.price.amount).toBeGreaterThanOrEqual(s.price.amount);
        if (b.dim_weight_oz !== null) {
          expect(b.billable_weight_oz).toBeGreaterThan(s.billable_weight_oz);
          expect(b.base_price.amount).toBeGreaterThan(s.base_price.amount);
        }
      }
    }
  });

  it('refuses a parcel beyond every limit', async () => {
    for (const lane of LANES) {
      const res = await rate(carrier, request(lane, lane.zones[0], { weight_oz: 5000, length_in: 200, width_in: 10, height_in: 10 }));
      expect(res.rates).toEqual([]);
    }
  });

  describe('labels', () => {
    const purchasedAt = '2026-03-02T15:00:00.000Z'; // a Monday, before the 17:00 UTC pickup cutoff

    async function buy(reference: string) {
      for (const lane of LANES) {
        const res = await rate(carrier, request(lane, lane.zones[0], SMALL_BOX));
        const service = res.rates[0];
        if (!service) continue;
        const result = await carrier.adapter.purchase!({
          service_code: service.service_code,
          ship_from: lane.from,
          ship_to: lane.to,
          parcel: SMALL_BOX,
          ship_date: '2026-03-02',
          residential: false,
          route: lane.route(lane.zones[0]),
          reference,
          purchased_at: purchasedAt,
          customs: lane.route(lane.zones[0]).domestic ? null : CUSTOMS,
        });
        return { lane, service, result };
      }
      throw new Error(`${slug} rated no lane`);
    }

    it('buys a label with a valid, deterministic tracking number at the quoted price', async () => {
      const { service, result } = await buy('shp_contract_1');
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(carrier.isValidTrackingNumber(result.tracking_number)).toBe(true);
      expect(result.rate.price).toEqual(service.price);
      const again = await buy('shp_contract_1');
      expect(again.result.ok && again.result.tracking_number).toBe(result.tracking_number);
      const other = await buy('shp_contract_2');
      expect(other.result.ok && other.result.tracking_number).not.toBe(result.tracking_number);
    });

    it("checks an international parcel's customs as its customs desk would (a rejection, not an exception)", async () => {
      const lane = LANES.find((l) => l.name === 'US export')!;
      const res = await rate(carrier, request(lane, lane.zones[0], SMALL_BOX));
      const service = res.rates[0];
      if (!service) return; // a carrier with no export service from the US
      const attempt = (customs: CustomsDeclaration | null) =>
        carrier.adapter.purchase!({
          service_code: service.service_code,
          ship_from: lane.from,
          ship_to: lane.to,
          parcel: SMALL_BOX,
          ship_date: '2026-03-02',
          residential: false,
          route: lane.route(lane.zones[0]),
          reference: 'shp_customs',
          purchased_at: purchasedAt,
          customs,
        });
      expect(await attempt(null)).toMatchObject({ ok: false, rejected: true, field: 'customs' });
      // A description the platform lets through, that carriers' brokers cannot clear.
      const vague = await attempt({ ...CUSTOMS, items: [{ ...CUSTOMS.items[0], description: 'Clothing' }] });
      expect(vague).toMatchObject({ ok: false, rejected: true, field: 'customs.items[0].description' });
      // The United Kingdom needs HS numbers for goods; documents are exempt.
      const noHs = { ...CUSTOMS, items: [{ ...CUSTOMS.items[0], hs_tariff_number: null }] };
      expect(await attempt(noHs)).toMatchObject({ ok: false, rejected: true, field: 'customs.items[0].hs_tariff_number' });
      expect((await attempt({ ...noHs, contents_type: 'documents' })).ok).toBe(true);
      expect((await attempt(CUSTOMS)).ok).toBe(true);
    });

    it('rejects an unknown service as a business reason, not an exception', async () => {
      const res = await carrier.adapter.purchase!({
        service_code: `${slug}_teleport`,
        ship_from: NY,
        ship_to: LA,
        parcel: SMALL_BOX,
        ship_date: '2026-03-02',
        residential: false,
        route: domesticRoute(8),
        reference: 'x',
        purchased_at: purchasedAt,
      });
      expect(res.ok).toBe(false);
    });

    it('voids only before the first scan', async () => {
      const { service, result } = await buy('shp_void');
      if (!result.ok) throw new Error(result.reason);
      const base = { tracking_number: result.tracking_number, service_code: service.service_code, purchased_at: purchasedAt };
      expect(await carrier.adapter.void!({ ...base, now: '2026-03-02T15:05:00.000Z' })).toEqual({ ok: true });
      const late = await carrier.adapter.void!({ ...base, now: '2026-03-03T12:00:00.000Z' });
      expect(late.ok).toBe(false);
      const bogus = await carrier.adapter.void!({ ...base, tracking_number: 'NOT-A-NUMBER', now: '2026-03-02T15:05:00.000Z' });
      expect(bogus.ok).toBe(false);
    });

    it('tracks on a deterministic schedule up to delivery on the estimated date', async () => {
      const { lane, service, result } = await buy('shp_track');
      if (!result.ok) throw new Error(result.reason);
      const base = {
        tracking_number: result.tracking_number,
        service_code: service.service_code,
        purchased_at: purchasedAt,
        estimated_delivery_date: '2026-03-05',
        ship_from: lane.from,
        ship_to: lane.to,
      };
      const atPurchase = await carrier.adapter.track!({ ...base, now: purchasedAt });
      expect(atPurchase.status).toBe('pre_transit');
      expect(atPurchase.events.map((e) => e.milestone)).toEqual(['label_created']);

      const later = await carrier.adapter.track!({ ...base, now: '2026-03-06T00:00:00.000Z' });
      expect(later.status).toBe('delivered');
      const milestones = later.events.map((e) => e.milestone);
      expect(milestones[0]).toBe('label_created');
      expect(milestones[1]).toBe('picked_up');
      expect(milestones).toContain('in_transit');
      expect(milestones.slice(-2)).toEqual(['out_for_delivery', 'delivered']);
      const times = later.events.map((e) => Date.parse(e.occurred_at));
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      expect(later.events.at(-1)!.occurred_at.slice(0, 10)).toBe('2026-03-05');
      expect(later).toEqual(await carrier.adapter.track!({ ...base, now: '2026-03-06T00:00:00.000Z' }));

      const midway = await carrier.adapter.track!({ ...base, now: '2026-03-04T12:00:00.000Z' });
      expect(midway.status).toBe('in_transit');
    });

    it('says when the next scan is due and which milestones are still expected', async () => {
      const { lane, service, result } = await buy('shp_next');
      if (!result.ok) throw new Error(result.reason);
      const base = {
        tracking_number: result.tracking_number,
        service_code: service.service_code,
        purchased_at: purchasedAt,
        estimated_delivery_date: '2026-03-05',
        ship_from: lane.from,
        ship_to: lane.to,
      };
      const atPurchase = await carrier.adapter.track!({ ...base, now: purchasedAt });
      expect(atPurchase.next_event_at).toBe('2026-03-02T18:00:00.000Z');
      expect(Object.keys(atPurchase.expected_milestones ?? {}).sort()).toEqual(['delivered', 'in_transit', 'out_for_delivery', 'picked_up']);
      const done = await carrier.adapter.track!({ ...base, now: '2026-03-09T00:00:00.000Z' });
      expect(done.next_event_at).toBeNull();
    });

    it('plays the sandbox scenarios and compresses time by the scale', async () => {
      const { lane, service, result } = await buy('shp_scenarios');
      if (!result.ok) throw new Error(result.reason);
      const base = {
        tracking_number: result.tracking_number,
        service_code: service.service_code,
        purchased_at: purchasedAt,
        estimated_delivery_date: '2026-03-05',
        ship_from: lane.from,
        ship_to: lane.to,
      };
      const late = '2026-03-20T00:00:00.000Z';
      const exception = await carrier.adapter.track!({ ...base, now: late, sandbox: { time_scale: 1, scenario: 'exception' } });
      expect(exception.status).toBe('failure');
      expect(exception.events.some((e) => e.status === 'delivered')).toBe(false);
      const rts = await carrier.adapter.track!({ ...base, now: late, sandbox: { time_scale: 1, scenario: 'return_to_sender' } });
      expect(rts.status).toBe('return_to_sender');
      expect(rts.events.at(-1)!.status_detail).toBe('returned_to_sender');
      const instant = await carrier.adapter.track!({ ...base, now: purchasedAt, sandbox: { time_scale: 1, scenario: 'delivered' } });
      expect(instant.status).toBe('delivered');

      // 3600×: the 18:00 pickup three hours after a 15:00 purchase happens three seconds after it.
      const fast = { time_scale: 3600, scenario: 'normal' as const };
      const before = await carrier.adapter.track!({ ...base, now: '2026-03-02T15:00:02.000Z', sandbox: fast });
      expect(before.status).toBe('pre_transit');
      expect(before.next_event_at).toBe('2026-03-02T15:00:03.000Z');
      const after = await carrier.adapter.track!({ ...base, now: '2026-03-02T15:00:03.000Z', sandbox: fast });
      expect(after.events.map((e) => e.milestone)).toEqual(['label_created', 'picked_up']);
      const delivered = await carrier.adapter.track!({ ...base, now: '2026-03-02T15:02:00.000Z', sandbox: fast });
      expect(delivered.status).toBe('delivered');
      const voidBase = { tracking_number: result.tracking_number, service_code: service.service_code, purchased_at: purchasedAt };
      expect((await carrier.adapter.void!({ ...voidBase, now: '2026-03-02T15:00:02.000Z', sandbox: fast })).ok).toBe(true);
      expect((await carrier.adapter.void!({ ...voidBase, now: '2026-03-02T15:00:04.000Z', sandbox: fast })).ok).toBe(false);
    });
  });
});
