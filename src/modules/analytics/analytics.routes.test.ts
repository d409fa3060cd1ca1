import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, superAdminHeaders, type Tenant } from '../../../test/helpers/app.js';
import { periods } from './analytics.service.js';
import { tableExists } from './analytics.repo.js';

let app: FastifyInstance;
let root: Record<string, string>;
let t: Tenant;

/** 70 bare orders over the week of Monday 2020-03-02: 10 a day, every third one cancelled. */
async function seedOrders(workspaceId: string) {
  await sql`
    insert into orders (id, workspace_id, environment, source, status, ship_to, line_items, parcel, created_at, updated_at)
    select 'ord_seed_' || g, ${workspaceId}, 'test', 'api',
           case when g % 3 = 0 then 'cancelled' else 'awaiting_fulfillment' end,
           '{}'::jsonb, '[]'::jsonb, '{}'::jsonb,
           timestamptz '2020-03-02T00:00:00Z' + (g % 7) * interval '1 day' + interval '13 hours',
           now()
    from generate_series(1, 70) g`.execute(app.deps.db);
}

beforeAll(async () => {
  app = await buildTestApp();
  root = await superAdminHeaders(app);
  t = await createTenant(app, { plan: 'professional' });
  // Bare rows (no addresses): a workspace of their own, never listed through the API.
  await seedOrders((await createTenant(app)).workspaceId);
});

const report = async (query: string) => {
  const res = await app.inject({ method: 'GET', url: `/api/super-admin/analytics?${query}`, headers: root });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('GET /api/super-admin/analytics', () => {
  it('counts orders created per day and by status in the range', async () => {
    const r = await report('from=2020-03-01&to=2020-03-10');
    expect(r.orders.created).toBe(70);
    expect(r.orders.by_status).toMatchObject({ cancelled: 23, awaiting_fulfillment: 47, processing: 0 });
    expect(r.orders.per_period).toHaveLength(9);
    expect(r.orders.per_period[0]).toEqual({ period: '2020-03-01', created: 0 });
    expect(r.orders.per_period.slice(1, 8).map((p: { created: number }) => p.created)).toEqual([10, 10, 10, 10, 10, 10, 10]);
    expect(r.orders.per_period[8]).toEqual({ period: '2020-03-09', created: 0 });

    const narrow = await report('from=2020-03-03T00:00:00Z&to=2020-03-04T00:00:00Z');
    expect(narrow.orders.created).toBe(10);

    const weekly = await report('from=2020-03-02&to=2020-03-16&interval=week');
    expect(weekly.orders.per_period).toEqual([
      { period: '2020-03-02', created: 70 },
      { period: '2020-03-09', created: 0 },
    ]);
  });

  it('accounts by status and workspaces by plan match the tables', async () => {
    const r = await report('from=2020-03-01&to=2020-03-10');
    const accounts = await app.deps.db
      .selectFrom('accounts')
      .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
      .groupBy('status')
      .execute();
    const expected = { pending: 0, active: 0, suspended: 0 } as Record<string, number>;
    for (const a of accounts) expected[a.status] = Number(a.n);
    expect(r.accounts_by_status).toEqual(expected);
    expect(r.accounts_by_status.active).toBeGreaterThanOrEqual(2);
    expect(r.workspaces_by_plan.professional).toBeGreaterThanOrEqual(1);
    const total = Number(
      (
        await app.deps.db
          .selectFrom('workspaces')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(r.workspaces_by_plan.starter + r.workspaces_by_plan.professional + r.workspaces_by_plan.enterprise).toBe(total);
  });

  it('counts API requests per workspace', async () => {
    const other = await createTenant(app);
    for (let i = 0; i < 5; i++) expect((await app.inject({ method: 'GET', url: '/v1/orders', headers: t.headers })).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) await app.inject({ method: 'GET', url: '/v1/orders', headers: other.liveHeaders });
    await app.inject({ method: 'GET', url: '/v1/orders' }); // unauthenticated: not counted
    const r = await report(`from=${new Date(Date.now() - 86_400_000).toISOString()}`);
    const row = (id: string) => r.api_requests.by_workspace.find((w: { workspace_id: string }) => w.workspace_id === id);
    expect(row(t.workspaceId)).toMatchObject({ requests: 5, name: expect.any(String) });
    expect(row(other.workspaceId).requests).toBe(2);
    expect(r.api_requests.total).toBeGreaterThanOrEqual(7);
    expect(r.api_requests.per_period.reduce((a: number, p: { requests: number }) => a + p.requests, 0)).toBe(r.api_requests.total);
  });

  it('labels, webhooks and batches are zero while their tables are absent or empty in the range', async () => {
    const r = await report('from=2020-03-01&to=2020-03-10');
    if (!(await tableExists(app.deps.db, 'shipments')))
      expect(r.labels).toMatchObject({ purchased: 0, voided: 0, spend: { amount: 0, currency: 'USD' }, by_carrier: [] });
    expect(r.webhooks.success_rate).toBeNull();
    expect(r.batches.created).toBe(0);
    expect(r.labels.per_period).toHaveLength(9);
  });

  it('validates the range', async () => {
    for (const q of ['from=2020-03-10&to=2020-03-01', 'from=soon', 'from=2000-01-01&to=2020-01-01', 'interval=month']) {
      const res = await app.inject({ method: 'GET', url: `/api/super-admin/analytics?${q}`, headers: root });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
  });
});

describe('periods', () => {
  it('weeks start on Monday (as date_trunc), days at UTC midnight', () => {
    expect(periods(new Date('2020-03-04T10:00:00Z'), new Date('2020-03-17T00:00:00Z'), 'week')).toEqual(['2020-03-02', '2020-03-09', '2020-03-16']);
    expect(periods(new Date('2020-03-01T23:00:00Z'), new Date('2020-03-03T00:00:00Z'), 'day')).toEqual(['2020-03-01', '2020-03-02']);
  });
});
