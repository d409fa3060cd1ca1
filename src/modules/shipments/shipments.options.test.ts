import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { registerBatchJobs } from '../batches/index.js';
import { upsOptions } from '../../carriers/ups/options.v2026-01.js';
import { settingsService } from '../settings/index.js';

// Monday 2 March 2026, 15:00 UTC.
const NOW = Date.parse('2026-03-02T15:00:00.000Z');

let app: FastifyInstance;
let t: Tenant;
let other: Tenant;

beforeAll(async () => {
  app = await buildTestApp({ now: () => new Date(NOW) });
  await registerBatchJobs(app.deps, app.services.batches);
  await app.deps.jobs.start();
  t = await createTenant(app);
  other = await createTenant(app);
});

const shipFrom = { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };

async function createOrder(extra: Record<string, unknown> = {}, headers = t.headers) {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers,
    payload: {
      ship_to: shipTo,
      ship_from: shipFrom,
      line_items: [{ sku: 'MUG-1', quantity: 1, weight_oz: 12 }],
      parcel: { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 },
      ...extra,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const buy = (orderId: string, body: Record<string, unknown>, headers = t.headers) =>
  app.inject({ method: 'POST', url: '/v1/shipments', headers, payload: { order_id: orderId, ...body } });

const DEFAULTS = { signature: 'none', saturday_delivery: false, insurance: null, dangerous_goods: null, references: [], delivery_instructions: null };

describe("orders carry options (their labels' default)", () => {
  it('echoes every key with defaults; PATCH replaces; null clears; unknown key 400', async () => {
    const plain = await createOrder();
    expect(plain.options).toEqual(DEFAULTS);
    const order = await createOrder({ options: { signature: 'adult', references: ['PO-77'] } });
    expect(order.options).toEqual({ ...DEFAULTS, signature: 'adult', references: ['PO-77'] });
    const read = await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.headers });
    expect(read.json().options).toEqual(order.options);
    const patched = await app.inject({
      method: 'PATCH',
      url: `/api/admin/orders/${order.id}`,
      headers: t.adminHeaders,
      payload: { options: { saturday_delivery: true } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().options).toEqual({ ...DEFAULTS, saturday_delivery: true });
    const cleared = await app.inject({ method: 'PATCH', url: `/api/admin/orders/${order.id}`, headers: t.adminHeaders, payload: { options: null } });
    expect(cleared.json().options).toEqual(DEFAULTS);
    const bad = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: {
        ship_to: shipTo,
        line_items: [{ sku: 'A', quantity: 1 }],
        options: { gift_wrap: true, signature: 'maybe', dangerous_goods: { category: 'dry_ice' } },
      },
    });
    expect(bad.statusCode).toBe(400);
    const fields = bad.json().details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['options.gift_wrap', 'options.signature', 'options.dangerous_goods.dry_ice_weight_oz']));
  });
});

describe('POST /v1/shipments with options', () => {
  it("the shipment's options override the order's key by key, are echoed and priced", async () => {
    const order = await createOrder({ options: { signature: 'standard', references: ['PO-1', 'INV-9'] } });
    const res = await buy(order.id, {
      service_code: 'ups_ground',
      options: { signature: 'adult', insurance: { amount: { amount: 30_000, currency: 'USD' } } },
    });
    expect(res.statusCode, res.body).toBe(201);
    const shipment = res.json();
    expect(shipment.options).toEqual({
      ...DEFAULTS,
      signature: 'adult',
      insurance: { amount: { amount: 30_000, currency: 'USD' } },
      references: ['PO-1', 'INV-9'],
    });
    const codes = shipment.rate.surcharges.map((s: { code: string }) => s.code);
    expect(codes).toEqual(expect.arrayContaining(['adult_signature', 'insurance']));
    expect(codes).not.toContain('signature');
    expect(shipment.rate.surcharges).toContainEqual({ code: 'adult_signature', amount: { amount: upsOptions.tariff.adult_signature, currency: 'USD' } });
    const sum = shipment.rate.base_price.amount + shipment.rate.surcharges.reduce((s: number, x: { amount: { amount: number } }) => s + x.amount.amount, 0);
    expect(shipment.price.amount).toBe(sum);
    // Read back the same.
    const read = await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}`, headers: t.headers });
    expect(read.json().options).toEqual(shipment.options);
    // The label (re-rendered in another format from the stored shipment) prints the mark and the references.
    const zpl = await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}/label?format=zpl_4x6`, headers: t.headers });
    expect(zpl.statusCode).toBe(200);
    expect(zpl.body).toContain('^FDADULT SIGNATURE REQUIRED^FS');
    expect(zpl.body).toContain('REFERENCE: PO-1 / INV-9');
  });

  it('a service lacking an option: 422 option_unavailable naming it, nothing bought, the order untouched', async () => {
    const order = await createOrder({ options: { saturday_delivery: true } });
    const res = await buy(order.id, { service_code: 'ups_ground' });
    expect(res.statusCode, res.body).toBe(422);
    const body = res.json();
    expect(body.code).toBe('option_unavailable');
    expect(body.details).toEqual([expect.objectContaining({ field: 'options.saturday_delivery', option: 'saturday_delivery' })]);
    const again = await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.headers });
    expect(again.json().status).toBe('awaiting_fulfillment');
    expect(await app.deps.db.selectFrom('shipments').select('id').where('order_id', '=', order.id).execute()).toEqual([]);
    // The purchase's own options can lift the order's: saturday_delivery false buys.
    const ok = await buy(order.id, { service_code: 'ups_ground', options: { saturday_delivery: false } });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('insurance above insurance_max and adult signature abroad are refused the same way', async () => {
    const order = await createOrder();
    const res = await buy(order.id, { service_code: 'usps_ground_advantage', options: { insurance: { amount: { amount: 600_000, currency: 'USD' } } } });
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0]).toMatchObject({ field: 'options.insurance', option: 'insurance', message: expect.stringMatching(/up to 5000\.00 USD/) });
  });

  it('auto chooses among services that offer the options', async () => {
    const order = await createOrder();
    const res = await buy(order.id, { service_code: 'auto', options: { dangerous_goods: { category: 'limited_quantity_ground' }, saturday_delivery: true } });
    expect(res.statusCode, res.body).toBe(201);
    expect(['fedex_home_delivery', 'usps_ground_advantage']).toContain(res.json().service_code);
  });

  it('bad options: 400 with one detail per field, before anything else', async () => {
    const order = await createOrder();
    const res = await buy(order.id, {
      service_code: 'ups_ground',
      options: { references: ['a', 'b', 'c'], delivery_instructions: 'x'.repeat(121), insurance: { amount: { amount: 0, currency: 'USD' } } },
    });
    expect(res.statusCode).toBe(400);
    const fields = res
      .json()
      .details.map((d: { field: string }) => d.field)
      .sort();
    expect(fields).toEqual(['options.delivery_instructions', 'options.insurance.amount.amount', 'options.references']);
  });

  it("another workspace's order is 404 whatever the options", async () => {
    const order = await createOrder();
    const res = await buy(order.id, { service_code: 'ups_ground', options: { signature: 'standard' } }, other.headers);
    expect(res.statusCode).toBe(404);
  });
});

