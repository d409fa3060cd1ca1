/**
 * `npm run bench` (DESIGN.md §7, issue 25): the hot paths beside their anchors, measured in one run.
 *
 * For each engine (PGlite on a fresh data dir; PostgreSQL on a database of its own, created in
 * BENCH_DATABASE_URL's server, default postgres://postgres@127.0.0.1:5432/test, and dropped at
 * the end): the service is started as `npm start` runs it (`node scripts/start.mjs`: the built
 * tree, LOG_LEVEL=warn), seeded with its demo workspace, one order and one rate quote; then
 * restarted on the existing data (timed to a healthy /health); then each row is measured by
 * autocannon (32 connections, warm-up, then BENCH_DURATION s) in a process of its own
 * (bench/load.mjs), next to its anchor, a bare server in a process of its own
 * (bench/anchors.mjs):
 *   bare            node:http answering the same rate-query JSON text
 *   bare + pg       node:http + pg.Pool (max 10) running the order read's point select
 *   bare + PGlite   node:http + PGlite (on a copy of the service's data dir), same select
 *
 * Env: BENCH_ENGINES=pglite,postgres (default both; postgres skipped when unreachable),
 * BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 3), BENCH_ROWS (comma list of row
 * keys to run: bare,rates,rates-new,anchor-db,order; default all), BENCH_RESTARTS (timed
 * restarts, default 3, plus one through npm), BENCH_SERVICE_DIR (another checkout whose built
 * tree runs as the service, for before/after runs), BENCH_PROFILE=1 (the
 * service writes a --cpu-prof profile to bench/profiles/ on exit).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CONNECTIONS = 32;
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ENGINES = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',').map((s) => s.trim());
const ROWS = process.env.BENCH_ROWS ? new Set(process.env.BENCH_ROWS.split(',')) : null;
// Another checkout's built tree to run as the service (a before/after comparison); this one by default.
const SERVICE_DIR = path.resolve(process.env.BENCH_SERVICE_DIR ?? '.');
const RESTARTS = Number(process.env.BENCH_RESTARTS ?? 3);
const PROFILE = process.env.BENCH_PROFILE === '1';
const SUPER = { email: 'bench@example.com', password: 'bench-password-123' };

interface Result {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Server CPU time per request, µs. */
  cpuUsPerRequest: number;
}
interface Row {
  name: string;
  result: Result;
  anchor?: { name: string; result: Result };
  goal?: { ratio: number; p99?: number };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let nextPort = 20_000 + (process.pid % 20_000);
const port = () => nextPort++;

/** Every process this run started, so a failure half-way leaves none behind. */
const started: { child: ChildProcess; group: boolean }[] = [];

function spawnLogged(cmd: string, args: string[], env: Record<string, string | undefined> = {}, opts: { detached?: boolean; cwd?: string } = {}) {
  let out = '';
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: opts.detached, cwd: opts.cwd });
  started.push({ child, group: Boolean(opts.detached) });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { child, output: () => out };
}

async function waitHealthy(url: string, child: ChildProcess, output: () => string, timeoutMs = 240_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}: ${output()}`);
    try {
      if ((await fetch(url)).ok) return performance.now() - started;
    } catch {
      /* not up yet */
    }
    await sleep(10);
  }
  throw new Error(`${url} did not become healthy: ${output()}`);
}

async function waitReady(output: () => string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600 && !output().includes('ready'); i++) {
    if (child.exitCode !== null) throw new Error(`anchor exited: ${output()}`);
    await sleep(50);
  }
}

async function stop(child: ChildProcess, group = false): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    if (group) process.kill(-child.pid!, 'SIGTERM');
    else child.kill('SIGTERM');
  });
}

function startService(env: Record<string, string>, opts: { viaNpm?: boolean; profile?: string } = {}) {
  const serviceEnv = { LOG_LEVEL: 'warn', ...env };
  if (opts.viaNpm) return spawnLogged('npm', ['start', '--silent'], serviceEnv, { detached: true, cwd: SERVICE_DIR });
  const flags = opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${opts.profile}`] : [];
  return spawnLogged(process.execPath, [...flags, 'scripts/start.mjs'], serviceEnv, { cwd: SERVICE_DIR });
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); NaN elsewhere. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
const CLOCK_TICKS = 100;

