/**
 * `node --import tsx bench/shipments.ts` (after `npm run build`): label purchase latency, one
 * at a time as a packing station buys them (goal p99 < 50 ms), and tracking read throughput
 * (GET /v1/tracking/:number and the public route) beside a bare `node:http` server answering the
 * same payload, each server in a process of its own and autocannon in this one.
 * BENCH_LABELS (default 200), BENCH_DURATION (s, default 10), BENCH_FORMAT (default pdf_4x6),
 * BENCH_DATABASE_URL to run the service on PostgreSQL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const labels = Number(process.env.BENCH_LABELS ?? 200);
const duration = Number(process.env.BENCH_DURATION ?? 10);
const format = process.env.BENCH_FORMAT ?? 'pdf_4x6';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function waitFor(check: () => boolean, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}`);
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
}

async function load(url: string, headers: Record<string, string> = {}) {
  const r = await autocannon({ url, headers, connections: 10, duration, pipelining: 1, warmup: { connections: 10, duration: 2 } });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-shipments-'));
const children: ChildProcess[] = [];
try {
  const port = await freePort();
  let out = '';
  const service = spawn(process.execPath, ['dist/server.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      SEED_DEMO: '1',
      SUPER_ADMIN_EMAIL: 'bench-root@example.com',
      SUPER_ADMIN_PASSWORD: 'bench root password',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(service);
  service.stdout!.on('data', (d) => (out += d));
  service.stderr!.on('data', (d) => (out += d));
  await waitFor(() => /Test API key:\s+sk_test_\S+/.test(out), service);
  const key = /Test API key:\s+(sk_test_\S+)/.exec(out)![1];
  const workspace = /Workspace:\s+(ws_\S+)/.exec(out)![1];
  const base = `http://127.0.0.1:${port}`;
  const headers = { authorization: `Bearer ${key}`, 'x-service-workspace': workspace, 'content-type': 'application/json' };
  // Lift the demo workspace's burst limit so the benchmark measures the service, not the limiter.
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench-root@example.com', password: 'bench root password' }),
  });
  const { token } = (await login.json()) as { token: string };
  await fetch(`${base}/api/super-admin/workspaces/${workspace}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ plan: 'enterprise', burst_per_minute: 10_000_000 }),
  });
  const post = async (url: string, body: unknown) => {
    const res = await fetch(`${base}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`${url} ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  const orderIds: string[] = [];
  for (let i = 0; i < labels + 20; i++) {
    const order = await post('/v1/orders', {
      ship_from: { name: 'Warehouse', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' },
      ship_to: { name: `Buyer ${i}`, street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' },
      line_items: [{ sku: 'MUG', quantity: 1, weight_oz: 20 }],
      parcel: { weight_oz: 20, length_in: 10, width_in: 8, height_in: 4 },
    });
    orderIds.push(order.id as string);
  }

  // Purchases one at a time; the first 20 warm the render workers and the JIT.
  const times: number[] = [];
  let trackingNumber = '';
  for (const [i, orderId] of orderIds.entries()) {
    const started = performance.now();
    const shipment = await post('/v1/shipments', { order_id: orderId, service_code: 'usps_ground_advantage', label_format: format });
    if (i >= 20) times.push(performance.now() - started);
    trackingNumber = shipment.tracking_number as string;
  }
  times.sort((a, b) => a - b);
  const purchase = { n: times.length, p50: percentile(times, 50), p99: percentile(times, 99), max: times[times.length - 1] };

  // The bare anchor: node:http answering the same tracking body.
  const body = await (await fetch(`${base}/v1/tracking/${trackingNumber}`, { headers })).text();
  const barePort = await freePort();
  const bare = spawn(process.execPath, ['-e', `const b=${JSON.stringify(body)};require('node:http').createServer((q,r)=>{r.writeHead(200,{'content-type':'application/json; charset=utf-8'});r.end(b)}).listen(${barePort},'127.0.0.1',()=>console.log('up'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(bare);
  let bareUp = false;
  bare.stdout!.on('data', () => (bareUp = true));
  await waitFor(() => bareUp, bare);

  const rows = {
    bare: await load(`http://127.0.0.1:${barePort}/`),
    tracking_v1: await load(`${base}/v1/tracking/${trackingNumber}`, headers),
    tracking_public: await load(`${base}/api/public/track/${trackingNumber}`),
  };
  const engine = process.env.BENCH_DATABASE_URL ? 'postgresql' : 'pglite';
  console.log(JSON.stringify({ engine, format, purchase_ms: purchase, tracking_read: rows }, null, 2));
  console.log(
    `\nlabel purchase (${format}, ${engine}, one at a time, n=${purchase.n}): p50 ${purchase.p50.toFixed(1)} ms, p99 ${purchase.p99.toFixed(1)} ms (goal < 50 ms)\n` +
      `tracking read: /v1 ${rows.tracking_v1.rps} req/s (p99 ${rows.tracking_v1.p99} ms), public ${rows.tracking_public.rps} req/s, bare ${rows.bare.rps} req/s\n` +
      `(the public route is limited per IP: non-2xx ${rows.tracking_public.non2xx})`,
  );
} finally {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  rmSync(dataDir, { recursive: true, force: true });
}
