import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, superAdminHeaders, type Tenant } from '../helpers/app.js';
import { startFakeUps, upsFixture, type FakeUps } from '../helpers/fake-ups.js';
import { loadUpsSpecs } from '../helpers/ups-spec.js';
import { registerBatchJobs } from '../../src/modules/batches/index.js';
import { PDFDocument } from 'pdf-lib';

/**
 * Carrier accounts end to end through an `api` UPS account: the rate-shop fans out to every
 * enabled account, purchase, label, void and tracking go to the shipment's account, and every
 * failure of the carrier has its documented answer. The carrier is the fake UPS on loopback,
 * which checks each request against UPS's published OpenAPI documents.
 */

const SECRET = 'fake-client-secret-7c1d';
const shipFrom = {
  name: 'Warehouse',
  company: 'Acme',
  street1: '350 5th Ave',
  city: 'New York',
  state: 'NY',
  postal_code: '10118',
  country: 'US',
  phone: '2125550100',
};
const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US', phone: '4155550100' };
const parcel = { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 };

let ups: FakeUps;
let app: FastifyInstance;
let t: Tenant;
let root: Record<string, string>;
let upsAccount: string;
let clock = Date.now();

beforeAll(async () => {
  ups = await startFakeUps({ clientSecret: SECRET, specs: loadUpsSpecs() });
  app = await buildTestApp({ config: { encryptionKey: randomBytes(32).toString('base64'), carrierAllowBaseUrlOverride: true }, now: () => new Date(clock) });
  root = await superAdminHeaders(app);
  await registerBatchJobs(app.deps, app.services.batches);
  await app.deps.jobs.start();
  t = await createTenant(app);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/carrier-accounts',
    headers: t.headers,
    payload: {
      carrier: 'ups',
      driver: 'api',
      account_number: 'A1B2C3',
      base_url: ups.url,
      description: 'Our UPS',
      credentials: { client_id: 'fake-client-id', client_secret: SECRET },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  upsAccount = res.json().id;
});
afterAll(async () => {
  await ups?.close();
});

async function createOrder(): Promise<{ id: string; status: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers: t.headers,
    payload: {
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      ship_to: shipTo,
      ship_from: shipFrom,
      line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 1, weight_oz: 24 }],
      parcel,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const rate = (payload: Record<string, unknown> = {}) =>
  app.inject({ method: 'POST', url: '/v1/rates/query', headers: t.headers, payload: { ship_from: shipFrom, ship_to: shipTo, parcel, ...payload } });
const buy = (orderId: string, extra: Record<string, unknown> = {}) =>
  app.inject({
    method: 'POST',
    url: '/v1/shipments',
    headers: t.headers,
    payload: { order_id: orderId, service_code: 'ups_ground', carrier_account_id: upsAccount, ...extra },
  });
const setTimeoutMs = (value: number) =>
  app.inject({ method: 'PUT', url: '/api/super-admin/settings/carriers.request_timeout_ms', headers: root, payload: { value } });

describe('the rate-shop across accounts', () => {
  it('asks every enabled account at once; each option names its account', async () => {
    const res = await rate();
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.messages).toEqual([]);
    const fromApi = body.data.filter((o: { carrier_account_id: string }) => o.carrier_account_id === upsAccount);
    expect(fromApi.length).toBeGreaterThan(0);
    for (const o of fromApi) expect(o.carrier).toBe('ups');
    expect(fromApi.map((o: { service_code: string }) => o.service_code)).toContain('ups_ground');
    // The simulated accounts still quote beside it, each option with its own account.
    const others = body.data.filter((o: { carrier_account_id: string }) => o.carrier_account_id !== upsAccount);
    expect(new Set(others.map((o: { carrier: string }) => o.carrier))).toEqual(new Set(['usps', 'ups', 'fedex']));
    for (const o of others) expect(o.carrier_account_id).toMatch(/^ca_/);
    expect(ups.violations).toEqual([]);
  });

  it('carrier_accounts narrows the accounts; one that is not an enabled account here is a 400 naming it', async () => {
    const only = await rate({ carrier_accounts: [upsAccount] });
    expect(only.statusCode, only.body).toBe(200);
    expect(new Set(only.json().data.map((o: { carrier_account_id: string }) => o.carrier_account_id))).toEqual(new Set([upsAccount]));
    const other = await createTenant(app);
    const foreign = await app.inject({
      method: 'POST',
      url: '/v1/rates/query',
      headers: other.headers,
      payload: { ship_from: shipFrom, ship_to: shipTo, parcel, carrier_accounts: [upsAccount] },
    });
    expect(foreign.statusCode, foreign.body).toBe(400);
    expect(foreign.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'carrier_accounts[0]' }] });
  });

  it('an account whose carrier fails becomes a message; the query still answers with the others', async () => {
    ups.queue('rates', { status: 503, body: { response: { errors: [{ code: '9999', message: 'down' }] } } }, { status: 503 }, { status: 503 });
    // Another parcel: an identical query within the minute would be answered from the quote cache.
    const res = await rate({ parcel: { ...parcel, weight_oz: 25 } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.messages).toEqual([{ carrier_account_id: upsAccount, carrier: 'ups', code: 'carrier_unavailable', message: expect.any(String) }]);
    expect(body.data.some((o: { carrier_account_id: string }) => o.carrier_account_id === upsAccount)).toBe(false);
    expect(body.data.length).toBeGreaterThan(0);
    ups.reset();
  });

  it('refused credentials are a carrier_account_invalid message, and the account health says so', async () => {
    const bad = await app.inject({
      method: 'POST',
      url: '/v1/carrier-accounts',
      headers: t.headers,
      payload: {
        carrier: 'ups',
        driver: 'api',
        account_number: 'A1B2C3',
        base_url: ups.url,
        credentials: { client_id: 'fake-client-id', client_secret: 'wrong-secret-0000' },
      },
    });
    expect(bad.statusCode, bad.body).toBe(201);
    const id = bad.json().id;
    const res = await rate({ carrier_accounts: [id, upsAccount], parcel: { ...parcel, weight_oz: 26 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().messages).toEqual([{ carrier_account_id: id, carrier: 'ups', code: 'carrier_account_invalid', message: expect.any(String) }]);
    const account = await app.inject({ method: 'GET', url: `/v1/carrier-accounts/${id}`, headers: t.headers });
    expect(account.json().health.status).toBe('invalid_credentials');
    // Buying through it is 422 carrier_account_invalid.
    const order = await createOrder();
    const purchase = await buy(order.id, { carrier_account_id: id });
    expect(purchase.statusCode, purchase.body).toBe(422);
    expect(purchase.json().code).toBe('carrier_account_invalid');
    await app.inject({ method: 'DELETE', url: `/v1/carrier-accounts/${id}`, headers: t.headers });
  });
});

describe('a label bought through the UPS account', () => {
  let shipmentId: string;

  it("is UPS's own label, stored as issued and served in every lossless format (ZPL from a GIF is a 422)", async () => {
    const order = await createOrder();
    const before = ups.count('ship');
    const res = await buy(order.id);
    expect(res.statusCode, res.body).toBe(201);
    const shipment = res.json();
    shipmentId = shipment.id;
    expect(shipment).toMatchObject({ carrier: 'ups', service_code: 'ups_ground', carrier_account_id: upsAccount, status: 'label_purchased' });
    expect(shipment.tracking_number).toMatch(/^1ZFAKE/);
    expect(ups.count('ship')).toBe(before + 1);
    expect(ups.violations).toEqual([]);

    const pdf = await app.inject({ method: 'GET', url: `/v1/shipments/${shipmentId}/label`, headers: t.headers });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const png = await app.inject({ method: 'GET', url: `/v1/shipments/${shipmentId}/label?format=png_4x6`, headers: t.headers });
    expect(png.statusCode).toBe(200);
    expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    const zpl = await app.inject({ method: 'GET', url: `/v1/shipments/${shipmentId}/label?format=zpl_4x6`, headers: t.headers });
    expect(zpl.statusCode, zpl.body).toBe(422);
    expect(zpl.json()).toMatchObject({ code: 'label_format_unavailable', details: [{ field: 'format' }] });

    const order2 = await createOrder();
    const asZpl = await buy(order2.id, { label_format: 'zpl_4x6' });
    expect(asZpl.statusCode, asZpl.body).toBe(201);
    const zplLabel = await app.inject({ method: 'GET', url: `/v1/shipments/${asZpl.json().id}/label`, headers: t.headers });
    expect(zplLabel.body).toMatch(/^\^XA/);
  });

  it('tracks through the carrier: a refresh asks UPS now, at most once a minute; reads never call it', async () => {
    const tracksBefore = ups.count('track');
    const read = await app.inject({ method: 'GET', url: `/v1/tracking/${shipmentId}`, headers: t.headers });
    expect(read.statusCode).toBe(200);
    expect(read.json().status).toBe('pre_transit');
    expect(ups.count('track')).toBe(tracksBefore);

    const refreshed = await app.inject({ method: 'POST', url: `/v1/tracking/${shipmentId}/refresh`, headers: t.headers });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(refreshed.json().status).toBe('delivered');
    expect(ups.count('track')).toBe(tracksBefore + 1);
    const again = await app.inject({ method: 'POST', url: `/v1/tracking/${shipmentId}/refresh`, headers: t.headers });
    expect(again.statusCode).toBe(429);
    expect(again.json().code).toBe('rate_limited');
    expect(Number(again.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const shipment = await app.inject({ method: 'GET', url: `/v1/shipments/${shipmentId}`, headers: t.headers });
    expect(shipment.json().status).toBe('delivered');
    // A delivered label cannot be voided.
    const voided = await app.inject({ method: 'POST', url: `/v1/shipments/${shipmentId}/void`, headers: t.headers });
    expect(voided.statusCode).toBe(409);
  });

  it('the poll job asks UPS for open shipments once their check is due', async () => {
    const order = await createOrder();
    const res = await buy(order.id);
    const id = res.json().id;
    const tracksBefore = ups.count('track');
    await app.services.shipments.tracking.pollDue();
    expect(ups.count('track')).toBe(tracksBefore); // not due yet: a day before the first scan
    clock += 86_400_000 + 1000;
    await app.services.shipments.tracking.pollDue();
    expect(ups.count('track')).toBeGreaterThan(tracksBefore);
    const read = await app.inject({ method: 'GET', url: `/v1/shipments/${id}`, headers: t.headers });
    expect(read.json().status).toBe('delivered');
  });

  it('voids at UPS; the accepted void is the refund decision: refunded at once', async () => {
    const order = await createOrder();
    const res = await buy(order.id);
    const voidsBefore = ups.count('void');
    const voided = await app.inject({ method: 'POST', url: `/v1/shipments/${res.json().id}/void`, headers: t.headers });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json().status).toBe('voided');
    expect(voided.json().refund).toMatchObject({ status: 'refunded', amount: res.json().price, decided_at: voided.json().refund.requested_at });
    expect(ups.count('void')).toBe(voidsBefore + 1);
    expect(ups.violations).toEqual([]);
    const refunds = (await app.inject({ method: 'GET', url: '/v1/refunds?status=refunded', headers: t.headers })).json();
    expect(refunds.data.map((r: { shipment_id: string }) => r.shipment_id)).toContain(res.json().id);
  });

  it("makes a return label at UPS through the outbound's account (on_scan by default), its addresses swapped; the order stays shipped", async () => {
    const order = await createOrder();
    const outbound = (await buy(order.id)).json();
    const before = ups.count('ship');
    const res = await app.inject({ method: 'POST', url: `/v1/shipments/${outbound.id}/return`, headers: t.headers, payload: { rma_number: 'RMA-UPS' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      is_return: true,
      return_of: outbound.id,
      carrier_account_id: upsAccount,
      charge: 'on_scan',
      billing_status: 'pending',
      ship_from: { postal_code: '94105' },
      ship_to: { postal_code: '10118' },
    });
    expect(res.json().tracking_number).toMatch(/^1ZFAKE/);
    expect(ups.count('ship')).toBe(before + 1);
    expect(ups.violations).toEqual([]);
    expect((await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.headers })).json().status).toBe('shipped');
  });
});

describe('a batch through the UPS account (its default)', () => {
  it("buys every label at UPS, and the batch file holds UPS's own labels in order", async () => {
    const other = await createTenant(app);
    const account = await app.inject({
      method: 'POST',
      url: '/v1/carrier-accounts',
      headers: other.headers,
      payload: {
        carrier: 'ups',
        driver: 'api',
        account_number: 'A1B2C3',
        base_url: ups.url,
        is_default: true,
        credentials: { client_id: 'fake-client-id', client_secret: SECRET },
      },
    });
    expect(account.statusCode, account.body).toBe(201);
    const orderIds = [];
    for (let i = 0; i < 2; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/orders',
        headers: other.headers,
        payload: {
          customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
          ship_to: shipTo,
          ship_from: shipFrom,
          line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 1, weight_oz: 24 }],
          parcel,
        },
      });
      orderIds.push(res.json().id);
    }
    const shipsBefore = ups.count('ship');
    const created = await app.inject({
      method: 'POST',
      url: '/v1/batches',
      headers: other.headers,
      payload: { type: 'purchase_labels', order_ids: orderIds, service_code: 'ups_ground' },
    });
    expect(created.statusCode, created.body).toBe(202);
    let batch = created.json();
    for (let i = 0; i < 300 && ['queued', 'running'].includes(batch.status); i++) {
      await new Promise((r) => setTimeout(r, 100));
      batch = (await app.inject({ method: 'GET', url: `/v1/batches/${batch.id}`, headers: other.headers })).json();
    }
    expect(batch).toMatchObject({ status: 'completed', counts: { succeeded: 2, failed: 0 } });
    expect(ups.count('ship')).toBe(shipsBefore + 2);
    const file = await app.inject({ method: 'GET', url: `/v1/batches/${batch.id}/label`, headers: other.headers });
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect((await PDFDocument.load(file.rawPayload)).getPageCount()).toBe(2);
  });
});

