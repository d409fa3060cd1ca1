// Per-call CPU of hot-path pieces in isolation (no I/O, so another process's load moves it
// little): node --import tsx bench/micro-hot-paths.ts
import { Kysely, PostgresDialect, CompiledQuery } from 'kysely';
import { Counter, Histogram, Registry } from 'prom-client';
import { inScope } from '../src/platform/db/scope.js';
import { sha256Hex } from '../src/platform/crypto.js';
import { createHash } from 'node:crypto';
const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: {} as never }) });
const scope = { workspaceId: 'ws_01m84sr8f2etp94j1xzspytcgn', environment: 'test' };
const N = 50_000;
function bench(name: string, fn: (i: number) => unknown) {
  for (let i = 0; i < 5000; i++) fn(i);
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t = process.cpuUsage();
    for (let i = 0; i < N; i++) fn(i);
    const u = process.cpuUsage(t);
    runs.push((u.user + u.system) / N);
  }
  console.log(name.padEnd(40), Math.min(...runs).toFixed(2), 'µs CPU (min of 5)');
}
bench('kysely build + compile (findOrder)', (i) =>
  db
    .selectFrom('orders')
    .selectAll()
    .where(inScope(scope as never))
    .where('id', '=', 'ord_' + i)
    .compile(),
);
const sql = db
  .selectFrom('orders')
  .selectAll()
  .where(inScope(scope as never))
  .where('id', '=', 'x')
  .compile().sql;
bench('precompiled CompiledQuery.raw', (i) => CompiledQuery.raw(sql, [scope.workspaceId, scope.environment, 'ord_' + i]));
const key = 'sk_test_nQttOoHuqjNDMaFPax5wGl8g9yGFa3eQucZcqBejxyC';
bench('createHash sha256 hex', () => createHash('sha256').update(key).digest('hex'));
bench('sha256Hex (crypto.hash)', () => sha256Hex(key));

// The per-request metrics (platform/http/metrics.ts): one counter and one histogram sample.
const registry = new Registry();
const requests = new Counter({ name: 'r', help: 'r', labelNames: ['method', 'route', 'status_code'], registers: [registry] });
const latency = new Histogram({
  name: 'l',
  help: 'l',
  labelNames: ['method', 'route'],
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [registry],
});
bench('prom-client counter.inc + histogram.observe', (i) => {
  requests.inc({ method: 'GET', route: '/v1/orders/:id', status_code: String(200) });
  latency.observe({ method: 'GET', route: '/v1/orders/:id' }, (i % 100) / 10_000);
});
