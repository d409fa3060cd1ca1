import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCounterStore } from '../../src/platform/cache/counter-store.js';
import { buildTestApp, createTenant, superAdminHeaders, type Tenant } from '../helpers/app.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';

/**
 * The in-process counter store on a clock the test moves: a bucket refills only when the test
 * says so, however slowly the machine runs the loop that empties it (under load a
 * token refilled between "refused" and the next request, and a 429 read 404).
 */
function frozenCounters(startMs = Date.UTC(2026, 0, 1)) {
  const clock = { ms: startMs };
  return { clock, counters: new MemoryCounterStore(() => clock.ms) };
}

// Rate limits (docs/api-conventions.md): the plan defaults come from settings and change at once; the shared
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
    app = await buildTestApp({ counters: frozenCounters().counters });
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
    // The bucket never holds more than the new capacity: 3 more pass, then 429 (the clock stands still).
    expect(s.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
    const refused = s[3];
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

    for (const [tier, value] of [
      ['starter', 41],
      ['professional', 417],
    ] as const)
      await setBurst(tier, value);
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
    // A 400 ms budget per Redis call rather than the 50 ms default: on a loaded CI machine a
    // healthy round trip through the proxy once took longer than 50 ms and counted as a failure.
    app = await buildTestApp({ config: { redisUrl: `redis://127.0.0.1:${proxy.port}`, logLevel: 'warn', rateLimitTimeoutMs: 400 }, logStream: stream });
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
    // call's timeout (RATE_LIMIT_TIMEOUT_MS, 400 ms here) and is let through: not 429, not 500.
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
    // here is only a sanity check for a loaded machine, the default is 50 ms.
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

// Per-address limits (docs/api-conventions.md): failed logins are throttled per account and per IP;
// /api/auth and /api/public have a per-IP budget (at least 60/min); the client IP is the socket's
// address, or X-Forwarded-For only when TRUST_PROXY is set (else anyone could pick their bucket).
describe('per-address limits', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({ counters: frozenCounters().counters });
  });

  const login = (ip: string, email: string, password: string) =>
    app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: ip, payload: { email, password } });

  it('throttles failed logins per account, whichever addresses they come from', async () => {
    const t = await createTenant(app);
    const codes = [];
    // Ten failures, each from its own address: no per-IP budget is near its limit.
    for (let i = 0; i < 10; i++) codes.push((await login(`198.51.100.${i + 1}`, t.email, `wrong password ${i}`)).statusCode);
    expect(codes).toEqual(Array(10).fill(401));
    const fresh = await login('198.51.100.200', t.email, t.password);
    expect(fresh.statusCode, fresh.body).toBe(429);
    expect(fresh.json().code).toBe('rate_limited');
  });

  it('throttles failed logins per IP, across accounts (a password spray)', async () => {
    const t = await createTenant(app);
    const sprayer = '192.0.2.66';
    const codes = [];
    // 50 failures (MAX_FAILURES_PER_IP), each against a different email: no account budget is hit.
    for (let i = 0; i < 50; i++) codes.push((await login(sprayer, `spray-${i}@example.com`, 'password123!')).statusCode);
    expect(codes.every((c) => c === 401)).toBe(true);
    const next = await login(sprayer, t.email, t.password);
    expect(next.statusCode, next.body).toBe(429);
    expect(next.headers['retry-after']).toMatch(/^\d+$/);
    // The account itself is not locked: its owner logs in from another address.
    expect((await login('192.0.2.67', t.email, t.password)).statusCode).toBe(200);
    // A fixed amount of work (52 deliberate scrypt hashes, ~5 CPU-seconds idle, 41 s measured at
    // load average 11): the limit is the machine's pace, and nothing asserted depends on time.
  }, 300_000);
});

/** Requests from one address (and optional X-Forwarded-For) until refused; returns how many passed and the refusal. */
async function untilRefused(app: FastifyInstance, url: string, ip: string, forwardedFor?: string) {
  let passed = 0;
  for (let i = 0; i < 300; i++) {
    const res = await app.inject({ method: 'GET', url, remoteAddress: ip, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });
    if (res.statusCode === 429) return { passed, refusal: res };
    passed++;
  }
  return { passed, refusal: undefined };
}

describe('per-IP budgets of /api/auth and /api/public', () => {
  describe('without TRUST_PROXY: the socket address counts, X-Forwarded-For is ignored', () => {
    let app: FastifyInstance;
    const { clock, counters } = frozenCounters();
    beforeAll(async () => {
      app = await buildTestApp({ perIpPerMinute: 60, config: { trustProxy: false }, counters });
    });

    it('refuses an address past its budget; another address is not affected; a forged header does not escape', async () => {
      // The clock stands still: exactly the budget passes, whatever the loop's pace.
      const pub = await untilRefused(app, '/api/public/track/1Z999AA10123456784', '203.0.113.10');
      expect(pub.passed).toBe(60);
      expect(pub.refusal?.json()).toMatchObject({ code: 'rate_limited', request_id: pub.refusal?.headers['x-request-id'] });
      expect(Number(pub.refusal?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const forged = await app.inject({
        method: 'GET',
        url: '/api/public/track/1Z999AA10123456784',
        remoteAddress: '203.0.113.10',
        headers: { 'x-forwarded-for': '10.9.8.7' },
      });
      expect(forged.statusCode).toBe(429);
      expect((await app.inject({ method: 'GET', url: '/api/public/track/1Z999AA10123456784', remoteAddress: '203.0.113.11' })).statusCode).toBe(404);

      // /api/auth has its own budget per address.
      const auth = await untilRefused(app, '/api/auth/me', '203.0.113.12');
      expect(auth.passed).toBe(60);
      expect(auth.refusal?.json().code).toBe('rate_limited');
    });

    it('refills the bucket evenly: one request a second at 60/min', async () => {
      const ip = '203.0.113.20';
      expect((await untilRefused(app, '/api/public/track/1Z999AA10123456784', ip)).passed).toBe(60);
      const track = () => app.inject({ method: 'GET', url: '/api/public/track/1Z999AA10123456784', remoteAddress: ip });
      clock.ms += 999;
      expect((await track()).statusCode).toBe(429);
      clock.ms += 1;
      expect((await track()).statusCode).toBe(404);
      expect((await track()).statusCode).toBe(429);
      clock.ms += 5_000;
      expect((await untilRefused(app, '/api/public/track/1Z999AA10123456784', ip)).passed).toBe(5);
    });
  });

  describe('with TRUST_PROXY: the client address from X-Forwarded-For counts', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await buildTestApp({ perIpPerMinute: 60, config: { trustProxy: true }, counters: frozenCounters().counters });
    });

    it('gives each forwarded client its own budget behind one proxy address', async () => {
      const proxy = '10.0.0.2';
      const first = await untilRefused(app, '/api/public/track/1Z999AA10123456784', proxy, '198.51.100.77');
      expect(first.passed).toBe(60);
      expect(first.refusal).toBeDefined();
      // Same proxy, another client: its own bucket.
      const other = await app.inject({
        method: 'GET',
        url: '/api/public/track/1Z999AA10123456784',
        remoteAddress: proxy,
        headers: { 'x-forwarded-for': '198.51.100.78' },
      });
      expect(other.statusCode).toBe(404);
    });
  });
});
