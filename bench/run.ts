/**
 * `npm run bench` : every benchmark row in one run, each beside its
 * anchor where one applies, with its ratio and its target; results printed and written to
 * bench/results/<date>-<sha>.json and .md, and bench/results/latest.md
 * (`npm run bench:readme` copies that into README.md).
 *
 * Per engine (PGlite on a fresh data dir; PostgreSQL on a database of its own, created in
 * BENCH_DATABASE_URL's server, default postgres://postgres@127.0.0.1:5432/test, dropped at the
 * end) the service runs through `npm start` itself, as users run it (the built tree, at
 * its default log level, a line per request). The first start creates the demo workspace and the fixtures; then restarts on
 * the existing data are timed; then the rows, in this order (later rows grow tables):
 *   health, rates, rates-new, order   throughput beside anchors (bench/rows/hot-paths.ts)
 *   rates-floor                       Fastify, and node:http, answering the rate query verbatim with
 *                                     one access line, beside the rates' bare anchor: the ceiling
 *                                     of the rates ratios (bench/rows/hot-paths.ts)
 *   rates-options                     the rate query with shipment options beside none (bench/rows/hot-paths.ts)
 *   rss                               the service's memory over those load rows
 *   logging                           the rate query at the default log level beside LOG_LEVEL=warn (bench/rows/logging.ts)
 *   purchase, tracking                label purchase latency, tracking reads (bench/rows/shipments.ts)
 *   webhooks                          deliveries/s to a local receiver (bench/rows/webhooks.ts)
 *   carriers                          the rate-shop across 4 `api` accounts on fake carriers (50 ms):
 *                                     overhead over the slowest; a 5th that hangs: answer at the
 *                                     deadline (bench/rows/carriers.ts, fakes in bench/fake-carriers.ts)
 *   purchase-auto                     purchases with service_code "auto" (shipping rules in place) beside
 *                                     an explicit service, interleaved: p99 difference (bench/rows/rules.ts)
 *   list                              order list page latency at 10k and 1M seeded orders (bench/rows/lists.ts)
 *   batch                             10,000-label purchase_labels batch (bench/rows/batch.ts)
 *   batch-rules                       a purchase_labels batch the rules choose for beside one naming the
 *                                     service, 10,000 labels each (bench/rows/rules.ts)
 *   restart                           restart to healthy through `npm start` (and the cold start) on the existing data
 * Load generators (bench/load.mjs), anchors (bench/anchors.mjs) and SQL seeding (bench/seed.mjs)
 * each run in a process of their own.
 *
 * Env: BENCH_ROWS (comma list of the keys above; default all), BENCH_ENGINES=pglite,postgres
 * (default both; postgres skipped when unreachable), BENCH_QUICK=1 (small sizes, 2 s durations:
 * the smoke test), BENCH_DURATION / BENCH_WARMUP (s), BENCH_RESTARTS (default 3), BENCH_LABELS (purchases; of each kind in purchase-auto), BENCH_ITEMS (batch size),
 * BENCH_RULES_ITEMS (each batch of batch-rules; default BENCH_ITEMS's), BENCH_EVENTS (webhook
 * deliveries), BENCH_LIST_SIZES (e.g. 10000,1000000), BENCH_FORMAT (label format),
 * BENCH_CARRIER_QUERIES (rate queries of the carriers row), BENCH_RESULTS_DIR, BENCH_SERVICE_DIR
 * (another checkout whose built tree runs as the service, for before/after runs), BENCH_PROFILE=1 (a --cpu-prof profile in bench/profiles/).
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SIZES, judge, type Context } from './lib/context.js';
import { CONNECTIONS, DURATION, QUICK, WARMUP } from './lib/measure.js';
import { memoryMiB, resetPeakMemory, stopAll } from './lib/proc.js';
import { gitInfo, load, machine, markdown, writeResults, type Report } from './lib/report.js';
import { ADMIN_URL, ENGINE_NAMES, postgresReachable, Service, type Engine } from './lib/service.js';
import { batchRows } from './rows/batch.js';
import { carrierRows } from './rows/carriers.js';
import { hotPathFixtures, hotPathRows, pointSelectAnchor } from './rows/hot-paths.js';
import { listRows, listSizes } from './rows/lists.js';
import { loggingRow } from './rows/logging.js';
import { rulesBatchRow, rulesPurchaseRow } from './rows/rules.js';
import { buyOneLabel, purchaseRow, trackingRow } from './rows/shipments.js';
import { webhookRow } from './rows/webhooks.js';

export const ROW_KEYS = [
  'health',
  'rates',
  'rates-new',
  'rates-floor',
  'order',
  'rates-options',
  'rss',
  'logging',
  'purchase',
  'tracking',
  'webhooks',
  'carriers',
  'purchase-auto',
  'list',
  'batch',
  'batch-rules',
  'restart',
] as const;

const ENGINES = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',').map((s) => s.trim()) as Engine[];
const SELECTED = process.env.BENCH_ROWS ? new Set(process.env.BENCH_ROWS.split(',').map((s) => s.trim())) : null;
const SERVICE_DIR = path.resolve(process.env.BENCH_SERVICE_DIR ?? '.');
const RESTARTS = Number(process.env.BENCH_RESTARTS ?? (QUICK ? 1 : 3));
const PROFILE = process.env.BENCH_PROFILE === '1';

const want = (key: string) => !SELECTED || SELECTED.has(key);

async function benchEngine(engine: Engine, work: string, report: Report): Promise<void> {
  const notes: string[] = [];
  report.engines[engine] = { status: 'failed', notes };
  const service = new Service(engine, work, SERVICE_DIR);
  await service.create();
  try {
    // First start: migrations and the demo seed, then the fixtures the rows read.
    const coldMs = await service.start();
    const tenant = await service.onboard();
    let last = performance.now();
    const ctx: Context = {
      engine,
      service,
      tenant,
      work,
      add: (row) => {
        report.rows.push({ engine, ...row });
        // Progress on stderr: a full run takes a while.
        const now = performance.now();
        process.stderr.write(`[${engine}] ${row.key}: ${row.value} ${row.unit} (${((now - last) / 1000).toFixed(1)} s)\n`);
        last = now;
      },
      note: (t) => notes.push(t),
    };
    const fixtures = await hotPathFixtures(ctx);
    await service.stop();

    // The embedded anchor reads a copy of the same data (the service holds its data dir's lock).
    let anchorDir: string | undefined;
    if (engine === 'pglite' && (want('order') || want('tracking'))) {
      anchorDir = path.join(work, `${engine}-anchor`);
      cpSync(service.dataDir, anchorDir, { recursive: true });
      rmSync(path.join(anchorDir, 'service.lock'), { force: true });
    }

    if (want('restart')) {
      // Through `npm start`, as users restart it (every start of the bench is).
      const restarts: number[] = [];
      for (let i = 0; i < Math.max(1, RESTARTS); i++) {
        restarts.push(await service.start());
        await service.stop();
      }
      restarts.sort((a, b) => a - b);
      const median = restarts[Math.floor(restarts.length / 2)];
      ctx.add({
        key: 'restart',
        name: '`npm start` restart on the existing data to a healthy /health',
        value: Math.round(median),
        unit: 'ms',
        detail: { via_npm_start_ms: restarts.map(Math.round).join(', '), cold_start_new_data_ms: Math.round(coldMs) },
        target: 'restart healthy < 1500 ms',
        met: judge(median < 1500),
      });
    }

    await service.start({ profile: PROFILE ? path.resolve('bench/profiles') : undefined });
    // Let the background schema compilation and rate-data warm-up (1 s after listening) finish.
    await service.settled();

    const loadRows = ['health', 'rates-options', 'rates', 'rates-new', 'order'].filter(want);
    const peakReset = resetPeakMemory(service.pid);
    await hotPathRows(ctx, fixtures, want, anchorDir);
    if (want('rss')) {
      const mem = memoryMiB(service.pid);
      ctx.add({
        key: 'rss',
        name: `Service memory under load (${loadRows.length ? loadRows.join(', ') : 'idle: no load rows selected'})`,
        value: mem?.peak ?? NaN,
        unit: 'MiB peak RSS',
        detail: { rss_after_mib: mem?.rss ?? null, peak_since: peakReset ? 'first load row' : 'process start' },
        target: 'RSS < 300 MB under load',
        met: mem && loadRows.length ? judge(mem.peak * 1.048576 < 300) : null,
      });
    }

    if (want('logging')) await loggingRow(ctx);

    let trackingNumber: string | undefined;
    if (want('purchase')) trackingNumber = await purchaseRow(ctx);
    if (want('tracking')) await trackingRow(ctx, trackingNumber ?? (await buyOneLabel(ctx)), () => pointSelectAnchor(ctx, fixtures.orderId, anchorDir));
    if (want('webhooks')) await webhookRow(ctx);
    if (want('carriers')) await carrierRows(ctx);
    if (want('purchase-auto')) await rulesPurchaseRow(ctx);
    if (want('list')) await listRows(ctx);
    if (want('batch')) await batchRows(ctx);
    if (want('batch-rules')) await rulesBatchRow(ctx);

    report.engines[engine]!.status = 'measured';
  } finally {
    await service.drop();
  }
}

async function main() {
  const unknown = [...(SELECTED ?? [])].filter((k) => !(ROW_KEYS as readonly string[]).includes(k));
  if (unknown.length) throw new Error(`unknown BENCH_ROWS ${unknown.join(',')}; known: ${ROW_KEYS.join(',')}`);
  const report: Report = {
    date: new Date().toISOString(),
    git: gitInfo(SERVICE_DIR),
    quick: QUICK,
    partial: SELECTED !== null,
    settings: {
      engines: ENGINES,
      rows: SELECTED ? [...SELECTED] : ['all'],
      'autocannon connections': CONNECTIONS,
      'warm-up s': WARMUP,
      'duration s': DURATION,
      purchases: SIZES.purchases,
      'batch items': SIZES.batchItems,
      'rules batch items': SIZES.rulesBatchItems,
      'webhook deliveries': SIZES.webhookEvents,
      'list sizes': ENGINES.map((e) => `${e} ${listSizes(e).join('/')}`).join(', '),
      'label format': SIZES.labelFormat,
      ...(SERVICE_DIR !== path.resolve('.') ? { service: SERVICE_DIR } : {}),
    },
    machine: machine(),
    engines: {},
    rows: [],
  };
  const work = mkdtempSync(path.join(tmpdir(), 'ship-bench-'));
  let failure: unknown;
  try {
    for (const engine of ENGINES) {
      if (engine !== 'pglite' && engine !== 'postgres') throw new Error(`unknown engine ${engine}`);
      if (engine === 'postgres' && !(await postgresReachable())) {
        report.engines.postgres = { status: 'skipped', notes: [`${ADMIN_URL} not reachable.`] };
        continue;
      }
      try {
        await benchEngine(engine, work, report);
      } catch (err) {
        // Keep what was measured; the report says this engine failed and why.
        failure = err;
        report.engines[engine]?.notes.push(`Failed: ${err instanceof Error ? err.message.slice(0, 500) : String(err)}`);
        process.stderr.write(`${ENGINE_NAMES[engine]}: ${err instanceof Error ? err.stack : String(err)}\n`);
      }
    }
  } finally {
    await stopAll();
    rmSync(work, { recursive: true, force: true });
  }
  report.machine.load_end = load();
  const file = writeResults(report);
  process.stdout.write(`${markdown(report)}\nwrote ${file}\n`);
  if (failure) process.exitCode = 1;
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
