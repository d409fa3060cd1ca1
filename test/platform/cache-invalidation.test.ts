import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { buildTestApp, createTenant } from '../helpers/app.js';

describe('cached credentials', () => {
  it('an API key expiring in seconds is accepted until that instant, then refused', async () => {
    let clock = Date.now();
    const app = await buildTestApp({ now: () => new Date(clock) });
    const t = await createTenant(app);
    const expiresAt = new Date(clock + 3000).toISOString();
    const created = await app.inject({ method: 'POST', url: '/v1/api-keys', headers: t.headers, payload: { name: 'short', expires_at: expiresAt } });
    expect(created.statusCode).toBe(201);
    const headers = { authorization: `Bearer ${created.json().secret}`, 'x-service-workspace': t.workspaceId };
    expect((await app.inject({ method: 'GET', url: '/v1/api-keys', headers })).statusCode).toBe(200);
    clock = Date.parse(expiresAt) - 1;
    expect((await app.inject({ method: 'GET', url: '/v1/api-keys', headers })).statusCode).toBe(200);
    clock = Date.parse(expiresAt);
    expect((await app.inject({ method: 'GET', url: '/v1/api-keys', headers })).statusCode).toBe(401);
  });

  // Two API processes on one PostgreSQL: a revoke or suspension in one is in force in the other
  // at once (LISTEN/NOTIFY), although both cache verified credentials.
  it.runIf(inject('testDb').engine === 'postgres')('invalidates across processes on PostgreSQL', async () => {
    const a = await buildTestApp();
    const t = await createTenant(a);
    const url = a.deps.database.connectionString!;
    const db2 = await openDatabase({ databaseUrl: url, poolMax: 2 });
    let b: FastifyInstance | undefined;
    try {
      b = await buildApp({ config: testConfig(), database: db2, migrate: false, perIpPerMinute: 100_000 });
      const meHeaders = { authorization: `Bearer ${t.sessionToken}` };
      // Warm both caches.
      expect((await b.inject({ method: 'GET', url: '/v1/api-keys', headers: t.headers })).statusCode).toBe(200);
      expect((await b.inject({ method: 'GET', url: '/api/auth/me', headers: meHeaders })).statusCode).toBe(200);

      await a.inject({ method: 'DELETE', url: `/v1/api-keys/${t.apiKeyId}`, headers: t.headers });
      await a.identity.accounts.transition(t.accountId, 'suspend', { type: 'system', id: null }, {});
      // NOTIFY is asynchronous: allow it a moment to arrive, bounded.
      let key = 200;
      let me = 200;
      for (let i = 0; i < 50 && (key !== 401 || me !== 401); i++) {
        await new Promise((r) => setTimeout(r, 20));
        key = (await b.inject({ method: 'GET', url: '/v1/api-keys', headers: t.headers })).statusCode;
        me = (await b.inject({ method: 'GET', url: '/api/auth/me', headers: meHeaders })).statusCode;
      }
      expect(key).toBe(401);
      expect(me).toBe(401);
    } finally {
      await b?.close();
      await db2.close();
    }
  });
});
