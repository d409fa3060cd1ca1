import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';

// Session-authenticated create (the dashboard's "new order" form) and rate calculator.
let app: FastifyInstance;
let tenant: Tenant;
const SHIP_TO = { name: 'Ada', street1: '1 Main St', city: 'Beverly Hills', state: 'CA', postal_code: '90210', country: 'US' };

beforeAll(async () => {
  app = await buildTestApp();
  tenant = await createTenant(app);
});

describe('POST /api/admin/orders', () => {
  it("creates an order in the session's workspace and environment", async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/orders',
      headers: tenant.adminHeaders,
      payload: { ship_to: SHIP_TO, line_items: [{ sku: 'MUG', name: 'Mug', quantity: 2, weight_oz: 12 }], customer: { name: 'Ada', email: 'ada@example.com' } },
    });
    expect(res.statusCode, res.body).toBe(201);
    const order = res.json();
    expect(order.id).toMatch(/^ord_/);
    expect(order.status).toBe('awaiting_fulfillment');
    // Same order through /v1 with the test key (same workspace, test environment).
    const v1 = await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: tenant.headers });
    expect(v1.statusCode).toBe(200);
    const live = await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: tenant.liveHeaders });
    expect(live.statusCode).toBe(404);
    const stranger = await createTenant(app);
    const other = await app.inject({ method: 'GET', url: `/api/admin/orders/${order.id}`, headers: stranger.adminHeaders });
    expect(other.statusCode).toBe(404);
  });

  it('names every bad field', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/orders',
      headers: tenant.adminHeaders,
      payload: { ship_to: { country: 'US' }, line_items: [] },
    });
    expect(res.statusCode).toBe(400);
    const fields = (res.json().details as { field: string }[]).map((d) => d.field);
    expect(fields).toContain('line_items');
  });

  it('needs a session', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/admin/orders', payload: { ship_to: SHIP_TO, line_items: [{ sku: 'A', quantity: 1 }] } });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/admin/rates/query', () => {
  it('quotes with a session: zone, billable weight, surcharges and delivery date per option', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/rates/query',
      headers: tenant.adminHeaders,
      payload: {
        ship_from: { country: 'US', postal_code: '10001' },
        ship_to: { country: 'US', postal_code: '90210' },
        parcel: { weight_oz: 20, length_in: 10, width_in: 8, height_in: 4 },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [first] = res.json().data;
    expect(first).toMatchObject({ zone: expect.anything(), billable_weight_oz: expect.any(Number), surcharges: expect.any(Array) });
    expect(first.delivery.estimated_delivery_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('is 401 without a session and 400 on a bad parcel', async () => {
    const anon = await app.inject({ method: 'POST', url: '/api/admin/rates/query', payload: {} });
    expect(anon.statusCode).toBe(401);
    const bad = await app.inject({
      method: 'POST',
      url: '/api/admin/rates/query',
      headers: tenant.adminHeaders,
      payload: { ship_from: { country: 'US', postal_code: '10001' }, ship_to: { country: 'US', postal_code: '90210' }, parcel: { weight_oz: -1 } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('validation_failed');
  });
});
