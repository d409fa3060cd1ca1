import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, expectV1AuthMatrix, superAdminHeaders, type Tenant } from '../../../test/helpers/app.js';
import { eventually, startReceiver, type Receiver } from '../../../test/helpers/webhook-receiver.js';
import { settingsService } from '../settings/index.js';
import { registerWebhookJobs } from '../webhooks/index.js';

// Returns and refunds on a fake clock: Monday 2 March 2026, 15:00 UTC (the
// simulated carriers pick up at 18:00 on a weekday bought before 17:00).
let clock = Date.parse('2026-03-02T15:00:00.000Z');
const setClock = (iso: string) => (clock = Date.parse(iso));

let app: FastifyInstance;
let t: Tenant;
let receiver: Receiver;
const system = { type: 'system' as const, id: null };

beforeAll(async () => {
  app = await buildTestApp({ now: () => new Date(clock), config: { encryptionKey: randomBytes(32).toString('base64'), webhookAllowPrivateTargets: true } });
  await registerWebhookJobs(app.deps);
  await app.deps.jobs.start();
  t = await createTenant(app);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

const warehouse = { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const buyer = {
  name: 'Ada Lovelace',
  street1: '1 Market St',
  city: 'San Francisco',
  state: 'CA',
  postal_code: '94105',
  country: 'US',
  phone: '+1 415 555 0100',
};
const londoner = { name: 'Charles Babbage', street1: '10 Downing St', city: 'London', postal_code: 'SW1A 2AA', country: 'GB', phone: '+44 20 7925 0918' };

async function createOrder(headers: Record<string, string>, extra: Record<string, unknown> = {}) {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers,
    payload: {
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      ship_to: buyer,
      ship_from: warehouse,
      line_items: [
        { sku: 'MUG-1', name: 'Ceramic coffee mug', quantity: 2, weight_oz: 12, unit_price: { amount: 1500, currency: 'USD' }, hs_tariff_number: '6912.00' },
      ],
      parcel: { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 },
      ...extra,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function bought(headers: Record<string, string> = t.headers, orderExtra: Record<string, unknown> = {}, body: Record<string, unknown> = {}) {
  const order = await createOrder(headers, orderExtra);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/shipments',
    headers,
    payload: { order_id: order.id, service_code: 'usps_ground_advantage', ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { order, shipment: res.json() };
}

const makeReturn = (id: string, body: Record<string, unknown> = {}, headers: Record<string, string> = t.headers) =>
  app.inject({ method: 'POST', url: `/v1/shipments/${id}/return`, headers, payload: body });
const get = async (path: string, headers: Record<string, string> = t.headers) => {
  const res = await app.inject({ method: 'GET', url: path, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const voidIt = (id: string, headers: Record<string, string> = t.headers) => app.inject({ method: 'POST', url: `/v1/shipments/${id}/void`, headers });
const setRefundDelay = (seconds: number) => settingsService(app.deps).set('sandbox.refund_delay_seconds', seconds, system, {});
const addressOf = (a: Record<string, unknown>) => ({ name: a.name, street1: a.street1, city: a.city, postal_code: a.postal_code, country: a.country });

describe('POST /v1/shipments/:id/return', () => {
  it('swaps the addresses, bills on scan by default (pending → charged at the first scan), is listed by the outbound, and never moves the order', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    // The outbound is never scanned (SANDBOX:unused in its recipient), so only the return moves.
    const { order, shipment } = await bought(t.headers, { ship_to: { ...buyer, name: 'Ada SANDBOX:unused' } });
    const res = await makeReturn(shipment.id, { rma_number: 'RMA-1', reason: 'Too small' });
    expect(res.statusCode, res.body).toBe(201);
    const r = res.json();
    expect(r).toMatchObject({
      is_return: true,
      return_of: shipment.id,
      order_id: order.id,
      carrier: 'usps',
      service_code: 'usps_ground_advantage',
      status: 'label_purchased',
      charge: 'on_scan',
      billing_status: 'pending',
      rma_number: 'RMA-1',
      reason: 'Too small',
      expires_at: '2026-04-01T15:00:00.000Z',
      returns: [],
      refund: null,
    });
    expect(r.id).not.toBe(shipment.id);
    expect(addressOf(r.ship_from)).toEqual(addressOf(shipment.ship_to));
    expect(addressOf(r.ship_to)).toEqual(addressOf(shipment.ship_from));
    expect(r.price.amount).toBeGreaterThan(0);
    expect((await get(`/v1/orders/${order.id}`)).status).toBe('shipped');

    const outbound = await get(`/v1/shipments/${shipment.id}`);
    expect(outbound.returns).toEqual([{ id: r.id, tracking_number: r.tracking_number, status: 'label_purchased', billing_status: 'pending' }]);
    expect(outbound.is_return).toBe(false);
    expect(outbound.billing_status).toBe('charged');

    setClock('2026-03-02T19:00:00.000Z'); // after the 18:00 pickup scan
    expect(await get(`/v1/shipments/${r.id}`)).toMatchObject({ status: 'in_transit', billing_status: 'charged', price: r.price });
    expect((await get(`/v1/shipments/${shipment.id}`)).returns[0]).toMatchObject({ status: 'in_transit', billing_status: 'charged' });

    setClock('2026-03-25T00:00:00.000Z');
    expect((await get(`/v1/tracking/${r.id}`)).status).toBe('delivered');
    expect((await get(`/v1/shipments/${r.id}`)).status).toBe('delivered');
    // The return's delivery left the order (still shipped by its live outbound label) as it was.
    expect((await get(`/v1/orders/${order.id}`)).status).toBe('shipped');
    expect((await get(`/v1/shipments/${shipment.id}`)).status).toBe('label_purchased');
  });

  it('a live return label does not keep the order shipped: voiding the outbound returns the order to processing; voiding the return leaves it', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const { order, shipment } = await bought();
    const r = (await makeReturn(shipment.id, { charge: 'on_creation' })).json();
    expect(r).toMatchObject({ charge: 'on_creation', billing_status: 'charged' });
    expect((await voidIt(shipment.id)).statusCode).toBe(200);
    expect((await get(`/v1/orders/${order.id}`)).status).toBe('processing');
    const voided = await voidIt(r.id);
    expect(voided.statusCode, voided.body).toBe(200);
    expect((await get(`/v1/orders/${order.id}`)).status).toBe('processing');
  });

  it('force-delivering a return (admin) charges it and leaves the order as it was', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const { order, shipment } = await bought(t.headers, { ship_to: { ...buyer, name: 'Ada SANDBOX:unused' } });
    const r = (await makeReturn(shipment.id)).json();
    const res = await app.inject({ method: 'POST', url: `/api/admin/shipments/${r.id}/force-delivery`, headers: t.adminHeaders });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'delivered', billing_status: 'charged' });
    expect((await get(`/v1/orders/${order.id}`)).status).toBe('shipped');
    const admin = await app.inject({
      method: 'POST',
      url: `/api/admin/shipments/${shipment.id}/return`,
      headers: t.adminHeaders,
      payload: { charge: 'on_creation' },
    });
    expect(admin.statusCode, admin.body).toBe(201);
    expect((await get(`/v1/shipments/${shipment.id}`)).returns.map((x: { id: string }) => x.id)).toEqual([r.id, admin.json().id]);
  });

  it('DHL Express bills only on creation: on_scan is 422 naming the capability; the default is on_creation; international returns copy the customs as return_merchandise', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const { shipment } = await bought(t.headers, { ship_to: londoner }, { service_code: 'dhl_express_worldwide' });
    const customs = {
      contents_type: 'merchandise',
      non_delivery: 'return',
      incoterm: 'DDU',
      items: [
        {
          description: 'Ceramic coffee mug',
          quantity: 2,
          unit_value: { amount: 1500, currency: 'USD' },
          weight_oz: 12,
          hs_tariff_number: '691200',
          origin_country: 'US',
        },
      ],
    };
    // The outbound's declaration as the customs work stores it (shipments.customs).
    await app.deps.db
      .updateTable('shipments')
      .set({ customs: JSON.stringify(customs) })
      .where('id', '=', shipment.id)
      .execute();

    const refused = await makeReturn(shipment.id, { charge: 'on_scan' });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'return_charge_unavailable', details: [{ field: 'charge' }] });
    expect(refused.json().details[0].message).toMatch(/return_charges capability is on_creation/);

    const res = await makeReturn(shipment.id);
    expect(res.statusCode, res.body).toBe(201);
    const r = res.json();
    expect(r).toMatchObject({
      carrier: 'dhl_express',
      charge: 'on_creation',
      billing_status: 'charged',
      ship_from: { country: 'GB' },
      ship_to: { country: 'US' },
    });
    const row = await app.deps.db.selectFrom('shipments').select('customs').where('id', '=', r.id).executeTakeFirstOrThrow();
    expect(row.customs).toMatchObject({ ...customs, contents_type: 'return_merchandise' });
  });

  it('an international return through UPS, FedEx or USPS is bought on the outbound lane backwards (an import return), declared as return_merchandise', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    for (const service_code of ['ups_worldwide_saver', 'fedex_international_priority', 'usps_priority_mail_international']) {
      const { shipment } = await bought(t.headers, { ship_to: londoner }, { service_code });
      expect(shipment.customs, service_code).toMatchObject({ contents_type: 'merchandise' });
      const res = await makeReturn(shipment.id);
      expect(res.statusCode, `${service_code}: ${res.body}`).toBe(201);
      expect(res.json(), service_code).toMatchObject({
        service_code,
        charge: 'on_scan',
        billing_status: 'pending',
        ship_from: { country: 'GB' },
        ship_to: { country: 'US' },
        customs: { contents_type: 'return_merchandise', items: shipment.customs.items },
      });
    }
  });

  it('a residential-only service is returned by the service its carrier names for returns (FedEx Home Delivery → FedEx Ground to the business); a named service still wins', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const { shipment } = await bought(t.headers, {}, { service_code: 'fedex_home_delivery' });
    const carriers = app.deps.carriers;
    const expected = carriers.byServiceCode('fedex_home_delivery')!.services.find((s) => s.code === 'fedex_home_delivery')!.return_service_code;
    expect(expected).toBe('fedex_ground');
    const res = await makeReturn(shipment.id);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ carrier: 'fedex', service_code: expected, is_return: true, return_of: shipment.id, ship_to: addressOf(warehouse) });

    const named = await makeReturn(shipment.id, { service_code: 'fedex_home_delivery' });
    expect(named.statusCode, named.body).toBe(422);
    expect(named.json()).toMatchObject({ code: 'no_rates' });
  });

  it('an on_scan label unused at expires_at becomes expired and not_charged (tracking.updated recorded); voided unused it asks for no refund', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const { shipment } = await bought();
    const r = (await makeReturn(shipment.id, { reason: 'SANDBOX:unused', expires_in_days: 2 })).json();
    expect(r).toMatchObject({ billing_status: 'pending', expires_at: '2026-03-04T15:00:00.000Z' });
    setClock('2026-03-04T14:59:59.000Z');
    expect(await get(`/v1/shipments/${r.id}`)).toMatchObject({ status: 'label_purchased', billing_status: 'pending' });
    setClock('2026-03-04T15:00:01.000Z');
    // The poll job finds it due at its expiry, without a read.
    await app.services.shipments.tracking.pollDue();
    const row = await app.deps.db.selectFrom('shipments').select(['status', 'billing_status']).where('id', '=', r.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'expired', billing_status: 'not_charged' });
    expect(await get(`/v1/shipments/${r.id}`)).toMatchObject({
      status: 'expired',
      billing_status: 'not_charged',
      tracking_status: 'cancelled',
      status_detail: 'return_label_expired',
    });
    const updates = await app.deps.db
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'tracking.updated')
      .where('workspace_id', '=', t.workspaceId)
      .execute();
    expect(
      updates.some(
        (e) =>
          (e.data as { shipment_id: string; shipment_status: string }).shipment_id === r.id &&
          (e.data as { shipment_status: string }).shipment_status === 'expired',
      ),
    ).toBe(true);
    const again = await voidIt(r.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().details[0]).toMatchObject({ current_state: 'expired', allowed_moves: [] });

    const unused = (await makeReturn(shipment.id, { reason: 'SANDBOX:unused' })).json();
    const voided = await voidIt(unused.id);
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json()).toMatchObject({ status: 'voided', billing_status: 'not_charged', refund: null });
  });

  it('validates its body; a return of a return is 422; a voided shipment 409; another workspace 404', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const { shipment } = await bought();
    for (const body of [{ expires_in_days: 0 }, { expires_in_days: 91 }, { charge: 'later' }, { service_code: 'nope' }, { surprise: 1 }]) {
      const res = await makeReturn(shipment.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    const r = (await makeReturn(shipment.id)).json();
    const nested = await makeReturn(r.id);
    expect(nested.statusCode).toBe(422);
    expect(nested.json().code).toBe('unprocessable');
    const other = await bought();
    await voidIt(other.shipment.id);
    const fromVoided = await makeReturn(other.shipment.id);
    expect(fromVoided.statusCode).toBe(409);
    expect(fromVoided.json().details[0]).toMatchObject({ field: 'status', current_state: 'voided' });
    await expectV1AuthMatrix(app, { method: 'POST', url: `/v1/shipments/${shipment.id}/return`, payload: {} }, { owner: t, otherWorkspaceResource: true });
  });

  it('honours Idempotency-Key: concurrent retries make one return label', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const { shipment } = await bought();
    const headers = { ...t.headers, 'idempotency-key': `ret-${shipment.id}` };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => app.inject({ method: 'POST', url: `/v1/shipments/${shipment.id}/return`, headers, payload: { rma_number: 'RMA-9' } })),
    );
    const created = answers.filter((a) => a.statusCode === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const a of answers) expect([201, 409]).toContain(a.statusCode);
    expect(new Set(created.map((a) => a.json().id)).size).toBe(1);
    const replay = await app.inject({ method: 'POST', url: `/v1/shipments/${shipment.id}/return`, headers, payload: { rma_number: 'RMA-9' } });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().id).toBe(created[0].json().id);
    const rows = await app.deps.db.selectFrom('shipments').select('id').where('return_of', '=', shipment.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('prints RETURN on the label (ZPL, PDF), not on the outbound one', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const { shipment } = await bought();
    const r = (await makeReturn(shipment.id, { label_format: 'zpl_4x6' })).json();
    const zpl = await app.inject({ method: 'GET', url: `/v1/shipments/${r.id}/label`, headers: t.headers });
    expect(zpl.headers['content-type']).toContain('application/x-zpl');
    expect(zpl.body).toContain('^FDRETURN TO:^FS');
    expect(zpl.body).not.toContain('SHIP TO:');
    const outboundZpl = await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}/label?format=zpl_4x6`, headers: t.headers });
    expect(outboundZpl.body).not.toContain('RETURN');
    const pdf = await app.inject({ method: 'GET', url: `/v1/shipments/${r.id}/label?format=pdf_4x6`, headers: t.headers });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const dir = mkdtempSync(join(tmpdir(), 'return-label-'));
    writeFileSync(join(dir, 'label.pdf'), pdf.rawPayload);
    const text = execFileSync('pdftotext', [join(dir, 'label.pdf'), '-'], { encoding: 'utf8' });
    expect(text).toContain('RETURN TO:');
    expect(text).toContain('USPS GROUND ADVANTAGE');
    expect(text).not.toContain('SHIP TO:');
  });
});

describe('POST /v1/shipments with is_return', () => {
  it('makes a standalone return for an order: its addresses swapped, the order untouched', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const order = await createOrder(t.headers);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: { order_id: order.id, service_code: 'ups_ground', is_return: true, rma_number: 'RMA-S', reason: 'Damaged' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const r = res.json();
    expect(r).toMatchObject({
      is_return: true,
      return_of: null,
      order_id: order.id,
      carrier: 'ups',
      charge: 'on_scan',
      billing_status: 'pending',
      rma_number: 'RMA-S',
      reason: 'Damaged',
    });
    expect(addressOf(r.ship_from)).toEqual(addressOf({ ...buyer }));
    expect(addressOf(r.ship_to)).toEqual(addressOf({ ...warehouse }));
    expect((await get(`/v1/orders/${order.id}`)).status).toBe('awaiting_fulfillment');

    const stray = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: { order_id: order.id, service_code: 'ups_ground', rma_number: 'RMA-X' },
    });
    expect(stray.statusCode).toBe(400);
    expect(stray.json().details).toEqual([{ field: 'rma_number', message: 'only with is_return: true' }]);
    const auto = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: { order_id: order.id, service_code: 'auto', is_return: true },
    });
    expect(auto.statusCode).toBe(400);
  });
});

describe('refunds', () => {
  it('a void submits a refund the simulated carrier refunds after sandbox.refund_delay_seconds (job on the fake clock); deciding again changes nothing', async () => {
    await setRefundDelay(60);
    setClock('2026-03-02T15:00:00.000Z');
    const { shipment } = await bought();
    setClock('2026-03-02T15:30:00.000Z');
    const res = await voidIt(shipment.id);
    expect(res.statusCode, res.body).toBe(200);
    const refund = res.json().refund;
    expect(refund).toEqual({
      id: expect.stringMatching(/^rfd_/),
      status: 'submitted',
      amount: shipment.price,
      breakdown: [{ code: 'label', amount: shipment.price }],
      requested_at: '2026-03-02T15:30:00.000Z',
      decided_at: null,
      reason: null,
    });

    setClock('2026-03-02T15:30:59.000Z');
    expect(await app.services.shipments.refunds.decide(shipment.id)).toBe(false);
    setClock('2026-03-02T15:31:00.000Z');
    expect(await app.services.shipments.refunds.decideDue()).toBeGreaterThanOrEqual(1);
    expect((await get(`/v1/shipments/${shipment.id}`)).refund).toMatchObject({
      id: refund.id,
      status: 'refunded',
      decided_at: '2026-03-02T15:31:00.000Z',
      reason: expect.stringContaining('not used'),
    });
    expect(await app.services.shipments.refunds.decide(shipment.id)).toBe(false);
  });

  it('rejects the refund of a label the carrier scanned after the void', async () => {
    await setRefundDelay(600);
    setClock('2026-03-02T16:50:00.000Z');
    const { shipment } = await bought();
    setClock('2026-03-02T17:59:00.000Z'); // the pickup scan comes at 18:00
    expect((await voidIt(shipment.id)).json().refund.status).toBe('submitted');
    setClock('2026-03-02T18:09:00.000Z');
    expect(await app.services.shipments.refunds.decide(shipment.id)).toBe(true);
    expect((await get(`/v1/shipments/${shipment.id}`)).refund).toMatchObject({ status: 'rejected', reason: expect.stringContaining('scanned') });
    await setRefundDelay(60);
  });

  it('refuses a void past the carrier\u2019s window (USPS 30 days) with 409 saying the window closed', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const late = await bought(t.headers, { ship_to: { ...buyer, name: 'Ada SANDBOX:unused' } });
    const inTime = await bought(t.headers, { ship_to: { ...buyer, name: 'Ada SANDBOX:unused' } });
    setClock('2026-03-31T15:00:00.000Z'); // day 29
    expect((await voidIt(inTime.shipment.id)).statusCode).toBe(200);
    setClock('2026-04-01T15:00:01.000Z'); // 30 days and a second
    const res = await voidIt(late.shipment.id);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ code: 'invalid_state', details: [{ field: 'status', current_state: 'label_purchased' }] });
    expect(res.json().details[0].message).toMatch(/void window closed/);
    expect((await get(`/v1/shipments/${late.shipment.id}`)).status).toBe('label_purchased');
  });

  it('GET /v1/refunds lists newest first with cursor pages and a status filter; another workspace sees none', async () => {
    await setRefundDelay(60);
    const u = await createTenant(app);
    setClock('2026-03-02T15:00:00.000Z');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { shipment } = await bought(u.headers);
      setClock(`2026-03-02T15:0${i + 1}:00.000Z`);
      expect((await voidIt(shipment.id, u.headers)).statusCode).toBe(200);
      ids.push(shipment.id);
    }
    setClock('2026-03-02T15:03:30.000Z'); // the first two are due (voided at 15:01 and 15:02, 60 s each)
    await app.services.shipments.refunds.decideDue();
    const first = await get('/v1/refunds?limit=2', u.headers);
    expect(first.data.map((r: { shipment_id: string }) => r.shipment_id)).toEqual([ids[2], ids[1]]);
    expect(first.has_more).toBe(true);
    expect(first.data[0]).toMatchObject({
      id: expect.stringMatching(/^rfd_/),
      tracking_number: expect.any(String),
      carrier: 'usps',
      status: 'submitted',
      amount: { currency: 'USD' },
      decided_at: null,
    });
    const second = await get(`/v1/refunds?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`, u.headers);
    expect(second.data.map((r: { shipment_id: string }) => r.shipment_id)).toEqual([ids[0]]);
    expect(second.has_more).toBe(false);
    expect((await get('/v1/refunds?status=refunded', u.headers)).data.map((r: { shipment_id: string }) => r.shipment_id)).toEqual([ids[1], ids[0]]);
    expect((await get('/v1/refunds?status=submitted,rejected', u.headers)).data.map((r: { shipment_id: string }) => r.shipment_id)).toEqual([ids[2]]);
    const bad = await app.inject({ method: 'GET', url: '/v1/refunds?status=paid', headers: u.headers });
    expect(bad.statusCode).toBe(400);
    const stranger = await createTenant(app);
    expect((await get('/v1/refunds', stranger.headers)).data).toEqual([]);
    expect((await get('/api/admin/refunds?status=refunded', u.adminHeaders)).data).toHaveLength(2);
    await expectV1AuthMatrix(app, { method: 'GET', url: '/v1/refunds' }, { owner: u });
  });

  it('delivers shipment.refund_updated to a subscribed endpoint once per change, signed', async () => {
    await setRefundDelay(60);
    const u = await createTenant(app);
    const endpoint = await app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: u.headers,
      payload: { url: receiver.url('/refunds'), events: ['shipment.refund_updated'] },
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    setClock('2026-03-02T15:00:00.000Z');
    const { shipment } = await bought(u.headers);
    await voidIt(shipment.id, u.headers);
    setClock('2026-03-02T15:01:00.000Z');
    await app.services.shipments.refunds.decide(shipment.id);
    await app.services.shipments.refunds.decide(shipment.id); // a second run: no change, no event
    const bodies = await eventually(async () => {
      const got = receiver.at('/refunds').map((r) => JSON.parse(r.body));
      return got.length >= 2 ? got : undefined;
    }, 'two refund deliveries');
    await new Promise((resolve) => setTimeout(resolve, 1500)); // nothing else arrives
    const all = receiver.at('/refunds').map((r) => JSON.parse(r.body));
    expect(all.map((b) => [b.type, b.data.refund.status])).toEqual([
      ['shipment.refund_updated', 'submitted'],
      ['shipment.refund_updated', 'refunded'],
    ]);
    expect(bodies[0].data).toMatchObject({
      shipment_id: shipment.id,
      tracking_number: shipment.tracking_number,
      refund: { shipment_id: shipment.id, amount: shipment.price },
    });
    expect(receiver.at('/refunds')[0].headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('label spend in the super-admin analytics is net of refunds; an on_scan return counts once scanned', async () => {
    await setRefundDelay(60);
    const u = await createTenant(app);
    setClock('2026-05-04T15:00:00.000Z'); // a Monday no other test uses
    const admin = await superAdminHeaders(app); // a session of the fake clock's day
    const a = await bought(u.headers);
    const b = await bought(u.headers, { ship_to: { ...buyer, name: 'Ada SANDBOX:unused' } });
    const r = (await makeReturn(b.shipment.id, {}, u.headers)).json();
    const spend = async () => {
      const res = await app.inject({ method: 'GET', url: '/api/super-admin/analytics?from=2026-05-04&to=2026-05-05', headers: admin });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().labels.spend.amount as number;
    };
    const both = a.shipment.price.amount + b.shipment.price.amount;
    expect(await spend()).toBe(both); // the return is pending: nothing charged yet
    setClock('2026-05-04T15:10:00.000Z');
    await voidIt(a.shipment.id, u.headers);
    expect(await spend()).toBe(both); // submitted: not refunded yet
    setClock('2026-05-04T15:11:00.000Z');
    await app.services.shipments.refunds.decide(a.shipment.id);
    expect(await spend()).toBe(b.shipment.price.amount);
    setClock('2026-05-04T19:00:00.000Z');
    expect((await get(`/v1/shipments/${r.id}`, u.headers)).billing_status).toBe('charged');
    expect(await spend()).toBe(b.shipment.price.amount + r.price.amount);
  });
});
