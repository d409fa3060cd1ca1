import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';

// What ships from a location (docs/api-conventions.md, "Locations"): orders, labels, batches,
// manifests and pickups name it; a label is dated on its clock and cut-off.
// Monday 2 March 2026, 23:30 UTC: 18:30 in New York (past a 17:00 cut-off), 15:30 in Los Angeles.
const EVENING = Date.parse('2026-03-02T23:30:00.000Z');
// The same Monday, 15:00 UTC: 10:00 in New York, 07:00 in Los Angeles (one ship date for both).
const MORNING = Date.parse('2026-03-02T15:00:00.000Z');
let clock = EVENING;
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp({ now: () => new Date(clock) });
});

const nyc = { company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const location = async (t: Tenant, over: Record<string, unknown> = {}, headers = t.headers) => {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/locations',
    headers,
    payload: { name: 'East', address: nyc, timezone: 'America/New_York', pickup_cutoff: '17:00', ...over },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; address: Record<string, string> };
};
const order = (t: Tenant, over: Record<string, unknown> = {}) =>
  app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers: t.headers,
    payload: {
      ship_to: shipTo,
      line_items: [{ sku: 'MUG', quantity: 1, weight_oz: 12 }],
      parcel: { weight_oz: 20, length_in: 10, width_in: 8, height_in: 4 },
      ...over,
    },
  });
