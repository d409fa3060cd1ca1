import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, expectV1AuthMatrix, type Tenant } from '../../../test/helpers/app.js';
import { newId } from '../../platform/ids.js';
import { moveOrder } from './orders.service.js';
import { insertOrders } from './orders.repo.js';

let app: FastifyInstance;
let t: Tenant;

// The workspace-wide default box used for missing parcel dimensions (setting orders.default_box).
const BOX = { length_in: 12, width_in: 9, height_in: 6 };

beforeAll(async () => {
  app = await buildTestApp();
  await app.deps.db
    .insertInto('settings')
    .values({ key: 'orders.default_box', value: JSON.stringify(BOX) })
    .execute();
  t = await createTenant(app);
});

const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const orderBody = (extra: Record<string, unknown> = {}) => ({
  customer: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+1 415 555 0100' },
  ship_to: shipTo,
  line_items: [
    { sku: 'MUG-1', name: 'Mug', quantity: 2, unit_price: { amount: 1250, currency: 'USD' }, weight_oz: 8 },
    { sku: 'TEE-M', name: 'T-shirt', quantity: 1, unit_price: { amount: 2000, currency: 'USD' }, weight_oz: 4.5 },
  ],
  ...extra,
});

async function createOrder(headers: Record<string, string>, body: Record<string, unknown> = orderBody()) {
  const res = await app.inject({ method: 'POST', url: '/v1/orders', headers, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const fields = (res: { json: () => { details?: Array<{ field: string }> } }) => (res.json().details ?? []).map((d) => d.field);

describe('POST /v1/orders', () => {
  it('creates an order with a derived parcel and the documented shape', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: orderBody({
        ship_to: { ...shipTo, country: 'us', residential_hint: 'ignored' },
        notes: 'gift wrap',
        requested_service: 'usps_ground_advantage',
      }),
    });
    expect(res.statusCode).toBe(201);
    const order = res.json();
    expect(order.id).toMatch(/^ord_[0-9a-z]{26}$/);
    expect(order).toMatchObject({
      external_id: null,
      source: 'api',
      environment: 'test',
      status: 'awaiting_fulfillment',
      archived: false,
      customer: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+1 415 555 0100' },
      ship_from: null,
      requested_service: 'usps_ground_advantage',
      notes: 'gift wrap',
      shipments: [],
      office_pins: [],
      processed_at: null,
      cancelled_at: null,
    });
    // Country code upper-cased, unknown keys dropped, other fields verbatim.
    expect(order.ship_to).toEqual({ ...shipTo, country: 'US' });
    expect(order.line_items).toEqual([
      { sku: 'MUG-1', name: 'Mug', quantity: 2, unit_price: { amount: 1250, currency: 'USD' }, weight_oz: 8 },
      { sku: 'TEE-M', name: 'T-shirt', quantity: 1, unit_price: { amount: 2000, currency: 'USD' }, weight_oz: 4.5 },
    ]);
    // 2 × 8 + 1 × 4.5 oz in the workspace's default box.
    expect(order.parcel).toEqual({ weight_oz: 20.5, ...BOX });
    expect(order.parcel_derived).toBe(true);
    expect(Date.parse(order.created_at)).not.toBeNaN();
    expect(order.updated_at).toBe(order.created_at);
  });

  it('keeps an explicit parcel, fills a partial one, and allows optional fields to be null', async () => {
    const full = await createOrder(t.headers, orderBody({ parcel: { weight_oz: 33, length_in: 7, width_in: 6, height_in: 5 } }));
    expect(full.parcel).toEqual({ weight_oz: 33, length_in: 7, width_in: 6, height_in: 5 });
    expect(full.parcel_derived).toBe(false);
    const partial = await createOrder(t.headers, orderBody({ parcel: { weight_oz: 40 } }));
    expect(partial.parcel).toEqual({ weight_oz: 40, ...BOX });
    expect(partial.parcel_derived).toBe(true);
    const minimal = await createOrder(t.headers, {
      ship_to: { street1: '10 Queen St', city: 'Hong Kong', country: 'HK' }, // no postal codes in Hong Kong
      line_items: [{ name: 'Gift card', quantity: 1, sku: null, unit_price: null, weight_oz: null }],
      ship_from: null,
      notes: null,
    });
    expect(minimal.customer).toEqual({ name: null, email: null, phone: null });
    expect(minimal.line_items).toEqual([{ sku: null, name: 'Gift card', quantity: 1, unit_price: null, weight_oz: null }]);
    expect(minimal.parcel).toEqual({ weight_oz: 0, ...BOX });
  });

  it('requires ship_to and at least one line item', async () => {
    const none = await app.inject({ method: 'POST', url: '/v1/orders', headers: t.headers, payload: {} });
    expect(none.statusCode).toBe(400);
    expect(none.json().code).toBe('validation_failed');
    expect(fields(none)).toEqual(expect.arrayContaining(['ship_to', 'line_items']));
    const empty = await app.inject({ method: 'POST', url: '/v1/orders', headers: t.headers, payload: orderBody({ line_items: [] }) });
    expect(empty.statusCode).toBe(400);
    expect(fields(empty)).toContain('line_items');
  });

  it('names each bad field: quantities, money, unknown fields', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: orderBody({
        line_items: [
          { sku: 'A', quantity: 0 },
          { sku: 'B', quantity: 1, unit_price: { amount: -1, currency: 'USD' } },
          { sku: 'C', quantity: 1, unit_price: { amount: 1.5, currency: 'usd' } },
          { sku: 'D', quantity: 2.5 },
        ],
        shipping_speed: 'fast',
      }),
    });
    expect(res.statusCode).toBe(400);
    expect(fields(res)).toEqual(
      expect.arrayContaining([
        'line_items[0].quantity',
        'line_items[1].unit_price.amount',
        'line_items[2].unit_price.amount',
        'line_items[2].unit_price.currency',
        'line_items[3].quantity',
        'shipping_speed',
      ]),
    );
  });

  it('checks addresses for shipping: street1, city, ISO country, postal code where used', async () => {
    const missing = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: orderBody({ ship_to: { name: 'X', country: 'US' }, ship_from: { street1: '1 A St', city: 'Paris', country: 'ZZ' } }),
    });
    expect(missing.statusCode).toBe(400);
    expect(fields(missing)).toEqual(expect.arrayContaining(['ship_to.street1', 'ship_to.city', 'ship_to.postal_code', 'ship_from.country']));

    const badZip = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: orderBody({ ship_to: { ...shipTo, postal_code: '1234' } }),
    });
    expect(badZip.statusCode).toBe(400);
    expect(badZip.json().details).toEqual([{ field: 'ship_to.postal_code', message: expect.any(String) }]);

    const badUk = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: orderBody({ ship_to: { street1: '10 Downing St', city: 'London', postal_code: '12345', country: 'GB' } }),
    });
    expect(badUk.statusCode).toBe(400);
    expect(fields(badUk)).toEqual(['ship_to.postal_code']);

    const okUk = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: orderBody({ ship_to: { street1: '10 Downing St', city: 'London', postal_code: 'SW1A 2AA', country: 'GB' } }),
    });
    expect(okUk.statusCode).toBe(201);
  });

  it('refuses items without sku or name, mixed currencies, a malformed service code and a blank external id', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: orderBody({
        external_id: '   ',
        requested_service: 'Fastest Please',
        line_items: [
          { sku: 'A', quantity: 1, unit_price: { amount: 100, currency: 'USD' } },
          { sku: ' ', name: '', quantity: 1 },
          { sku: 'C', quantity: 1, unit_price: { amount: 100, currency: 'EUR' } },
        ],
      }),
    });
    expect(res.statusCode).toBe(400);
    // One answer names every bad field: the schema's (service code) and the rules' together.
    expect(fields(res)).toEqual(['requested_service', 'external_id', 'line_items[1].sku', 'line_items[2].unit_price.currency']);
    const domain = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: orderBody({
        external_id: '   ',
        line_items: [
          { sku: 'A', quantity: 1, unit_price: { amount: 100, currency: 'USD' } },
          { sku: ' ', name: '', quantity: 1 },
          { sku: 'C', quantity: 1, unit_price: { amount: 100, currency: 'EUR' } },
        ],
      }),
    });
    expect(domain.statusCode).toBe(400);
    expect(fields(domain).sort()).toEqual(['external_id', 'line_items[1].sku', 'line_items[2].unit_price.currency']);
  });

  it('reports schema and address errors in one answer', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: { ship_to: { street1: '1 Main St', country: 'ZZ', postal_code: 42 }, line_items: [{ sku: 'A', quantity: 0 }] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    // postal_code has the wrong type: the schema names it, the rules do not name it again.
    expect(fields(res).sort()).toEqual(['line_items[0].quantity', 'ship_to.city', 'ship_to.country', 'ship_to.postal_code']);
    expect(res.json().details.filter((d: { field: string }) => d.field === 'ship_to.postal_code')).toEqual([
      { field: 'ship_to.postal_code', message: 'must be string or null' },
    ]);
    // A nullable field with a bad value: the value's reason only, not "must be null" besides.
    const long = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: orderBody({ ship_to: { ...shipTo, postal_code: '9'.repeat(41) } }),
    });
    expect(long.json().details).toEqual([{ field: 'ship_to.postal_code', message: 'must NOT have more than 40 characters' }]);
  });

  it('answers 400, never 500, whatever shape a refused body has', async () => {
    const bodies = [
      { ship_to: [], line_items: [null, 5, 'x'] },
      { ship_to: { country: 5, city: {}, street1: [] }, line_items: [{ sku: 1, unit_price: 'free' }] },
      { ship_to: null, ship_from: 'here', external_id: 7, line_items: {} },
      {
        ship_to: shipTo,
        line_items: [
          { sku: 'A', quantity: 1, unit_price: { amount: 1, currency: 5 } },
          { sku: null, quantity: 1 },
        ],
      },
    ];
    for (const payload of bodies) {
      const res = await app.inject({ method: 'POST', url: '/v1/orders', headers: t.headers, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().details.length).toBeGreaterThan(0);
    }
  });

  it('passes the auth matrix', async () => {
    await expectV1AuthMatrix(app, { method: 'POST', url: '/v1/orders', payload: orderBody() }, { owner: t });
  });
});

