import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { clampLimit, decodeCursor, encodeCursor } from '../../src/platform/http/pagination.js';
import { openTestDatabase } from '../helpers/db.js';
import { buildTestApp, createTenant } from '../helpers/app.js';

describe('when the database is gone', () => {
  it('GET /health answers 503 and other routes 503 service_unavailable with Retry-After, nothing internal', async () => {
    const database = await openTestDatabase();
    const app = await buildApp({ config: testConfig(), database, migrate: false, perIpPerMinute: 100_000 });
    const t = await createTenant(app);
    await app.inject({ method: 'GET', url: '/v1/api-keys', headers: t.headers }); // key now cached
    await database.close();
    try {
      // Probes at once and one after the other: a failed ping is not remembered as the answer.
      const probes = [
        ...(await Promise.all([1, 2, 3].map(() => app.inject({ method: 'GET', url: '/health' })))),
        await app.inject({ method: 'GET', url: '/health' }),
      ];
      for (const health of probes) {
        expect(health.statusCode).toBe(503);
        expect(health.json().status).toBe('unavailable');
      }
      const res = await app.inject({ method: 'POST', url: '/v1/api-keys', headers: t.headers, payload: { name: 'x' } });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(res.json()).toEqual({
        code: 'service_unavailable',
        message: 'The database is unreachable; retry shortly.',
        details: [],
        request_id: res.headers['x-request-id'],
      });
    } finally {
      await app.close().catch(() => {});
    }
  });
});

describe('super-admin from the environment', () => {
  it('is created at start and reset (password) on the next start', async () => {
    const database = await openTestDatabase();
    try {
      const email = 'root@example.com';
      const a = await buildApp({
        config: testConfig({ superAdminEmail: email, superAdminPassword: 'first-password' }),
        database,
        migrate: false,
        perIpPerMinute: 100_000,
      });
      const first = await a.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'first-password' } });
      expect(first.statusCode).toBe(200);
      expect(first.json().account.role).toBe('super_admin');
      await a.close();
      const b = await buildApp({
        config: testConfig({ superAdminEmail: email, superAdminPassword: 'second-password' }),
        database,
        migrate: false,
        perIpPerMinute: 100_000,
      });
      expect((await b.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'first-password' } })).statusCode).toBe(401);
      expect((await b.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'second-password' } })).statusCode).toBe(200);
      await b.close();
    } finally {
      await database.close();
    }
  });

  it('ends the sessions of the super-admin when a start changes the password, and only then', async () => {
    const database = await openTestDatabase();
    const email = 'root@example.com';
    const start = (password: string) =>
      buildApp({ config: testConfig({ superAdminEmail: email, superAdminPassword: password }), database, migrate: false, perIpPerMinute: 100_000 });
    const me = async (app: Awaited<ReturnType<typeof start>>, token: string) =>
      (await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })).statusCode;
    try {
      const a = await start('first-password');
      const token = (await a.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'first-password' } })).json().token;
      await a.close();
      // A plain restart with the same environment logs nobody out.
      const b = await start('first-password');
      expect(await me(b, token)).toBe(200);
      await b.close();
      const c = await start('second-password');
      expect(await me(c, token)).toBe(401);
      const audit = await c.identity.accounts.login({ email, password: 'second-password' }, {});
      const entries = (
        await c.inject({ method: 'GET', url: '/api/super-admin/audit-log?action=account.password_reset', headers: { authorization: `Bearer ${audit.token}` } })
      ).json().data;
      expect(entries).toMatchObject([{ actor: { type: 'system' }, target_id: audit.account.id, changes: { password: 'replaced', sessions_ended: true } }]);
      expect(JSON.stringify(entries)).not.toContain('second-password');
      await c.close();
    } finally {
      await database.close();
    }
  });

  it('drops the ended sessions from the cache of a running process too', async () => {
    const app = await buildTestApp();
    const email = `root-${Math.random().toString(36).slice(2, 8)}@example.com`;
    await app.identity.accounts.ensureSuperAdmin(email, 'first-password');
    const { token } = await app.identity.accounts.login({ email, password: 'first-password' }, {});
    const headers = { authorization: `Bearer ${token}` };
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers })).statusCode).toBe(200); // now cached
    await app.identity.accounts.ensureSuperAdmin(email, 'first-password');
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers })).statusCode).toBe(200);
    await app.identity.accounts.ensureSuperAdmin(email, 'second-password');
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers })).statusCode).toBe(401);
  });
});

describe('logs', () => {
  it('carry the request id and never a secret', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const database = await openTestDatabase();
    const app = await buildApp({ config: testConfig({ logLevel: 'info' }), database, migrate: false, perIpPerMinute: 100_000, logStream: stream });
    try {
      const t = await createTenant(app);
      await app.inject({ method: 'GET', url: '/v1/api-keys', headers: { ...t.headers, 'x-request-id': 'trace-me-123' } });
      await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: t.email, password: t.password } });
      const text = lines.join('');
      expect(text).toContain('trace-me-123');
      expect(text).not.toContain(t.apiKey);
      expect(text).not.toContain(t.password);
      expect(text).not.toContain(t.sessionToken);
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('idempotency under concurrency', () => {
  it('runs a key once when the same request arrives five times at once', async () => {
    const app = await buildTestApp();
    const t = await createTenant(app);
    const headers = { ...t.headers, 'idempotency-key': 'burst-1' };
    const results = await Promise.all(Array.from({ length: 5 }, () => app.inject({ method: 'POST', url: '/v1/api-keys', headers, payload: { name: 'once' } })));
    for (const r of results) expect([201, 409]).toContain(r.statusCode);
    const keys = (await app.inject({ method: 'GET', url: '/v1/api-keys?limit=100', headers: t.headers })).json().data;
    expect(keys.filter((k: { name: string }) => k.name === 'once')).toHaveLength(1);
  });
});

describe('pagination helpers', () => {
  it('clamps the limit to 1..100 with a default of 20', () => {
    expect(clampLimit(undefined)).toBe(20);
    expect(clampLimit(0)).toBe(1);
    expect(clampLimit(-5)).toBe(1);
    expect(clampLimit(1000)).toBe(100);
    expect(clampLimit(37)).toBe(37);
  });

  it('round-trips a cursor and rejects garbage with a field detail', () => {
    const at = new Date('2026-11-23T10:00:00.123Z');
    expect(decodeCursor(encodeCursor(at, 'ord_x'))).toEqual({ t: at.toISOString(), id: 'ord_x' });
    expect(() => decodeCursor('not-a-cursor')).toThrow(/cursor/);
  });
});
