import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, expectV1AuthMatrix, type Tenant } from '../../../test/helpers/app.js';

const URL = '/v1/rates/query';
const NY = { country: 'US', postal_code: '10001' };
const LA = { country: 'US', postal_code: '90210' };
const BOX = { weight_oz: 20, length_in: 10, width_in: 8, height_in: 4 };
const VALID = { ship_from: NY, ship_to: LA, parcel: BOX };

let app: FastifyInstance;
let tenant: Tenant;

beforeAll(async () => {
  app = await buildTestApp();
  tenant = await createTenant(app);
});

const post = (payload: unknown, headers: Record<string, string> = tenant.headers) =>
  app.inject({ method: 'POST', url: URL, headers, payload: payload as object });

interface Detail {
  field: string;
  message: string;
}

async function expect400(payload: unknown, field: string, message?: RegExp) {
  const res = await post(payload);
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json();
  expect(body.code).toBe('validation_failed');
  expect(body.request_id).toBe(res.headers['x-request-id']);
  const details = body.details as Detail[];
  const hit = details.find((d) => d.field === field);
  expect(hit, `detail on ${field} in ${JSON.stringify(details)}`).toBeDefined();
  if (message) expect(hit!.message).toMatch(message);
}

describe('POST /v1/rates/query: happy paths', () => {
  it('quotes a US domestic parcel: sorted options with every documented field', async () => {
    const res = await post(VALID);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'messages', 'rate_table_versions', 'requires_customs', 'residential', 'ship_date', 'unavailable']);
    expect(body.requires_customs).toBe(false);
    expect(body.messages).toEqual([]);
    expect(body.residential).toBe(true);
    expect(body.ship_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(body.rate_table_versions).toMatchObject({ usps: 'usps-2026-01', ups: 'ups-2026-01', fedex: 'fedex-2026-01' });
    const prices = body.data.map((o: { price: { amount: number } }) => o.price.amount);
    expect(prices).toEqual([...prices].sort((a: number, b: number) => a - b));
    for (const o of body.data) {
      expect(Object.keys(o).sort()).toEqual(
        [
          'base_price',
          'billable_weight_oz',
          'carrier',
          'carrier_account_id',
          'delivery',
          'dim_divisor',
          'dim_divisor_unit',
          'dim_weight_oz',
          'id',
          'price',
          'rate_table_version',
          'requires_customs',
          'service_code',
          'service_name',
          'surcharges',
          'tags',
          'zone',
        ].sort(),
      );
      expect(o.id).toMatch(/^rate_[0-9a-z]{26}$/);
      // Each option names the (simulated default) account that quoted it.
      expect(o.carrier_account_id).toMatch(/^ca_/);
      expect(o.price.amount).toBe(o.base_price.amount + o.surcharges.reduce((t: number, s: { amount: { amount: number } }) => t + s.amount.amount, 0));
      expect(Object.keys(o.delivery).sort()).toEqual(['business_days', 'estimated_delivery_date', 'guaranteed']);
      expect(o.zone).toBe(8);
    }
    const usps = body.data.find((o: { service_code: string }) => o.service_code === 'usps_ground_advantage');
    expect(usps.dim_weight_oz).toBeNull(); // serialised as null, not dropped
    expect(usps.dim_divisor).toBeNull();
    const tags = body.data.flatMap((o: { tags: string[] }) => o.tags).sort();
    expect(tags).toEqual(['best_value', 'cheapest', 'fastest']);
    expect(body.data[0].tags).toContain('cheapest');
    expect(body.unavailable).toContainEqual({
      carrier: 'dhl_express',
      service_code: 'dhl_express_worldwide',
      reason: 'DHL Express offers no US-to-US service',
    });
  });

  it('gives the same prices for the same request', async () => {
    const a = (await post({ ...VALID, ship_date: '2026-06-01' })).json();
    const b = (await post({ ...VALID, ship_date: '2026-06-01' })).json();
    const strip = (r: { data: { id: string }[] }) => r.data.map(({ id: _id, ...rest }) => rest);
    expect(strip(a)).toEqual(strip(b));
  });

  it('answers a repeated request with the same body and fresh rate ids', async () => {
    const lane = { ...VALID, ship_date: '2026-06-02' };
    const responses = [await post(lane), await post(lane), await post(lane)];
    const ids = responses.flatMap((r) => {
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      return r.json().data.map((o: { id: string }) => o.id);
    });
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^rate_[0-7][0-9a-hjkmnp-tv-z]{25}$/);
    const [first, ...repeats] = responses.map((r) => r.body.replace(/rate_[0-9a-z]{26}/g, 'rate_ID'));
    for (const repeat of repeats) expect(repeat).toBe(first);
  });

  it('quotes international services to the UK and filters services', async () => {
    const res = await post({ ...VALID, ship_to: { country: 'gb', postal_code: 'SW1A 1AA', city: 'London' }, services: ['dhl_express_worldwide', 'ups'] });
    expect(res.statusCode, res.body).toBe(200);
    const codes = res
      .json()
      .data.map((o: { service_code: string }) => o.service_code)
      .sort();
    expect(codes).toEqual(['dhl_express_worldwide', 'ups_worldwide_saver']);
    expect(
      res
        .json()
        .unavailable.map((u: { service_code: string }) => u.service_code)
        .sort(),
    ).toEqual(['ups_2nd_day_air', 'ups_3_day_select', 'ups_ground', 'ups_next_day_air']);
  });

  it('treats a ship_to with a company as commercial unless told otherwise', async () => {
    expect((await post({ ...VALID, ship_to: { ...LA, company: 'Acme' } })).json().residential).toBe(false);
    expect((await post({ ...VALID, ship_to: { ...LA, company: 'Acme' }, residential: true })).json().residential).toBe(true);
  });

  it('accepts unknown extra address fields', async () => {
    expect((await post({ ...VALID, ship_to: { ...LA, address_type: 'home' } })).statusCode).toBe(200);
  });
});

