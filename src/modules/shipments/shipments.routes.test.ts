import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, expectV1AuthMatrix, type Tenant } from '../../../test/helpers/app.js';
import { getCarrierRegistry } from '../../carriers/registry.js';
import { settingsService } from '../settings/index.js';

// A fake clock: Monday 2 March 2026, 15:00 UTC (before the 17:00 pickup cutoff).
const START = Date.parse('2026-03-02T15:00:00.000Z');
let clock = START;
const setClock = (iso: string) => (clock = Date.parse(iso));

let app: FastifyInstance;
let t: Tenant;
const registry = await getCarrierRegistry();

beforeAll(async () => {
  app = await buildTestApp({ now: () => new Date(clock) });
  t = await createTenant(app);
});

const shipFrom = { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const shipTo = {
  name: 'Ada Lovelace',
  street1: '1 Market St',
  city: 'San Francisco',
  state: 'CA',
  postal_code: '94105',
  country: 'US',
  phone: '+1 415 555 0100',
  email: 'ada@example.com',
};

async function createOrder(headers: Record<string, string>, extra: Record<string, unknown> = {}) {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers,
    payload: {
      customer: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+1 415 555 0100' },
      ship_to: shipTo,
      ship_from: shipFrom,
      line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 2, weight_oz: 12 }],
      parcel: { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 },
      ...extra,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function buy(headers: Record<string, string>, orderId: string, body: Record<string, unknown> = {}, extraHeaders: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/v1/shipments',
    headers: { ...headers, ...extraHeaders },
    payload: { order_id: orderId, service_code: 'usps_ground_advantage', ...body },
  });
}

async function bought(headers: Record<string, string> = t.headers, orderExtra: Record<string, unknown> = {}, body: Record<string, unknown> = {}) {
  const order = await createOrder(headers, orderExtra);
  const res = await buy(headers, order.id, body);
  expect(res.statusCode, res.body).toBe(201);
  return { order, shipment: res.json() };
}

const events = (type: string, workspaceId: string) =>
  app.deps.db.selectFrom('events').selectAll().where('type', '=', type).where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute();

