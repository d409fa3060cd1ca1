import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../app.js';
import { testConfig } from '../../config.js';
import { openDatabase } from '../../platform/db/database.js';
import { buildTestApp, createTenant, superAdminHeaders } from '../../../test/helpers/app.js';

let app: FastifyInstance;
let root: Record<string, string>;

beforeAll(async () => {
  app = await buildTestApp();
  root = await superAdminHeaders(app);
});

/** Every operation under /api/super-admin, as documented in /openapi.json. */
function superAdminOperations(): Array<{ method: string; url: string }> {
  const spec = app.swagger() as { paths: Record<string, Record<string, unknown>> };
  const ops: Array<{ method: string; url: string }> = [];
  for (const [path, methods] of Object.entries(spec.paths)) {
    if (!path.startsWith('/api/super-admin')) continue;
    for (const method of Object.keys(methods)) {
      if (['get', 'post', 'put', 'patch', 'delete'].includes(method)) ops.push({ method: method.toUpperCase(), url: path.replace(/\{[^}]+\}/g, 'x1') });
    }
  }
  return ops;
}

describe('role matrix over every super-admin route', () => {
  it('no session 401, a user session 403, a suspended super-admin refused', { timeout: 120_000 }, async () => {
    const ops = superAdminOperations();
    // The routes this issue adds are all there.
    const paths = ops.map((o) => `${o.method} ${o.url}`);
    for (const expected of [
      'GET /api/super-admin/analytics',
      'GET /api/super-admin/audit-log',
      'GET /api/super-admin/office-redeem/pins',
      'POST /api/super-admin/office-redeem/pins/x1/renew',
      'POST /api/super-admin/office-redeem/pins/x1/expire',
      'GET /api/super-admin/office-redeem/2024-master-product-key',
      'PUT /api/super-admin/office-redeem/2024-master-product-key',
      'GET /api/super-admin/office-redeem/365-pin-configure',
      'PUT /api/super-admin/office-redeem/365-pin-configure',
      'POST /api/super-admin/office-redeem/create-test-pin',
      'POST /api/super-admin/accounts/x1/suspend',
      'PATCH /api/super-admin/workspaces/x1',
    ]) {
      expect(paths).toContain(expected);
    }

    const user = await createTenant(app);
    const other = await superAdminHeaders(app);
    const otherId = (await app.inject({ method: 'GET', url: '/api/auth/me', headers: other })).json().account.id;
    const suspend = await app.inject({
      method: 'POST',
      url: `/api/super-admin/accounts/${otherId}/suspend`,
      headers: root,
      payload: { reason: 'left the company' },
    });
    expect(suspend.statusCode, suspend.body).toBe(200);

    for (const op of ops) {
      const payload = op.method === 'GET' ? undefined : {};
      const none = await app.inject({ method: op.method as 'GET', url: op.url, payload });
      expect(none.statusCode, `${op.method} ${op.url} without a session`).toBe(401);
      expect(none.json().code).toBe('unauthorized');
      const asUser = await app.inject({ method: op.method as 'GET', url: op.url, headers: { authorization: `Bearer ${user.sessionToken}` }, payload });
      expect(asUser.statusCode, `${op.method} ${op.url} as a user`).toBe(403);
      expect(asUser.json().code).toBe('forbidden');
      const suspended = await app.inject({ method: op.method as 'GET', url: op.url, headers: other, payload });
      expect(suspended.statusCode, `${op.method} ${op.url} as a suspended super-admin`).toBe(401);
    }
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: (await app.identity.accounts.getAccount(otherId)).email, password: 'super secret password' },
    });
    expect(login.statusCode).toBe(403);
    expect(login.json().code).toBe('account_suspended');
  });
});