describe('address validation at purchase through the UPS account', () => {
  it('UPS checks the destination first: a verdict recorded from the carrier; an address UPS finds nowhere is 422 and nothing is bought', async () => {
    const order = await createOrder();
    const xavBefore = ups.count('xav');
    const res = await buy(order.id, { address_validation: 'validate' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().address_validation).toMatchObject({ mode: 'validate', source: { type: 'carrier', carrier: 'ups', carrier_account_id: upsAccount } });
    expect(ups.count('xav')).toBe(xavBefore + 1);

    const nowhere = await createOrder();
    const shipsBefore = ups.count('ship');
    ups.queue('xav', { body: upsFixture('xav-none') });
    const refused = await buy(nowhere.id, { address_validation: 'validate' });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().code).toBe('address_undeliverable');
    expect(refused.json().details.length).toBeGreaterThan(0);
    for (const d of refused.json().details) expect(d.field).toMatch(/^ship_to\./);
    expect(ups.count('ship')).toBe(shipsBefore);
    const after = await app.inject({ method: 'GET', url: `/v1/orders/${nowhere.id}`, headers: t.headers });
    expect(after.json().status).toBe(nowhere.status);
  });
});

describe('when UPS refuses or does not answer a purchase', () => {
  it("a business rejection is 422 carrier_rejected with UPS's code and message; the order stays open", async () => {
    const order = await createOrder();
    ups.queue('ship', { status: 400, body: { response: { errors: [{ code: '120802', message: 'Ship To postal code is invalid.' }] } } });
    const res = await buy(order.id);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ code: 'carrier_rejected', details: [{ carrier_code: '120802', message: 'Ship To postal code is invalid.' }] });
    const after = await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.headers });
    expect(after.json().status).toBe(order.status);
  });

  it('no answer within the deadline is 503 carrier_unavailable with Retry-After, and never retried blindly', async () => {
    expect((await setTimeoutMs(800)).statusCode).toBe(200);
    const order = await createOrder();
    const before = ups.count('ship');
    ups.queue('ship', { hang: true });
    const res = await buy(order.id);
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().code).toBe('carrier_unavailable');
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(ups.count('ship')).toBe(before + 1);
    expect((await setTimeoutMs(8000)).statusCode).toBe(200);
  });

  it('a label UPS issued is kept even when our transaction fails, and voided again at UPS', async () => {
    const order = await createOrder();
    // A real failure inside our transaction: the database refuses this order's shipment row.
    await sql
      .raw(
        `create or replace function refuse_test_shipment() returns trigger language plpgsql as $$ begin if new.order_id = '${order.id}' then raise exception 'refused by the test'; end if; return new; end $$`,
      )
      .execute(app.deps.db);
    await sql.raw('create trigger refuse_test_shipment before insert on shipments for each row execute function refuse_test_shipment()').execute(app.deps.db);
    try {
      const voidsBefore = ups.count('void');
      const res = await buy(order.id);
      expect(res.statusCode).toBe(500);
      expect(ups.count('void')).toBe(voidsBefore + 1);
      const kept = await app.deps.db
        .selectFrom('carrier_labels')
        .select(['status', 'format', 'tracking_number'])
        .where('workspace_id', '=', t.workspaceId)
        .where('status', '<>', 'kept')
        .execute();
      expect(kept).toEqual([{ status: 'compensated', format: 'GIF', tracking_number: expect.stringMatching(/^1ZFAKE/) }]);
      const after = await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.headers });
      expect(after.json().status).toBe(order.status);
    } finally {
      await sql.raw('drop trigger refuse_test_shipment on shipments').execute(app.deps.db);
      await sql.raw('drop function refuse_test_shipment()').execute(app.deps.db);
    }
  });
});

