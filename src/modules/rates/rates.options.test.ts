import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { upsOptions } from '../../carriers/ups/options.v2026-01.js';
import { fedexOptions } from '../../carriers/fedex/options.v2026-01.js';
import { uspsOptions } from '../../carriers/usps/options.v2026-01.js';

const URL = '/v1/rates/query';
const NY = { country: 'US', postal_code: '10001' };
const LA = { country: 'US', postal_code: '90210' };
const BOX = { weight_oz: 20, length_in: 10, width_in: 8, height_in: 4 };
const VALID = { ship_from: NY, ship_to: LA, parcel: BOX };

interface Surcharge {
  code: string;
  amount: { amount: number; currency: string };
}
interface Option {
  service_code: string;
  carrier: string;
  carrier_account_id: string | null;
  price: { amount: number };
  base_price: { amount: number };
  surcharges: Surcharge[];
}
interface Message {
  carrier_account_id: string | null;
  carrier: string;
  service_code?: string;
  code: string;
  option?: string;
  message: string;
}

let app: FastifyInstance;
let tenant: Tenant;

beforeAll(async () => {
  app = await buildTestApp();
  tenant = await createTenant(app);
});

const post = (payload: unknown) => app.inject({ method: 'POST', url: URL, headers: tenant.headers, payload: payload as object });

