import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, expectV1AuthMatrix, type Tenant } from '../../../test/helpers/app.js';
import { createRegistry, getCarrierRegistry } from '../../carriers/registry.js';

// A fake clock: Monday 2 March 2026, 15:00 UTC (10:00 in New York, the pickup address's zone).
let clock = Date.parse('2026-03-02T15:00:00.000Z');
const setClock = (iso: string) => (clock = Date.parse(iso));

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp({ now: () => new Date(clock) });
});

const origin = { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
/** Tuesday 3 March, 13:00–17:00 in New York. */
const TUESDAY = { start: '2026-03-03T13:00:00-05:00', end: '2026-03-03T17:00:00-05:00' };

async function tenantWithOrigin(): Promise<Tenant> {
  const t = await createTenant(app);
  const res = await app.inject({ method: 'PATCH', url: '/api/admin/workspace', headers: t.adminHeaders, payload: { origin_address: origin } });
  expect(res.statusCode, res.body).toBe(200);
  return t;
}

async function buy(t: Tenant, service = 'usps_ground_advantage'): Promise<{ id: string; tracking_number: string }> {
  const order = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers: t.headers,
    payload: {
      customer: { name: 'Ada' },
      ship_to: shipTo,
      ship_from: origin,
      line_items: [{ sku: 'A', name: 'A', quantity: 1, weight_oz: 8 }],
      parcel: { weight_oz: 16, length_in: 8, width_in: 6, height_in: 4 },
    },
  });
  expect(order.statusCode, order.body).toBe(201);
  const res = await app.inject({ method: 'POST', url: '/v1/shipments', headers: t.headers, payload: { order_id: order.json().id, service_code: service } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const book = (t: Tenant, payload: Record<string, unknown>, headers = t.headers) => app.inject({ method: 'POST', url: '/v1/pickups', headers, payload });

describe('POST /v1/pickups', () => {
  it('books a USPS pickup at the workspace origin: free, cancellable until the window starts', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const t = await tenantWithOrigin();
    const res = await book(t, { carrier: 'usps', window: TUESDAY, package_count: 3, instructions: 'Side door' });
    expect(res.statusCode, res.body).toBe(201);
    const p = res.json();
    expect(p.id).toMatch(/^pck_[0-9a-z]{26}$/);
    expect(p).toMatchObject({
      carrier: 'usps',
      status: 'scheduled',
      address: origin,
      window: TUESDAY,
      price: { amount: 0, currency: 'USD' },
      cancel_by: '2026-03-03T18:00:00.000Z',
      shipment_ids: [],
      package_count: 3,
      instructions: 'Side door',
      cancelled_at: null,
      completed_at: null,
    });
    expect(p.confirmation_number).toMatch(/^USP\d{10}$/);
    expect((await app.inject({ method: 'GET', url: `/v1/pickups/${p.id}`, headers: t.headers })).json()).toEqual(p);
  });

  it('books a UPS pickup of given labels at a given address: the fee, cancel_by 2 h before the window', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const t = await createTenant(app);
    const labels = [await buy(t, 'ups_ground'), await buy(t, 'ups_ground')];
    const res = await book(t, { carrier: 'ups', address: origin, window: TUESDAY, shipment_ids: labels.map((l) => l.id) });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      carrier: 'ups',
      price: { amount: 1605, currency: 'USD' },
      cancel_by: '2026-03-03T16:00:00.000Z',
      package_count: 2,
      shipment_ids: labels.map((l) => l.id),
    });
  });

  it('422 pickup_unavailable, the reason in details: in the past, inverted, too short, too far, over two days, a Sunday, a carrier holiday', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const t = await tenantWithOrigin();
    const cases: [Record<string, string>, string, string][] = [
      [{ start: '2026-03-02T08:00:00-05:00', end: '2026-03-02T12:00:00-05:00' }, 'in_the_past', 'window.start'],
      [{ start: '2026-03-03T17:00:00-05:00', end: '2026-03-03T13:00:00-05:00' }, 'window_inverted', 'window.end'],
      [{ start: '2026-03-03T13:00:00-05:00', end: '2026-03-03T14:30:00-05:00' }, 'window_too_short', 'window.end'],
      [{ start: '2026-03-13T13:00:00-05:00', end: '2026-03-13T17:00:00-05:00' }, 'too_far_ahead', 'window.start'],
      [{ start: '2026-03-03T22:00:00-05:00', end: '2026-03-04T02:00:00-05:00' }, 'spans_days', 'window.end'],
      [{ start: '2026-03-08T10:00:00-04:00', end: '2026-03-08T14:00:00-04:00' }, 'sunday', 'window.start'],
    ];
    for (const [window, reason, field] of cases) {
      const res = await book(t, { carrier: 'usps', window, package_count: 1 });
      expect(res.statusCode, reason).toBe(422);
      expect(res.json(), reason).toMatchObject({ code: 'pickup_unavailable', details: [{ field, reason }] });
    }
    // A Saturday is a pickup day.
    expect(
      (await book(t, { carrier: 'usps', window: { start: '2026-03-07T09:00:00-05:00', end: '2026-03-07T12:00:00-05:00' }, package_count: 1 })).statusCode,
    ).toBe(201);

    // Holidays follow each carrier's calendar (the one its delivery dates use): Columbus Day
    // closes USPS, not UPS; Memorial Day closes both.
    setClock('2026-10-08T15:00:00.000Z');
    const columbus = { start: '2026-10-12T13:00:00-04:00', end: '2026-10-12T17:00:00-04:00' };
    const usps = await book(t, { carrier: 'usps', window: columbus, package_count: 1 });
    expect(usps.statusCode).toBe(422);
    expect(usps.json()).toMatchObject({ code: 'pickup_unavailable', details: [{ field: 'window.start', reason: 'carrier_holiday' }] });
    expect((await book(t, { carrier: 'ups', window: columbus, package_count: 1 })).statusCode).toBe(201);
    setClock('2026-05-20T15:00:00.000Z');
    const memorial = { start: '2026-05-25T13:00:00-04:00', end: '2026-05-25T17:00:00-04:00' };
    for (const carrier of ['usps', 'ups', 'fedex', 'dhl_express']) {
      expect((await book(t, { carrier, window: memorial, package_count: 1 })).json(), carrier).toMatchObject({
        code: 'pickup_unavailable',
        details: [{ reason: 'carrier_holiday' }],
      });
    }
    setClock('2026-03-02T15:00:00.000Z');
  });

  it('400s: no address anywhere is 422 missing_ship_from; both or neither of shipment_ids and package_count; a window without offset; a foreign or voided label', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const bare = await createTenant(app);
    expect((await book(bare, { carrier: 'usps', window: TUESDAY, package_count: 1 })).json()).toMatchObject({
      code: 'missing_ship_from',
      details: [{ field: 'address' }],
    });
    const t = await tenantWithOrigin();
    expect((await book(t, { carrier: 'usps', window: TUESDAY })).statusCode).toBe(400);
    const s = await buy(t);
    expect((await book(t, { carrier: 'usps', window: TUESDAY, package_count: 1, shipment_ids: [s.id] })).statusCode).toBe(400);
    expect((await book(t, { carrier: 'usps', window: { start: '2026-03-03T13:00:00', end: '2026-03-03T17:00:00' }, package_count: 1 })).statusCode).toBe(400);
    expect((await book(t, { carrier: 'nope', window: TUESDAY, package_count: 1 })).statusCode).toBe(400);
    const other = await tenantWithOrigin();
    const foreign = await buy(other);
    const ups = await buy(t, 'ups_ground');
    const res = await book(t, { carrier: 'usps', window: TUESDAY, shipment_ids: [s.id, foreign.id, ups.id] });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { field: string }) => d.field)).toEqual(['shipment_ids[1]', 'shipment_ids[2]']);
  });
});

