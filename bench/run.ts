/**
 * `npm run bench`: starts the built service (as `npm start` would, on a fresh embedded data
 * dir) next to a bare `node:http` server and measures both in the same run with autocannon.
 * Also measures cold start (new data dir) and restart (existing data dir) to a healthy /health.
 * Set BENCH_DURATION (seconds, default 10) and BENCH_DATABASE_URL to run the service on PostgreSQL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = 10;
// Two seconds of load before sampling, so JIT warm-up is not counted against either server.
const warmup = { connections, duration: 2 };

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function measure(name: string, opts: { url: string; method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string }): Promise<Row> {
  const result = await autocannon({ ...opts, connections, duration, pipelining: 1, warmup });
  return {
    name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

async function waitHealthy(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return performance.now() - started;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('service did not become healthy');
}

function startService(env: Record<string, string>): { child: ChildProcess; output: () => string; started: number } {
  let out = '';
  const started = performance.now();
  const child = spawn(process.execPath, ['dist/server.js'], {
    env: { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'development', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { child, output: () => out, started };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ship-bench-'));
  const port = 3900 + Math.floor(Math.random() * 50);
  const base = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SEED_DEMO: '1',
    SUPER_ADMIN_EMAIL: 'bench@example.com',
    SUPER_ADMIN_PASSWORD: 'bench-password-123',
  };
  if (process.env.BENCH_DATABASE_URL) env.DATABASE_URL = process.env.BENCH_DATABASE_URL;

  // The bare server runs in a process of its own, like the service: autocannon shares this one.
  const barePort = port + 100;
  const bare = spawn(
    process.execPath,
    ['-e', `require('node:http').createServer((q, s) => { s.writeHead(200, { 'content-type': 'application/json' }); s.end('{"status":"ok"}'); }).listen(${barePort}, '127.0.0.1')`],
    { stdio: 'ignore' },
  );
  const bareUrl = `http://127.0.0.1:${barePort}/`;
  await waitHealthy(bareUrl, bare);

  const first = startService(env);
  const coldMs = await waitHealthy(`${base}/health`, first.child);
  // The seed prints the demo workspace and test key once, just after listening.
  let seed: RegExpMatchArray | null = null;
  for (let i = 0; i < 100 && !seed; i++) {
    seed = first.output().match(/Workspace:\s+(ws_\S+)[\s\S]*Test API key:\s+(sk_test_\S+)/);
    if (!seed) await new Promise((r) => setTimeout(r, 50));
  }
  await stop(first.child);
  const second = startService(env);
  const restartMs = await waitHealthy(`${base}/health`, second.child);
  const headers = seed ? { authorization: `Bearer ${seed[2]}`, 'x-service-workspace': seed[1], 'content-type': 'application/json' } : undefined;
  if (seed) {
    // Lift the demo workspace's burst limit so the benchmark measures the service, not the limiter.
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: env.SUPER_ADMIN_EMAIL, password: env.SUPER_ADMIN_PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    await fetch(`${base}/api/super-admin/workspaces/${seed[1]}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ plan: 'enterprise', burst_per_minute: 10_000_000 }),
    });
  }
  const rows: Row[] = [];
  rows.push(await measure('bare node:http', { url: bareUrl }));
  rows.push(await measure('GET /health (db ping)', { url: `${base}/health` }));
  rows.push(await measure('GET / (descriptor)', { url: `${base}/` }));
  if (headers) {
    const rateBody = JSON.stringify({
      ship_from: { country: 'US', postal_code: '94105' },
      ship_to: { country: 'US', postal_code: '10001' },
      parcel: { weight_oz: 32, length_in: 12, width_in: 9, height_in: 6 },
    });
    const probe = await fetch(`${base}/v1/rates/query`, { method: 'POST', headers, body: rateBody });
    if (probe.status === 200) {
      rows.push(await measure('POST /v1/rates/query (one lane, repeated)', { url: `${base}/v1/rates/query`, method: 'POST', headers, body: rateBody }));
      // Every request a different lane and weight (no repeat within the run), so the quote cache never answers.
      const zips = ['10001', '94105', '60601', '73301', '33101', '98101', '02108', '30301', '80202', '85001', '97201', '55401', '63101', '70112', '84101', '96813', '99501', '04101', '37201', '46201'];
      let n = 0;
      const result = await autocannon({
        url: `${base}/v1/rates/query`,
        connections,
        duration,
        warmup,
        requests: [
          {
            method: 'POST',
            headers,
            setupRequest: (req) => {
              n++;
              const body = JSON.stringify({
                ship_from: { country: 'US', postal_code: zips[n % zips.length] },
                ship_to: { country: 'US', postal_code: zips[(n * 7 + 3) % zips.length] },
                parcel: { weight_oz: 1 + (n % 1000) + (n % 9973) / 10_000, length_in: 12, width_in: 9, height_in: 6 },
              });
              return { ...req, body };
            },
          },
        ],
      });
      rows.push({ name: 'POST /v1/rates/query (every request a new quote)', rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx });
    }
  }
  const rss = await (async () => {
    const m = await (await fetch(`${base}/metrics`)).text();
    const line = m.split('\n').find((l) => l.startsWith('process_resident_memory_bytes'));
    return line ? Math.round(Number(line.split(' ')[1]) / 1024 / 1024) : null;
  })();
  await stop(second.child);
  await stop(bare);
  rmSync(dataDir, { recursive: true, force: true });

  const bareRps = rows[0].rps;
  const lines = [
    `Engine: ${env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; autocannon ${connections} connections × ${duration} s; node ${process.version}`,
    `Cold start (new data dir) to healthy: ${Math.round(coldMs)} ms; restart (existing data dir): ${Math.round(restartMs)} ms; RSS after load: ${rss} MB`,
    '',
    '| Target | req/s | ratio to bare | p50 ms | p99 ms | errors | non-2xx |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.name} | ${r.rps} | ${(r.rps / bareRps).toFixed(2)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} |`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
