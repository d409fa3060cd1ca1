import { describe, expect, it } from 'vitest';
import type { CarrierRate, RateRequest, RouteFacts } from '../types.js';
import type { RateCard, ServiceRateCard } from './rate-card.js';
import { bracketFor, isRemote, rateFromCard } from './rate-engine.js';

/** A small hand-made card, so every expected number below can be worked out on paper. */
const ground: ServiceRateCard = {
  code: 'acme_ground',
  name: 'Acme Ground',
  lane: 'us_domestic',
  zoning: 'ground',
  guaranteed: false,
  ground_network: true,
  delivers_to: 'any',
  limits: { max_weight_oz: 800, max_longest_in: 60, max_length_girth_in: 130 },
  dim: { divisor: 100, unit: 'in3_per_lb', applies_above_in3: null },
  weight_steps: [{ step_oz: 16 }],
  fuel_percent: 10,
  residential_fee: 500,
  transit_days: { 2: 1, 3: 2, 8: 5 },
  grid: {
    zones: [2, 3, 8],
    rows: [
      [16, 1000, 1100, 1500],
      [32, 1200, 1300, 1900],
      [160, 2000, 2500, 4000],
      [1600, 5000, 6000, 9000],
    ],
  },
};
const air: ServiceRateCard = {
  ...ground,
  code: 'acme_air',
  name: 'Acme Air',
  guaranteed: true,
  ground_network: false,
  delivers_to: 'commercial',
  fuel_percent: 12.5,
  transit_days: { 2: 1, 3: 1, 8: 1 },
  grid: {
    zones: [2, 3, 8],
    rows: [
      [16, 3000, 3300, 4500],
      [160, 6000, 7000, 9000],
      [1600, 12000, 14000, 18000],
    ],
  },
};
const world: ServiceRateCard = {
  ...ground,
  code: 'acme_world',
  name: 'Acme World',
  lane: 'us_export',
  zoning: 'international',
  ground_network: false,
  residential_fee: 0,
  fuel_percent: 0,
  transit_days: { 1: 2, 2: 3, 3: 4, 4: 5 },
  grid: {
    zones: [1, 2, 3, 4],
    rows: [
      [16, 5000, 6000, 7000, 8000],
      [160, 9000, 10000, 11000, 12000],
    ],
  },
};
const card: RateCard = {
  carrier: 'acme',
  carrier_name: 'Acme',
  version: 'acme-test',
  currency: 'USD',
  serves_military: false,
  services: [ground, air, world],
  size_surcharges: [
    { code: 'additional_handling', any_of: [{ longest_in_gt: 48 }, { second_longest_in_gt: 30 }], amount: 2000 },
    { code: 'additional_handling', any_of: [{ weight_oz_gt: 640 }], amount: 3000 },
    { code: 'oversize', any_of: [{ length_girth_in_gt: 110 }], amount: 9000, replaces: ['additional_handling'] },
  ],
  remote_area: {
    amount: 400,
    zip3_ranges: [
      ['995', '999'],
      ['967', '968'],
    ],
  },
};

function route(over: Partial<RouteFacts> = {}): RouteFacts {
  return {
    domestic: true,
    origin_country: 'US',
    destination_country: 'US',
    distance_miles: 200,
    ground_zone: 3,
    international_group: null,
    international_zone: null,
    territory: false,
    military: false,
    noncontiguous: false,
    ...over,
  };
}

function request(over: Partial<RateRequest> = {}): RateRequest {
  return {
    ship_from: { country: 'US', postal_code: '10001' },
    ship_to: { country: 'US', postal_code: '19103' },
    parcel: { weight_oz: 20, length_in: 4, width_in: 4, height_in: 4 },
    ship_date: '2026-03-02',
    residential: true,
    route: route(),
    ...over,
  };
}

function quote(req: RateRequest, code: string): CarrierRate {
  const r = rateFromCard(card, req).rates.find((x) => x.service_code === code);
  if (!r) throw new Error(`${code} not quoted: ${JSON.stringify(rateFromCard(card, req).unavailable)}`);
  return r;
}

const surcharge = (r: CarrierRate, code: string) => r.surcharges.find((s) => s.code === code)?.amount.amount;
const sum = (r: CarrierRate) => r.base_price.amount + r.surcharges.reduce((t, s) => t + s.amount.amount, 0);