async function quote(options: unknown): Promise<{ data: Option[]; messages: Message[]; unavailable: { service_code: string }[] }> {
  const res = await post({ ...VALID, options });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('POST /v1/rates/query with options', () => {
  it("prices adult signature from each carrier's tariff as a surcharge, price = base + surcharges", async () => {
    const plain = await quote(undefined);
    const body = await quote({ signature: 'adult' });
    const ground = body.data.find((o) => o.service_code === 'ups_ground')!;
    const plainGround = plain.data.find((o) => o.service_code === 'ups_ground')!;
    expect(ground.surcharges).toContainEqual({ code: 'adult_signature', amount: { amount: upsOptions.tariff.adult_signature, currency: 'USD' } });
    expect(ground.price.amount).toBe(plainGround.price.amount + upsOptions.tariff.adult_signature);
    for (const o of body.data) expect(o.price.amount).toBe(o.base_price.amount + o.surcharges.reduce((s, x) => s + x.amount.amount, 0));
    const usps = body.data.find((o) => o.service_code === 'usps_ground_advantage')!;
    expect(usps.surcharges.find((s) => s.code === 'adult_signature')!.amount.amount).toBe(uspsOptions.tariff.adult_signature);
  });

  it('a free option adds no surcharge entry (USPS Saturday delivery)', async () => {
    const body = await quote({ saturday_delivery: true });
    const usps = body.data.find((o) => o.service_code === 'usps_priority_mail')!;
    expect(usps.surcharges.map((s) => s.code)).not.toContain('saturday_delivery');
    const fedex = body.data.find((o) => o.service_code === 'fedex_2day')!;
    expect(fedex.surcharges).toContainEqual({ code: 'saturday_delivery', amount: { amount: fedexOptions.tariff.saturday_delivery, currency: 'USD' } });
  });

  it('drops services without Saturday delivery, one option_unavailable message each, naming account, service and option', async () => {
    const body = await quote({ saturday_delivery: true });
    const codes = body.data.map((o) => o.service_code);
    expect(codes).not.toContain('ups_ground');
    expect(codes).toContain('ups_next_day_air');
    const msg = body.messages.find((m) => m.service_code === 'ups_ground')!;
    expect(msg).toMatchObject({ carrier: 'ups', code: 'option_unavailable', option: 'saturday_delivery' });
    expect(msg.carrier_account_id).toMatch(/^ca_/);
    expect(msg.message).toMatch(/Saturday/);
    expect(Object.keys(msg).sort()).toEqual(['carrier', 'carrier_account_id', 'code', 'message', 'option', 'service_code']);
    expect(body.messages.every((m) => m.code === 'option_unavailable')).toBe(true);
  });

  it("insurance: premium from the tariff; a value above the service's insurance_max drops it", async () => {
    const body = await quote({ insurance: { amount: { amount: 50_000, currency: 'USD' } } });
    const ground = body.data.find((o) => o.service_code === 'ups_ground')!;
    // 500 USD: five started 100 USD at 1.55 = 7.75 (above the 4.85 minimum).
    expect(ground.surcharges).toContainEqual({ code: 'insurance', amount: { amount: 775, currency: 'USD' } });
    const big = await quote({ insurance: { amount: { amount: 1_000_000, currency: 'USD' } } });
    expect(big.data.map((o) => o.carrier)).not.toContain('usps');
    expect(big.messages.filter((m) => m.carrier === 'usps').every((m) => m.option === 'insurance' && /up to 5000\.00 USD/.test(m.message))).toBe(true);
    // Within the included liability: no entry.
    const small = await quote({ insurance: { amount: { amount: 5_000, currency: 'USD' } } });
    expect(small.data.find((o) => o.service_code === 'ups_ground')!.surcharges.map((s) => s.code)).not.toContain('insurance');
  });

  it('dangerous goods: only services that carry the category; limited quantity goes by ground', async () => {
    const body = await quote({ dangerous_goods: { category: 'limited_quantity_ground' } });
    const codes = body.data.map((o) => o.service_code);
    expect(codes).toEqual(expect.arrayContaining(['ups_ground', 'fedex_home_delivery', 'usps_ground_advantage']));
    expect(body.unavailable.map((u: { service_code: string }) => u.service_code)).not.toContain('ups_ground');
    expect(codes).not.toContain('ups_next_day_air');
    expect(body.data.find((o) => o.service_code === 'ups_ground')!.surcharges).toContainEqual({
      code: 'dangerous_goods',
      amount: { amount: upsOptions.tariff.dangerous_goods.limited_quantity_ground!, currency: 'USD' },
    });
    expect(body.messages.find((m) => m.service_code === 'ups_next_day_air')).toMatchObject({ option: 'dangerous_goods' });
  });

  it('references and instructions alone drop nothing and cost nothing', async () => {
    const plain = await quote(undefined);
    const body = await quote({ references: ['PO-1'], delivery_instructions: 'Leave at the back door' });
    expect(body.messages).toEqual([]);
    expect(body.data.map((o) => [o.service_code, o.price.amount])).toEqual(plain.data.map((o) => [o.service_code, o.price.amount]));
  });

  it('every service dropped: 200 with no options and the messages', async () => {
    const body = await quote({ insurance: { amount: { amount: 9_000_000, currency: 'USD' } } });
    expect(body.data).toEqual([]);
    expect(body.messages.length).toBeGreaterThan(5);
  });
});

describe('POST /v1/rates/query options: bad input is a 400, one detail per bad field', () => {
  it('unknown keys, bad enum, long references, too many, bad money, dry ice without weight', async () => {
    const res = await post({
      ...VALID,
      options: {
        color: 'red',
        signature: 'sometimes',
        references: ['x'.repeat(36), 'b', 'c'],
        insurance: { amount: { amount: 0, currency: 'USD' } },
        dangerous_goods: { category: 'dry_ice' },
        delivery_instructions: 'y'.repeat(121),
      },
    });
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json();
    expect(body.code).toBe('validation_failed');
    const byField = Object.fromEntries((body.details as { field: string; message: string }[]).map((d) => [d.field, d.message]));
    expect(byField['options.color']).toMatch(/not an allowed field/);
    expect(byField['options.signature']).toBe('must be one of: none, standard, adult');
    expect(byField['options.references']).toMatch(/at most 2/);
    expect(byField['options.references[0]']).toMatch(/at most 35/);
    expect(byField['options.delivery_instructions']).toMatch(/at most 120/);
    expect(byField['options.insurance.amount.amount']).toMatch(/> 0/);
    expect(byField['options.dangerous_goods.dry_ice_weight_oz']).toMatch(/required with category dry_ice/);
    const fields = body.details.map((d: { field: string }) => d.field);
    expect(new Set(fields).size).toBe(fields.length);
  });

  it('a schema-valid body breaking only the rules is still a 400', async () => {
    const res = await post({ ...VALID, options: { dangerous_goods: { category: 'lithium_ion_in_equipment', dry_ice_weight_oz: 5 } } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details).toEqual([{ field: 'options.dangerous_goods.dry_ice_weight_oz', message: 'is only allowed with category dry_ice' }]);
  });

  it('a bad currency inside nullable insurance is named at its field', async () => {
    const res = await post({ ...VALID, options: { insurance: { amount: { amount: 100, currency: 'usd' } } } });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { field: string }) => d.field)).toEqual(['options.insurance.amount.currency']);
  });
});

describe("GET /v1/carrier-types publishes each service's options from the same table", () => {
  it('every service of every carrier, equal to its options table', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/carrier-types', headers: tenant.headers });
    expect(res.statusCode).toBe(200);
    const types = res.json().data as { carrier: string; services: { service_code: string; options: Record<string, unknown> }[] }[];
    const tables: Record<string, { services: Record<string, unknown> }> = { ups: upsOptions, fedex: fedexOptions, usps: uspsOptions };
    for (const t of types) {
      for (const s of t.services) {
        expect(Object.keys(s.options).sort()).toEqual(['adult_signature', 'dangerous_goods', 'insurance_max', 'max_parcels', 'saturday_delivery', 'signature']);
        if (tables[t.carrier]) expect(s.options).toEqual(JSON.parse(JSON.stringify(tables[t.carrier].services[s.service_code])));
      }
    }
    const usps = types.find((t) => t.carrier === 'usps')!;
    expect(usps.services.every((s) => s.options.max_parcels === 1)).toBe(true);
  });
});
