import { beforeAll, describe, expect, it } from 'vitest';
import { discoverCarriers, type CarrierRegistry } from '../../carriers/registry.js';
import { AppError } from '../../platform/errors.js';
import { isId } from '../../platform/ids.js';
import { quoteRates } from './rates.service.js';
import type { RateQuery, RateQueryResponse } from './rates.schemas.js';

let carriers: CarrierRegistry;
beforeAll(async () => {
  carriers = await discoverCarriers();
});

/** Monday 2026-03-02, 10:00 in New York. */
const NOW = new Date('2026-03-02T15:00:00Z');
const NY = { country: 'US', postal_code: '10001' };
const LA = { country: 'US', postal_code: '90210' };
const BOX = { weight_oz: 20, length_in: 10, width_in: 8, height_in: 4 };

const quote = (q: Partial<RateQuery>) => quoteRates({ ship_from: NY, ship_to: LA, parcel: BOX, ...q } as RateQuery, { carriers, now: NOW });

async function rejection(q: Partial<RateQuery>): Promise<AppError> {
  try {
    await quote(q);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

const option = (res: RateQueryResponse, code: string) => {
  const o = res.data.find((x) => x.service_code === code);
  if (!o) throw new Error(`${code} missing`);
  return o;
};

describe('quoteRates: a US domestic query', () => {
  it('returns options sorted by price, each explainable from its fields', async () => {
    const res = await quote({});
    expect(res.data.length).toBeGreaterThanOrEqual(9);
    const prices = res.data.map((o) => o.price.amount);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    for (const o of res.data) {
      expect(isId('rate', o.id)).toBe(true);
      expect(o.price.amount).toBe(o.base_price.amount + o.surcharges.reduce((t, s) => t + s.amount.amount, 0));
      expect(o.price.currency).toBe('USD');
      expect(o.service_code.startsWith(`${o.carrier}_`)).toBe(true);
      expect(o.rate_table_version).toBe(res.rate_table_versions[o.carrier]);
      expect(o.delivery.estimated_delivery_date > '2026-03-02').toBe(true);
    }
    expect(res.ship_date).toBe('2026-03-02');
  });

  it('zones New York → Beverly Hills as USPS zone 8 and UPS/FedEx zone 8', async () => {
    const res = await quote({});
    expect(option(res, 'usps_ground_advantage').zone).toBe(8);
    expect(option(res, 'ups_ground').zone).toBe(8);
    expect(option(res, 'fedex_home_delivery').zone).toBe(8);
  });

  it('tags exactly one cheapest, one fastest and one best value', async () => {
    const res = await quote({});
    for (const tag of ['cheapest', 'fastest', 'best_value'] as const) {
      expect(res.data.filter((o) => o.tags.includes(tag))).toHaveLength(1);
    }
    expect(res.data[0].tags).toContain('cheapest');
    const fastest = res.data.find((o) => o.tags.includes('fastest'))!;
    for (const o of res.data) expect(o.delivery.estimated_delivery_date >= fastest.delivery.estimated_delivery_date).toBe(true);
    const best = res.data.find((o) => o.tags.includes('best_value'))!;
    const score = (o: (typeof res.data)[number]) => o.price.amount * o.delivery.business_days;
    for (const o of res.data) expect(score(o)).toBeGreaterThanOrEqual(score(best));
  });

  it('is reproducible: same prices on every call, fresh ids', async () => {
    const a = await quote({});
    const b = await quote({});
    const strip = (r: RateQueryResponse) => r.data.map(({ id: _id, ...rest }) => rest);
    expect(strip(a)).toEqual(strip(b));
    expect(a.data[0].id).not.toBe(b.data[0].id);
    expect(a.unavailable).toEqual(b.unavailable);
  });

  it('lists DHL Express as unavailable: no US-to-US service', async () => {
    const res = await quote({});
    expect(res.data.some((o) => o.carrier === 'dhl_express')).toBe(false);
    const dhl = res.unavailable.filter((u) => u.carrier === 'dhl_express');
    expect(dhl.map((u) => u.service_code).sort()).toEqual(['dhl_express_domestic', 'dhl_express_worldwide']);
    for (const u of dhl) expect(u.reason).toMatch(/no US-to-US/);
  });

  it('residential defaults to true without a company, false with one', async () => {
    const home = await quote({});
    expect(home.residential).toBe(true);
    expect(option(home, 'ups_ground').surcharges.map((s) => s.code)).toContain('residential');
    expect(home.unavailable.find((u) => u.service_code === 'fedex_ground')?.reason).toMatch(/business/);

    const office = await quote({ ship_to: { ...LA, company: 'Acme Inc' } });
    expect(office.residential).toBe(false);
    expect(option(office, 'ups_ground').surcharges.map((s) => s.code)).not.toContain('residential');
    expect(office.data.some((o) => o.service_code === 'fedex_ground')).toBe(true);
    expect(office.unavailable.find((u) => u.service_code === 'fedex_home_delivery')?.reason).toMatch(/residential/);

    const explicit = await quote({ ship_to: { ...LA, company: 'Acme Inc' }, residential: true });
    expect(explicit.residential).toBe(true);
  });

  it('adds a remote-area surcharge for Alaska on UPS/FedEx air', async () => {
    const res = await quote({ ship_to: { country: 'US', postal_code: '99501' } });
    expect(option(res, 'ups_2nd_day_air').surcharges.map((s) => s.code)).toContain('remote_area');
    expect(res.unavailable.find((u) => u.service_code === 'ups_ground')?.reason).toMatch(/Alaska/);
  });

  it('a bigger box of the same weight costs more with DIM carriers', async () => {
    const small = await quote({ ship_to: { ...LA, company: 'X' } });
    const big = await quote({ ship_to: { ...LA, company: 'X' }, parcel: { weight_oz: 20, length_in: 24, width_in: 18, height_in: 18 } });
    for (const code of ['ups_ground', 'fedex_ground', 'usps_priority_mail']) {
      expect(option(big, code).price.amount, code).toBeGreaterThan(option(small, code).price.amount);
      expect(option(big, code).dim_weight_oz).not.toBeNull();
    }
    expect(option(small, 'usps_priority_mail').dim_weight_oz).toBeNull(); // USPS DIM only above 1 ft³
  });

  it('computes UPS DIM from L×W×H/139 and bills whole pounds', async () => {
    // 24×18×18 = 7776 in³ / 139 = 55.94 lb = 895.05 → 896 oz; billable 56 lb = 896 oz
    const big = await quote({ parcel: { weight_oz: 20, length_in: 24, width_in: 18, height_in: 18 } });
    const ups = option(big, 'ups_ground');
    expect(ups.dim_weight_oz).toBe(896);
    expect(ups.dim_divisor).toBe(139);
    expect(ups.billable_weight_oz).toBe(896);
    // USPS: 7776 / 166 = 46.84 lb = 749.5 → 750 oz; billable 47 lb = 752 oz
    const usps = option(big, 'usps_ground_advantage');
    expect(usps.dim_weight_oz).toBe(750);
    expect(usps.dim_divisor).toBe(166);
    expect(usps.billable_weight_oz).toBe(752);
  });

  it('Ground Advantage bills ounces under a pound', async () => {
    const res = await quote({ parcel: { weight_oz: 5.2, length_in: 6, width_in: 4, height_in: 2 } });
    expect(option(res, 'usps_ground_advantage').billable_weight_oz).toBe(6);
    expect(option(res, 'ups_ground').billable_weight_oz).toBe(16);
  });

  it('guarantees express services only', async () => {
    const res = await quote({ ship_to: { ...LA, company: 'X' } });
    expect(option(res, 'usps_priority_mail_express').delivery.guaranteed).toBe(true);
    expect(option(res, 'ups_next_day_air').delivery.guaranteed).toBe(true);
    expect(option(res, 'fedex_standard_overnight').delivery.guaranteed).toBe(true);
    expect(option(res, 'usps_ground_advantage').delivery.guaranteed).toBe(false);
    expect(option(res, 'ups_ground').delivery.guaranteed).toBe(false);
  });

  it('estimates delivery with business days, holidays and the cutoff', async () => {
    // Friday 2026-09-04 (before Labor Day), shipped in the morning: next day air → Tue 09-08
    const res = await quoteRates({ ship_from: NY, ship_to: LA, parcel: BOX, ship_date: '2026-09-04' }, { carriers, now: new Date('2026-09-04T14:00:00Z') });
    expect(option(res, 'ups_next_day_air').delivery).toMatchObject({ business_days: 1, estimated_delivery_date: '2026-09-08' });
    // After 17:00 in New York (21:30 UTC): tendered Tue, delivered Wed
    const late = await quoteRates({ ship_from: NY, ship_to: LA, parcel: BOX, ship_date: '2026-09-04' }, { carriers, now: new Date('2026-09-04T21:30:00Z') });
    expect(option(late, 'ups_next_day_air').delivery.estimated_delivery_date).toBe('2026-09-09');
  });

  it('defaults the ship date to today in the origin time zone', async () => {
    // 02:00 UTC on Mar 3 is still Mar 2 in Los Angeles
    const res = await quoteRates({ ship_from: LA, ship_to: NY, parcel: BOX }, { carriers, now: new Date('2026-03-03T02:00:00Z') });
    expect(res.ship_date).toBe('2026-03-02');
  });
});

describe('quoteRates: service filter', () => {
  it('returns only the requested services', async () => {
    const res = await quote({ services: ['ups_ground', 'usps_priority_mail'] });
    expect(res.data.map((o) => o.service_code).sort()).toEqual(['ups_ground', 'usps_priority_mail']);
    expect(res.unavailable).toEqual([]);
    expect(Object.keys(res.rate_table_versions).sort()).toEqual(['ups', 'usps']);
    for (const tag of ['cheapest', 'fastest', 'best_value'] as const) expect(res.data.filter((o) => o.tags.includes(tag))).toHaveLength(1);
  });

  it('accepts a carrier slug for all of its services', async () => {
    const res = await quote({ services: ['fedex'] });
    expect(new Set(res.data.map((o) => o.carrier))).toEqual(new Set(['fedex']));
  });

  it('rejects an unknown service code with a field detail', async () => {
    const err = await rejection({ services: ['ups_ground', 'ups_teleport'] });
    expect(err.code).toBe('validation_failed');
    expect(err.details).toEqual([{ field: 'services[1]', message: 'unknown service code "ups_teleport"' }]);
  });
});

describe('quoteRates: international', () => {
  it('quotes export services and DHL Express Worldwide to the UK', async () => {
    const res = await quote({ ship_to: { country: 'gb', postal_code: 'sw1a 1aa' } });
    const codes = res.data.map((o) => o.service_code).sort();
    expect(codes).toEqual([
      'dhl_express_worldwide',
      'fedex_international_priority',
      'ups_worldwide_saver',
      'usps_first_class_international',
      'usps_priority_mail_express_international',
      'usps_priority_mail_international',
    ]);
    // Zone 2 (Europe), but USPS's Priority services price by USPS country group (the UK: 3).
    for (const o of res.data) expect(o.zone).toBe(o.service_code.startsWith('usps_priority') ? 3 : 2);
    for (const o of res.data) expect(o.requires_customs).toBe(true);
    expect(res.requires_customs).toBe(true);
    const dhl = option(res, 'dhl_express_worldwide');
    expect(dhl.dim_divisor).toBe(5000);
    expect(dhl.dim_divisor_unit).toBe('cm3_per_kg');
    expect(res.unavailable.find((u) => u.service_code === 'ups_ground')?.reason).toMatch(/domestic/i);
  });

  it('DHL Express Domestic serves an in-country lane outside the US', async () => {
    const res = await quote({ ship_from: { country: 'DE', postal_code: '10117' }, ship_to: { country: 'DE', postal_code: '80331' } });
    expect(res.data.map((o) => o.service_code)).toEqual(['dhl_express_domestic']);
    expect(res.unavailable.find((u) => u.service_code === 'usps_ground_advantage')?.reason).toMatch(/US origins/);
  });
});

describe('quoteRates: validation', () => {
  it.each([
    [{ ship_to: { country: 'US', postal_code: '1234' } }, 'ship_to.postal_code', /ZIP/],
    [{ ship_to: { country: 'US', postal_code: 'ABCDE' } }, 'ship_to.postal_code', /ZIP/],
    [{ ship_to: { country: 'US', postal_code: '00000' } }, 'ship_to.postal_code', /does not exist/],
    [{ ship_from: { country: 'US', postal_code: '99999' } }, 'ship_from.postal_code', /does not exist/],
    [{ ship_to: { country: 'GB', postal_code: '12345' } }, 'ship_to.postal_code', /not a valid postal code for GB/],
    [{ ship_to: { country: 'CA', postal_code: '' } }, 'ship_to.postal_code', /required/],
    [{ ship_to: { country: 'XX', postal_code: '12345' } }, 'ship_to.country', /ISO 3166-1/],
    [{ ship_to: { country: 'USA', postal_code: '10001' } }, 'ship_to.country', /ISO 3166-1/],
    [{ ship_to: { country: '', postal_code: '10001' } }, 'ship_to.country', /required/],
    [{ ship_date: '2026-02-30' }, 'ship_date', /calendar date/],
  ])('%j → 400 on %s', async (q, field, message) => {
    const err = await rejection(q as Partial<RateQuery>);
    expect(err.code).toBe('validation_failed');
    expect(err.status).toBe(400);
    const details = err.details as { field: string; message: string }[];
    expect(details.map((d) => d.field)).toContain(field);
    expect(details.find((d) => d.field === field)!.message).toMatch(message);
  });

  it('reports both ends at once', async () => {
    const err = await rejection({ ship_from: { country: 'US', postal_code: '00000' }, ship_to: { country: 'ZZ', postal_code: '1' } });
    expect((err.details as { field: string }[]).map((d) => d.field)).toEqual(['ship_from.postal_code', 'ship_to.country']);
  });

  it('accepts ZIP+4 and a country without postal codes', async () => {
    expect((await quote({ ship_to: { country: 'US', postal_code: '90210-1234' } })).data.length).toBeGreaterThan(0);
    expect((await quote({ ship_to: { country: 'HK', postal_code: '' } })).data.length).toBeGreaterThan(0);
  });
});

describe('quoteRates: no service can carry it', () => {
  it('is 422 no_rates with the unavailable list as details', async () => {
    const err = await rejection({ parcel: { weight_oz: 4000, length_in: 120, width_in: 60, height_in: 60 } });
    expect(err.code).toBe('no_rates');
    expect(err.status).toBe(422);
    const details = err.details as { carrier: string; service_code: string; reason: string }[];
    expect(details.length).toBe(19);
    expect(details.find((d) => d.service_code === 'ups_ground')?.reason).toMatch(/Weight 250 lb exceeds the 150 lb limit/);
  });

  it('USPS stops at 70 lb, UPS and FedEx carry up to 150 lb', async () => {
    const res = await quote({ parcel: { weight_oz: 71 * 16, length_in: 20, width_in: 12, height_in: 12 } });
    expect(res.data.some((o) => o.carrier === 'usps')).toBe(false);
    expect(res.unavailable.find((u) => u.service_code === 'usps_ground_advantage')?.reason).toMatch(/70 lb/);
    expect(res.data.some((o) => o.service_code === 'ups_ground')).toBe(true);
    // over 50 lb actual: additional handling
    expect(option(res, 'ups_ground').surcharges.map((s) => s.code)).toContain('additional_handling');
  });

  it('USPS refuses more than 130 in length + girth; UPS takes it with an oversize charge', async () => {
    // 60 + 2 × (18 + 18) = 132 in
    const res = await quote({ parcel: { weight_oz: 160, length_in: 60, width_in: 18, height_in: 18 } });
    expect(res.unavailable.find((u) => u.service_code === 'usps_ground_advantage')?.reason).toMatch(/Length \+ girth 132 in exceeds the 130 in/);
    expect(option(res, 'ups_ground').surcharges.map((s) => s.code)).toContain('oversize');
    expect(option(res, 'ups_ground').surcharges.map((s) => s.code)).not.toContain('additional_handling');
  });
});