describe('POST /v1/shipments', () => {
  it('buys a label: re-rated price, valid tracking number, stored label, order shipped, event recorded', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const order = await createOrder(t.headers);
    const quote = await app.inject({
      method: 'POST',
      url: '/v1/rates/query',
      headers: t.headers,
      payload: { ship_from: shipFrom, ship_to: shipTo, parcel: order.parcel, services: ['usps_ground_advantage'] },
    });
    const option = quote.json().data[0];

    const res = await buy(t.headers, order.id, { label_format: 'zpl_4x6' });
    expect(res.statusCode, res.body).toBe(201);
    const s = res.json();
    expect(s.id).toMatch(/^shp_[0-9a-z]{26}$/);
    expect(s).toMatchObject({
      order_id: order.id,
      environment: 'test',
      carrier: 'usps',
      service_code: 'usps_ground_advantage',
      service_name: option.service_name,
      status: 'label_purchased',
      tracking_status: 'pre_transit',
      price: option.price,
      rate: {
        zone: option.zone,
        billable_weight_oz: option.billable_weight_oz,
        dim_weight_oz: option.dim_weight_oz,
        dim_divisor: option.dim_divisor,
        surcharges: option.surcharges,
        delivery: option.delivery,
      },
      label: { format: 'zpl_4x6', url: `${app.deps.config.publicBaseUrl}/v1/shipments/${s.id}/label`, created_at: '2026-03-02T15:00:00.000Z' },
      voided_at: null,
      delivered_at: null,
      estimated_delivery_date: option.delivery.estimated_delivery_date,
    });
    expect(s.tracking_number).toMatch(/^9[2-5]\d{20}$/);
    expect(registry.get('usps')!.isValidTrackingNumber(s.tracking_number)).toBe(true);

    const after = (await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.headers })).json();
    expect(after.status).toBe('shipped');
    expect(after.shipments).toEqual([
      {
        id: s.id,
        carrier: 'usps',
        service_code: 'usps_ground_advantage',
        tracking_number: s.tracking_number,
        status: 'label_purchased',
        created_at: s.created_at,
      },
    ]);

    const label = await app.inject({ method: 'GET', url: `/v1/shipments/${s.id}/label`, headers: t.headers });
    expect(label.statusCode).toBe(200);
    expect(label.headers['content-type']).toContain('application/x-zpl');
    expect(label.headers['content-disposition']).toContain(`label-${s.tracking_number}.zpl`);
    expect(label.body.startsWith('^XA')).toBe(true);
    expect(label.body.trimEnd().endsWith('^XZ')).toBe(true);

    const purchased = (await events('shipment.label_purchased', t.workspaceId)).find((e) => (e.data as { shipment: { id: string } }).shipment.id === s.id);
    expect(purchased?.data).toMatchObject({ shipment: { id: s.id, tracking_number: s.tracking_number, carrier: 'usps' }, label_url: s.label.url });
    expect(Object.keys((purchased!.data as { label_urls: object }).label_urls).sort()).toEqual(['pdf_4x6', 'pdf_letter', 'png_4x6', 'zpl_4x6']);
  }, 120_000); // the first purchase starts the render workers and loads the ZIP and holiday data

  it('serves every format: PDF by default, PNG and letter on demand, each stored once', async () => {
    const { shipment } = await bought();
    const pdf = await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}/label`, headers: t.headers });
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    const png = await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}/label?format=png_4x6`, headers: t.headers });
    expect(png.headers['content-type']).toContain('image/png');
    expect([...png.rawPayload.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // IHDR: 4 × 6 in at 203 dpi.
    expect([png.rawPayload.readUInt32BE(16), png.rawPayload.readUInt32BE(20)]).toEqual([812, 1218]);
    const letter = await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}/label?format=pdf_letter`, headers: t.headers });
    expect(letter.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    const again = await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}/label?format=png_4x6`, headers: t.headers });
    expect(again.rawPayload.equals(png.rawPayload)).toBe(true);
    const stored = await app.deps.db.selectFrom('shipment_labels').select('format').where('shipment_id', '=', shipment.id).orderBy('format').execute();
    expect(stored.map((r) => r.format)).toEqual(['pdf_4x6', 'pdf_letter', 'png_4x6']);
    const bad = await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}/label?format=gif`, headers: t.headers });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses an unknown order (404), an unknown service (400 on service_code) and a bad body', async () => {
    const missing = await buy(t.headers, 'ord_01jx0000000000000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('not_found');
    const order = await createOrder(t.headers);
    const unknown = await buy(t.headers, order.id, { service_code: 'usps_teleport' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'service_code' }] });
    const badFormat = await buy(t.headers, order.id, { label_format: 'pdf_a0' });
    expect(badFormat.statusCode).toBe(400);
    const nul = await buy(t.headers, order.id, { service_code: 'usps\u0000ground' });
    expect(nul.statusCode).toBe(400);
    expect((await buy(t.headers, 'ord_\u0000')).statusCode).toBe(400);
    for (const url of ['/v1/tracking/1Z%00', '/v1/shipments/shp_%00', '/v1/shipments?carrier=%00', '/v1/tracking/events?tracking_number=%00']) {
      expect((await app.inject({ method: 'GET', url, headers: t.headers })).statusCode, url).toBe(400);
    }
    expect((await app.inject({ method: 'GET', url: '/api/public/track/1Z%00' })).statusCode).toBe(400);
  });

  it('is 409 invalid_state naming the state for a shipped or cancelled order', async () => {
    const { order } = await bought();
    const again = await buy(t.headers, order.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('invalid_state');
    expect(again.json().message).toContain('shipped');
    const other = await createOrder(t.headers);
    await app.inject({ method: 'POST', url: `/api/admin/orders/${other.id}/cancel`, headers: t.adminHeaders });
    const cancelled = await buy(t.headers, other.id);
    expect(cancelled.statusCode).toBe(409);
    expect(cancelled.json().message).toContain('cancelled');
  });

  it('is 422 no_rates for a service that cannot carry the parcel, and leaves the order alone', async () => {
    const order = await createOrder(t.headers);
    const dhl = await buy(t.headers, order.id, { service_code: 'dhl_express_worldwide' });
    expect(dhl.statusCode).toBe(422);
    expect(dhl.json()).toMatchObject({ code: 'no_rates', details: [{ field: 'service_code' }] });
    const heavy = await createOrder(t.headers, { parcel: { weight_oz: 2000, length_in: 10, width_in: 10, height_in: 10 } });
    const tooHeavy = await buy(t.headers, heavy.id);
    expect(tooHeavy.statusCode).toBe(422);
    expect(tooHeavy.json().code).toBe('no_rates');
    expect((await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.headers })).json().status).toBe('awaiting_fulfillment');
  });

  it('is 422 missing_ship_from without an order origin or a workspace one, and uses the workspace origin when set', async () => {
    const u = await createTenant(app);
    const order = await createOrder(u.headers, { ship_from: null });
    const res = await buy(u.headers, order.id);
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('missing_ship_from');
    await app.inject({ method: 'PATCH', url: '/api/admin/workspace', headers: u.adminHeaders, payload: { origin_address: shipFrom } });
    const ok = await buy(u.headers, order.id);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().ship_from).toMatchObject({ city: 'New York', postal_code: '10118' });
  });

  it('buys exactly one label for ten concurrent requests with one Idempotency-Key', async () => {
    const order = await createOrder(t.headers);
    const key = `buy-${order.id}`;
    const responses = await Promise.all(Array.from({ length: 10 }, () => buy(t.headers, order.id, {}, { 'idempotency-key': key })));
    const created = responses.filter((r) => r.statusCode === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const r of responses) expect([201, 409]).toContain(r.statusCode);
    expect(new Set(created.map((r) => r.json().id)).size).toBe(1);
    for (const r of responses.filter((x) => x.statusCode === 409)) expect(r.json().code).toBe('idempotency_key_in_use');
    const rows = await app.deps.db.selectFrom('shipments').select('id').where('order_id', '=', order.id).execute();
    expect(rows).toHaveLength(1);
    const replay = await buy(t.headers, order.id, {}, { 'idempotency-key': key });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().id).toBe(rows[0].id);
  });

  it("passes the auth matrix; another workspace cannot buy for, read or void this one's shipments", async () => {
    const order = await createOrder(t.headers);
    await expectV1AuthMatrix(
      app,
      { method: 'POST', url: '/v1/shipments', payload: { order_id: order.id, service_code: 'usps_ground_advantage' } },
      { owner: t, otherWorkspaceResource: true },
    );
    const { shipment } = await bought();
    for (const request of [
      { method: 'GET' as const, url: `/v1/shipments/${shipment.id}` },
      { method: 'GET' as const, url: `/v1/shipments/${shipment.id}/label` },
      { method: 'POST' as const, url: `/v1/shipments/${shipment.id}/void` },
      { method: 'GET' as const, url: `/v1/tracking/${shipment.id}` },
      { method: 'GET' as const, url: `/v1/tracking/${shipment.tracking_number}` },
    ]) {
      await expectV1AuthMatrix(app, request, { owner: t, otherWorkspaceResource: true });
    }
    for (const url of ['/v1/shipments', '/v1/tracking/events']) await expectV1AuthMatrix(app, { method: 'GET', url }, { owner: t });
    // The live environment of the same workspace does not see test shipments.
    expect((await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}`, headers: t.liveHeaders })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/v1/tracking/${shipment.tracking_number}`, headers: t.liveHeaders })).statusCode).toBe(404);
  }, 240_000); // two tenants (scrypt) per matrix
});

describe('GET /v1/shipments', () => {
  it('lists newest first with cursor pages and filters (status, carrier, order_id, tracking_number, dates)', async () => {
    const u = await createTenant(app);
    setClock('2026-03-02T15:00:00.000Z');
    const a = await bought(u.headers);
    setClock('2026-03-02T15:01:00.000Z');
    const b = await bought(u.headers, {}, { service_code: 'ups_ground' });
    setClock('2026-03-02T15:02:00.000Z');
    const c = await bought(u.headers);
    await app.inject({ method: 'POST', url: `/v1/shipments/${c.shipment.id}/void`, headers: u.headers });

    const page1 = (await app.inject({ method: 'GET', url: '/v1/shipments?limit=2', headers: u.headers })).json();
    expect(page1.data.map((s: { id: string }) => s.id)).toEqual([c.shipment.id, b.shipment.id]);
    expect(page1.has_more).toBe(true);
    const page2 = (await app.inject({ method: 'GET', url: `/v1/shipments?limit=2&cursor=${page1.next_cursor}`, headers: u.headers })).json();
    expect(page2.data.map((s: { id: string }) => s.id)).toEqual([a.shipment.id]);
    expect(page2).toMatchObject({ has_more: false, next_cursor: null });

    const ids = async (query: string) =>
      (await app.inject({ method: 'GET', url: `/v1/shipments?${query}`, headers: u.headers })).json().data.map((s: { id: string }) => s.id);
    expect(await ids('status=voided')).toEqual([c.shipment.id]);
    expect(await ids('status=label_purchased,voided')).toHaveLength(3);
    expect(await ids('carrier=ups')).toEqual([b.shipment.id]);
    expect(await ids(`order_id=${a.order.id}`)).toEqual([a.shipment.id]);
    expect(await ids(`tracking_number=${b.shipment.tracking_number}`)).toEqual([b.shipment.id]);
    expect(await ids('created_after=2026-03-02T15:00:30Z&created_before=2026-03-02T15:01:30Z')).toEqual([b.shipment.id]);
    const bad = await app.inject({ method: 'GET', url: '/v1/shipments?status=lost', headers: u.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe('status');
    expect((await app.inject({ method: 'GET', url: '/v1/shipments?created_after=yesterday', headers: u.headers })).statusCode).toBe(400);
  });
});

describe('POST /v1/shipments/:id/void', () => {
  it('voids a fresh label, returns the order to processing, and refuses a second void', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const { order, shipment } = await bought();
    setClock('2026-03-02T15:05:00.000Z');
    const res = await app.inject({ method: 'POST', url: `/v1/shipments/${shipment.id}/void`, headers: t.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'voided', voided_at: '2026-03-02T15:05:00.000Z', tracking_status: 'cancelled' });
    const after = (await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.headers })).json();
    expect(after.status).toBe('processing');
    expect(after.shipments[0].status).toBe('voided');
    const again = await app.inject({ method: 'POST', url: `/v1/shipments/${shipment.id}/void`, headers: t.headers });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'invalid_state' });
    expect(again.json().message).toContain('voided');
    // A voided order can be shipped again; the order keeps both shipments.
    const rebuy = await buy(t.headers, order.id);
    expect(rebuy.statusCode).toBe(201);
    const read = (await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.headers })).json();
    expect(read.shipments.map((s: { id: string }) => s.id)).toEqual([shipment.id, rebuy.json().id]);
    // The single read (one statement, summaries as JSON subqueries) shows what the list (one
    // query per kind) shows, field for field.
    const listed = (await app.inject({ method: 'GET', url: `/v1/orders?limit=100&status=shipped`, headers: t.headers })).json();
    expect(read).toEqual(listed.data.find((o: { id: string }) => o.id === order.id));
  });

  it('refuses to void once the carrier has scanned the parcel (409, tracking caught up first)', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const { shipment } = await bought();
    setClock('2026-03-02T18:30:00.000Z'); // picked up at 18:00
    const res = await app.inject({ method: 'POST', url: `/v1/shipments/${shipment.id}/void`, headers: t.headers });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('in_transit');
    expect((await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}`, headers: t.headers })).json().status).toBe('in_transit');
  });

  it("a simulated carrier's label says SAMPLE even in live, and once voided it still downloads, marked VOID", async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const { shipment } = await bought(t.liveHeaders, {}, { label_format: 'zpl_4x6' });
    expect(shipment).toMatchObject({ environment: 'live', simulated: true });
    const label = async () => (await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}/label`, headers: t.liveHeaders })).body;
    const before = await label();
    expect(before.match(/\^FDSAMPLE - DO NOT MAIL\^FS/g)).toHaveLength(2);
    expect(before).not.toContain('^FDVOID^FS');
    // A second format rendered before the void must be marked too once voided.
    expect((await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}/label?format=png_4x6`, headers: t.liveHeaders })).statusCode).toBe(200);
    setClock('2026-03-02T15:05:00.000Z');
    const voided = await app.inject({ method: 'POST', url: `/v1/shipments/${shipment.id}/void`, headers: t.liveHeaders });
    expect(voided.statusCode, voided.body).toBe(200);
    const after = await label();
    expect(after).toContain('^FDVOID^FS');
    expect(after).toContain('^FDSAMPLE - DO NOT MAIL^FS');
    const png = await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}/label?format=png_4x6`, headers: t.liveHeaders });
    expect(png.statusCode).toBe(200);
    expect(
      png.rawPayload.equals((await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}/label?format=png_4x6`, headers: t.liveHeaders })).rawPayload),
    ).toBe(true);
  });

  it('is 404 for an unknown shipment', async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/shipments/shp_01jx0000000000000000000000/void', headers: t.headers });
    expect(res.statusCode).toBe(404);
  });
});