describe('shipment options through an api account (sent to UPS in its own fields)', () => {
  it("a rate query keeps the api account's services that offer the option, priced by UPS", async () => {
    const res = await rate({ options: { signature: 'adult' } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const ours = body.data.filter((o: { carrier_account_id: string }) => o.carrier_account_id === upsAccount);
    expect(ours.length).toBeGreaterThan(0);
    for (const o of ours) expect(o.surcharges.map((c: { code: string }) => c.code)).toContain('adult_signature');
    expect(
      body.messages
        .filter((m: { carrier_account_id: string; code: string }) => m.carrier_account_id === upsAccount && m.code === 'option_unavailable')
        .every((m: { service_code: string }) => !ours.some((o: { service_code: string }) => o.service_code === m.service_code)),
    ).toBe(true);
  });

  it('a purchase with insurance through it sends DeclaredValue to UPS', async () => {
    const order = await createOrder();
    const res = await buy(order.id, { options: { insurance: { amount: { amount: 10_000, currency: 'USD' } } } });
    expect(res.statusCode, res.body).toBe(201);
    const sent = JSON.parse(ups.requests.filter((r) => r.operation === 'ship').at(-1)!.body).ShipmentRequest.Shipment;
    expect(sent.Package[0].PackageServiceOptions.DeclaredValue).toMatchObject({ CurrencyCode: 'USD', MonetaryValue: '100.00' });
  });
});
