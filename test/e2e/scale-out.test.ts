import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';

// Scale-out proof on PostgreSQL + Redis (skipped on the PGlite run): two API processes
// (RUN_WORKERS=0 node dist/server.js, through scripts/start.mjs) and one worker process on one
// fresh database and one Redis. A mixed flow goes through both APIs; the rate limit is one
// budget across them; a setting changed on one is in force on the other; a worker killed with
// -9 is replaced and the service goes on. New flows (labels, batches, webhooks) are one more
// entry in `flows` below.

const target = inject('testDb');
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function start(entry: 'server' | 'worker', env: Record<string, string>) {
  let output = '';
  const child = spawn(process.execPath, ['scripts/start.mjs', entry], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  return { child, output: () => output };
}

async function healthy(base: string, child: ChildProcess, timeoutMs = 90_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && child.exitCode === null) {
    try {
      if ((await fetch(`${base}/health`)).ok) return true;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

interface Api {
  base: string;
  call(method: string, path: string, headers?: Record<string, string>, body?: unknown): Promise<{ status: number; headers: Headers; json: any }>;
}

const statuses: Array<{ api: string; method: string; path: string; status: number }> = [];
function api(base: string, label: string): Api {
  return {
    base,
    async call(method, path, headers = {}, body) {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      statuses.push({ api: label, method, path, status: res.status });
      return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
    },
  };
}

const shipTo = { name: 'Ada', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const order = (n: number) => ({ external_id: `scale-${n}`, ship_to: shipTo, line_items: [{ sku: 'MUG', name: 'Mug', quantity: 1, unit_price: { amount: 1200, currency: 'USD' }, weight_oz: 8 }] });

/** One step of the mixed flow, run against the two APIs in turn. Later modules add theirs. */
type Flow = (ctx: { a: Api; b: Api; v1: Record<string, string>; admin: Record<string, string>; n: number }) => Promise<void>;
const revocationLagMs: number[] = [];
const flows: Record<string, Flow> = {
  orders: async ({ a, b, v1, n }) => {
    const created = await (n % 2 ? a : b).call('POST', '/v1/orders', v1, order(n));
    expect(created.status).toBe(201);
    const read = await (n % 2 ? b : a).call('GET', `/v1/orders/${created.json.id}`, v1);
    expect(read.json.id).toBe(created.json.id);
  },
  rates: async ({ a, b, v1, n }) => {
    const res = await (n % 2 ? b : a).call('POST', '/v1/rates/query', v1, { ship_from: { postal_code: '10001', country: 'US' }, ship_to: shipTo, parcel: { weight_oz: 10 + n, length_in: 8, width_in: 6, height_in: 4 } });
    expect(res.status).toBe(200);
    expect(res.json.data.length).toBeGreaterThan(0);
  },
  apiKeys: async ({ a, b, v1, admin }) => {
    // Made on one process, used on the other, revoked there: refused on the first at once.
    const key = await a.call('POST', '/api/admin/api-keys', admin, { name: 'rotating', environment: 'test' });
    const headers = { ...v1, authorization: `Bearer ${key.json.secret}` };
    expect((await b.call('GET', '/v1/api-keys', headers)).status).toBe(200);
    expect((await a.call('GET', '/v1/api-keys', headers)).status).toBe(200);
    expect((await b.call('DELETE', `/api/admin/api-keys/${key.json.id}`, admin)).status).toBe(204);
    expect((await b.call('GET', '/v1/api-keys', headers)).status).toBe(401);
    // The other process hears it through LISTEN/NOTIFY after the commit: milliseconds, not a TTL.
    let status = 0;
    const revokedAt = Date.now();
    while (Date.now() - revokedAt < 2_000 && (status = (await a.call('GET', '/v1/api-keys', headers)).status) !== 401) await new Promise((r) => setTimeout(r, 20));
    expect(status).toBe(401);
    revocationLagMs.push(Date.now() - revokedAt);
  },
};

describe.runIf(target.engine === 'postgres')('two API processes and one worker on PostgreSQL + Redis', () => {
  it('serve one flow, share one rate limit, and survive a worker killed with -9', { timeout: 300_000 }, async () => {
    if (target.engine !== 'postgres') return;
    const name = `${target.prefix}_scale`;
    const admin = new pg.Client({ connectionString: target.adminUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    const url = new URL(target.adminUrl);
    url.pathname = `/${name}`;
    const env = {
      DATABASE_URL: url.toString(),
      REDIS_URL: redisUrl,
      NODE_ENV: 'development',
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      SUPER_ADMIN_EMAIL: 'root@scale.test',
      SUPER_ADMIN_PASSWORD: 'scale-out-password',
    };
    const [portA, portB] = [await freePort(), await freePort()];
    // The first process migrates (and rebuilds dist/ if stale); the others start on its schema.
    const procA = start('server', { ...env, PORT: String(portA), RUN_WORKERS: '0' });
    expect(await healthy(`http://127.0.0.1:${portA}`, procA.child), procA.output()).toBe(true);
    const procB = start('server', { ...env, PORT: String(portB), RUN_WORKERS: '0' });
    let worker = start('worker', { ...env, LOG_LEVEL: 'info' });
    expect(await healthy(`http://127.0.0.1:${portB}`, procB.child), procB.output()).toBe(true);
    const a = api(`http://127.0.0.1:${portA}`, 'A');
    const b = api(`http://127.0.0.1:${portB}`, 'B');

    // A client's first minutes, alternating processes.
    const root = { authorization: `Bearer ${(await a.call('POST', '/api/auth/login', {}, { email: env.SUPER_ADMIN_EMAIL, password: env.SUPER_ADMIN_PASSWORD })).json.token}` };
    const reg = await b.call('POST', '/api/auth/register', {}, { email: 'ops@scale.test', password: 'long enough pw', name: 'Ops', workspace_name: 'Scale' });
    expect(reg.status).toBe(201);
    expect((await a.call('POST', `/api/super-admin/accounts/${reg.json.account.id}/approve`, root)).status).toBe(200);
    const session = (await b.call('POST', '/api/auth/login', {}, { email: 'ops@scale.test', password: 'long enough pw' })).json.token;
    const adminHeaders = { authorization: `Bearer ${session}`, 'x-service-workspace': reg.json.workspace.id, 'x-service-environment': 'test' };
    const key = await a.call('POST', '/api/admin/api-keys', adminHeaders, { name: 'server', environment: 'test' });
    const v1 = { authorization: `Bearer ${key.json.secret}`, 'x-service-workspace': reg.json.workspace.id };
    await b.call('PATCH', `/api/super-admin/workspaces/${reg.json.workspace.id}`, root, { plan: 'professional' });

    for (let n = 0; n < 6; n++) for (const flow of Object.values(flows)) await flow({ a, b, v1, admin: adminHeaders, n });

    // A tier burst changed on A is in force on B (settings invalidated across processes).
    await b.call('PATCH', `/api/super-admin/workspaces/${reg.json.workspace.id}`, root, { plan: 'starter' });
    expect((await a.call('PUT', '/api/super-admin/settings/plans.starter.burst_per_minute', root, { value: 10 })).status).toBe(200);
    let limitOnB = '';
    for (let i = 0; i < 20 && limitOnB !== '10'; i++) {
      limitOnB = (await b.call('GET', '/v1/api-keys', v1)).headers.get('ratelimit-limit') ?? '';
      if (limitOnB !== '10') await new Promise((r) => setTimeout(r, 100));
    }
    expect(limitOnB).toBe('10');
    // One budget across both processes: 20 requests alternating → about 10 pass, not 20.
    const results = [];
    for (let i = 0; i < 20; i++) results.push((await (i % 2 ? a : b).call('GET', '/v1/api-keys', v1)).status);
    const passed = results.filter((s) => s === 200).length;
    expect(passed).toBeLessThanOrEqual(11); // the one above was spent; refill is 1 per 6 s
    expect(results.filter((s) => s === 429).length).toBeGreaterThanOrEqual(9);
    await a.call('PUT', '/api/super-admin/settings/plans.starter.burst_per_minute', root, { value: 100_000 });

    // kill -9 the worker; a new one takes over and the APIs never noticed.
    worker.child.kill('SIGKILL');
    await new Promise((r) => worker.child.once('exit', r));
    worker = start('worker', { ...env, LOG_LEVEL: 'info' });
    for (let n = 10; n < 14; n++) await flows.orders({ a, b, v1, admin: adminHeaders, n });
    for (let i = 0; i < 50 && !worker.output().includes('worker started'); i++) await new Promise((r) => setTimeout(r, 200));
    expect(worker.child.exitCode, worker.output()).toBe(null);

    console.log(`revocation seen by the other process after ${revocationLagMs.join(', ')} ms; ${statuses.length} requests`);
    const errors = statuses.filter((s) => s.status >= 500);
    expect(errors).toEqual([]);
    for (const p of [procA, procB, worker]) p.child.kill('SIGTERM');
  });
});