describe('tracking', () => {
  it('follows the simulated schedule on a fake clock: events newest first, timeline, order delivered', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const { order, shipment } = await bought();
    const track = async (id = shipment.tracking_number) => {
      const res = await app.inject({ method: 'GET', url: `/v1/tracking/${id}`, headers: t.headers });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const first = await track();
    expect(first).toMatchObject({
      id: shipment.id,
      tracking_number: shipment.tracking_number,
      carrier: 'usps',
      status: 'pre_transit',
      status_detail: 'label_created',
    });
    expect(first.events.map((e: { status_detail: string }) => e.status_detail)).toEqual(['label_created']);
    expect(first.timeline.map((m: { milestone: string }) => m.milestone)).toEqual([
      'label_created',
      'picked_up',
      'in_transit',
      'out_for_delivery',
      'delivered',
    ]);
    expect(first.timeline[0]).toEqual({ milestone: 'label_created', reached_at: '2026-03-02T15:00:00.000Z', estimated_at: null });
    expect(first.timeline[1]).toEqual({ milestone: 'picked_up', reached_at: null, estimated_at: '2026-03-02T18:00:00.000Z' });
    expect(first.timeline[4].estimated_at?.slice(0, 10)).toBe(shipment.estimated_delivery_date);

    setClock('2026-03-02T23:00:00.000Z');
    const moving = await track(shipment.id);
    expect(moving.status).toBe('in_transit');
    expect(moving.events.map((e: { status_detail: string }) => e.status_detail)).toEqual(['departed_facility', 'picked_up', 'label_created']);
    expect(moving.events[0]).toMatchObject({ carrier_status_code: 'DP', location: { city: 'New York', state: 'NY', postal_code: '10118', country: 'US' } });
    // Read again with nothing due (the one-statement read): the same answer, nothing duplicated,
    // by id and by number.
    expect(await track(shipment.id)).toEqual(moving);
    expect(await track()).toEqual(moving);

    setClock('2026-03-20T00:00:00.000Z');
    const done = await track();
    expect(done.status).toBe('delivered');
    expect(done.events[0]).toMatchObject({ status: 'delivered', status_detail: 'delivered', location: { city: 'San Francisco' } });
    expect(done.timeline.every((m: { reached_at: string | null }) => m.reached_at !== null)).toBe(true);
    expect((await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.headers })).json()).toMatchObject({
      status: 'delivered',
      shipments: [{ status: 'delivered' }],
    });
    const s = (await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}`, headers: t.headers })).json();
    expect(s.status).toBe('delivered');
    expect(s.delivered_at.slice(0, 10)).toBe(shipment.estimated_delivery_date);

    const updates = (await events('tracking.updated', t.workspaceId)).filter((e) => (e.data as { shipment_id: string }).shipment_id === shipment.id);
    // One update per change seen: the jump from in transit to delivered is one read.
    expect(updates.map((e) => (e.data as { status: string }).status)).toEqual(['in_transit', 'delivered']);
    expect((updates[1].data as { timeline: unknown[] }).timeline).toHaveLength(5);
    const stored = await app.deps.db.selectFrom('tracking_events').select('id').where('shipment_id', '=', shipment.id).execute();
    expect(stored.length).toBe(done.events.length);
  });

  it('ingests due scans in the poll job, without a read', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const { shipment } = await bought();
    setClock('2026-03-02T19:00:00.000Z');
    const polled = await app.services.shipments.tracking.pollDue();
    expect(polled).toBeGreaterThanOrEqual(1);
    const row = await app.deps.db.selectFrom('shipments').select(['status', 'next_check_at']).where('id', '=', shipment.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('in_transit');
    expect(new Date(row.next_check_at!).toISOString()).toBe('2026-03-02T22:00:00.000Z');
  });

  it('runs faster with sandbox.tracking_time_scale, and plays the SANDBOX: magic values', async () => {
    const u = await createTenant(app);
    const root = { type: 'system' as const, id: null };
    await settingsService(app.deps).set('sandbox.tracking_time_scale', 3600, root, {});
    setClock('2026-03-02T15:00:00.000Z');
    const fast = await bought(u.headers);
    const exception = await bought(u.headers, { ship_to: { ...shipTo, name: 'Ada SANDBOX:exception' } });
    const rts = await bought(u.headers, { notes: 'please SANDBOX:return_to_sender' });
    const instant = await bought(u.headers, { notes: 'SANDBOX:delivered' });
    expect(instant.shipment.status).toBe('delivered');
    expect((await app.inject({ method: 'GET', url: `/v1/orders/${instant.order.id}`, headers: u.headers })).json().status).toBe('delivered');
    // The first scan is written with the shipment, yet the purchase's event shows the label as
    // bought, and the scan's own event follows it.
    const ofInstant = async (type: string) =>
      (await events(type, u.workspaceId)).filter((e) => JSON.stringify(e.data).includes(instant.shipment.id)).map((e) => e.data as Record<string, any>);
    const [purchased] = await ofInstant('shipment.label_purchased');
    expect(purchased.shipment).toMatchObject({ status: 'label_purchased', tracking_status: 'pre_transit', status_detail: 'label_created' });
    expect(await ofInstant('tracking.updated')).toEqual([
      expect.objectContaining({ shipment_status: 'delivered', previous_shipment_status: 'label_purchased', status: 'delivered' }),
    ]);
    const scans = await app.deps.db.selectFrom('tracking_events').select('status').where('shipment_id', '=', instant.shipment.id).execute();
    expect(scans.map((e) => e.status)).toContain('delivered');

    setClock('2026-03-02T15:10:00.000Z'); // ten minutes at 3600× is 25 days
    const get = async (id: string) => (await app.inject({ method: 'GET', url: `/v1/shipments/${id}`, headers: u.headers })).json();
    expect((await get(fast.shipment.id)).status).toBe('delivered');
    expect(await get(exception.shipment.id)).toMatchObject({ status: 'exception', tracking_status: 'failure', status_detail: 'address_not_found' });
    expect(await get(rts.shipment.id)).toMatchObject({ status: 'returned', tracking_status: 'return_to_sender', status_detail: 'returned_to_sender' });
    expect((await app.inject({ method: 'GET', url: `/v1/orders/${exception.order.id}`, headers: u.headers })).json().status).toBe('shipped');
    await settingsService(app.deps).set('sandbox.tracking_time_scale', 1, root, {});
  });

  it('lists events across the workspace with since, tracking_number and status filters', async () => {
    const u = await createTenant(app);
    setClock('2026-03-02T15:00:00.000Z');
    const a = await bought(u.headers);
    const b = await bought(u.headers);
    setClock('2026-03-03T12:00:00.000Z');
    for (const s of [a, b]) await app.inject({ method: 'GET', url: `/v1/tracking/${s.shipment.id}`, headers: u.headers });
    const list = async (query = '') => {
      const res = await app.inject({ method: 'GET', url: `/v1/tracking/events${query}`, headers: u.headers });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const all = await list();
    expect(all.data).toHaveLength(8); // label, pickup, departure, arrival × 2
    const times = all.data.map((e: { occurred_at: string }) => e.occurred_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all.data[0]).toMatchObject({ shipment_id: expect.stringMatching(/^shp_/), carrier: 'usps', status: 'in_transit' });
    expect((await list(`?tracking_number=${a.shipment.tracking_number}`)).data).toHaveLength(4);
    expect((await list('?status=pre_transit')).data).toHaveLength(2);
    expect((await list('?since=2026-03-03T00:00:00Z')).data.map((e: { status_detail: string }) => e.status_detail)).toEqual([
      'arrived_at_facility',
      'arrived_at_facility',
    ]);
    const page = await list('?limit=3');
    expect(page.has_more).toBe(true);
    const rest = await list(`?limit=10&cursor=${page.next_cursor}`);
    expect(rest.data).toHaveLength(5);
    expect((await app.inject({ method: 'GET', url: '/v1/tracking/events?status=lost', headers: u.headers })).statusCode).toBe(400);
  });

  it('is 404 for an unknown tracking number or shipment id', async () => {
    expect((await app.inject({ method: 'GET', url: '/v1/tracking/9400111201080805483016', headers: t.headers })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/v1/tracking/shp_01jx0000000000000000000000', headers: t.headers })).statusCode).toBe(404);
  });
});

describe('GET /api/public/track/:trackingNumber', () => {
  it('shows the timeline and events without names, streets, emails or phones', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const { shipment } = await bought();
    setClock('2026-03-04T12:00:00.000Z');
    const res = await app.inject({ method: 'GET', url: `/api/public/track/${shipment.tracking_number}` });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([
      'carrier',
      'estimated_delivery_date',
      'events',
      'master_tracking_number',
      'package',
      'status',
      'status_detail',
      'timeline',
      'tracking_number',
    ]);
    expect(body).toMatchObject({
      tracking_number: shipment.tracking_number,
      carrier: 'usps',
      status: 'in_transit',
      master_tracking_number: null,
      package: null,
    });
    expect(body.timeline).toHaveLength(5);
    for (const pii of ['Ada', 'Lovelace', 'Market', '5th Ave', 'Warehouse', 'Acme', 'ada@example.com', '415 555', '4155550100', shipment.id, 'ord_'])
      expect(res.body).not.toContain(pii);
    expect(res.body).toContain('New York');
    // Nothing due on a second read (the one-statement read): the same answer, spaces and case in
    // the number ignored.
    const again = await app.inject({
      method: 'GET',
      url: `/api/public/track/${shipment.tracking_number.slice(0, 4)}%20${shipment.tracking_number.slice(4).toLowerCase()}`,
    });
    expect(again.json()).toEqual(body);
  });

  it('is 404 for an unknown number, and limited per IP', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/public/track/1Z999AA10123456784' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
    const limited = await buildTestApp({ perIpPerMinute: 60 });
    // Until refused: the window is per clock minute, so a slow run may straddle two of them.
    const statuses: number[] = [];
    while (statuses.length < 200 && statuses.at(-1) !== 429) {
      statuses.push((await limited.inject({ method: 'GET', url: '/api/public/track/1Z999AA10123456784' })).statusCode);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.length).toBeGreaterThan(60);
    expect(statuses.slice(0, -1).every((s) => s === 404)).toBe(true);
  });
});

describe('admin shipments', () => {
  it('buys, lists, reads, cancels and force-delivers with a session; every change audit-logged', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const order = await createOrder(t.headers);
    const created = await app.inject({
      method: 'POST',
      url: '/api/admin/shipments',
      headers: t.adminHeaders,
      payload: { order_id: order.id, service_code: 'fedex_2day' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const s = created.json();
    expect(s).toMatchObject({ carrier: 'fedex', status: 'label_purchased' });
    expect(registry.get('fedex')!.isValidTrackingNumber(s.tracking_number)).toBe(true);
    expect((await app.inject({ method: 'GET', url: `/api/admin/shipments/${s.id}`, headers: t.adminHeaders })).json().id).toBe(s.id);
    const list = (await app.inject({ method: 'GET', url: '/api/admin/shipments?carrier=fedex', headers: t.adminHeaders })).json();
    expect(list.data.map((x: { id: string }) => x.id)).toContain(s.id);
    expect((await app.inject({ method: 'GET', url: `/api/admin/orders/${order.id}`, headers: t.adminHeaders })).json().shipments[0].tracking_number).toBe(
      s.tracking_number,
    );
    const pdf = await app.inject({ method: 'GET', url: `/api/admin/shipments/${s.id}/label`, headers: t.adminHeaders });
    expect(pdf.rawPayload.subarray(0, 4).toString()).toBe('%PDF');

    const cancel = await app.inject({ method: 'POST', url: `/api/admin/shipments/${s.id}/cancel`, headers: t.adminHeaders });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().status).toBe('voided');
    const forceVoided = await app.inject({ method: 'POST', url: `/api/admin/shipments/${s.id}/force-delivery`, headers: t.adminHeaders });
    expect(forceVoided.statusCode).toBe(409);

    const again = await app.inject({
      method: 'POST',
      url: '/api/admin/shipments',
      headers: t.adminHeaders,
      payload: { order_id: order.id, service_code: 'ups_ground' },
    });
    const s2 = again.json();
    setClock('2026-03-03T10:00:00.000Z');
    const forced = await app.inject({ method: 'POST', url: `/api/admin/shipments/${s2.id}/force-delivery`, headers: t.adminHeaders });
    expect(forced.statusCode, forced.body).toBe(200);
    expect(forced.json()).toMatchObject({
      status: 'delivered',
      delivered_at: '2026-03-03T10:00:00.000Z',
      tracking_status: 'delivered',
      status_detail: 'delivered_manually',
    });
    const tracking = (await app.inject({ method: 'GET', url: `/v1/tracking/${s2.id}`, headers: t.headers })).json();
    expect(tracking.events[0]).toMatchObject({ status: 'delivered', carrier_status_code: 'MANUAL' });
    expect(tracking.status).toBe('delivered');
    expect((await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.headers })).json().status).toBe('delivered');
    const cancelDelivered = await app.inject({ method: 'POST', url: `/api/admin/shipments/${s2.id}/cancel`, headers: t.adminHeaders });
    expect(cancelDelivered.statusCode).toBe(409);
    // Never regresses: later scans do not move it back.
    setClock('2026-03-30T00:00:00.000Z');
    const later = await app.inject({ method: 'GET', url: `/v1/shipments/${s2.id}`, headers: t.headers });
    expect(later.json().status, later.body).toBe('delivered');

    const audit = await app.deps.db
      .selectFrom('audit_log')
      .select(['action', 'actor_id'])
      .where('target_id', 'in', [s.id, s2.id])
      .orderBy('at')
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['shipment.created', 'shipment.cancelled', 'shipment.created', 'shipment.force_delivered']);
    expect(audit.every((a) => a.actor_id === t.accountId)).toBe(true);
    const updated = (await events('tracking.updated', t.workspaceId)).filter((e) => (e.data as { shipment_id: string }).shipment_id === s2.id);
    expect(updated.at(-1)!.data).toMatchObject({ status: 'delivered', status_detail: 'delivered_manually' });
  });

  it('generates a label for an order: its requested service, else the cheapest', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const requested = await createOrder(t.headers, { requested_service: 'ups_ground' });
    const res = await app.inject({ method: 'POST', url: `/api/admin/orders/${requested.id}/generate`, headers: t.adminHeaders });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: requested.id,
      status: 'shipped',
      shipments: [{ carrier: 'ups', service_code: 'ups_ground', status: 'label_purchased' }],
    });
    expect(res.json().shipments[0].tracking_number).toMatch(/^1Z/);

    const plain = await createOrder(t.headers);
    await app.inject({ method: 'POST', url: `/api/admin/orders/${plain.id}/process`, headers: t.adminHeaders });
    const quote = await app.inject({
      method: 'POST',
      url: '/v1/rates/query',
      headers: t.headers,
      payload: { ship_from: shipFrom, ship_to: shipTo, parcel: plain.parcel },
    });
    const cheapest = quote.json().data[0].service_code;
    const gen = await app.inject({ method: 'POST', url: `/api/admin/orders/${plain.id}/generate`, headers: t.adminHeaders, payload: {} });
    expect(gen.statusCode, gen.body).toBe(200);
    expect(gen.json().shipments[0].service_code).toBe(cheapest);
    const twice = await app.inject({ method: 'POST', url: `/api/admin/orders/${plain.id}/generate`, headers: t.adminHeaders });
    expect(twice.statusCode).toBe(409);
    const missing = await app.inject({ method: 'POST', url: '/api/admin/orders/ord_01jx0000000000000000000000/generate', headers: t.adminHeaders });
    expect(missing.statusCode).toBe(404);
  });

  it("needs a session, and hides other workspaces' shipments", async () => {
    const { shipment } = await bought();
    expect((await app.inject({ method: 'GET', url: '/api/admin/shipments' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: `/api/admin/shipments/${shipment.id}/force-delivery` })).statusCode).toBe(401);
    const other = await createTenant(app);
    for (const [method, url] of [
      ['GET', `/api/admin/shipments/${shipment.id}`],
      ['POST', `/api/admin/shipments/${shipment.id}/cancel`],
      ['POST', `/api/admin/shipments/${shipment.id}/force-delivery`],
    ] as const) {
      const res = await app.inject({ method, url, headers: other.adminHeaders });
      expect(res.statusCode, url).toBe(404);
    }
  });
});

// The /v1 twins of the dashboard's cancel and generate (shipments.changes.routes.ts): the same
// service calls, bodies and answers, with an API key.
describe('/v1 cancel and generate', () => {
  it('cancels a label (200 voided, then 409 naming the state) and returns the order to processing', async () => {
    const { shipment } = await bought();
    const cancel = await app.inject({ method: 'POST', url: `/v1/shipments/${shipment.id}/cancel`, headers: t.headers });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json()).toMatchObject({ id: shipment.id, status: 'voided' });
    const twice = await app.inject({ method: 'POST', url: `/v1/shipments/${shipment.id}/cancel`, headers: t.headers });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ code: 'invalid_state', details: [{ field: 'status', current_state: 'voided' }] });
    // As the dashboard's cancel: the order is back in processing, its label voided.
    expect((await app.inject({ method: 'GET', url: `/v1/orders/${shipment.order_id}`, headers: t.headers })).json().status).toBe('processing');
  });

  it("generates an order's label: requested service, else the cheapest; 409 twice, 404 unknown; replays its Idempotency-Key", async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const requested = await createOrder(t.headers, { requested_service: 'ups_ground' });
    const res = await app.inject({
      method: 'POST',
      url: `/v1/orders/${requested.id}/generate`,
      headers: { ...t.headers, 'idempotency-key': `gen-${requested.id}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: requested.id,
      status: 'shipped',
      shipments: [{ carrier: 'ups', service_code: 'ups_ground', status: 'label_purchased' }],
    });
    const replay = await app.inject({
      method: 'POST',
      url: `/v1/orders/${requested.id}/generate`,
      headers: { ...t.headers, 'idempotency-key': `gen-${requested.id}` },
    });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().shipments).toHaveLength(1);

    const plain = await createOrder(t.headers);
    const processed = await app.inject({ method: 'POST', url: `/v1/orders/${plain.id}/process`, headers: t.headers });
    expect(processed.json().status).toBe('processing');
    const quote = await app.inject({
      method: 'POST',
      url: '/v1/rates/query',
      headers: t.headers,
      payload: { ship_from: shipFrom, ship_to: shipTo, parcel: plain.parcel },
    });
    const gen = await app.inject({ method: 'POST', url: `/v1/orders/${plain.id}/generate`, headers: t.headers, payload: {} });
    expect(gen.statusCode, gen.body).toBe(200);
    expect(gen.json().shipments[0].service_code).toBe(quote.json().data[0].service_code);
    expect((await app.inject({ method: 'POST', url: `/v1/orders/${plain.id}/generate`, headers: t.headers })).statusCode).toBe(409);
    expect((await app.inject({ method: 'POST', url: '/v1/orders/ord_01jx0000000000000000000000/generate', headers: t.headers })).statusCode).toBe(404);
    const bad = await app.inject({ method: 'POST', url: `/v1/orders/${plain.id}/generate`, headers: t.headers, payload: { service_code: 42 } });
    expect(bad.statusCode).toBe(400);
  });

  it("needs a key, and hides other workspaces' shipments and orders", async () => {
    const { shipment, order } = await bought();
    expect((await app.inject({ method: 'POST', url: `/v1/shipments/${shipment.id}/cancel` })).statusCode).toBe(401);
    const other = await createTenant(app);
    for (const url of [`/v1/shipments/${shipment.id}/cancel`, `/v1/orders/${order.id}/generate`]) {
      const res = await app.inject({ method: 'POST', url, headers: other.headers });
      expect(res.statusCode, url).toBe(404);
    }
    expect((await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}`, headers: t.headers })).json().status).toBe('label_purchased');
  });
});