describe('external_id upsert', () => {
  const ext = () => `EXT-${Math.random().toString(36).slice(2, 10)}`;

  it('creates (201), then updates the open order (200), keeping fields the update leaves out', async () => {
    const externalId = ext();
    const created = await createOrder(t.headers, orderBody({ external_id: externalId, notes: 'first' }));
    const res = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: { external_id: externalId, ship_to: { ...shipTo, street1: '2 Market St' }, line_items: [{ sku: 'MUG-1', quantity: 5, weight_oz: 8 }] },
    });
    expect(res.statusCode).toBe(200);
    const updated = res.json();
    expect(updated.id).toBe(created.id);
    expect(updated.ship_to.street1).toBe('2 Market St');
    expect(updated.line_items).toEqual([{ sku: 'MUG-1', name: null, quantity: 5, unit_price: null, weight_oz: 8 }]);
    expect(updated.parcel.weight_oz).toBe(40);
    expect(updated.notes).toBe('first');
    expect(updated.customer.email).toBe('ada@example.com');
    expect(updated.created_at).toBe(created.created_at);

    // Still open while processing.
    const processed = await app.inject({ method: 'POST', url: `/api/admin/orders/${created.id}/process`, headers: t.adminHeaders });
    expect(processed.json().status).toBe('processing');
    const again = await app.inject({ method: 'POST', url: '/v1/orders', headers: t.headers, payload: orderBody({ external_id: externalId, notes: 'second' }) });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ id: created.id, status: 'processing', notes: 'second' });

    const list = await app.inject({ method: 'GET', url: `/v1/orders?external_id=${externalId}`, headers: t.headers });
    expect(list.json().data.map((o: { id: string }) => o.id)).toEqual([created.id]);
  });

  it('refuses to update a shipped or cancelled order (409 invalid_state)', async () => {
    const shippedExt = ext();
    const shipped = await createOrder(t.headers, orderBody({ external_id: shippedExt }));
    // A label purchase (a later module) moves the order through the same state machine.
    await app.deps.db
      .transaction()
      .execute((trx) => moveOrder(trx, { workspaceId: t.workspaceId, environment: 'test' }, shipped.id, 'purchase_label', new Date()));
    const res = await app.inject({ method: 'POST', url: '/v1/orders', headers: t.headers, payload: orderBody({ external_id: shippedExt }) });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('invalid_state');
    expect(res.json().details).toMatchObject([{ field: 'status', current_state: 'shipped' }]);
    expect(res.json().message).toContain('shipped');

    const cancelledExt = ext();
    const cancelled = await createOrder(t.headers, orderBody({ external_id: cancelledExt }));
    await app.inject({ method: 'POST', url: `/api/admin/orders/${cancelled.id}/cancel`, headers: t.adminHeaders });
    const refused = await app.inject({ method: 'POST', url: '/v1/orders', headers: t.headers, payload: orderBody({ external_id: cancelledExt }) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().details).toEqual([{ field: 'status', message: expect.any(String), current_state: 'cancelled', allowed_moves: [] }]);
  });

  it('external ids are unique per environment: the same id in live is another order', async () => {
    const externalId = ext();
    const test = await createOrder(t.headers, orderBody({ external_id: externalId }));
    const live = await createOrder(t.liveHeaders, orderBody({ external_id: externalId }));
    expect(live.id).not.toBe(test.id);
    expect(live.environment).toBe('live');
  });

  it('concurrent imports of one external id make one order', async () => {
    const externalId = ext();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => app.inject({ method: 'POST', url: '/v1/orders', headers: t.headers, payload: orderBody({ external_id: externalId }) })),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.json().id)).size).toBe(1);
  });
});