describe('rateFromCard: pricing', () => {
  it('prices base from the zone column and billable-weight row, then fuel and residential', () => {
    // 4×4×4 = 64 in³ / 100 = 0.64 lb = 10.24 → 11 oz DIM; actual 20 oz wins → 2 lb = 32 oz.
    const r = quote(request(), 'acme_ground');
    expect(r.zone).toBe(3);
    expect(r.dim_weight_oz).toBe(11);
    expect(r.dim_divisor).toBe(100);
    expect(r.dim_divisor_unit).toBe('in3_per_lb');
    expect(r.billable_weight_oz).toBe(32);
    expect(r.base_price).toEqual({ amount: 1300, currency: 'USD' });
    expect(surcharge(r, 'fuel')).toBe(130);
    expect(surcharge(r, 'residential')).toBe(500);
    expect(r.price.amount).toBe(1930);
    expect(r.business_days).toBe(2);
    expect(r.guaranteed).toBe(false);
    expect(r.rate_table_version).toBe('acme-test');
  });

  it('price is always base + the sum of surcharges', () => {
    for (const weight_oz of [1, 20, 100, 700]) {
      for (const residential of [true, false]) {
        for (const r of rateFromCard(card, request({ residential, parcel: { weight_oz, length_in: 50, width_in: 10, height_in: 5 } })).rates) {
          expect(r.price.amount).toBe(sum(r));
        }
      }
    }
  });

  it('rounds fuel on a fractional percent to the nearest cent', () => {
    // Air zone 3, 1 lb: 3300 × 12.5 % = 412.5 → 413
    const r = quote(request({ residential: false, parcel: { weight_oz: 10, length_in: 2, width_in: 2, height_in: 2 } }), 'acme_air');
    expect(r.base_price.amount).toBe(3300);
    expect(surcharge(r, 'fuel')).toBe(413);
  });

  it('a commercial destination pays no residential surcharge', () => {
    const r = quote(request({ residential: false }), 'acme_ground');
    expect(surcharge(r, 'residential')).toBeUndefined();
    expect(r.price.amount).toBe(1300 + 130);
  });

  it('a big light box is billed by DIM weight', () => {
    // 12×10×8 = 960 in³ / 100 = 9.6 lb = 153.6 → 154 oz → 10 lb bracket (160)
    const r = quote(request({ parcel: { weight_oz: 8, length_in: 12, width_in: 10, height_in: 8 } }), 'acme_ground');
    expect(r.dim_weight_oz).toBe(154);
    expect(r.billable_weight_oz).toBe(160);
    expect(r.base_price.amount).toBe(2500);
  });

  it('international services use the international zone', () => {
    const intl = route({
      domestic: false,
      destination_country: 'GB',
      ground_zone: null,
      distance_miles: null,
      international_group: 'europe',
      international_zone: 2,
    });
    const r = quote(request({ route: intl, ship_to: { country: 'GB', postal_code: 'SW1A 1AA' } }), 'acme_world');
    expect(r.zone).toBe(2);
    expect(r.base_price.amount).toBe(10000); // 2 lb → 160 oz row, zone 2
    expect(r.business_days).toBe(3);
  });
});

describe('rateFromCard: size surcharges', () => {
  const withBox = (length_in: number, width_in: number, height_in: number, weight_oz = 20) =>
    quote(request({ residential: false, parcel: { weight_oz, length_in, width_in, height_in } }), 'acme_ground');

  it('additional handling when the longest side is over 48 in', () => {
    expect(surcharge(withBox(48, 5, 5), 'additional_handling')).toBeUndefined();
    expect(surcharge(withBox(49, 5, 5), 'additional_handling')).toBe(2000);
  });

  it('additional handling when the second-longest side is over 30 in', () => {
    expect(surcharge(withBox(31, 31, 2), 'additional_handling')).toBe(2000);
  });

  it('additional handling by weight takes the higher amount, charged once', () => {
    const r = withBox(49, 5, 5, 700);
    expect(r.surcharges.filter((s) => s.code === 'additional_handling')).toHaveLength(1);
    expect(surcharge(r, 'additional_handling')).toBe(3000);
  });

  it('oversize (length + girth) replaces additional handling', () => {
    // 50 + 2 × (27 + 3) = 110 → not over (additional handling for the 50 in side instead)
    const under = withBox(50, 27, 3);
    expect(surcharge(under, 'oversize')).toBeUndefined();
    expect(surcharge(under, 'additional_handling')).toBe(2000);
    // 51 + 60 = 111 → oversize, and no additional handling on top
    const r = withBox(51, 27, 3);
    expect(surcharge(r, 'oversize')).toBe(9000);
    expect(surcharge(r, 'additional_handling')).toBeUndefined();
  });

  it('remote area for listed ZIP3 ranges only', () => {
    const anchorage = quote(request({ ship_to: { country: 'US', postal_code: '99501' } }), 'acme_ground');
    expect(surcharge(anchorage, 'remote_area')).toBe(400);
    expect(surcharge(quote(request(), 'acme_ground'), 'remote_area')).toBeUndefined();
    expect(isRemote(card.remote_area!, '96813')).toBe(true);
    expect(isRemote(card.remote_area!, '96912')).toBe(false);
    expect(isRemote(card.remote_area!, 'SW1A 1AA')).toBe(false);
  });
});