describe('POST /v1/pickups and /api/admin/pickups: an impossible time in the window', () => {
  it('is 400 validation_failed naming window.start or window.end, never a 500', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const t = await tenantWithOrigin();
    const impossible = [
      '2026-03-03T13:60:00-05:00', // minute 60
      '2026-03-03T24:00:00-05:00', // hour 24
      '2026-03-03T13:00:60-05:00', // second 60
      '2026-03-03T13:00:00+24:00', // offset beyond any time zone
      '2026-03-03T13:00:00-15:00',
      '2026-03-03T13:00:00+05:60',
      '2026-02-30T13:00:00-05:00', // no such day
      '0000-03-03T13:00:00-05:00', // no year 0 in PostgreSQL
    ];
    for (const [surface, headers] of [
      ['/v1/pickups', t.headers],
      ['/api/admin/pickups', t.adminHeaders],
    ] as const) {
      for (const bad of impossible) {
        for (const field of ['start', 'end'] as const) {
          const window = { ...TUESDAY, [field]: bad };
          const res = await app.inject({ method: 'POST', url: surface, headers, payload: { carrier: 'usps', window, package_count: 1 } });
          expect(res.statusCode, `${surface} ${field}=${bad}: ${res.body}`).toBe(400);
          expect(res.json().code).toBe('validation_failed');
          expect(
            res.json().details.map((d: { field: string }) => d.field),
            bad,
          ).toContain(`window.${field}`);
        }
      }
    }
    // The same window with possible times is booked.
    expect(
      (await book(t, { carrier: 'usps', window: { start: '2026-03-03T13:00-05:00', end: '2026-03-03T17:59:59.999-05:00' }, package_count: 1 })).statusCode,
    ).toBe(201);
  });
});