describe('GET /v1/orders/:id', () => {
  it('reads an order; unknown, other-environment and other-workspace orders are 404', async () => {
    const order = await createOrder(t.headers);
    const res = await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(order);

    const unknown = await app.inject({ method: 'GET', url: `/v1/orders/${newId('order')}`, headers: t.headers });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('not_found');

    const live = await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.liveHeaders });
    expect(live.statusCode).toBe(404);

    await expectV1AuthMatrix(app, { method: 'GET', url: `/v1/orders/${order.id}` }, { owner: t, otherWorkspaceResource: true });
  });
});

describe('GET /v1/orders', () => {
  it('pages through a few hundred orders with limit 50: newest first, no duplicates, no gaps', async () => {
    const owner = await createTenant(app);
    const scope = { workspaceId: owner.workspaceId, environment: 'live' as const };
    const base = Date.parse('2026-03-01T12:00:00.000Z');
    const rows = Array.from({ length: 320 }, (_, i) => ({
      id: newId('order'),
      workspace_id: scope.workspaceId,
      environment: scope.environment,
      source: 'api',
      external_id: `P-${i}`,
      status: 'awaiting_fulfillment' as const,
      customer_name: `Customer ${i}`,
      customer_email: null,
      customer_phone: null,
      ship_to: JSON.stringify(shipTo),
      line_items: JSON.stringify([{ sku: 'X', name: null, quantity: 1, unit_price: null, weight_oz: 1 }]),
      parcel: JSON.stringify({ weight_oz: 1, ...BOX }),
      // Groups of ten share a millisecond, so the id must break the ties.
      created_at: new Date(base + Math.floor(i / 10) * 1000),
      updated_at: new Date(base),
    }));
    await insertOrders(app.deps.db, rows);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/v1/orders?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await app.inject({ method: 'GET', url, headers: owner.liveHeaders });
      expect(res.statusCode).toBe(200);
      const page = res.json();
      expect(page.data.length).toBeLessThanOrEqual(50);
      seen.push(...page.data.map((o: { id: string }) => o.id));
      expect(page.has_more).toBe(page.next_cursor !== null);
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 20);
    expect(pages).toBe(7);
    expect(seen).toHaveLength(320);
    expect(new Set(seen).size).toBe(320);
    const expected = [...rows].sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : -1)).map((r) => r.id);
    expect(seen).toEqual(expected);

    // Date filters: [created_after, created_before).
    const window = await app.inject({
      method: 'GET',
      url: `/v1/orders?limit=100&created_after=${new Date(base + 5000).toISOString()}&created_before=${new Date(base + 7000).toISOString()}`,
      headers: owner.liveHeaders,
    });
    expect(
      window
        .json()
        .data.map((o: { external_id: string }) => o.external_id)
        .sort(),
    ).toEqual(Array.from({ length: 20 }, (_, k) => `P-${50 + k}`).sort());
    const dateOnly = await app.inject({ method: 'GET', url: '/v1/orders?created_before=2026-03-01', headers: owner.liveHeaders });
    expect(dateOnly.json().data).toEqual([]);

    // The test environment of the same workspace sees none of them.
    const testEnv = await app.inject({ method: 'GET', url: '/v1/orders?limit=100', headers: owner.headers });
    expect(testEnv.json().data).toEqual([]);
  });

  it('filters by status, external id and q (customer name, email, external id)', async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const a = await createOrder(t.headers, orderBody({ external_id: `Q-${tag}-a`, customer: { name: `Zelda ${tag}`, email: `zelda-${tag}@example.com` } }));
    const b = await createOrder(t.headers, orderBody({ external_id: `Q-${tag}-b`, customer: { name: 'Link', email: `link-${tag}@EXAMPLE.com` } }));
    await app.inject({ method: 'POST', url: `/api/admin/orders/${b.id}/process`, headers: t.adminHeaders });

    const get = async (qs: string) => {
      const res = await app.inject({ method: 'GET', url: `/v1/orders?limit=100&${qs}`, headers: t.headers });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.map((o: { id: string }) => o.id) as string[];
    };
    expect(await get(`q=zelda%20${tag.toUpperCase()}`)).toEqual([a.id]);
    expect(await get(`q=link-${tag}@example`)).toEqual([b.id]);
    expect((await get(`q=Q-${tag}`)).sort()).toEqual([a.id, b.id].sort());
    expect(await get(`external_id=Q-${tag}-b`)).toEqual([b.id]);
    expect(await get(`q=${tag}&status=processing`)).toEqual([b.id]);
    expect((await get(`q=${tag}&status=processing,awaiting_fulfillment`)).sort()).toEqual([a.id, b.id].sort());
    expect(await get(`q=%25${tag}`)).toEqual([]); // % is literal, not a wildcard
    expect(await get(`q=${tag}&source=int_nothing`)).toEqual([]);
  });

  it('refuses a bad status, date or cursor with 400', async () => {
    for (const [qs, field] of [
      ['status=shipped,lost', 'status'],
      ['created_after=yesterday', 'created_after'],
      ['cursor=not-a-cursor', 'cursor'],
      ['archived=maybe', 'archived'],
    ]) {
      const res = await app.inject({ method: 'GET', url: `/v1/orders?${qs}`, headers: t.headers });
      expect(res.statusCode, qs).toBe(400);
      expect(fields(res), qs).toContain(field);
    }
  });

  it('passes the auth matrix', async () => {
    await expectV1AuthMatrix(app, { method: 'GET', url: '/v1/orders' }, { owner: t });
  });
});