describe('generate and batch items take options', () => {
  it('admin generate with options buys a service that offers them', async () => {
    const order = await createOrder();
    const res = await app.inject({
      method: 'POST',
      url: `/api/admin/orders/${order.id}/generate`,
      headers: t.adminHeaders,
      payload: { service_code: 'ups_ground', options: { signature: 'adult' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const shipment = await app.deps.db.selectFrom('shipments').select(['options']).where('order_id', '=', order.id).executeTakeFirstOrThrow();
    expect(shipment.options).toMatchObject({ signature: 'adult' });
    const refused = await app.inject({
      method: 'POST',
      url: `/api/admin/orders/${(await createOrder()).id}/generate`,
      headers: t.adminHeaders,
      payload: { service_code: 'ups_ground', options: { saturday_delivery: true } },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('option_unavailable');
    const unknown = await app.inject({
      method: 'POST',
      url: `/api/admin/orders/${order.id}/generate`,
      headers: t.adminHeaders,
      payload: { options: { colour: 'red' } },
    });
    expect(unknown.statusCode).toBe(400);
  });

  it('a purchase_labels item with options: bought with them; one lacking: a failed item with option_unavailable', async () => {
    const a = await createOrder();
    const b = await createOrder();
    const created = await app.inject({
      method: 'POST',
      url: '/v1/batches',
      headers: t.headers,
      payload: {
        type: 'purchase_labels',
        items: [
          { order_id: a.id, service_code: 'fedex_2day', options: { saturday_delivery: true } },
          { order_id: b.id, service_code: 'ups_ground', options: { saturday_delivery: true } },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(202);
    const id = created.json().id;
    let batch;
    for (let i = 0; i < 300; i++) {
      batch = (await app.inject({ method: 'GET', url: `/v1/batches/${id}`, headers: t.headers })).json();
      if (!['queued', 'running'].includes(batch.status)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(batch.status).toBe('completed_with_errors');
    const items = (await app.inject({ method: 'GET', url: `/v1/batches/${id}/items`, headers: t.headers })).json().data;
    expect(items[0].result.shipment.options.saturday_delivery).toBe(true);
    expect(items[1].error.code).toBe('option_unavailable');
  });
});

describe('insurance is refunded with the label on void', () => {
  it('the refund names the premium in its breakdown and its reason', async () => {
    await settingsService(app.deps).set('sandbox.refund_delay_seconds', 0, { type: 'system', id: null }, {});
    const order = await createOrder();
    const res = await buy(order.id, { service_code: 'ups_ground', options: { insurance: { amount: { amount: 80_000, currency: 'USD' } } } });
    expect(res.statusCode, res.body).toBe(201);
    const shipment = res.json();
    const premium = shipment.rate.surcharges.find((s: { code: string }) => s.code === 'insurance').amount;
    // 800 USD: eight started 100 USD at 1.55.
    expect(premium).toEqual({ amount: 8 * upsOptions.tariff.insurance.per_100, currency: 'USD' });
    const voided = await app.inject({ method: 'POST', url: `/v1/shipments/${shipment.id}/void`, headers: t.headers });
    expect(voided.statusCode, voided.body).toBe(200);
    const refund = voided.json().refund;
    expect(refund.amount).toEqual(shipment.price);
    expect(refund.breakdown).toEqual([
      { code: 'label', amount: { amount: shipment.price.amount - premium.amount, currency: 'USD' } },
      { code: 'insurance', amount: premium },
    ]);
    await app.services.shipments.refunds.decide(shipment.id);
    const after = (await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}`, headers: t.headers })).json().refund;
    expect(after).toMatchObject({ status: 'refunded', reason: expect.stringContaining('insurance premium') });
    const listed = (await app.inject({ method: 'GET', url: '/v1/refunds', headers: t.headers }))
      .json()
      .data.find((r: { shipment_id: string }) => r.shipment_id === shipment.id);
    expect(listed.breakdown).toEqual(refund.breakdown);
  });
});