describe('POST /v1/pickups/:id/cancel', () => {
  it('cancels before cancel_by (again: as it is); 409 invalid_state after it', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const t = await tenantWithOrigin();
    const p = (await book(t, { carrier: 'ups', window: TUESDAY, package_count: 1 })).json();
    const late = (await book(t, { carrier: 'ups', window: TUESDAY, package_count: 1 })).json();
    const res = await app.inject({ method: 'POST', url: `/v1/pickups/${p.id}/cancel`, headers: t.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: p.id, status: 'cancelled', cancelled_at: '2026-03-02T15:00:00.000Z' });
    expect((await app.inject({ method: 'POST', url: `/v1/pickups/${p.id}/cancel`, headers: t.headers })).json().status).toBe('cancelled');

    setClock('2026-03-03T16:00:00.000Z'); // UPS: cancel_by is 2 h before 18:00Z
    const refused = await app.inject({ method: 'POST', url: `/v1/pickups/${late.id}/cancel`, headers: t.headers });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'invalid_state', details: [{ field: 'status', current_state: 'scheduled', allowed_moves: [] }] });
    expect(refused.json().details[0].message).toContain('2026-03-03T16:00:00.000Z');
    expect((await app.inject({ method: 'GET', url: `/v1/pickups/${late.id}`, headers: t.headers })).json().status).toBe('scheduled');
    setClock('2026-03-02T15:00:00.000Z');
  });
});

describe('completion', () => {
  it("at the window's end the pickup completes and its labels get their acceptance scan (picked_up at that time), once", async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const t = await tenantWithOrigin();
    const labels = [await buy(t), await buy(t)];
    const p = (await book(t, { carrier: 'usps', window: TUESDAY, shipment_ids: labels.map((l) => l.id) })).json();

    setClock('2026-03-03T21:59:00.000Z');
    await app.services.pickups.completeDue();
    expect((await app.inject({ method: 'GET', url: `/v1/pickups/${p.id}`, headers: t.headers })).json().status).toBe('scheduled');

    setClock('2026-03-03T22:00:30.000Z');
    expect(await app.services.pickups.completeDue()).toBeGreaterThanOrEqual(1);
    expect(await app.services.pickups.completeDue()).toBe(0);
    expect((await app.inject({ method: 'GET', url: `/v1/pickups/${p.id}`, headers: t.headers })).json()).toMatchObject({
      status: 'completed',
      completed_at: '2026-03-03T22:00:00.000Z',
    });
    for (const l of labels) {
      const rows = await app.deps.db
        .selectFrom('tracking_events')
        .selectAll()
        .where('shipment_id', '=', l.id)
        .where('description', 'like', `%${p.id}%`)
        .execute();
      expect(rows, l.id).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'in_transit', status_detail: 'picked_up', milestone: 'picked_up', carrier_status_code: 'PU' });
      expect(new Date(rows[0]!.occurred_at).toISOString()).toBe('2026-03-03T22:00:00.000Z');
      const tracking = (await app.inject({ method: 'GET', url: `/v1/tracking/${l.id}`, headers: t.headers })).json();
      expect(
        tracking.events.some(
          (e: { status_detail: string; occurred_at: string }) => e.status_detail === 'picked_up' && e.occurred_at === '2026-03-03T22:00:00.000Z',
        ),
      ).toBe(true);
      expect(tracking.timeline.find((m: { milestone: string }) => m.milestone === 'picked_up').reached_at).not.toBeNull();
    }
    // A completed pickup cannot be cancelled.
    expect((await app.inject({ method: 'POST', url: `/v1/pickups/${p.id}/cancel`, headers: t.headers })).statusCode).toBe(409);
    setClock('2026-03-02T15:00:00.000Z');
  });
});

