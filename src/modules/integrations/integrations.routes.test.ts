import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { newId } from '../../platform/ids.js';

let app: FastifyInstance;
let t: Tenant;

beforeAll(async () => {
  // A key of its own: the test never writes ./data/encryption.key.
  app = await buildTestApp({ config: { encryptionKey: randomBytes(32).toString('base64') } });
  t = await createTenant(app);
});

const orderBody = (extra: Record<string, unknown> = {}) => ({
  customer: { name: 'Grace Hopper', email: 'grace@example.com' },
  ship_to: { street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' },
  line_items: [{ sku: 'BOOK-1', name: 'Book', quantity: 1, unit_price: { amount: 1999, currency: 'USD' }, weight_oz: 12 }],
  ...extra,
});

async function createIntegration(headers: Record<string, string>, body: Record<string, unknown> = {}) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/admin/integrations',
    headers,
    payload: { name: 'My Shopify', platform: 'custom', config: { shop_domain: 'demo.myshopify.com' }, ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const ingest = (key: string) => ({ authorization: `Bearer ${key}` });

describe('admin integrations', () => {
  it('creates an integration: ingest key shown once, credentials write-only and encrypted at rest', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/integrations',
      headers: t.adminHeaders,
      payload: {
        name: 'Main store',
        platform: 'custom',
        config: { shop_domain: 'main.myshopify.com' },
        credentials: { access_token: 'shpat_super_secret_token' },
        token_expires_at: '2099-01-01T00:00:00Z',
      },
    });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created.id).toMatch(/^int_[0-9a-z]{26}$/);
    expect(created.ingest_key).toMatch(/^ik_[0-9A-Za-z]{43}$/);
    expect(created).toMatchObject({
      name: 'Main store',
      platform: 'custom',
      environment: 'test',
      config: { shop_domain: 'main.myshopify.com' },
      has_credentials: true,
      token_expires_at: '2099-01-01T00:00:00.000Z',
      health: 'healthy',
      last_intake_at: null,
      ingest_key_last4: created.ingest_key.slice(-4),
    });
    expect(created.credentials).toBeNull();
    expect(JSON.stringify(created)).not.toContain('shpat_super_secret_token');

    // Stored: the key only as a hash, the credentials only sealed.
    const row = await app.deps.db.selectFrom('integrations').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('shpat_super_secret_token');
    expect(JSON.stringify(row)).not.toContain(created.ingest_key);
    expect(row.credentials_sealed).toMatch(/^v1\./);
    // … and they open again with the app's key (for connectors).
    const credentials = await app.services.integrations.readCredentials({ workspaceId: t.workspaceId, environment: 'test' }, created.id);
    expect(credentials).toEqual({ access_token: 'shpat_super_secret_token' });

    const read = await app.inject({ method: 'GET', url: `/api/admin/integrations/${created.id}`, headers: t.adminHeaders });
    expect(read.statusCode).toBe(200);
    expect(read.json()).not.toHaveProperty('ingest_key');
    const { ingest_key: _key, ...withoutKey } = created;
    expect(read.json()).toEqual(withoutKey);

    const list = await app.inject({ method: 'GET', url: '/api/admin/integrations', headers: t.adminHeaders });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((i: { id: string }) => i.id)).toContain(created.id);
    expect(JSON.stringify(list.json())).not.toContain(created.ingest_key);

    const audit = await app.deps.db.selectFrom('audit_log').selectAll().where('target_id', '=', created.id).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'integration.created', actor_id: t.accountId, target_type: 'integration', environment: 'test' });
    expect(audit[0].changes).toMatchObject({ name: 'Main store', platform: 'custom', has_credentials: true });
    expect(JSON.stringify(audit[0])).not.toContain('shpat_super_secret_token');
  });

  it('validates the body', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/integrations',
      headers: t.adminHeaders,
      payload: { name: '', platform: 'etsy', config: 'x', token_expires_at: 'tomorrow', extra: 1 },
    });
    expect(res.statusCode).toBe(400);
    const fields = res.json().details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'platform', 'config', 'token_expires_at', 'extra']));
    const blank = await app.inject({ method: 'POST', url: '/api/admin/integrations', headers: t.adminHeaders, payload: { name: '   ', platform: 'custom' } });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().details).toEqual([{ field: 'name', message: expect.any(String) }]);
    const missing = await app.inject({ method: 'POST', url: '/api/admin/integrations', headers: t.adminHeaders, payload: {} });
    expect(
      missing
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['name', 'platform']);
  });

  it('updates fields, replaces or removes credentials and rotates the ingest key (old key refused at once)', async () => {
    const created = await createIntegration(t.adminHeaders, { credentials: { api_key: 'one' } });
    const first = await app.inject({ method: 'POST', url: '/api/integrations/orders', headers: ingest(created.ingest_key), payload: orderBody() });
    expect(first.statusCode).toBe(201);

    const renamed = await app.inject({
      method: 'PUT',
      url: `/api/admin/integrations/${created.id}`,
      headers: t.adminHeaders,
      payload: { name: 'Renamed', config: { shop_domain: 'new.myshopify.com' } },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Renamed', config: { shop_domain: 'new.myshopify.com' }, has_credentials: true, platform: 'custom' });
    expect(renamed.json()).not.toHaveProperty('ingest_key');

    const rotated = await app.inject({
      method: 'PUT',
      url: `/api/admin/integrations/${created.id}`,
      headers: t.adminHeaders,
      payload: { rotate_ingest_key: true, credentials: null },
    });
    expect(rotated.statusCode).toBe(200);
    const newKey = rotated.json().ingest_key;
    expect(newKey).toMatch(/^ik_[0-9A-Za-z]{43}$/);
    expect(newKey).not.toBe(created.ingest_key);
    expect(rotated.json()).toMatchObject({ has_credentials: false, ingest_key_last4: newKey.slice(-4) });

    const old = await app.inject({ method: 'POST', url: '/api/integrations/orders', headers: ingest(created.ingest_key), payload: orderBody() });
    expect(old.statusCode).toBe(401);
    const fresh = await app.inject({ method: 'POST', url: '/api/integrations/orders', headers: ingest(newKey), payload: orderBody() });
    expect(fresh.statusCode).toBe(201);
    // The orders of the integration stay readable under the new key.
    expect((await app.inject({ method: 'GET', url: `/api/integrations/orders/${first.json().id}`, headers: ingest(newKey) })).statusCode).toBe(200);

    const audit = await app.deps.db.selectFrom('audit_log').select(['action', 'changes']).where('target_id', '=', created.id).execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['integration.created', 'integration.updated', 'integration.updated']);
    expect(audit.map((a) => a.changes)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: { from: 'My Shopify', to: 'Renamed' } }),
        expect.objectContaining({ ingest_key: 'rotated', credentials: 'removed' }),
      ]),
    );
  });

  it('deletes (204): the ingest key stops working, the orders stay', async () => {
    const created = await createIntegration(t.adminHeaders);
    const order = await app.inject({ method: 'POST', url: '/api/integrations/orders', headers: ingest(created.ingest_key), payload: orderBody() });
    expect(order.statusCode).toBe(201);
    const res = await app.inject({ method: 'DELETE', url: `/api/admin/integrations/${created.id}`, headers: t.adminHeaders });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await app.inject({ method: 'GET', url: `/api/admin/integrations/${created.id}`, headers: t.adminHeaders })).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: `/api/admin/integrations/${created.id}`, headers: t.adminHeaders })).statusCode).toBe(404);
    const refused = await app.inject({ method: 'GET', url: `/api/integrations/orders/${order.json().id}`, headers: ingest(created.ingest_key) });
    expect(refused.statusCode).toBe(401);
    const kept = await app.inject({ method: 'GET', url: `/v1/orders/${order.json().id}`, headers: t.headers });
    expect(kept.statusCode).toBe(200);
    expect(kept.json().source).toBe(created.id);
    const audit = await app.deps.db.selectFrom('audit_log').select('action').where('target_id', '=', created.id).execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['integration.created', 'integration.deleted']);
  });

  it("keeps workspaces and environments apart: another's integration is 404, a live list does not show test ones", async () => {
    const created = await createIntegration(t.adminHeaders);
    const other = await createTenant(app);
    for (const [method, url, payload] of [
      ['GET', `/api/admin/integrations/${created.id}`, undefined],
      ['PUT', `/api/admin/integrations/${created.id}`, { name: 'hijack' }],
      ['DELETE', `/api/admin/integrations/${created.id}`, undefined],
    ] as const) {
      const res = await app.inject({ method, url, headers: other.adminHeaders, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      const live = await app.inject({ method, url, headers: { ...t.adminHeaders, 'x-service-environment': 'live' }, ...(payload ? { payload } : {}) });
      expect(live.statusCode, `live ${method} ${url}`).toBe(404);
    }
    const otherList = await app.inject({ method: 'GET', url: '/api/admin/integrations', headers: other.adminHeaders });
    expect(otherList.json().data).toEqual([]);
    const liveList = await app.inject({
      method: 'GET',
      url: '/api/admin/integrations?limit=100',
      headers: { ...t.adminHeaders, 'x-service-environment': 'live' },
    });
    expect(liveList.json().data.map((i: { id: string }) => i.id)).not.toContain(created.id);
    expect((await app.inject({ method: 'GET', url: `/api/admin/integrations/${created.id}`, headers: t.adminHeaders })).json().name).toBe('My Shopify');
    expect((await app.inject({ method: 'GET', url: '/api/admin/integrations' })).statusCode).toBe(401);
  });

  it('filters the list by platform and health', async () => {
    const owner = await createTenant(app);
    const a = await createIntegration(owner.adminHeaders, {
      platform: 'woocommerce',
      store_ref: 'https://shop.example.com',
      credentials: { consumer_key: 'ck_filter_test', consumer_secret: 'cs_filter_test' },
    });
    const b = await createIntegration(owner.adminHeaders, { platform: 'custom', token_expires_at: '2000-01-01T00:00:00Z' });
    const ids = async (qs: string) =>
      (await app.inject({ method: 'GET', url: `/api/admin/integrations?${qs}`, headers: owner.adminHeaders })).json().data.map((i: { id: string }) => i.id);
    expect(await ids('platform=woocommerce')).toEqual([a.id]);
    expect(await ids('health=token_expired')).toEqual([b.id]);
    expect((await ids('')).sort()).toEqual([a.id, b.id].sort());
    expect((await app.inject({ method: 'GET', url: '/api/admin/integrations?health=sick', headers: owner.adminHeaders })).statusCode).toBe(400);
  });
});