describe('accounts', () => {
  it('suspension records the reason, ends sessions and stops the workspace API keys; reactivation restores the keys', async () => {
    const t = await createTenant(app);
    expect((await app.inject({ method: 'GET', url: '/v1/orders', headers: t.headers })).statusCode).toBe(200); // cached now

    const res = await app.inject({
      method: 'POST',
      url: `/api/super-admin/accounts/${t.accountId}/suspend`,
      headers: root,
      payload: { reason: 'chargebacks' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('suspended');

    const key = await app.inject({ method: 'GET', url: '/v1/orders', headers: t.headers });
    expect(key.statusCode).toBe(403);
    expect(key.json().code).toBe('account_suspended');
    expect((await app.inject({ method: 'GET', url: '/v1/orders', headers: t.liveHeaders })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${t.sessionToken}` } })).statusCode).toBe(401);
    const listed = await app.inject({ method: 'GET', url: `/api/super-admin/workspaces?q=${t.workspaceId}`, headers: root });
    expect(listed.json().data[0].suspended_at).toEqual(expect.any(String));

    const audit = await app.inject({ method: 'GET', url: `/api/super-admin/audit-log?action=account.suspended&target_id=${t.accountId}`, headers: root });
    expect(audit.json().data[0]).toMatchObject({
      action: 'account.suspended',
      target_type: 'account',
      changes: { status: { from: 'active', to: 'suspended' }, reason: 'chargebacks', workspaces: [t.workspaceId] },
    });
    expect(audit.json().data[0].actor.type).toBe('account');
    expect(audit.json().data[0].request_id).toBe(res.headers['x-request-id']);

    const back = await app.inject({ method: 'POST', url: `/api/super-admin/accounts/${t.accountId}/reactivate`, headers: root });
    expect(back.json().status).toBe('active');
    expect((await app.inject({ method: 'GET', url: '/v1/orders', headers: t.headers })).statusCode).toBe(200);
  });

  it('suspend works without a body; a super-admin cannot suspend themself (409)', async () => {
    const t = await createTenant(app);
    const bare = await app.inject({ method: 'POST', url: `/api/super-admin/accounts/${t.accountId}/suspend`, headers: root });
    expect(bare.statusCode, bare.body).toBe(200);
    const me = (await app.inject({ method: 'GET', url: '/api/auth/me', headers: root })).json().account.id;
    const self = await app.inject({ method: 'POST', url: `/api/super-admin/accounts/${me}/suspend`, headers: root, payload: { reason: 'oops' } });
    expect(self.statusCode).toBe(409);
    expect(self.json().code).toBe('invalid_state');
    const tooLong = await app.inject({
      method: 'POST',
      url: `/api/super-admin/accounts/${t.accountId}/suspend`,
      headers: root,
      payload: { reason: 'x'.repeat(1001) },
    });
    expect(tooLong.statusCode).toBe(400);
    const nul = await app.inject({ method: 'POST', url: `/api/super-admin/accounts/${t.accountId}/suspend`, headers: root, payload: { reason: 'a\u0000' } });
    expect(nul.statusCode).toBe(400);
  });
});

describe('workspaces list', () => {
  it('shows plan, burst, member and order counts', async () => {
    const t = await createTenant(app, { plan: 'professional' });
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/orders',
        headers: t.headers,
        payload: {
          ship_to: { street1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
          line_items: [{ sku: 'A', quantity: 1 }],
        },
      });
      expect(res.statusCode).toBe(201);
    }
    const list = await app.inject({ method: 'GET', url: `/api/super-admin/workspaces?q=${t.workspaceId}`, headers: root });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data).toHaveLength(1);
    expect(list.json().data[0]).toMatchObject({
      id: t.workspaceId,
      plan: 'professional',
      burst_per_minute: null,
      effective_burst_per_minute: 300,
      member_count: 1,
      order_count: 3,
      suspended_at: null,
    });
    const page = await app.inject({ method: 'GET', url: '/api/super-admin/workspaces?limit=1', headers: root });
    expect(page.json().has_more).toBe(true);
    const next = await app.inject({ method: 'GET', url: `/api/super-admin/workspaces?limit=1&cursor=${page.json().next_cursor}`, headers: root });
    expect(next.json().data[0].id).not.toBe(page.json().data[0].id);
  });

  it("lists a workspace's members and their roles; an unknown workspace is 404, a member's session 403", async () => {
    const t = await createTenant(app);
    const invited = await app.inject({
      method: 'POST',
      url: '/api/admin/members',
      headers: t.adminHeaders,
      payload: { email: `packer-${Date.now()}@example.com`, role: 'operator' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const accepted = await app.inject({
      method: 'POST',
      url: `/api/auth/invitations/${invited.json().token}/accept`,
      payload: { name: 'Packer', password: 'long enough password' },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const res = await app.inject({ method: 'GET', url: `/api/super-admin/workspaces/${t.workspaceId}/members`, headers: root });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((m: { email: string; role: string }) => `${m.role}:${m.email}`)).toEqual([
      `operator:${invited.json().email}`,
      `owner:${t.email}`,
    ]); // newest first
    const unknown = await app.inject({ method: 'GET', url: '/api/super-admin/workspaces/ws_01jx0000000000000000000000/members', headers: root });
    expect(unknown.statusCode).toBe(404);
    const member = await app.inject({ method: 'GET', url: `/api/super-admin/workspaces/${t.workspaceId}/members`, headers: t.adminHeaders });
    expect(member.statusCode).toBe(403);
  });
});

// Two API processes on one PostgreSQL: a suspension in one stops the keys in the other at once.
describe.runIf(inject('testDb').engine === 'postgres')('across processes', () => {
  it('suspension and reactivation reach another process through LISTEN/NOTIFY', async () => {
    const t = await createTenant(app);
    const db2 = await openDatabase({ databaseUrl: app.deps.database.connectionString!, poolMax: 2 });
    const b = await buildApp({ config: testConfig(), database: db2, migrate: false, perIpPerMinute: 100_000 });
    try {
      const status = async () => (await b.inject({ method: 'GET', url: '/v1/orders', headers: t.headers })).statusCode;
      expect(await status()).toBe(200);
      await app.inject({ method: 'POST', url: `/api/super-admin/accounts/${t.accountId}/suspend`, headers: root });
      let code = 200;
      for (let i = 0; i < 100 && code !== 403; i++) {
        await new Promise((r) => setTimeout(r, 20));
        code = await status();
      }
      expect(code).toBe(403);
      await app.inject({ method: 'POST', url: `/api/super-admin/accounts/${t.accountId}/reactivate`, headers: root });
      for (let i = 0; i < 100 && code !== 200; i++) {
        await new Promise((r) => setTimeout(r, 20));
        code = await status();
      }
      expect(code).toBe(200);
    } finally {
      await b.close();
      await db2.close();
    }
  });
});