describe('admin orders', () => {
  it('needs a session and acts on the environment of X-Service-Environment', async () => {
    const order = await createOrder(t.headers);
    expect((await app.inject({ method: 'GET', url: `/api/admin/orders/${order.id}` })).statusCode).toBe(401);
    const res = await app.inject({ method: 'GET', url: `/api/admin/orders/${order.id}`, headers: t.adminHeaders });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(order);
    const live = await app.inject({ method: 'GET', url: `/api/admin/orders/${order.id}`, headers: { ...t.adminHeaders, 'x-service-environment': 'live' } });
    expect(live.statusCode).toBe(404);
    const list = await app.inject({ method: 'GET', url: '/api/admin/orders?limit=100', headers: t.adminHeaders });
    expect(list.json().data.map((o: { id: string }) => o.id)).toContain(order.id);
  });
});

// The changes of an order answer the same through the dashboard's session and through an API
// key (one set of routes, orderChangeRoutes): every test below runs on both surfaces.
const surfaces = [
  {
    name: 'admin',
    base: '/api/admin',
    headers: () => t.adminHeaders,
    of: (x: Tenant) => x.adminHeaders,
    actor: () => ({ actor_type: 'account', actor_id: t.accountId }),
  },
  { name: 'v1', base: '/v1', headers: () => t.headers, of: (x: Tenant) => x.headers, actor: () => ({ actor_type: 'api_key', actor_id: t.apiKeyId }) },
];

