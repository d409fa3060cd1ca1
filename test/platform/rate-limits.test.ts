import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, superAdminHeaders, type Tenant } from '../helpers/app.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';

// DESIGN.md §4 rate limits: the plan defaults come from settings and change at once; the shared
// store (Redis) failing or hanging lets requests through, never a 500, never a stall.

async function spend(app: FastifyInstance, t: Tenant, n: number) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await app.inject({ method: 'GET', url: '/v1/api-keys', headers: t.headers }));
  return out;
}

describe('plan defaults from settings', () => {
  let app: FastifyInstance;
  let root: Record<string, string>;
  beforeAll(async () => {
    app = await buildTestApp();
    root = await superAdminHeaders(app);
  });

  const setBurst = async (tier: string, value: number) => {
    const res = await app.inject({ method: 'PUT', url: `/api/super-admin/settings/plans.${tier}.burst_per_minute`, headers: root, payload: { value } });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('a changed tier burst applies to the next request of every workspace on that tier', async () => {
    const starter = await createTenant(app, { plan: 'starter' });
    const pro = await createTenant(app, { plan: 'professional' });
    const enterprise = await createTenant(app, { plan: 'enterprise' });
    expect((await spend(app, starter, 1))[0].headers['ratelimit-limit']).toBe('60');
    expect((await spend(app, pro, 1))[0].headers['ratelimit-limit']).toBe('300');

    await setBurst('starter', 3);
    await setBurst('professional', 7);
    const s = await spend(app, starter, 4);
    expect(s.map((r) => r.headers['ratelimit-limit'])).toEqual(['3', '3', '3', '3']);
    expect(s[0].headers['ratelimit-policy']).toBe('3;w=60');
    // The bucket never holds more than the new capacity: at most 3 more pass, then 429.
    const refused = s.find((r) => r.statusCode === 429)!;
    expect(refused).toBeDefined();
    expect(refused.json()).toMatchObject({ code: 'rate_limited', request_id: refused.headers['x-request-id'] });
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await spend(app, pro, 1))[0].headers['ratelimit-limit']).toBe('7');
    // Enterprise keeps its custom burst.
    expect((await spend(app, enterprise, 1))[0].headers['ratelimit-limit']).toBe('1000000');
  });

  it('the super-admin list and detail report the burst the limiter enforces, and follow a setting change at once', async () => {
    const starter = await createTenant(app, { plan: 'starter' });
    const pro = await createTenant(app, { plan: 'professional' });
    const enterprise = await createTenant(app, { plan: 'enterprise' });
    const reported = async (t: Tenant) => {
      const list = await app.inject({ method: 'GET', url: `/api/super-admin/workspaces?q=${t.workspaceId}`, headers: root });
      const detail = await app.inject({ method: 'GET', url: `/api/super-admin/workspaces/${t.workspaceId}`, headers: root });
      expect(list.statusCode, list.body).toBe(200);
      expect(detail.statusCode, detail.body).toBe(200);
      expect(list.json().data).toHaveLength(1);
      return { list: list.json().data[0].effective_burst_per_minute, detail: detail.json().effective_burst_per_minute };
    };
    const enforced = async (t: Tenant) => Number((await spend(app, t, 1))[0].headers['ratelimit-limit']);

    for (const [tier, value] of [['starter', 41], ['professional', 417]] as const) await setBurst(tier, value);
    expect(await reported(starter)).toEqual({ list: 41, detail: 41 });
    expect(await enforced(starter)).toBe(41);
    expect(await reported(pro)).toEqual({ list: 417, detail: 417 });
    expect(await enforced(pro)).toBe(417);

    // A change is in force and reported by the very next requests, with no restart or TTL.
    await setBurst('starter', 43);
    await setBurst('professional', 419);
    expect(await reported(starter)).toEqual({ list: 43, detail: 43 });
    expect(await enforced(starter)).toBe(43);
    expect(await reported(pro)).toEqual({ list: 419, detail: 419 });
    expect(await enforced(pro)).toBe(419);
    // Enterprise: its custom burst, untouched by the tier settings.
    expect(await reported(enterprise)).toEqual({ list: 1_000_000, detail: 1_000_000 });
    expect(await enforced(enterprise)).toBe(1_000_000);

    const missing = await app.inject({ method: 'GET', url: '/api/super-admin/workspaces/ws_missing', headers: root });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('not_found');
    const user = await app.inject({ method: 'GET', url: `/api/super-admin/workspaces/${starter.workspaceId}`, headers: starter.adminHeaders });
    expect(user.statusCode).toBe(403);
  });

  it('a batch-sized body is still one request (one token per POST)', async () => {
    await setBurst('starter', 60);
    const t = await createTenant(app, { plan: 'starter' });
    const before = Number((await spend(app, t, 1))[0].headers['ratelimit-remaining']);
    const big = await app.inject({ method: 'POST', url: '/v1/api-keys', headers: t.headers, payload: { name: 'x'.repeat(100) } });
    expect(big.statusCode).toBe(201);
    expect(Number(big.headers['ratelimit-remaining'])).toBe(before - 1);
  });
});

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('when Redis fails (through a TCP proxy the test breaks)', () => {
  let app: FastifyInstance;
  let root: Record<string, string>;
  const logs: string[] = [];
  const direct = new Redis(redisUrl, { lazyConnect: true });
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;

  beforeAll(async () => {
    const target = new URL(redisUrl);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const stream = new Writable({
      write(chunk, _enc, cb) {
        logs.push(String(chunk));
        cb();
      },
    });
    app = await buildTestApp({ config: { redisUrl: `redis://127.0.0.1:${proxy.port}`, logLevel: 'warn' }, logStream: stream });
    root = await superAdminHeaders(app);
    await direct.connect();
  });
  afterAll(async () => {
    await proxy.close().catch(() => {});
    direct.disconnect();
  });

  const failures = async () => {
    const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    return [...text.matchAll(/^rate_limit_store_failures_total\{operation="take"\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
  };

  it('limits through Redis while it answers, then fails open with a warning and a metric', async () => {
    await app.inject({ method: 'PUT', url: '/api/super-admin/settings/plans.starter.burst_per_minute', headers: root, payload: { value: 3 } });
    const t = await createTenant(app, { plan: 'starter' });
    const healthy = await spend(app, t, 4);
    expect(healthy.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
    // The bucket lives in Redis (what two API processes share).
    expect(await direct.exists(`ship:b:ws:${t.workspaceId}`)).toBe(1);
    expect(await failures()).toBe(0);

    // Hung Redis: connections stay open, nothing comes back. Each request waits for the
    // call's timeout (RATE_LIMIT_TIMEOUT_MS, 50 ms) and is let through: not 429, not 500.
    proxy.blackhole();
    const hungTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const [res] = await spend(app, t, 1);
      hungTimes.push(performance.now() - started);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('3');
    }
    // Without a timeout on the Redis call these requests would never have answered; the bound
    // here is only a sanity check for a loaded machine, the design figure is 50 ms.
    expect(Math.max(...hungTimes)).toBeLessThan(5_000);
    expect(await failures()).toBeGreaterThanOrEqual(5);

    // Dead Redis: the proxy drops every connection and stops listening.
    await proxy.close();
    for (let i = 0; i < 5; i++) {
      const [res] = await spend(app, t, 1);
      expect(res.statusCode, res.body).toBe(200);
    }
    // Logins (throttle counters) fail open too.
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: t.email, password: t.password } });
    expect(login.statusCode).toBe(200);
    expect(await failures()).toBeGreaterThanOrEqual(10);
    const warnings = logs.filter((l) => l.includes('rate-limit store unavailable'));
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    // Throttled: one line per 10 s, not one per request.
    expect(warnings.length).toBeLessThan(5);
  });
});
