// GET /v1/orders page latency as the list grows (the target: flat from 10k to 1M rows): the
// workspace's orders are seeded with SQL generate_series straight into the table, then the first
// page and a deep page (a cursor 90 % down the seeded rows) are read one request at a time.
import { judge, round, SIZES, type Context } from '../lib/context.js';
import { seededOrderCursor, seedOrdersSql } from '../lib/fixtures.js';
import { DURATION, latency, QUICK, WARMUP, type Latency } from '../lib/measure.js';
import type { Engine } from '../lib/service.js';

const CHUNK = 100_000;

/**
 * 10k and 1M on both engines (BENCH_LIST_SIZES overrides). PGlite seeds 1M orders in ~80 s
 * (measured: 990k rows at ~13k rows/s at a load average of 7 on 2 cores, the seeding process
 * peaking at 0.8 GB), slow but affordable once per run, so it is measured rather than skipped.
 */
export function listSizes(_engine: Engine): number[] {
  if (SIZES.list) return SIZES.list;
  if (QUICK) return [1_000, 5_000];
  return [10_000, 1_000_000];
}

const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n));
/** "Flat": p50 at the larger size within 1.5× of the smallest size's (+0.5 ms, the noise of a sub-ms read). */
const FLAT = { factor: 1.5, slackMs: 0.5 };

export async function listRows(ctx: Context): Promise<void> {
  const { service, tenant, engine } = ctx;
  const sizes = listSizes(engine);
  const base = new Date(Date.now() - 1000).toISOString();
  const headers = { authorization: tenant.headers.authorization, 'x-service-workspace': tenant.workspaceId };
  const first: Record<number, Latency> = {};
  const deep: Record<number, Latency> = {};
  let seeded = 0;
  for (const size of sizes) {
    const statements: string[] = [];
    for (let from = seeded + 1; from <= size; from += CHUNK) statements.push(seedOrdersSql(tenant.workspaceId, from, Math.min(size, from + CHUNK - 1), base));
    const inserts = statements.length;
    // PostgreSQL's autovacuum analyzes a table this grown within a minute; the embedded database
    // never analyzes (it runs no autovacuum), so there the pages are read as its users read them,
    // without statistics.
    if (engine === 'postgres') statements.push('analyze orders');
    const t0 = performance.now();
    const { ms } = await service.sql(statements);
    const seedSeconds = ms.slice(0, inserts).reduce((a, b) => a + b, 0) / 1000;
    const added = size - seeded;
    seeded = size;
    const around = engine === 'pglite' ? 'with the restart around it' : 'with analyze';
    const seedNote = `${label(added)} rows seeded in ${round(seedSeconds, 1)} s (${Math.round(added / seedSeconds)} rows/s; ${round((performance.now() - t0) / 1000, 1)} s ${around})`;

    // Both pages read for a while, one request at a time, after a warm-up (statement, caches;
    // on PGlite the service has just restarted around the seeding).
    const measure = (url: string) =>
      latency([{ url: `${service.base}${url}`, headers }], { warmupFor: WARMUP, repeatFor: Math.max(1, DURATION / 2) }, service.pid);
    first[size] = await measure('/v1/orders?limit=20');
    deep[size] = await measure(`/v1/orders?limit=20&cursor=${seededOrderCursor(Math.floor(size * 0.9), base)}`);
    for (const [kind, results] of [
      ['first', first],
      ['deep', deep],
    ] as const) {
      const r = results[size];
      if (r.non2xx) throw new Error(`list reads failed: ${r.firstError}`);
      const smallest = results[sizes[0]];
      const compared = size !== sizes[0];
      const flat = r.p50 <= smallest.p50 * FLAT.factor + FLAT.slackMs;
      ctx.add({
        key: `list-${kind}-${label(size)}`,
        name: `GET /v1/orders, ${kind === 'first' ? 'first page' : 'deep page (cursor 90 % down)'}, ${label(size)} seeded orders`,
        value: r.p50,
        unit: 'ms p50',
        detail: { p99_ms: r.p99, mean_ms: r.mean, reads: r.n, ...(kind === 'first' ? { seeding: seedNote } : {}) },
        anchor: compared ? { name: `same page at ${label(sizes[0])}`, value: smallest.p50, unit: 'ms p50' } : undefined,
        ratio: compared ? round(r.p50 / smallest.p50) : undefined,
        target: compared
          ? `flat from ${label(sizes[0])} to ${label(size)}: p50 ≤ ${FLAT.factor}× the ${label(sizes[0])} p50 + ${FLAT.slackMs} ms`
          : `baseline of "list page latency flat from 10k to 1M rows"`,
        met: compared ? judge(flat) : null,
      });
    }
  }
}
