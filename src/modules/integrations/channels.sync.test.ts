import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids.js';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { startFakeShopify, type FakeShopify } from '../../../test/helpers/fake-shopify/index.js';

// Reading a store (docs/channels.md–§10.2) against the fake Shopify, which validates every
// document against the published schema: activation (test, webhooks, backfill), manual syncs,
// reconciliation repairing webhooks, the test endpoint and a revoked token, deletion.

let app: FastifyInstance;
let fake: FakeShopify;
let t: Tenant;
let integrationId: string;

const PUBLIC = 'https://ship.example.com';

beforeAll(async () => {
  fake = await startFakeShopify({ shopDomain: 'acme.myshopify.com', clientSecret: 'shpss_sync_test_secret', restoreRate: 1000 });
  app = await buildTestApp({ config: { encryptionKey: randomBytes(32).toString('base64'), channelAllowBaseUrlOverride: true, publicBaseUrl: PUBLIC } });
  t = await createTenant(app);
});

afterAll(async () => {
  expect(fake.violations).toEqual([]);
  await fake.close();
});

const admin = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  app.inject({ method, url, headers: t.adminHeaders, payload: payload as never });

/** Runs the queued sync runs of the integration, as the job would. */
async function runQueued() {
  const runs = await app.deps.db
    .selectFrom('channel_sync_runs')
    .select('id')
    .where('integration_id', '=', integrationId)
    .where('status', '=', 'queued')
    .orderBy('created_at')
    .execute();
  for (const { id } of runs) await app.services.channelSync.run({ workspace_id: t.workspaceId, environment: 'test', run_id: id });
}

const ordersOf = async () =>
  (await app.inject({ method: 'GET', url: `/v1/orders?source=${integrationId}&limit=100`, headers: t.headers })).json().data as {
    id: string;
    external_id: string;
    status: string;
  }[];