describe('POST /v1/rates/query: validation errors (400 validation_failed)', () => {
  it.each([
    ['ship_from missing', { ship_to: LA, parcel: BOX }, 'ship_from', /is required/],
    ['ship_to missing', { ship_from: NY, parcel: BOX }, 'ship_to', /is required/],
    ['parcel missing', { ship_from: NY, ship_to: LA }, 'parcel', /is required/],
    ['ship_to.postal_code missing', { ...VALID, ship_to: { country: 'US' } }, 'ship_to.postal_code', /is required/],
    ['ship_from.country missing', { ...VALID, ship_from: { postal_code: '10001' } }, 'ship_from.country', /is required/],
    ['parcel.weight_oz missing', { ...VALID, parcel: { length_in: 1, width_in: 1, height_in: 1 } }, 'parcel.weight_oz', /is required/],
    ['parcel.weight_oz zero', { ...VALID, parcel: { ...BOX, weight_oz: 0 } }, 'parcel.weight_oz', /> 0/],
    ['parcel.weight_oz negative', { ...VALID, parcel: { ...BOX, weight_oz: -3 } }, 'parcel.weight_oz', /> 0/],
    ['parcel.weight_oz a string', { ...VALID, parcel: { ...BOX, weight_oz: '16' } }, 'parcel.weight_oz', /number/],
    ['parcel.length_in zero', { ...VALID, parcel: { ...BOX, length_in: 0 } }, 'parcel.length_in', /> 0/],
    ['parcel.width_in missing', { ...VALID, parcel: { weight_oz: 1, length_in: 1, height_in: 1 } }, 'parcel.width_in', /is required/],
    ['parcel.height_in null', { ...VALID, parcel: { ...BOX, height_in: null } }, 'parcel.height_in', /number/],
    ['ship_to.postal_code a number', { ...VALID, ship_to: { country: 'US', postal_code: 90210 } }, 'ship_to.postal_code', /string/],
    ['services empty', { ...VALID, services: [] }, 'services', /at least 1/],
    ['services not a list', { ...VALID, services: 'ups_ground' }, 'services', /array/],
    ['ship_date not a date', { ...VALID, ship_date: 'tomorrow' }, 'ship_date', /YYYY-MM-DD/],
    ['residential not a boolean', { ...VALID, residential: 'yes' }, 'residential', /boolean/],
  ])('%s', async (_name, payload, field, message) => {
    await expect400(payload, field, message);
  });

  it.each([
    ['malformed US ZIP', { ...VALID, ship_to: { country: 'US', postal_code: '1234' } }, 'ship_to.postal_code', /ZIP/],
    ['unknown US ZIP', { ...VALID, ship_to: { country: 'US', postal_code: '00000' } }, 'ship_to.postal_code', /does not exist/],
    ['unknown origin ZIP', { ...VALID, ship_from: { country: 'US', postal_code: '99999' } }, 'ship_from.postal_code', /does not exist/],
    ['malformed UK postcode', { ...VALID, ship_to: { country: 'GB', postal_code: '123' } }, 'ship_to.postal_code', /GB/],
    ['empty Canadian postal code', { ...VALID, ship_to: { country: 'CA', postal_code: '' } }, 'ship_to.postal_code', /required/],
    ['unknown country', { ...VALID, ship_to: { country: 'XX', postal_code: '12345' } }, 'ship_to.country', /ISO 3166-1/],
    ['alpha-3 country', { ...VALID, ship_from: { country: 'USA', postal_code: '10001' } }, 'ship_from.country', /ISO 3166-1/],
    ['impossible ship_date', { ...VALID, ship_date: '2026-02-30' }, 'ship_date', /calendar date/],
    ['unknown service code', { ...VALID, services: ['ups_ground', 'ups_teleport'] }, 'services[1]', /unknown service/],
  ])('%s', async (_name, payload, field, message) => {
    await expect400(payload, field, message);
  });

  it('names a bad parcel and a bad postal code in one answer', async () => {
    const res = await post({ ship_from: NY, ship_to: { country: 'US', postal_code: '00000' }, parcel: { ...BOX, weight_oz: -1 } });
    expect(res.statusCode).toBe(400);
    const details = res.json().details as Detail[];
    expect(details.map((d) => d.field).sort()).toEqual(['parcel.weight_oz', 'ship_to.postal_code']);
  });

  it('a body that is not an object', async () => {
    const res = await post([VALID]);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
  });

  it('malformed JSON', async () => {
    const res = await app.inject({ method: 'POST', url: URL, headers: { ...tenant.headers, 'content-type': 'application/json' }, payload: '{"ship_from": ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_json');
  });
});

describe('POST /v1/rates/query: nothing can carry it', () => {
  it('is 422 no_rates listing every service with its reason', async () => {
    const res = await post({ ...VALID, parcel: { weight_oz: 4000, length_in: 120, width_in: 60, height_in: 60 } });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.code).toBe('no_rates');
    expect(body.request_id).toBe(res.headers['x-request-id']);
    expect(body.details).toHaveLength(19);
    for (const d of body.details) expect(Object.keys(d).sort()).toEqual(['carrier', 'reason', 'service_code']);
  });
});

describe('POST /v1/rates/query: auth', () => {
  it('needs a valid API key for the workspace', async () => {
    await expectV1AuthMatrix(app, { method: 'POST', url: URL, payload: VALID }, { owner: tenant });
  });
});
