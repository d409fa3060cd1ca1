import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, superAdminHeaders, type Tenant } from '../../../test/helpers/app.js';
import { writeAudit } from './audit.repo.js';
import { maskSecrets } from './audit.mask.js';

let app: FastifyInstance;
let root: Record<string, string>;
let t: Tenant;

beforeAll(async () => {
  app = await buildTestApp();
  root = await superAdminHeaders(app);
  t = await createTenant(app);
});

async function entries(query: string) {
  const res = await app.inject({ method: 'GET', url: `/api/super-admin/audit-log?${query}`, headers: root });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Array<Record<string, any>>; has_more: boolean; next_cursor: string | null };
}

describe('GET /api/super-admin/audit-log', () => {
  it('records every kind of admin and super-admin mutation with actor, ip and request id', { timeout: 120_000 }, async () => {
    const shipTo = { street1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' };
    const order = (
      await app.inject({ method: 'POST', url: '/v1/orders', headers: t.headers, payload: { ship_to: shipTo, line_items: [{ sku: 'A', quantity: 1 }] } })
    ).json();
    const calls: Array<{ method: 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; headers: Record<string, string>; payload?: unknown; action: string }> = [
      { method: 'PATCH', url: `/api/admin/orders/${order.id}`, headers: t.adminHeaders, payload: { notes: 'fragile' }, action: 'order.updated' },
      { method: 'POST', url: `/api/admin/orders/${order.id}/process`, headers: t.adminHeaders, action: 'order.processed' },
      { method: 'POST', url: `/api/admin/orders/${order.id}/archive`, headers: t.adminHeaders, action: 'order.archived' },
      { method: 'POST', url: '/api/admin/integrations', headers: t.adminHeaders, payload: { name: 'Shop', platform: 'custom' }, action: 'integration.created' },
      { method: 'POST', url: '/api/admin/api-keys', headers: t.adminHeaders, payload: { name: 'ci', environment: 'test' }, action: 'api_key.created' },
      { method: 'PATCH', url: '/api/admin/workspace', headers: t.adminHeaders, payload: { name: 'Renamed' }, action: 'workspace.updated' },
      {
        method: 'PATCH',
        url: `/api/super-admin/workspaces/${t.workspaceId}`,
        headers: root,
        payload: { plan: 'professional' },
        action: 'workspace.plan_changed',
      },
      { method: 'PUT', url: '/api/super-admin/settings/registration.auto_approve', headers: root, payload: { value: false }, action: 'setting.updated' },
      {
        method: 'PUT',
        url: '/api/super-admin/office-redeem/365-pin-configure',
        headers: root,
        payload: {
          title: 'x',
          video_url: 'https://a.example',
          portal_url: 'https://b.example',
          installer_url: 'https://c.example',
          redeem_url: 'https://d.example',
        },
        action: 'office_redeem_config.updated',
      },
      {
        method: 'POST',
        url: '/api/super-admin/office-redeem/create-test-pin',
        headers: root,
        payload: { product: 'office_365' },
        action: 'office_pin.test_created',
      },
    ];
    for (const call of calls) {
      const res = await app.inject({
        method: call.method,
        url: call.url,
        headers: { ...call.headers, 'x-request-id': `req-${call.action}` },
        payload: call.payload as object,
        remoteAddress: '203.0.113.7',
      });
      expect(res.statusCode, `${call.method} ${call.url}: ${res.body}`).toBeLessThan(300);
      const [entry] = (await entries(`action=${call.action}`)).data.filter((e) => e.request_id === `req-${call.action}`);
      expect(entry, call.action).toBeDefined();
      expect(entry).toMatchObject({ ip: '203.0.113.7', actor: { type: 'account' } });
      expect(entry.actor.id).toMatch(/^acct_/);
      expect(entry.at).toEqual(expect.any(String));
    }
    const keyId = (await entries('action=api_key.created')).data.find((e) => e.request_id === 'req-api_key.created')!.target_id;
    const revoke = await app.inject({ method: 'DELETE', url: `/api/admin/api-keys/${keyId}`, headers: t.adminHeaders });
    expect(revoke.statusCode).toBe(204);
    expect((await entries(`action=api_key.revoked&target_id=${keyId}`)).data).toHaveLength(1);
  });

  it('filters by actor (id or email; actor_id synonym), action prefix, target, time; newest first with a cursor', async () => {
    const me = (await app.inject({ method: 'GET', url: '/api/auth/me', headers: root })).json().account;
    for (let i = 0; i < 3; i++) {
      await app.inject({ method: 'PUT', url: '/api/super-admin/settings/webhooks.max_attempts', headers: root, payload: { value: 5 + i } });
    }
    const byActor = await entries(`actor=${me.id}&target_id=webhooks.max_attempts`);
    expect(byActor.data.map((e) => e.changes.value.to)).toEqual([7, 6, 5]);
    expect((await entries(`actor_id=${me.id}&target_id=webhooks.max_attempts`)).data).toHaveLength(3);
    expect((await entries(`actor=${encodeURIComponent(me.email.toUpperCase())}&target_id=webhooks.max_attempts`)).data).toHaveLength(3);
    expect((await entries('action=setting.*&target_type=setting&limit=100')).data.every((e) => e.action.startsWith('setting.'))).toBe(true);

    const page1 = await entries('target_id=webhooks.max_attempts&limit=2');
    expect(page1.has_more).toBe(true);
    const page2 = await entries(`target_id=webhooks.max_attempts&limit=2&cursor=${page1.next_cursor}`);
    expect(page2.data.map((e) => e.changes.value.to)).toEqual([5]);

    const future = await entries('from=2999-01-01&target_id=webhooks.max_attempts');
    expect(future.data).toHaveLength(0);
    const past = await entries(`to=${new Date(Date.now() - 3600_000).toISOString()}&target_id=webhooks.max_attempts`);
    expect(past.data).toHaveLength(0);
    const bad = await app.inject({ method: 'GET', url: '/api/super-admin/audit-log?from=yesterday', headers: root });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe('from');
    for (const q of ['actor=a%00b', 'action=x%00', 'target_id=%00']) {
      expect((await app.inject({ method: 'GET', url: `/api/super-admin/audit-log?${q}`, headers: root })).statusCode, q).toBe(400);
    }
  });

  it('masks secrets before the row is written', async () => {
    expect(
      maskSecrets({
        password: 'hunter2',
        config: { api_token: 'tok', shop: 'x' },
        secret: 'whsec_1',
        product_key: { from: null, to: 'ABCDE-12345-FGHIJ-67890-KLMNO' },
        token_expires_at: '2030-01-01',
        credentials: 'removed',
        ingest_key: 'rotated',
      }),
    ).toEqual({
      password: '[redacted]',
      config: { api_token: '[redacted]', shop: 'x' },
      secret: '[redacted]',
      product_key: { from: null, to: '•••••-•••••-•••••-•••••-KLMNO' },
      token_expires_at: '2030-01-01',
      credentials: 'removed',
      ingest_key: 'rotated',
    });
    await writeAudit(
      app.deps.db,
      { type: 'system', id: null },
      { requestId: 'mask-test' },
      { action: 'test.masked', targetType: 'test', targetId: null, changes: { credentials: { key: 'k' }, client_secret: 's' } },
    );
    const row = await app.deps.db.selectFrom('audit_log').select('changes').where('request_id', '=', 'mask-test').executeTakeFirstOrThrow();
    expect(row.changes).toEqual({ credentials: '[redacted]', client_secret: '[redacted]' });
  });

  it('is append-only: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    await writeAudit(app.deps.db, { type: 'system', id: null }, { requestId: 'append-only' }, { action: 'test.kept', targetType: 'test', targetId: 'kept' });
    const kept = () => app.deps.db.selectFrom('audit_log').select(['id', 'action']).where('request_id', '=', 'append-only').execute();
    const before = await kept();
    expect(before).toHaveLength(1);
    await expect(sql`update audit_log set action = 'tampered' where request_id = 'append-only'`.execute(app.deps.db)).rejects.toThrow(/append-only/);
    await expect(sql`update audit_log set action = 'tampered'`.execute(app.deps.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_log where request_id = 'append-only'`.execute(app.deps.db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate audit_log`.execute(app.deps.db)).rejects.toThrow(/append-only/);
    expect(await kept()).toEqual(before);
    expect((await entries('action=tampered')).data).toHaveLength(0);
  });
});