describe('order intake', () => {
  it('creates orders in the integration’s workspace and environment with source = integration id', async () => {
    const integration = await createIntegration(t.adminHeaders);
    const res = await app.inject({
      method: 'POST',
      url: '/api/integrations/orders',
      headers: ingest(integration.ingest_key),
      payload: orderBody({ external_id: '#1001' }),
    });
    expect(res.statusCode).toBe(201);
    const order = res.json();
    expect(order).toMatchObject({ source: integration.id, environment: 'test', external_id: '#1001', status: 'awaiting_fulfillment' });
    expect(order.parcel.weight_oz).toBe(12);

    // The same order through /v1 and the admin API of the test environment; not in live.
    expect((await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.headers })).json()).toEqual(order);
    expect((await app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: t.liveHeaders })).statusCode).toBe(404);
    const bySource = await app.inject({ method: 'GET', url: `/api/admin/orders?source=${integration.id}`, headers: t.adminHeaders });
    expect(bySource.json().data.map((o: { id: string }) => o.id)).toEqual([order.id]);

    const read = await app.inject({ method: 'GET', url: `/api/integrations/orders/${order.id}`, headers: ingest(integration.ingest_key) });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(order);

    const audit = await app.deps.db.selectFrom('integrations').select(['last_intake_at', 'health']).where('id', '=', integration.id).executeTakeFirstOrThrow();
    expect(audit.last_intake_at).not.toBeNull();
  });

  it('a live integration sends live orders', async () => {
    const live = await createIntegration({ ...t.adminHeaders, 'x-service-environment': 'live' });
    expect(live.environment).toBe('live');
    const res = await app.inject({ method: 'POST', url: '/api/integrations/orders', headers: ingest(live.ingest_key), payload: orderBody() });
    expect(res.json().environment).toBe('live');
    expect((await app.inject({ method: 'GET', url: `/v1/orders/${res.json().id}`, headers: t.liveHeaders })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: `/v1/orders/${res.json().id}`, headers: t.headers })).statusCode).toBe(404);
  });

  it('upserts by external_id per integration: 200 while open, 409 once cancelled; other sources are other orders', async () => {
    const a = await createIntegration(t.adminHeaders, { name: 'A' });
    const b = await createIntegration(t.adminHeaders, { name: 'B' });
    const send = (key: string, body: Record<string, unknown>) =>
      app.inject({ method: 'POST', url: '/api/integrations/orders', headers: ingest(key), payload: body });

    const created = await send(a.ingest_key, orderBody({ external_id: 'SAME-1' }));
    expect(created.statusCode).toBe(201);
    const updated = await send(a.ingest_key, orderBody({ external_id: 'SAME-1', notes: 'updated by store' }));
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ id: created.json().id, notes: 'updated by store' });

    const fromB = await send(b.ingest_key, orderBody({ external_id: 'SAME-1' }));
    expect(fromB.statusCode).toBe(201);
    expect(fromB.json().id).not.toBe(created.json().id);
    const fromApi = await app.inject({ method: 'POST', url: '/v1/orders', headers: t.headers, payload: orderBody({ external_id: 'SAME-1' }) });
    expect(fromApi.statusCode).toBe(201);
    expect(fromApi.json().source).toBe('api');

    await app.inject({ method: 'POST', url: `/api/admin/orders/${created.json().id}/cancel`, headers: t.adminHeaders });
    const refused = await send(a.ingest_key, orderBody({ external_id: 'SAME-1' }));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'invalid_state', details: [{ field: 'status', current_state: 'cancelled', allowed_moves: [] }] });
  });

  it("an integration's key cannot read another integration's or workspace's orders", async () => {
    const a = await createIntegration(t.adminHeaders, { name: 'A' });
    const b = await createIntegration(t.adminHeaders, { name: 'B' });
    const other = await createTenant(app);
    const c = await createIntegration(other.adminHeaders, { name: 'C' });
    const ofB = (await app.inject({ method: 'POST', url: '/api/integrations/orders', headers: ingest(b.ingest_key), payload: orderBody() })).json();
    const ofApi = (await app.inject({ method: 'POST', url: '/v1/orders', headers: t.headers, payload: orderBody() })).json();
    const ofC = (await app.inject({ method: 'POST', url: '/api/integrations/orders', headers: ingest(c.ingest_key), payload: orderBody() })).json();

    for (const id of [ofB.id, ofApi.id, ofC.id, newId('order')]) {
      const res = await app.inject({ method: 'GET', url: `/api/integrations/orders/${id}`, headers: ingest(a.ingest_key) });
      expect(res.statusCode, id).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    expect((await app.inject({ method: 'GET', url: `/api/integrations/orders/${ofB.id}`, headers: ingest(b.ingest_key) })).statusCode).toBe(200);
    // Another workspace's integration key does not reach this workspace either.
    expect((await app.inject({ method: 'GET', url: `/api/integrations/orders/${ofB.id}`, headers: ingest(c.ingest_key) })).statusCode).toBe(404);
  });

  it('needs a valid ingest key (401), not an API key or a session', async () => {
    for (const headers of [
      {},
      ingest('ik_notarealkeyatallnotarealkeyatall0000000000'),
      ingest('garbage'),
      { authorization: `Bearer ${t.apiKey}` },
      { authorization: `Bearer ${t.sessionToken}` },
    ]) {
      const res = await app.inject({ method: 'POST', url: '/api/integrations/orders', headers, payload: orderBody() });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('unauthorized');
      expect(res.json().request_id).toBe(res.headers['x-request-id']);
    }
  });

  it('validates like /v1/orders and records the failure against the integration', async () => {
    const integration = await createIntegration(t.adminHeaders);
    const res = await app.inject({
      method: 'POST',
      url: '/api/integrations/orders',
      headers: ingest(integration.ingest_key),
      payload: orderBody({ line_items: [{ sku: 'A', quantity: 0 }] }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ field: 'line_items[0].quantity', message: expect.any(String) }]);
    const domain = await app.inject({
      method: 'POST',
      url: '/api/integrations/orders',
      headers: ingest(integration.ingest_key),
      payload: orderBody({ ship_to: { street1: '1 Main St', city: 'Springfield', country: 'US' } }),
    });
    expect(domain.statusCode).toBe(400);
    expect(domain.json().details).toEqual([{ field: 'ship_to.postal_code', message: expect.any(String) }]);
    const badJson = await app.inject({
      method: 'POST',
      url: '/api/integrations/orders',
      headers: { ...ingest(integration.ingest_key), 'content-type': 'application/json' },
      payload: '{"ship_to": ',
    });
    expect(badJson.statusCode).toBe(400);

    const failures = await app.deps.db
      .selectFrom('integration_intake_failures')
      .select(['code', 'details', 'workspace_id', 'environment'])
      .where('integration_id', '=', integration.id)
      .orderBy('id')
      .execute();
    expect(failures.map((f) => f.code)).toEqual(['validation_failed', 'validation_failed', 'invalid_json']);
    expect(failures[0]).toMatchObject({ workspace_id: t.workspaceId, environment: 'test', details: [{ field: 'line_items[0].quantity' }] });
    // Not failures of the data: a conflict or a read of an unknown order.
    await app.inject({ method: 'GET', url: `/api/integrations/orders/${newId('order')}`, headers: ingest(integration.ingest_key) });
    const count = await app.deps.db.selectFrom('integration_intake_failures').select('id').where('integration_id', '=', integration.id).execute();
    expect(count).toHaveLength(3);
  });
});
