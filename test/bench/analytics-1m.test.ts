import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, superAdminHeaders } from '../helpers/app.js';

// Not part of the normal run: BENCH_ANALYTICS=1 npx vitest run test/bench/analytics-1m.test.ts
// (add TEST_DATABASE_URL for PostgreSQL). Seeds 1M orders with generate_series, then reports
// how long the super-admin reads take. Figures go to the README, not into assertions.
const ROWS = Number(process.env.BENCH_ANALYTICS_ROWS ?? 1_000_000);

describe.runIf(process.env.BENCH_ANALYTICS === '1')('super-admin reads on a million orders', () => {
  it('times analytics, the workspace list and the audit log', { timeout: 3_600_000 }, async () => {
    const app = await buildTestApp();
    const root = await superAdminHeaders(app);
    const tenants = await Promise.all([createTenant(app), createTenant(app), createTenant(app)]);
    const statuses = sql.raw(`(array['awaiting_fulfillment','processing','shipped','delivered','cancelled'])[1 + g % 5]`);
    const started = performance.now();
    for (let from = 1; from <= ROWS; from += 100_000) {
      const to = Math.min(ROWS, from + 99_999);
      await sql`
        insert into orders (id, workspace_id, environment, source, status, ship_to, line_items, parcel, created_at, updated_at)
        select 'ord_bench_' || g, (array[${tenants[0].workspaceId}, ${tenants[1].workspaceId}, ${tenants[2].workspaceId}])[1 + g % 3],
               'test', 'api', ${statuses}, '{}'::jsonb, '[]'::jsonb, '{}'::jsonb,
               now() - (g % 525600) * interval '1 minute', now()
        from generate_series(${from}::int, ${to}::int) g`.execute(app.deps.db);
    }
    await sql`analyze`.execute(app.deps.db);
    console.log(`seeded ${ROWS} orders in ${Math.round(performance.now() - started)} ms`);

    const time = async (label: string, url: string) => {
      const runs: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        const res = await app.inject({ method: 'GET', url, headers: root });
        runs.push(performance.now() - t0);
        expect(res.statusCode, res.body).toBe(200);
      }
      runs.sort((a, b) => a - b);
      console.log(`${label}: median ${runs[2].toFixed(1)} ms, best ${runs[0].toFixed(1)} ms`);
    };
    const day = 86_400_000;
    await time('analytics last 30 days (~82k orders), daily', `/api/super-admin/analytics?from=${new Date(Date.now() - 30 * day).toISOString()}`);
    await time(
      'analytics last 365 days (1M orders), weekly',
      `/api/super-admin/analytics?from=${new Date(Date.now() - 365 * day).toISOString()}&interval=week`,
    );
    await time('analytics one day', `/api/super-admin/analytics?from=${new Date(Date.now() - day).toISOString()}`);
    await time('workspaces list (order counts)', '/api/super-admin/workspaces?limit=20');
    await time('audit log first page', '/api/super-admin/audit-log?limit=20');
    const { rows } = await sql<{
      'QUERY PLAN': string;
    }>`explain select to_char(date_trunc('day', created_at at time zone 'UTC'), 'YYYY-MM-DD'), status, count(*) from orders where created_at >= now() - interval '30 days' and created_at < now() group by 1, 2`.execute(
      app.deps.db,
    );
    console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
  });
});