describe('reading a Shopify store', () => {
  it('activation tests the connection, registers the webhooks and backfills the importable orders', async () => {
    const old = fake.shop.seedOrder({ updatedAt: new Date(Date.now() - 30 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z') });
    const paid = fake.shop.seedOrder();
    const pending = fake.shop.seedOrder({ financialStatus: 'PENDING' });
    const res = await admin('POST', '/api/admin/integrations', {
      name: 'Acme',
      platform: 'shopify',
      store_ref: 'acme.myshopify.com',
      base_url: fake.url,
      credentials: { access_token: fake.accessToken, client_secret: fake.clientSecret },
    });
    expect(res.statusCode, res.body).toBe(201);
    integrationId = res.json().id;
    // Until its activation has run, no reconciliation is due: one racing it would find no webhooks.
    expect(await app.services.channelSync.reconcileDue()).toBe(0);
    await app.services.channelSync.activate({ workspace_id: t.workspaceId, environment: 'test', integration_id: integrationId });

    const subs = [...fake.shop.webhooks.values()];
    expect(subs.map((s) => s.topic).sort()).toEqual(['APP_UNINSTALLED', 'ORDERS_CANCELLED', 'ORDERS_CREATE', 'ORDERS_UPDATED']);
    expect(new Set(subs.map((s) => s.uri))).toEqual(new Set([`${PUBLIC}/api/integrations/${integrationId}/webhooks`]));

    await runQueued();
    const imported = await ordersOf();
    expect(imported.map((o) => o.external_id)).toEqual([String(paid.id)]);
    const read = (await admin('GET', `/api/admin/integrations/${integrationId}`)).json();
    expect(read.connection.scopes).toEqual(['read_orders', 'read_merchant_managed_fulfillment_orders', 'write_merchant_managed_fulfillment_orders']);
    expect(read.sync.last_reconciled_at).not.toBeNull();
    const runs = (await admin('GET', `/api/admin/integrations/${integrationId}/sync-runs`)).json().data;
    expect(runs).toMatchObject([{ kind: 'backfill', status: 'completed', counts: { seen: 2, created: 1, skipped: 1, failed: 0 } }]);

    const history = (await admin('GET', `/api/admin/orders/${imported[0].id}/sync-history`)).json();
    expect(history).toEqual({ data: [expect.objectContaining({ source: 'poll', decision: 'created' })], write_backs: [] });
    expect(old.id).not.toBe(pending.id);
  });

  it('a manual sync reads what changed since, applies it once, and records its entries as manual', async () => {
    const [order] = await ordersOf();
    fake.shop.editOrder(order.external_id, (o) => {
      o.shippingAddress = { ...o.shippingAddress!, address1: '9 Elm St' };
    });
    const fresh = fake.shop.seedOrder();
    const res = await admin('POST', `/api/admin/integrations/${integrationId}/sync`, {});
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ kind: 'manual', status: 'queued' });
    await runQueued();
    const orders = await ordersOf();
    expect(orders.map((o) => o.external_id).sort()).toEqual([order.external_id, String(fresh.id)].sort());
    const entries = (await admin('GET', `/api/admin/orders/${order.id}/sync-history`)).json().data;
    expect(entries.map((e: { source: string; decision: string }) => `${e.source}:${e.decision}`)).toEqual(['poll:created', 'manual:updated']);
  });

  it('reconciliation re-creates a missing webhook and says so in health', async () => {
    const [first] = fake.shop.webhooks.keys();
    fake.shop.webhooks.delete(first);
    const queued = await app.services.channelSync.reconcileDue();
    expect(queued).toBe(0); // reconciled moments ago: not due yet
    await app.services.channelSync.queueRun(
      await app.deps.db.selectFrom('integrations').selectAll().where('id', '=', integrationId).executeTakeFirstOrThrow(),
      'reconcile',
      null,
    );
    await runQueued();
    expect(fake.shop.webhooks.size).toBe(4);
    const read = (await admin('GET', `/api/admin/integrations/${integrationId}`)).json();
    expect(read).toMatchObject({ health: 'degraded', health_reason: expect.stringContaining('missing or turned off') });
  });

  it('a run its job gave up on (left running by a database outage) holds reconciliation back for an hour at most', async () => {
    const row = await app.deps.db.selectFrom('integrations').selectAll().where('id', '=', integrationId).executeTakeFirstOrThrow();
    await app.deps.db
      .updateTable('integrations')
      .set({ last_reconciled_at: new Date(Date.now() - 86_400_000) })
      .where('id', '=', integrationId)
      .execute();
    const stuck = {
      integration_id: integrationId,
      workspace_id: row.workspace_id,
      environment: row.environment,
      kind: 'reconcile' as const,
      status: 'running' as const,
      counts: JSON.stringify({ seen: 0, created: 0, updated: 0, unchanged: 0, skipped: 0, failed: 0 }),
    };
    const stuckId = newId('syncRun');
    await app.deps.db
      .insertInto('channel_sync_runs')
      .values({ ...stuck, id: stuckId, created_at: new Date(Date.now() - 5 * 60_000) })
      .execute();
    expect(await app.services.channelSync.reconcileDue()).toBe(0);
    await app.deps.db
      .updateTable('channel_sync_runs')
      .set({ created_at: new Date(Date.now() - 2 * 3600_000) })
      .where('id', '=', stuckId)
      .execute();
    expect(await app.services.channelSync.reconcileDue()).toBe(1);
    const runs = await app.deps.db
      .selectFrom('channel_sync_runs')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .where('status', 'in', ['queued', 'running', 'failed'])
      .execute();
    expect(runs.map((r) => [r.id === stuckId ? 'stuck' : 'new', r.status]).sort()).toEqual([
      ['new', 'queued'],
      ['stuck', 'failed'],
    ]);
    expect(runs.find((r) => r.id === stuckId)!.error).toMatch(/abandoned/);
    await runQueued();
  });

  it('the test endpoint heals; a revoked token expires the health, announced once', async () => {
    expect((await admin('POST', `/api/admin/integrations/${integrationId}/test`)).json().health).toBe('healthy');
    fake.revokeToken(fake.accessToken);
    const tested = (await admin('POST', `/api/admin/integrations/${integrationId}/test`)).json();
    expect(tested).toMatchObject({ health: 'token_expired', health_reason: expect.stringContaining('refused the credentials') });
    await admin('POST', `/api/admin/integrations/${integrationId}/test`);
    const events = await app.deps.db
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'integration.health_changed')
      .where('workspace_id', '=', t.workspaceId)
      .execute();
    expect(events.map((e) => (e.data as { health: string }).health)).toEqual(['degraded', 'healthy', 'token_expired']);
    const run = await admin('POST', `/api/admin/integrations/${integrationId}/sync`, {});
    expect(run.statusCode).toBe(202);
    await runQueued();
    const runs = (await admin('GET', `/api/admin/integrations/${integrationId}/sync-runs`)).json().data;
    expect(runs[0]).toMatchObject({ kind: 'manual', status: 'failed' });
  });

  it('an unreachable store is down only after three failures within ten minutes', async () => {
    const res = await admin('POST', '/api/admin/integrations', {
      name: 'Flaky',
      platform: 'shopify',
      store_ref: 'acme.myshopify.com',
      base_url: fake.url,
      credentials: { access_token: await exchangeFreshToken(), client_secret: fake.clientSecret },
    });
    const id = res.json().id;
    // Every attempt of the connection test answers 503 (the client retries reads twice).
    fake.fail('shop', ...Array.from({ length: 9 }, () => ({ kind: 'status' as const, status: 503 })));
    const healths = [];
    for (let i = 0; i < 3; i++) healths.push((await admin('POST', `/api/admin/integrations/${id}/test`)).json().health);
    expect(healths).toEqual(['healthy', 'healthy', 'down']);
    expect((await admin('GET', `/api/admin/integrations/${id}`)).json().health_reason).toMatch(/could not be reached 3 times/);
    expect((await admin('POST', `/api/admin/integrations/${id}/test`)).json().health).toBe('healthy');
  });

  it('sustained throttling degrades: three calls given up for the platform’s limits within ten minutes', async () => {
    const res = await admin('POST', '/api/admin/integrations', {
      name: 'Busy',
      platform: 'shopify',
      store_ref: 'acme.myshopify.com',
      base_url: fake.url,
      credentials: { access_token: await exchangeFreshToken(), client_secret: fake.clientSecret },
    });
    const id = res.json().id;
    // A wait longer than any call's deadline: the client gives up at once with `throttled`.
    fake.fail('shop', ...Array.from({ length: 3 }, () => ({ kind: 'status' as const, status: 429, headers: { 'retry-after': '3600' } })));
    const healths = [];
    for (let i = 0; i < 3; i++) healths.push((await admin('POST', `/api/admin/integrations/${id}/test`)).json().health);
    expect(healths).toEqual(['healthy', 'healthy', 'degraded']);
    expect((await admin('GET', `/api/admin/integrations/${id}`)).json().health_reason).toBe('the platform throttled 3 calls within 10 minutes');
  });

  it('push-intake integrations have nothing to test or sync; another workspace sees 404', async () => {
    const custom = (await admin('POST', '/api/admin/integrations', { name: 'Pushed', platform: 'custom' })).json();
    for (const path of ['test', 'sync']) {
      const res = await admin('POST', `/api/admin/integrations/${custom.id}/${path}`, {});
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('invalid_state');
    }
    const other = await createTenant(app);
    const theirs = await app.inject({ method: 'GET', url: `/api/admin/integrations/${integrationId}/sync-runs`, headers: other.adminHeaders });
    expect(theirs.statusCode).toBe(404);
    const bad = await admin('POST', `/api/admin/integrations/${integrationId}/sync`, { since: 'yesterday' });
    expect(bad.statusCode).toBe(400);
  });

  it('delete unregisters the webhooks when the store still accepts the token', async () => {
    const res = await admin('POST', '/api/admin/integrations', {
      name: 'Second',
      platform: 'shopify',
      store_ref: 'acme.myshopify.com',
      base_url: fake.url,
      credentials: { access_token: await exchangeFreshToken(), client_secret: fake.clientSecret },
    });
    const id = res.json().id;
    await app.services.channelSync.activate({ workspace_id: t.workspaceId, environment: 'test', integration_id: id });
    const ours = () => [...fake.shop.webhooks.values()].filter((w) => w.uri.endsWith(`/${id}/webhooks`)).length;
    expect(ours()).toBe(4);
    expect((await admin('DELETE', `/api/admin/integrations/${id}`)).statusCode).toBe(204);
    expect(ours()).toBe(0);
  });
});