const orderId = async (t: Tenant, over: Record<string, unknown> = {}) => {
  const res = await order(t, over);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
};
const buy = (t: Tenant, payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/v1/shipments', headers: t.headers, payload: { service_code: 'usps_priority_mail', ...payload } });
const bought = async (t: Tenant, payload: Record<string, unknown>) => {
  const res = await buy(t, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};
const ids = (res: { json(): any }) => (res.json().data as { id: string }[]).map((r) => r.id);

describe('a purchase ships from its location', () => {
  it('two locations in different time zones: different ship and delivery dates for the same lane, the location on the shipment', async () => {
    clock = EVENING;
    const t = await createTenant(app);
    const east = await location(t);
    const west = await location(t, { name: 'West', timezone: 'America/Los_Angeles' });
    // Same address, same lane: only the clock differs. New York's cut-off has passed, Los Angeles' has not.
    const fromEast = await bought(t, { order_id: await orderId(t), location_id: east.id });
    const fromWest = await bought(t, { order_id: await orderId(t), location_id: west.id });
    expect(fromEast.location_id).toBe(east.id);
    expect(fromWest.location_id).toBe(west.id);
    expect(fromEast.ship_from).toMatchObject(nyc);
    // Monday in both zones; New York tenders on Tuesday, Los Angeles still on Monday.
    expect([fromEast.rate.ship_date, fromWest.rate.ship_date]).toEqual(['2026-03-02', '2026-03-02']);
    expect(fromWest.rate.delivery.estimated_delivery_date < fromEast.rate.delivery.estimated_delivery_date).toBe(true);
    expect(fromEast.price).toEqual(fromWest.price);
  });

  it("the order's location, else the default location; the purchase's location_id wins over the order's", async () => {
    clock = EVENING;
    const t = await createTenant(app);
    const east = await location(t); // the first: the default
    const west = await location(t, { name: 'West', timezone: 'America/Los_Angeles' });
    const plain = await order(t);
    expect(plain.json().location_id).toBe(east.id);
    const westOrder = await order(t, { location_id: west.id });
    expect(westOrder.json()).toMatchObject({ location_id: west.id, ship_from: null });

    expect((await bought(t, { order_id: plain.json().id })).location_id).toBe(east.id);
    const byOrder = await bought(t, { order_id: westOrder.json().id });
    expect(byOrder.location_id).toBe(west.id);
    const overridden = await bought(t, { order_id: await orderId(t, { location_id: west.id }), location_id: east.id });
    expect(overridden.location_id).toBe(east.id);
    // On New York's clock (past its cut-off): a later delivery than the same order from Los Angeles.
    expect(byOrder.rate.delivery.estimated_delivery_date < overridden.rate.delivery.estimated_delivery_date).toBe(true);

    // An order with an address of its own has no location, nor has its label.
    const own = await order(t, { ship_from: { ...nyc, city: 'Brooklyn', postal_code: '11201' } });
    expect(own.json().location_id).toBeNull();
    expect((await bought(t, { order_id: own.json().id })).location_id).toBeNull();
  });

  it('generate takes location_id too', async () => {
    clock = EVENING;
    const t = await createTenant(app);
    await location(t);
    const west = await location(t, { name: 'West', timezone: 'America/Los_Angeles' });
    const id = await orderId(t);
    const res = await app.inject({
      method: 'POST',
      url: `/v1/orders/${id}/generate`,
      headers: t.headers,
      payload: { service_code: 'usps_priority_mail', location_id: west.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    const shipments = (await app.inject({ method: 'GET', url: `/v1/shipments?order_id=${id}`, headers: t.headers })).json().data;
    expect(shipments[0].location_id).toBe(west.id);
  });
});

describe('validation', () => {
  it('location_id with ship_from: 400 naming location_id (order create and update)', async () => {
    const t = await createTenant(app);
    const loc = await location(t);
    const both = await order(t, { location_id: loc.id, ship_from: nyc });
    expect(both.statusCode).toBe(400);
    expect(both.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'location_id' }] });
    const id = await orderId(t);
    const patched = await app.inject({ method: 'PATCH', url: `/v1/orders/${id}`, headers: t.headers, payload: { location_id: loc.id, ship_from: nyc } });
    expect(patched.statusCode).toBe(400);
    expect(patched.json().details[0].field).toBe('location_id');
  });

  it("another workspace's, the other environment's or no such location: 404 not_found naming location_id, nothing bought", async () => {
    const t = await createTenant(app);
    const other = await createTenant(app);
    await location(t);
    const foreign = await location(other);
    const live = await location(t, {}, t.liveHeaders);
    for (const id of [foreign.id, live.id, 'loc_01jdx3c2v5f0b6k8m9n1p2q3r4']) {
      const created = await order(t, { location_id: id });
      expect(created.statusCode, created.body).toBe(404);
      expect(created.json()).toMatchObject({ code: 'not_found', details: [{ field: 'location_id' }] });
      const oid = await orderId(t);
      const res = await buy(t, { order_id: oid, location_id: id });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found', details: [{ field: 'location_id' }] });
      expect((await app.inject({ method: 'GET', url: `/v1/orders/${oid}`, headers: t.headers })).json().status).toBe('awaiting_fulfillment');
      expect((await app.inject({ method: 'POST', url: '/v1/manifests', headers: t.headers, payload: { carrier: 'usps', location_id: id } })).statusCode).toBe(
        404,
      );
      expect(
        (await app.inject({ method: 'POST', url: '/v1/batches', headers: t.headers, payload: { type: 'purchase_labels', order_ids: [oid], location_id: id } }))
          .statusCode,
      ).toBe(404);
    }
  });
});

describe('list filters', () => {
  it('?location_id= on orders and shipments', async () => {
    clock = EVENING;
    const t = await createTenant(app);
    const east = await location(t);
    const west = await location(t, { name: 'West', timezone: 'America/Los_Angeles' });
    const eastOrder = await orderId(t);
    const westOrder = await orderId(t, { location_id: west.id });
    expect(ids(await app.inject({ method: 'GET', url: `/v1/orders?location_id=${west.id}`, headers: t.headers }))).toEqual([westOrder]);
    expect(ids(await app.inject({ method: 'GET', url: `/v1/orders?location_id=${east.id}`, headers: t.headers }))).toEqual([eastOrder]);
    const a = await bought(t, { order_id: eastOrder });
    const b = await bought(t, { order_id: westOrder });
    expect(ids(await app.inject({ method: 'GET', url: `/v1/shipments?location_id=${west.id}`, headers: t.headers }))).toEqual([b.id]);
    expect(ids(await app.inject({ method: 'GET', url: `/v1/shipments?location_id=${east.id}`, headers: t.headers }))).toEqual([a.id]);
    // Moving an order to another location is an update like any other.
    const moved = await app.inject({ method: 'PATCH', url: `/v1/orders/${await orderId(t)}`, headers: t.headers, payload: { location_id: west.id } });
    expect(moved.json().location_id).toBe(west.id);
    expect(ids(await app.inject({ method: 'GET', url: `/v1/orders?location_id=${west.id}`, headers: t.headers }))).toContain(moved.json().id);
  });
});

describe('end of day per location', () => {
  it("a USPS manifest for one location closes that location's labels and not the other's", async () => {
    clock = MORNING;
    const t = await createTenant(app);
    const east = await location(t);
    const west = await location(t, {
      name: 'West',
      address: { ...nyc, street1: '1 Logistics Way', city: 'Reno', state: 'NV', postal_code: '89502' },
      timezone: 'America/Los_Angeles',
    });
    const e1 = await bought(t, { order_id: await orderId(t) });
    const e2 = await bought(t, { order_id: await orderId(t), location_id: east.id });
    const w1 = await bought(t, { order_id: await orderId(t, { location_id: west.id }) });
    // An order with its own ship_from: no location; the default location's form takes it.
    const own = await bought(t, { order_id: await orderId(t, { ship_from: { ...nyc, city: 'Brooklyn', postal_code: '11201' } }) });
    expect(own.location_id).toBeNull();
    expect(new Set([e1.rate.ship_date, e2.rate.ship_date, w1.rate.ship_date])).toEqual(new Set(['2026-03-02']));

    const eastManifest = await app.inject({ method: 'POST', url: '/v1/manifests', headers: t.headers, payload: { carrier: 'usps', location_id: east.id } });
    expect(eastManifest.statusCode, eastManifest.body).toBe(202);
    expect(eastManifest.json()).toMatchObject({ location_id: east.id, ship_date: '2026-03-02' });
    expect(new Set(eastManifest.json().shipment_ids)).toEqual(new Set([e1.id, e2.id, own.id]));
    expect((await app.inject({ method: 'GET', url: `/v1/shipments/${w1.id}`, headers: t.headers })).json().manifest_id).toBeNull();

    // Listed on another location's form, a label is rejected with its reason.
    const wrong = await app.inject({
      method: 'POST',
      url: '/v1/manifests',
      headers: t.headers,
      payload: { carrier: 'usps', location_id: east.id, shipment_ids: [w1.id] },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().details[0]).toMatchObject({ code: 'location_mismatch', shipment_id: w1.id });

    // Without location_id: the default location's (east, nothing left).
    expect((await app.inject({ method: 'POST', url: '/v1/manifests', headers: t.headers, payload: { carrier: 'usps' } })).statusCode).toBe(422);
    const westManifest = await app.inject({ method: 'POST', url: '/v1/manifests', headers: t.headers, payload: { carrier: 'usps', location_id: west.id } });
    expect(westManifest.statusCode, westManifest.body).toBe(202);
    expect(westManifest.json().shipment_ids).toEqual([w1.id]);
    expect(ids(await app.inject({ method: 'GET', url: `/v1/manifests?location_id=${west.id}`, headers: t.headers }))).toEqual([westManifest.json().id]);
  });

  it("a pickup comes to its location's address; location_id with address is 400", async () => {
    clock = MORNING;
    const t = await createTenant(app);
    await location(t);
    const reno = { ...nyc, street1: '1 Logistics Way', city: 'Reno', state: 'NV', postal_code: '89502' };
    const west = await location(t, { name: 'West', address: reno, timezone: 'America/Los_Angeles' });
    // Tuesday 3 March, 13:00–17:00 in Reno.
    const window = { start: '2026-03-03T13:00:00-08:00', end: '2026-03-03T17:00:00-08:00' };
    const res = await app.inject({
      method: 'POST',
      url: '/v1/pickups',
      headers: t.headers,
      payload: { carrier: 'ups', location_id: west.id, window, package_count: 2 },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ location_id: west.id, address: reno });
    const byDefault = await app.inject({ method: 'POST', url: '/v1/pickups', headers: t.headers, payload: { carrier: 'ups', window, package_count: 1 } });
    expect(byDefault.json().address).toMatchObject(nyc);
    expect(ids(await app.inject({ method: 'GET', url: `/v1/pickups?location_id=${west.id}`, headers: t.headers }))).toEqual([res.json().id]);
    const both = await app.inject({
      method: 'POST',
      url: '/v1/pickups',
      headers: t.headers,
      payload: { carrier: 'ups', location_id: west.id, address: reno, window, package_count: 1 },
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().details[0].field).toBe('location_id');
  });
});

describe('the workspace origin and the default location', () => {
  it('setting the origin moves the default location of both environments (making one where there is none)', async () => {
    const t = await createTenant(app);
    const east = await location(t);
    const reno = { company: 'Acme', street1: '1 Logistics Way', city: 'Reno', state: 'NV', postal_code: '89502', country: 'US' };
    const res = await app.inject({ method: 'PATCH', url: '/api/admin/workspace', headers: t.adminHeaders, payload: { origin_address: reno } });
    expect(res.statusCode, res.body).toBe(200);
    const moved = (await app.inject({ method: 'GET', url: `/v1/locations/${east.id}`, headers: t.headers })).json();
    expect(moved).toMatchObject({ is_default: true, address: reno, timezone: 'America/Los_Angeles' });
    const live = (await app.inject({ method: 'GET', url: '/v1/locations', headers: t.liveHeaders })).json().data;
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ is_default: true, address: reno, timezone: 'America/Los_Angeles', pickup_cutoff: '17:00' });
  });
});