describe.each(surfaces)('order changes through $base', (s) => {
  const auditOf = (targetId: string) => app.deps.db.selectFrom('audit_log').selectAll().where('target_id', '=', targetId).orderBy('at').orderBy('id').execute();

  it("another workspace's order is 404 for every route", async () => {
    const order = await createOrder(t.headers);
    const other = await createTenant(app);
    for (const [method, url] of [
      ['GET', `${s.base}/orders/${order.id}`],
      ['PATCH', `${s.base}/orders/${order.id}`],
      ['POST', `${s.base}/orders/${order.id}/process`],
      ['POST', `${s.base}/orders/${order.id}/cancel`],
      ['POST', `${s.base}/orders/${order.id}/archive`],
      ['POST', `${s.base}/orders/${order.id}/unarchive`],
    ] as const) {
      const res = await app.inject({ method, url, headers: s.of(other), ...(method === 'PATCH' ? { payload: { notes: 'x' } } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    // Naming a workspace the account is not a member of is a 404 too (a key of another workspace: 403).
    const foreign = await app.inject({ method: 'GET', url: `${s.base}/orders`, headers: { ...s.of(other), 'x-service-workspace': t.workspaceId } });
    expect(foreign.statusCode).toBe(s.base === '/v1' ? 403 : 404);
    // Nothing changed.
    expect((await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.headers })).json()).toEqual(order);
  });

  it('PATCH updates details, re-derives the parcel and writes an audit entry', async () => {
    const order = await createOrder(t.headers, orderBody({ notes: 'old' }));
    const res = await app.inject({
      method: 'PATCH',
      url: `${s.base}/orders/${order.id}`,
      headers: s.headers(),
      payload: {
        customer: { email: 'new@example.com' },
        ship_from: { street1: '5 Warehouse Rd', city: 'Oakland', state: 'CA', postal_code: '94607', country: 'US' },
        line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 3, weight_oz: 10 }],
        requested_service: 'ups_ground',
        notes: null,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json();
    expect(updated.customer).toEqual({ name: 'Ada Lovelace', email: 'new@example.com', phone: '+1 415 555 0100' });
    expect(updated.ship_from).toMatchObject({ street1: '5 Warehouse Rd', country: 'US' });
    expect(updated.parcel).toEqual({ weight_oz: 30, ...BOX });
    expect(updated.requested_service).toBe('ups_ground');
    expect(updated.notes).toBeNull();
    expect(Date.parse(updated.updated_at)).toBeGreaterThanOrEqual(Date.parse(order.updated_at));

    const parcel = await app.inject({
      method: 'PATCH',
      url: `${s.base}/orders/${order.id}`,
      headers: s.headers(),
      payload: { parcel: { weight_oz: 50, length_in: 20, width_in: 10, height_in: 10 } },
    });
    expect(parcel.json()).toMatchObject({ parcel: { weight_oz: 50, length_in: 20, width_in: 10, height_in: 10 }, parcel_derived: false });
    const rederived = await app.inject({ method: 'PATCH', url: `${s.base}/orders/${order.id}`, headers: s.headers(), payload: { parcel: null } });
    expect(rederived.json()).toMatchObject({ parcel: { weight_oz: 30, ...BOX }, parcel_derived: true });

    const audit = await auditOf(order.id);
    expect(audit.map((a) => a.action)).toEqual(['order.updated', 'order.updated', 'order.updated']);
    const first = audit.find((a) => Object.keys(a.changes as object).includes('customer'))!;
    expect(first).toMatchObject({ ...s.actor(), target_type: 'order', workspace_id: t.workspaceId, environment: 'test' });
    const changes = first.changes as Record<string, { from: unknown; to: unknown }>;
    expect(Object.keys(changes).sort()).toEqual(['customer', 'line_items', 'notes', 'parcel', 'requested_service', 'ship_from'].sort());
    expect(changes.notes).toEqual({ from: 'old', to: null });
  });

  it('PATCH validates like create and is refused once the order has shipped', async () => {
    const order = await createOrder(t.headers);
    const bad = await app.inject({
      method: 'PATCH',
      url: `${s.base}/orders/${order.id}`,
      headers: s.headers(),
      payload: { ship_to: { ...shipTo, postal_code: 'ABCDE' }, line_items: [] },
    });
    expect(bad.statusCode).toBe(400);
    expect(fields(bad)).toContain('line_items');
    const badAddress = await app.inject({
      method: 'PATCH',
      url: `${s.base}/orders/${order.id}`,
      headers: s.headers(),
      payload: { ship_to: { ...shipTo, postal_code: 'ABCDE' } },
    });
    expect(fields(badAddress)).toEqual(['ship_to.postal_code']);

    await app.deps.db
      .transaction()
      .execute((trx) => moveOrder(trx, { workspaceId: t.workspaceId, environment: 'test' }, order.id, 'purchase_label', new Date()));
    const shipped = await app.inject({ method: 'PATCH', url: `${s.base}/orders/${order.id}`, headers: s.headers(), payload: { notes: 'too late' } });
    expect(shipped.statusCode).toBe(409);
    expect(shipped.json()).toMatchObject({ code: 'invalid_state', details: [{ field: 'status', current_state: 'shipped' }] });
    const cancel = await app.inject({ method: 'POST', url: `${s.base}/orders/${order.id}/cancel`, headers: s.headers() });
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().details[0].current_state).toBe('shipped');
    expect(cancel.json().details[0].allowed_moves).not.toContain('cancel');
  });

  it('process, then illegal moves are 409 naming the state and the allowed moves; each move is audited', async () => {
    const order = await createOrder(t.headers);
    const processed = await app.inject({ method: 'POST', url: `${s.base}/orders/${order.id}/process`, headers: s.headers() });
    expect(processed.statusCode).toBe(200);
    expect(processed.json()).toMatchObject({ id: order.id, status: 'processing' });
    expect(processed.json().processed_at).not.toBeNull();

    const twice = await app.inject({ method: 'POST', url: `${s.base}/orders/${order.id}/process`, headers: s.headers() });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ code: 'invalid_state', details: [{ field: 'status', current_state: 'processing' }] });
    expect(twice.json().details).toHaveLength(1);
    expect(twice.json().details[0].allowed_moves).toEqual(expect.arrayContaining(['cancel']));
    expect(twice.json().details[0].allowed_moves).not.toContain('process');

    const cancelled = await app.inject({ method: 'POST', url: `${s.base}/orders/${order.id}/cancel`, headers: s.headers() });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
    expect(cancelled.json().cancelled_at).not.toBeNull();
    for (const action of ['process', 'cancel']) {
      const res = await app.inject({ method: 'POST', url: `${s.base}/orders/${order.id}/${action}`, headers: s.headers() });
      expect(res.statusCode).toBe(409);
      expect(res.json().details).toEqual([{ field: 'status', message: expect.any(String), current_state: 'cancelled', allowed_moves: [] }]);
    }
    const patch = await app.inject({ method: 'PATCH', url: `${s.base}/orders/${order.id}`, headers: s.headers(), payload: { notes: 'x' } });
    expect(patch.statusCode).toBe(409);

    const audit = await auditOf(order.id);
    expect(audit.map((a) => [a.action, a.changes])).toEqual(
      expect.arrayContaining([
        ['order.processed', { status: { from: 'awaiting_fulfillment', to: 'processing' } }],
        ['order.cancelled', { status: { from: 'processing', to: 'cancelled' } }],
      ]),
    );
    expect(audit).toHaveLength(2);
  });

  it('cancels straight from awaiting_fulfillment; unknown orders are 404', async () => {
    const order = await createOrder(t.headers);
    const res = await app.inject({ method: 'POST', url: `${s.base}/orders/${order.id}/cancel`, headers: s.headers() });
    expect(res.json().status).toBe('cancelled');
    const unknown = await app.inject({ method: 'POST', url: `${s.base}/orders/${newId('order')}/process`, headers: s.headers() });
    expect(unknown.statusCode).toBe(404);
  });

  it('archive hides an order from default lists; ?archived=true and all show it; unarchive restores', async () => {
    const order = await createOrder(t.headers);
    const ids = async (qs: string) =>
      (await app.inject({ method: 'GET', url: `${s.base}/orders?limit=100&${qs}`, headers: s.headers() }))
        .json()
        .data.map((o: { id: string }) => o.id) as string[];

    const archived = await app.inject({ method: 'POST', url: `${s.base}/orders/${order.id}/archive`, headers: s.headers() });
    expect(archived.statusCode).toBe(200);
    expect(archived.json()).toMatchObject({ archived: true, status: 'awaiting_fulfillment' });
    expect(archived.json().archived_at).not.toBeNull();
    expect(await ids('')).not.toContain(order.id);
    expect(await ids('archived=false')).not.toContain(order.id);
    expect(await ids('archived=true')).toContain(order.id);
    expect(await ids('archived=all')).toContain(order.id);
    expect(await ids('archived=true')).not.toContain((await createOrder(t.headers)).id);
    // /v1 follows the same rule.
    const v1 = (await app.inject({ method: 'GET', url: '/v1/orders?limit=100', headers: t.headers })).json().data.map((o: { id: string }) => o.id);
    expect(v1).not.toContain(order.id);

    // Archived orders can still move (the flag is orthogonal to the state).
    const processed = await app.inject({ method: 'POST', url: `${s.base}/orders/${order.id}/process`, headers: s.headers() });
    expect(processed.json()).toMatchObject({ archived: true, status: 'processing' });

    const again = await app.inject({ method: 'POST', url: `${s.base}/orders/${order.id}/archive`, headers: s.headers() });
    expect(again.statusCode).toBe(200);
    const unarchived = await app.inject({ method: 'POST', url: `${s.base}/orders/${order.id}/unarchive`, headers: s.headers() });
    expect(unarchived.json()).toMatchObject({ archived: false, archived_at: null });
    expect(await ids('')).toContain(order.id);

    const audit = await auditOf(order.id);
    expect(audit.map((a) => a.action).sort()).toEqual(['order.archived', 'order.processed', 'order.unarchived']);
  });
});