/** A second valid token from the fake's OAuth endpoint (the custom app's own was revoked above). */
async function exchangeFreshToken(): Promise<string> {
  const res = await fetch(`${fake.url}/admin/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: fake.clientId, client_secret: fake.clientSecret, code: fake.issueCode() }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

describe('the OAuth install', () => {
  const callback = (query: Record<string, string>) =>
    app.inject({ method: 'GET', url: `/api/integrations/oauth/shopify/callback?${new URLSearchParams(query)}` });
  /** The callback query Shopify sends, signed as Shopify signs it (hex HMAC-SHA256 of the sorted query). */
  const signed = (query: Record<string, string>, secret = fake.clientSecret) => {
    const message = Object.keys(query)
      .sort()
      .map((k) => `${k}=${query[k]}`)
      .join('&');
    return { ...query, hmac: createHmac('sha256', secret).update(message).digest('hex') };
  };

  async function pending() {
    const res = await admin('POST', '/api/admin/integrations', {
      name: 'OAuth shop',
      platform: 'shopify',
      store_ref: 'acme.myshopify.com',
      base_url: fake.url,
      credentials: { client_id: fake.clientId, client_secret: fake.clientSecret },
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    return { id: created.id as string, state: new URL(created.connection.authorize_url).searchParams.get('state')! };
  }

  it('verifies hmac, state and shop, exchanges the code, activates and redirects; expiring tokens are refreshed ahead and stored', async () => {
    fake.setExpiringTokens(true, 120);
    const { id, state } = await pending();
    const res = await callback(signed({ code: fake.issueCode(), shop: 'acme.myshopify.com', state, timestamp: String(Math.floor(Date.now() / 1000)) }));
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe(`/dashboard/integrations/${id}`);
    const read = (await admin('GET', `/api/admin/integrations/${id}`)).json();
    expect(read.connection).toMatchObject({
      state: 'active',
      authorize_url: null,
      scopes: ['read_orders', 'read_merchant_managed_fulfillment_orders', 'write_merchant_managed_fulfillment_orders'],
    });
    expect(read.credentials).toMatchObject({
      access_token: expect.stringMatching(/^••••/),
      refresh_token: expect.stringMatching(/^••••/),
      client_id: fake.clientId,
    });
    // The state was single-use.
    expect((await callback(signed({ code: fake.issueCode(), shop: 'acme.myshopify.com', state }))).json().code).toBe('oauth_invalid');

    // The token has 2 minutes left (< 5): the next call refreshes it first, and stores the new pair.
    const before = await app.deps.db.selectFrom('integrations').select('credentials_sealed').where('id', '=', id).executeTakeFirstOrThrow();
    const refreshes = fake.requests.filter((r) => r.fields.includes('oauth')).length;
    expect((await admin('POST', `/api/admin/integrations/${id}/test`)).json().health).toBe('healthy');
    expect(fake.requests.filter((r) => r.fields.includes('oauth')).length).toBe(refreshes + 1);
    const after = await app.deps.db.selectFrom('integrations').select('credentials_sealed').where('id', '=', id).executeTakeFirstOrThrow();
    expect(after.credentials_sealed).not.toBe(before.credentials_sealed);
    fake.setExpiringTokens(false);
  });

  it('a bad hmac, another shop or an unknown state is 400 oauth_invalid and stores nothing', async () => {
    const { id, state } = await pending();
    const forged = await callback(signed({ code: fake.issueCode(), shop: 'acme.myshopify.com', state }, 'not-the-secret'));
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ code: 'oauth_invalid', details: [{ field: 'query' }] });
    const second = await pending();
    const otherShop = await callback(signed({ code: fake.issueCode(), shop: 'evil.myshopify.com', state: second.state }));
    expect(otherShop.json().code).toBe('oauth_invalid');
    expect((await callback(signed({ code: 'x', shop: 'acme.myshopify.com', state: 'unknown-state-0123456789' }))).statusCode).toBe(400);
    for (const pendingId of [id, second.id]) {
      expect((await admin('GET', `/api/admin/integrations/${pendingId}`)).json().connection.state).toBe('pending_authorization');
    }
  });
});
