/**
 * `npm run bench:scale-out`: throughput of 1 vs 2 (… N) API processes on one
 * PostgreSQL database and one Redis, with one worker process beside them, as in production
 * (README "Running several processes").
 *
 * A database of its own is created on BENCH_DATABASE_URL's server (default
 * postgres://postgres@127.0.0.1:5432/test) and dropped at the end; REDIS_URL is BENCH_REDIS_URL
 * (default redis://127.0.0.1:6379; the APIs share their rate-limit buckets there). The first API
 * process migrates and seeds the demo workspace (its burst is then lifted, so the limiter runs on
 * every request without refusing). For each count in BENCH_API_COUNTS (default 1,2) the APIs
 * run side by side (RUN_WORKERS=0, `node scripts/start.mjs`) and each row is loaded by
 * autocannon in a process of its own (bench/load.mjs), its connections split evenly across the
 * API ports (no proxy): GET /v1/orders/:id and POST /v1/rates/query (one lane repeated).
 * Reported: req/s, p50/p99 and the CPU time the API processes spent per request (a figure that
 * other load on the machine moves much less than req/s).
 *
 * The numbers only mean something on a machine with a core per process and nothing else
 * running; on a shared 2-core box the load generator, PostgreSQL and the APIs fight for the
 * same cores. Env: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 3),
 * BENCH_CONNECTIONS (default 32), BENCH_API_COUNTS (default 1,2).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { Redis } from 'ioredis';
import pg from 'pg';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const COUNTS = (process.env.BENCH_API_COUNTS ?? '1,2').split(',').map(Number);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SUPER = { email: 'bench@example.com', password: 'bench-password-123' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let nextPort = 21_000 + (process.pid % 20_000);
const started: ChildProcess[] = [];

function spawnLogged(args: string[], env: Record<string, string>) {
  let out = '';
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { child, output: () => out };
}

async function waitHealthy(url: string, p: { child: ChildProcess; output: () => string }): Promise<void> {
  for (const until = Date.now() + 300_000; Date.now() < until; await sleep(50)) {
    if (p.child.exitCode !== null) throw new Error(`process exited: ${p.output()}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      /* not up yet */
    }
  }
  throw new Error(`${url} did not become healthy: ${p.output()}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); NaN elsewhere. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

interface Result {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  cpuUsPerRequest: number;
}

/** One autocannon run (bench/load.mjs, a process of its own) across `urls`; CPU summed over `pids`. */
async function load(job: Record<string, unknown>, pids: number[]): Promise<Result> {
  const child = spawn(process.execPath, ['bench/load.mjs', JSON.stringify({ connections: CONNECTIONS, duration: DURATION, warmup: WARMUP, ...job })], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let cpuStart = NaN;
  let cpuEnd = NaN;
  const cpu = () => pids.reduce((n, pid) => n + cpuMs(pid), 0);
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => {
    stderr += d;
    if (Number.isNaN(cpuStart) && stderr.includes('measuring')) cpuStart = cpu();
    if (Number.isNaN(cpuEnd) && stderr.includes('measured')) cpuEnd = cpu();
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`load generator failed: ${stderr}`);
  const r = JSON.parse(stdout) as Omit<Result, 'cpuUsPerRequest'> & { total: number };
  return { ...r, rps: Math.round(r.rps), p50: Math.round(r.p50 * 10) / 10, cpuUsPerRequest: Math.round(((cpuEnd - cpuStart) * 1000) / r.total) };
}

async function json(res: Response): Promise<Record<string, unknown>> {
  const body = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body;
}

async function main() {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw new Error(`Redis at ${REDIS_URL} is needed (several APIs share their rate limits there): ${(err as Error).message}`, { cause: err });
  } finally {
    redis.disconnect();
  }
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const dbName = `bench_scale_${process.pid}`;
  await admin.query(`create database ${dbName}`);
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${dbName}`;
  const env = {
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SEED_DEMO: '1',
    RUN_WORKERS: '0',
    SUPER_ADMIN_EMAIL: SUPER.email,
    SUPER_ADMIN_PASSWORD: SUPER.password,
  };
  const out = [
    `node ${process.version}; ${availableParallelism()} cores; autocannon ${CONNECTIONS} connections split across the APIs, ${WARMUP} s warm-up + ${DURATION} s, in a process of its own; one worker process; load average at start ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
    '',
  ];
  try {
    // The first API migrates and seeds; the worker starts on its schema.
    const apis: Array<{ url: string; child: ChildProcess }> = [];
    const startApi = async () => {
      const port = nextPort++;
      const p = spawnLogged(['scripts/start.mjs', 'server'], { ...env, PORT: String(port) });
      const url = `http://127.0.0.1:${port}`;
      await waitHealthy(url, p);
      apis.push({ url, child: p.child });
      return p;
    };
    const first = await startApi();
    spawnLogged(['scripts/start.mjs', 'worker'], { ...env, LOG_LEVEL: 'warn' });
    let seed: RegExpMatchArray | null = null;
    for (let i = 0; i < 2400 && !seed; i++) {
      seed = first.output().match(/Workspace:\s+(ws_\S+)[\s\S]*Test API key:\s+(sk_test_\S+)/);
      if (!seed) await sleep(50);
    }
    if (!seed) throw new Error(`no demo seed printed: ${first.output()}`);
    const [, workspaceId, apiKey] = seed;
    const base = apis[0].url;
    const headers = { authorization: `Bearer ${apiKey}`, 'x-service-workspace': workspaceId, 'content-type': 'application/json' };
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
          external_id: 'bench-scale-1',
          ship_to: { name: 'Ada Lovelace', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' },
          line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 2, unit_price: { amount: 1250, currency: 'USD' }, weight_oz: 8 }],
        }),
      }),
    );
    const rateBody = JSON.stringify({
      ship_from: { country: 'US', postal_code: '94105' },
      ship_to: { country: 'US', postal_code: '10001' },
      parcel: { weight_oz: 32, length_in: 12, width_in: 9, height_in: 6 },
    });
    const rows = [
      {
        name: 'GET /v1/orders/:id',
        job: { path: `/v1/orders/${String(order.id)}`, headers: { authorization: headers.authorization, 'x-service-workspace': workspaceId } },
      },
      { name: 'POST /v1/rates/query', job: { path: '/v1/rates/query', method: 'POST', headers, body: rateBody } },
    ];

    const results = new Map<string, Map<number, Result>>(rows.map((r) => [r.name, new Map()]));
    for (const count of [...COUNTS].sort((x, y) => x - y)) {
      while (apis.length < count) await startApi();
      // Let each new process finish its background warm-up (schema compilation, rate data).
      await sleep(2500);
      const active = apis.slice(0, count);
      for (const row of rows) {
        const { path, ...job } = row.job;
        const r = await load(
          { ...job, urls: active.map((a) => `${a.url}${path}`) },
          active.map((a) => a.child.pid!),
        );
        results.get(row.name)!.set(count, r);
        process.stderr.write(`${row.name} × ${count} API: ${r.rps} req/s\n`);
      }
    }

    const counts = [...COUNTS].sort((x, y) => x - y);
    out.push(
      `| Row | ${counts.map((c) => `${c} API req/s | p50/p99 ms | CPU µs/req`).join(' | ')} | ${counts
        .slice(1)
        .map((c) => `${c} vs 1`)
        .join(' | ')} | errors/non-2xx |`,
      `|---|${counts.map(() => '---|---|---|').join('')}${counts
        .slice(1)
        .map(() => '---|')
        .join('')}---|`,
    );
    for (const row of rows) {
      const byCount = results.get(row.name)!;
      const one = byCount.get(counts[0])!;
      out.push(
        `| ${row.name} | ${counts
          .map((c) => {
            const r = byCount.get(c)!;
            return `${r.rps} | ${r.p50}/${r.p99} | ${r.cpuUsPerRequest}`;
          })
          .join(' | ')} | ${counts
          .slice(1)
          .map((c) => `${(byCount.get(c)!.rps / one.rps).toFixed(2)}×`)
          .join(' | ')} | ${counts.map((c) => `${byCount.get(c)!.errors}/${byCount.get(c)!.non2xx}`).join(', ')} |`,
      );
    }
  } finally {
    for (const child of started.reverse()) await stop(child).catch(() => {});
    await admin.query(`drop database if exists ${dbName} with (force)`).catch(() => {});
    await admin.end();
  }
  out.push(
    '',
    `load average at end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  process.stdout.write(`${out.join('\n')}\n`);
}

main().catch((err) => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