describe('rateFromCard: availability', () => {
  const reasons = (req: RateRequest) => Object.fromEntries(rateFromCard(card, req).unavailable.map((u) => [u.service_code, u.reason]));

  it('lists every service exactly once, as a rate or as unavailable', () => {
    const res = rateFromCard(card, request());
    const codes = [...res.rates.map((r) => r.service_code), ...res.unavailable.map((u) => u.service_code)].sort();
    expect(codes).toEqual(['acme_air', 'acme_ground', 'acme_world']);
  });

  it('honours the service filter', () => {
    const res = rateFromCard(card, request({ service_codes: ['acme_ground'] }));
    expect(res.rates.map((r) => r.service_code)).toEqual(['acme_ground']);
    expect(res.unavailable).toEqual([]);
  });

  it('refuses a domestic service abroad and an export service at home', () => {
    expect(reasons(request())['acme_world']).toMatch(/international/i);
    const intl = route({ domestic: false, destination_country: 'DE', international_group: 'europe', international_zone: 2 });
    const r = reasons(request({ route: intl }));
    expect(r['acme_ground']).toMatch(/domestic/i);
  });

  it('refuses a non-US origin for US-origin services', () => {
    const r = reasons(request({ route: route({ origin_country: 'CA', domestic: false, international_group: 'ca_mx', international_zone: 1 }) }));
    expect(r['acme_world']).toMatch(/US origins/);
  });

  it('ground networks do not reach noncontiguous destinations', () => {
    const r = reasons(request({ residential: false, route: route({ noncontiguous: true, ground_zone: 8 }) }));
    expect(r['acme_ground']).toMatch(/Alaska, Hawaii/);
    expect(r['acme_air']).toBeUndefined();
  });

  it('a carrier that does not serve the military refuses APO/FPO/DPO', () => {
    const r = reasons(request({ route: route({ military: true, noncontiguous: true }) }));
    expect(r['acme_air']).toMatch(/APO/);
  });

  it('a business-only service refuses a residential destination', () => {
    expect(reasons(request({ residential: true }))['acme_air']).toMatch(/business/);
    expect(reasons(request({ residential: false }))['acme_air']).toBeUndefined();
  });

  it('enforces weight, length and length + girth limits', () => {
    expect(reasons(request({ parcel: { weight_oz: 801, length_in: 4, width_in: 4, height_in: 4 } }))['acme_ground']).toMatch(
      /^Weight 50.06 lb exceeds the 50 lb limit/,
    );
    expect(reasons(request({ parcel: { weight_oz: 10, length_in: 61, width_in: 2, height_in: 2 } }))['acme_ground']).toMatch(/Longest side/);
    expect(reasons(request({ parcel: { weight_oz: 10, length_in: 50, width_in: 21, height_in: 20 } }))['acme_ground']).toMatch(/Length \+ girth/);
  });

  it('a zone without transit data is not served', () => {
    expect(reasons(request({ route: route({ ground_zone: 5 }) }))['acme_ground']).toMatch(/zone 5/);
  });

  it('a DIM weight beyond the table is refused with a reason', () => {
    // 40×20×20 = 16000 in³ / 100 = 160 lb of DIM weight; the table ends at 100 lb.
    const r = reasons(request({ parcel: { weight_oz: 16, length_in: 40, width_in: 20, height_in: 20 } }));
    expect(r['acme_ground']).toMatch(/exceeds the 100 lb/);
  });
});

describe('bracketFor', () => {
  it('finds the same weight bracket as a linear scan, on every built-in rate table', async () => {
    const cards: RateCard[] = [
      (await import('../usps/rates.v2026-01.js')).uspsRateCard,
      (await import('../ups/rates.v2026-01.js')).upsRateCard,
      (await import('../fedex/rates.v2026-01.js')).fedexRateCard,
      (await import('../dhl_express/rates.v2026-01.js')).dhlExpressRateCard,
    ];
    for (const card of cards) {
      for (const service of card.services) {
        const rows = service.grid.rows;
        // The search relies on the data ascending by weight.
        for (let i = 1; i < rows.length; i++) expect(rows[i][0], `${service.code} row ${i}`).toBeGreaterThan(rows[i - 1][0]);
        const top = rows[rows.length - 1][0];
        for (let oz = 0; oz <= top + 20; oz += 0.5) {
          expect(bracketFor(rows, oz), `${service.code} at ${oz} oz`).toBe(rows.find((r) => r[0] >= oz));
        }
      }
    }
  });
});
