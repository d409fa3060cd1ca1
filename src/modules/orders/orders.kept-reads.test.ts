import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { buildApp } from '../../app.js';
import { testConfig } from '../../config.js';
import { newId } from '../../platform/ids.js';

// Order reads are kept per order until the order or one of its attachments moves
// (orders.service.ts readOrder). What must hold: a kept answer is served, and every change is
// seen at once, in this process and in another one on the same database; a PIN's status still
// follows the clock.
const START = Date.parse('2026-03-02T15:00:00.000Z');
let now = START;
let app: FastifyInstance;
let other: FastifyInstance;
let t: Tenant;

beforeAll(async () => {
  app = await buildTestApp({ now: () => new Date(now) });
  // A second process on the same database, with answers of its own.
  other = await buildApp({ config: testConfig(), database: app.deps.database, migrate: false, perIpPerMinute: 100_000, now: () => new Date(now) });
  t = await createTenant(app);
});
afterAll(async () => {
  await other.close();
});

const SHIP_TO = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const SHIP_FROM = { name: 'Warehouse', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };

async function newOrder(): Promise<{ id: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers: t.headers,
    payload: { ship_to: SHIP_TO, ship_from: SHIP_FROM, line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 1, weight_oz: 12 }] },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const read = async (on: FastifyInstance, id: string, headers = t.headers) => {
  const res = await on.inject({ method: 'GET', url: `/v1/orders/${id}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('kept order reads', () => {
  it('serves the kept answer while nothing moved, and reads again after an edit', async () => {
    const order = await newOrder();
    const scope = { workspaceId: t.workspaceId, environment: 'test' as const };
    const first = await app.services.orders.getOrder(scope, order.id);
    expect(await app.services.orders.getOrder(scope, order.id)).toBe(first);
    // The route sends the kept read's text: the same bytes each time, the order as read.
    const [a, b] = [
      await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.headers }),
      await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.headers }),
    ];
    expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(b.body).toBe(a.body);
    expect(a.json()).toEqual(JSON.parse(JSON.stringify(first)));
    const edited = await app.inject({ method: 'PATCH', url: `/api/admin/orders/${order.id}`, headers: t.adminHeaders, payload: { notes: 'fragile' } });
    expect(edited.statusCode, edited.body).toBe(200);
    const after = await app.services.orders.getOrder(scope, order.id);
    expect(after).not.toBe(first);
    expect(after.notes).toBe('fragile');
    expect((await read(app, order.id)).notes).toBe('fragile');
  });

  it("a change to a shipment alone (not the order's row) is seen at once, here and in another process", async () => {
    const order = await newOrder();
    const bought = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: { order_id: order.id, service_code: 'usps_ground_advantage' },
    });
    expect(bought.statusCode, bought.body).toBe(201);
    expect((await read(app, order.id)).shipments).toMatchObject([{ id: bought.json().id, status: 'label_purchased' }]);
    expect((await read(other, order.id)).shipments).toMatchObject([{ id: bought.json().id, status: 'label_purchased' }]);
    await app.deps.db.updateTable('shipments').set({ status: 'in_transit' }).where('id', '=', bought.json().id).execute();
    expect((await read(app, order.id)).shipments).toMatchObject([{ status: 'in_transit' }]);
    expect((await read(other, order.id)).shipments).toMatchObject([{ status: 'in_transit' }]);
    // An edit made straight in the database (through neither app) is seen by the other process.
    await app.deps.db
      .updateTable('orders')
      .set({ notes: 'from elsewhere', updated_at: sql`updated_at` })
      .where('id', '=', order.id)
      .execute();
    expect((await read(other, order.id)).notes).toBe('from elsewhere');
  });

  it("a PIN's status follows the clock, and the masked and whole answers are kept apart", async () => {
    const order = await newOrder();
    const pin = '4111222233334444';
    await app.deps.db
      .insertInto('office_pins')
      .values({
        id: newId('pin'),
        pin,
        product: 'office_2024',
        status: 'active',
        expires_at: new Date(START + 3_600_000),
        order_id: order.id,
        workspace_id: t.workspaceId,
        environment: 'test',
        line_index: 0,
        unit_index: 0,
        created_at: new Date(START),
        updated_at: new Date(START),
      })
      .execute();
    expect((await read(app, order.id)).office_pins).toMatchObject([{ status: 'active', pin: `••••••••••••4444` }]);
    const whole = await app.inject({ method: 'GET', url: `/api/admin/orders/${order.id}`, headers: t.adminHeaders });
    expect(whole.json().office_pins).toMatchObject([{ status: 'active', pin }]);
    expect((await read(app, order.id)).office_pins).toMatchObject([{ pin: `••••••••••••4444` }]);
    now = START + 2 * 3_600_000;
    try {
      expect((await read(app, order.id)).office_pins).toMatchObject([{ status: 'expired' }]);
    } finally {
      now = START;
    }
  });

  it('an order of another workspace or environment is still a 404 after it was read', async () => {
    const order = await newOrder();
    await read(app, order.id);
    const stranger = await createTenant(app);
    for (const headers of [stranger.headers, t.liveHeaders]) {
      expect((await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers })).statusCode).toBe(404);
    }
  });
});