describe('GET /v1/pickups', () => {
  it('lists newest first with ?status=; 404 across workspaces and environments; the auth matrix', async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const t = await tenantWithOrigin();
    const a = (await book(t, { carrier: 'usps', window: TUESDAY, package_count: 1 })).json();
    const b = (await book(t, { carrier: 'fedex', window: TUESDAY, package_count: 2 })).json();
    expect(b.price).toEqual({ amount: 450, currency: 'USD' });
    await app.inject({ method: 'POST', url: `/v1/pickups/${a.id}/cancel`, headers: t.headers });
    expect((await app.inject({ method: 'GET', url: '/v1/pickups', headers: t.headers })).json().data.map((p: { id: string }) => p.id)).toEqual([b.id, a.id]);
    expect((await app.inject({ method: 'GET', url: '/v1/pickups?status=cancelled', headers: t.headers })).json().data.map((p: { id: string }) => p.id)).toEqual(
      [a.id],
    );
    const page = (await app.inject({ method: 'GET', url: '/v1/pickups?limit=1', headers: t.headers })).json();
    expect(page).toMatchObject({ has_more: true, data: [{ id: b.id }] });
    expect((await app.inject({ method: 'GET', url: `/v1/pickups?limit=1&cursor=${page.next_cursor}`, headers: t.headers })).json().data[0].id).toBe(a.id);

    const other = await createTenant(app);
    expect((await app.inject({ method: 'GET', url: `/v1/pickups/${b.id}`, headers: other.headers })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: `/v1/pickups/${b.id}/cancel`, headers: other.headers })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/v1/pickups/${b.id}`, headers: t.liveHeaders })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/v1/pickups', headers: other.headers })).json().data).toEqual([]);
    await expectV1AuthMatrix(app, { method: 'GET', url: `/v1/pickups/${b.id}` }, { owner: t, otherWorkspaceResource: true });
    await expectV1AuthMatrix(app, { method: 'POST', url: '/v1/pickups', payload: { carrier: 'usps', window: TUESDAY, package_count: 1 } }, { owner: t });
  });

  it("the dashboard's surface books and cancels too, and the audit log records both", async () => {
    setClock('2026-03-02T15:00:00.000Z');
    const t = await tenantWithOrigin();
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/pickups',
      headers: t.adminHeaders,
      payload: { carrier: 'dhl_express', window: TUESDAY, package_count: 1 },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect((await app.inject({ method: 'POST', url: `/api/admin/pickups/${res.json().id}/cancel`, headers: t.adminHeaders })).statusCode).toBe(200);
    const audit = await app.deps.db
      .selectFrom('audit_log')
      .select(['action', 'target_id', 'actor_type'])
      .where('target_id', '=', res.json().id)
      .orderBy('at')
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['pickup.scheduled', 'pickup.cancelled']);
  });
});

describe('capabilities', () => {
  it('GET /v1/carrier-types: all four carriers offer pickups and manifests; a carrier without them is 422 capability_unavailable, in test as in live', async () => {
    const t = await tenantWithOrigin();
    const types = (await app.inject({ method: 'GET', url: '/v1/carrier-types', headers: t.headers })).json().data as Array<{
      carrier: string;
      capabilities: Record<string, boolean>;
    }>;
    for (const c of types) expect(c.capabilities, c.carrier).toMatchObject({ pickups: true, manifests: true });

    // The same service with a USPS that declares no end-of-day offer.
    const registry = await getCarrierRegistry();
    const bare = createRegistry(registry.carriers.map((c) => (c.slug === 'usps' ? { ...c, end_of_day: undefined } : c)));
    const other = await buildTestApp({ now: () => new Date(clock), carriers: bare });
    const u = await createTenant(other);
    await other.inject({ method: 'PATCH', url: '/api/admin/workspace', headers: u.adminHeaders, payload: { origin_address: origin } });
    const usps = (
      (await other.inject({ method: 'GET', url: '/v1/carrier-types', headers: u.headers })).json().data as Array<{
        carrier: string;
        capabilities: Record<string, boolean>;
      }>
    ).find((c) => c.carrier === 'usps')!;
    expect(usps.capabilities).toMatchObject({ pickups: false, manifests: false });
    for (const headers of [u.headers, u.liveHeaders]) {
      const pickup = await other.inject({ method: 'POST', url: '/v1/pickups', headers, payload: { carrier: 'usps', window: TUESDAY, package_count: 1 } });
      expect(pickup.statusCode).toBe(422);
      expect(pickup.json()).toMatchObject({ code: 'capability_unavailable', details: [{ field: 'carrier', capability: 'pickups' }] });
      const manifest = await other.inject({ method: 'POST', url: '/v1/manifests', headers, payload: { carrier: 'usps' } });
      expect(manifest.statusCode).toBe(422);
      expect(manifest.json()).toMatchObject({ code: 'capability_unavailable', details: [{ field: 'carrier', capability: 'manifests' }] });
    }
  });
});