/**
 * One autocannon run in a process of its own. Besides req/s and latency, the CPU time the
 * server spent per request during the measured part: other work on the machine moves req/s
 * a lot, CPU per request much less.
 */
async function load(job: Record<string, unknown>, serverPid: number): Promise<Result> {
  const child = spawn(process.execPath, ['bench/load.mjs', JSON.stringify({ connections: CONNECTIONS, duration: DURATION, warmup: WARMUP, ...job })], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let cpuStart = NaN;
  let cpuEnd = NaN;
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => {
    stderr += d;
    if (Number.isNaN(cpuStart) && stderr.includes('measuring')) cpuStart = cpuMs(serverPid);
    if (Number.isNaN(cpuEnd) && stderr.includes('measured')) cpuEnd = cpuMs(serverPid);
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`load generator failed: ${stderr}`);
  const r = JSON.parse(stdout) as Result & { total: number };
  return { ...r, rps: Math.round(r.rps), cpuUsPerRequest: Math.round(((cpuEnd - cpuStart) * 1000) / r.total) };
}

async function startAnchor(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const p = port();
  const a = spawnLogged(process.execPath, ['bench/anchors.mjs', args[0], String(p), ...args.slice(1)]);
  await waitReady(a.output, a.child);
  return { child: a.child, url: `http://127.0.0.1:${p}` };
}

async function json(res: Response): Promise<Record<string, unknown>> {
  const body = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body;
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const want = (key: string) => !ROWS || ROWS.has(key);

async function benchEngine(engine: 'pglite' | 'postgres', work: string): Promise<{ lines: string[]; rows: Row[] }> {
  const dataDir = path.join(work, engine);
  mkdirSync(dataDir, { recursive: true });
  const servicePort = port();
  const base = `http://127.0.0.1:${servicePort}`;
  const env: Record<string, string> = {
    PORT: String(servicePort),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    SEED_DEMO: '1',
    SUPER_ADMIN_EMAIL: SUPER.email,
    SUPER_ADMIN_PASSWORD: SUPER.password,
  };
  let dbName: string | undefined;
  let dbUrl: string | undefined;
  if (engine === 'postgres') {
    dbName = `bench_${process.pid}`;
    await withAdmin((c) => c.query(`create database ${dbName}`));
    const u = new URL(ADMIN_URL);
    u.pathname = `/${dbName}`;
    dbUrl = u.toString();
    env.DATABASE_URL = dbUrl;
  }
  const children: ChildProcess[] = [];
  try {
    // First start: migrations, seed; then the fixtures the rows read.
    const first = startService(env);
    const coldMs = await waitHealthy(`${base}/health`, first.child, first.output);
    let seed: RegExpMatchArray | null = null;
    for (let i = 0; i < 2400 && !seed; i++) {
      seed = first.output().match(/Workspace:\s+(ws_\S+)[\s\S]*Test API key:\s+(sk_test_\S+)/);
      if (!seed) await sleep(50);
    }
    if (!seed) throw new Error(`no demo seed printed: ${first.output()}`);
    const [, workspaceId, apiKey] = seed;
    const headers = { authorization: `Bearer ${apiKey}`, 'x-service-workspace': workspaceId, 'content-type': 'application/json' };
    // Lift the demo workspace's burst limit so the rows measure the service, not the limiter
    // (the limiter still runs on every request).
    const { token } = (await json(
      await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(SUPER) }),
    )) as { token: string };
    await json(
      await fetch(`${base}/api/super-admin/workspaces/${workspaceId}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ plan: 'enterprise', burst_per_minute: 10_000_000 }),
      }),
    );
    const order = await json(
      await fetch(`${base}/v1/orders`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          external_id: 'bench-1',
          customer: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+1 415 555 0100' },
          ship_to: { name: 'Ada Lovelace', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' },
          line_items: [
            { sku: 'MUG-1', name: 'Mug', quantity: 2, unit_price: { amount: 1250, currency: 'USD' }, weight_oz: 8 },
            { sku: 'TEE-M', name: 'T-shirt', quantity: 1, unit_price: { amount: 2000, currency: 'USD' }, weight_oz: 4.5 },
          ],
          notes: 'benchmark order',
        }),
      }),
    );
    const orderId = String(order.id);
    const rateBody = JSON.stringify({
      ship_from: { country: 'US', postal_code: '94105' },
      ship_to: { country: 'US', postal_code: '10001' },
      parcel: { weight_oz: 32, length_in: 12, width_in: 9, height_in: 6 },
    });
    const rateText = await (await fetch(`${base}/v1/rates/query`, { method: 'POST', headers, body: rateBody })).text();
    const payloadFile = path.join(work, `${engine}-rates.json`);
    writeFileSync(payloadFile, rateText);
    await stop(first.child);

    // The embedded anchor reads a copy of the same data (the service holds its data dir's lock).
    let anchorDir: string | undefined;
    if (engine === 'pglite') {
      anchorDir = path.join(work, `${engine}-anchor`);
      cpSync(dataDir, anchorDir, { recursive: true });
      rmSync(path.join(anchorDir, 'service.lock'), { force: true });
    }

    // Restarts on the existing data: three as `node scripts/start.mjs` (what `npm start` runs), one through npm itself.
    const restarts: number[] = [];
    for (let i = 0; i < RESTARTS; i++) {
      const s = startService(env);
      restarts.push(await waitHealthy(`${base}/health`, s.child, s.output));
      await stop(s.child);
    }
    let npmRestart = NaN;
    if (RESTARTS > 0) {
      const viaNpm = startService(env, { viaNpm: true });
      npmRestart = await waitHealthy(`${base}/health`, viaNpm.child, viaNpm.output);
      await stop(viaNpm.child, true);
    }

    const profileDir = PROFILE ? path.resolve('bench/profiles') : undefined;
    const service = startService(env, { profile: profileDir });
    children.push(service.child);
    await waitHealthy(`${base}/health`, service.child, service.output);
    // Let the background schema compilation and rate-data warm-up (1 s after listening) finish.
    await sleep(2500);

    const bare = await startAnchor(['bare', payloadFile]);
    children.push(bare.child);
    const dbAnchor =
      engine === 'postgres'
        ? await startAnchor(['pg', dbUrl!, orderId, workspaceId, 'test'])
        : await startAnchor(['pglite', anchorDir!, orderId, workspaceId, 'test']);
    children.push(dbAnchor.child);
    const dbAnchorName = engine === 'postgres' ? 'bare + pg' : 'bare + PGlite';

    const rows: Row[] = [];
    const bareResult = want('bare') || want('rates') || want('rates-new') ? await load({ url: bare.url }, bare.child.pid!) : undefined;
    const bareAnchor = bareResult && { name: 'bare', result: bareResult };
    if (want('rates')) {
      rows.push({
        name: 'POST /v1/rates/query, one lane repeated',
        result: await load({ url: `${base}/v1/rates/query`, method: 'POST', headers, body: rateBody }, service.child.pid!),
        anchor: bareAnchor,
        goal: { ratio: 0.5, p99: 15 },
      });
    }
    if (want('rates-new')) {
      rows.push({
        name: 'POST /v1/rates/query, every request a new lane',
        result: await load({ url: `${base}/v1/rates/query`, method: 'POST', headers, newLanes: true }, service.child.pid!),
        anchor: bareAnchor,
        goal: { ratio: 0.35 },
      });
    }
    if (want('anchor-db') || want('order')) {
      const anchorResult = await load({ url: dbAnchor.url }, dbAnchor.child.pid!);
      if (want('order')) {
        rows.push({
          name: 'GET /v1/orders/:id',
          result: await load({ url: `${base}/v1/orders/${orderId}`, headers: { authorization: headers.authorization, 'x-service-workspace': workspaceId } }, service.child.pid!),
          anchor: { name: dbAnchorName, result: anchorResult },
          goal: { ratio: 0.7, p99: engine === 'postgres' ? 15 : undefined },
        });
      } else rows.push({ name: dbAnchorName, result: anchorResult });
    }
    if (bareResult) rows.unshift({ name: 'bare (rate-query JSON)', result: bareResult });

    const metrics = await (await fetch(`${base}/metrics`)).text();
    const rssLine = metrics.split('\n').find((l) => l.startsWith('process_resident_memory_bytes'));
    const rss = rssLine ? Math.round(Number(rssLine.split(' ')[1]) / 1024 / 1024) : null;

    const sorted = [...restarts].sort((a, b) => a - b);
    const lines = [
      `### ${engine === 'postgres' ? 'PostgreSQL' : 'PGlite'}`,
      `cold start (new data) to healthy: ${Math.round(coldMs)} ms; restart on existing data: ${sorted.map(Math.round).join(', ')} ms ` +
        `(median ${Math.round(sorted[Math.floor(sorted.length / 2)])}, goal < 1500) via scripts/start.mjs, ${Math.round(npmRestart)} ms via npm start; RSS after load: ${rss} MB`,
    ];
    return { lines, rows };
  } finally {
    for (const c of children.reverse()) await stop(c).catch(() => {});
    if (dbName) await withAdmin((c) => c.query(`drop database if exists ${dbName} with (force)`)).catch(() => {});
  }
}

function table(rows: Row[]): string[] {
  const out = [
    '| Row | req/s | p50 ms | p99 ms | CPU µs/req | anchor | anchor req/s | anchor CPU µs/req | ratio | goal | errors/non-2xx |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const ratio = r.anchor ? r.result.rps / r.anchor.result.rps : undefined;
    let goal = '';
    if (r.goal && ratio !== undefined) {
      const met = ratio >= r.goal.ratio && (r.goal.p99 === undefined || r.result.p99 < r.goal.p99);
      goal = `≥ ${r.goal.ratio}${r.goal.p99 ? `, p99 < ${r.goal.p99}` : ''}: ${met ? 'met' : 'NOT met'}`;
    }
    out.push(
      `| ${r.name} | ${r.result.rps} | ${r.result.p50} | ${r.result.p99} | ${r.result.cpuUsPerRequest} | ${r.anchor?.name ?? ''} | ${r.anchor?.result.rps ?? ''} | ${r.anchor?.result.cpuUsPerRequest ?? ''} | ${ratio?.toFixed(2) ?? ''} | ${goal} | ${r.result.errors}/${r.result.non2xx} |`,
    );
  }
  return out;
}

function gitHead(): string {
  try {
    return execFileSync('git', ['log', '-1', '--format=%h %s'], { cwd: SERVICE_DIR, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim().slice(0, 80);
  } catch {
    return 'not a git checkout';
  }
}

async function main() {
  const work = mkdtempSync(path.join(tmpdir(), 'ship-bench-'));
  const load0 = loadavg().map((l) => l.toFixed(2)).join(' ');
  const out: string[] = [
    `service: ${SERVICE_DIR} (${gitHead()})`,
    `node ${process.version}; autocannon ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s, each in a process of its own; load average at start ${load0}`,
  ];
  try {
    for (const engine of ENGINES) {
      if (engine !== 'pglite' && engine !== 'postgres') throw new Error(`unknown engine ${engine}`);
      if (engine === 'postgres' && !(await postgresReachable())) {
        out.push('', `### PostgreSQL: skipped (${ADMIN_URL} not reachable)`);
        continue;
      }
      const { lines, rows } = await benchEngine(engine, work);
      out.push('', ...lines, '', ...table(rows));
    }
  } finally {
    for (const { child, group } of started.reverse()) await stop(child, group).catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
  out.push('', `load average at end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  process.stdout.write(`${out.join('\n')}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
