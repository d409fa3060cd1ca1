import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, superAdminHeaders } from '../helpers/app.js';
import { orderBody } from '../helpers/credentials.js';
import { startFakeDhl, type FakeDhl } from '../helpers/fake-dhl.js';
import { startFakeFedex, type FakeFedex } from '../helpers/fake-fedex.js';
import { startFakeUps, type FakeUps } from '../helpers/fake-ups.js';
import { startFakeUsps, type FakeUsps } from '../helpers/fake-usps.js';
import { startFakeShopify, type FakeShopify } from '../helpers/fake-shopify/index.js';

// No secret ever reaches a log line (docs/api-conventions.md, Errors): a full client flow at the most verbose
// level, then every secret that was sent or handed out is searched for in the captured lines.

const SECRET_FIELDS = new Set(['secret', 'token', 'ingest_key', 'password', 'pin', 'product_key', 'credentials']);
const lines: string[] = [];
let app: FastifyInstance;

/** The carriers' write-only credentials (each carrier's credentials_schema), distinct per carrier. */
const CARRIER_SECRETS = {
  ups: 'ups-client-secret-3b9e27d1',
  usps: 'usps-client-secret-51ac9e04',
  uspsPayment: '7730019428',
  fedex: 'fedex-secret-key-0d6f2b85',
  dhl: 'dhl-api-secret-a47c13e9',
};
let ups: FakeUps;
let usps: FakeUsps;
let fedex: FakeFedex;
let dhl: FakeDhl;
let shopify: FakeShopify;

beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  ups = await startFakeUps({ clientSecret: CARRIER_SECRETS.ups });
  usps = await startFakeUsps({ clientSecret: CARRIER_SECRETS.usps });
  fedex = await startFakeFedex({ secretKey: CARRIER_SECRETS.fedex });
  dhl = await startFakeDhl({ apiSecret: CARRIER_SECRETS.dhl });
  shopify = await startFakeShopify({ shopDomain: 'secret-shop.myshopify.com', clientSecret: 'shpss_store_client_secret_5e81' });
  app = await buildTestApp({
    config: { logLevel: 'trace', carrierAllowBaseUrlOverride: true, channelAllowBaseUrlOverride: true, encryptionKey: randomBytes(32).toString('base64') },
    logStream: stream,
  });
}, 60_000);
afterAll(async () => {
  await Promise.all([ups?.close(), usps?.close(), fedex?.close(), dhl?.close(), shopify?.close()]);
});

/** Every value under a secret-named field, at any depth, of a response or request body. */
function secretsIn(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) value.forEach((v) => secretsIn(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (SECRET_FIELDS.has(k) && typeof v === 'string' && v.length >= 8) out.add(v);
      else if (SECRET_FIELDS.has(k) && v && typeof v === 'object')
        for (const inner of Object.values(v)) if (typeof inner === 'string' && inner.length >= 8) out.add(inner);
      secretsIn(v, out);
    }
  }
}

describe('logs during a full flow', () => {
  it('hold none of the secrets created or sent', { timeout: 180_000 }, async () => {
    const secrets = new Set<string>();
    let sent = 0;
    const send = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string>, payload?: unknown) => {
      sent++;
      secretsIn(payload, secrets);
      const res = await app.inject({ method, url, headers, payload: payload as never });
      if (res.headers['content-type']?.toString().includes('json') && res.body) secretsIn(res.json(), secrets);
      return res;
    };
    const root = await superAdminHeaders(app);
    secrets.add(root.authorization.slice(7));
    const email = `logs-${Date.now()}@example.com`;
    const password = 'a very secret pw 42';
    const reg = (await send('POST', '/api/auth/register', {}, { email, password, name: 'L', workspace_name: 'Logs' })).json();
    await send('POST', '/api/auth/login', {}, { email, password: 'wrong password 99' }); // pending + wrong
    await send('POST', `/api/super-admin/accounts/${reg.account.id}/approve`, root);
    const session = (await send('POST', '/api/auth/login', {}, { email, password })).json().token as string;
    const admin = { authorization: `Bearer ${session}`, 'x-service-workspace': reg.workspace.id, 'x-service-environment': 'test' };
    await send('PATCH', `/api/super-admin/workspaces/${reg.workspace.id}`, root, { plan: 'enterprise', burst_per_minute: 100_000 });
    const key = (await send('POST', '/api/admin/api-keys', admin, { name: 'server', environment: 'test' })).json().secret as string;
    const v1 = { authorization: `Bearer ${key}`, 'x-service-workspace': reg.workspace.id };
    const second = (await send('POST', '/v1/api-keys', v1, { name: 'rotation' })).json();
    await send('GET', '/v1/api-keys', v1);
    await send('POST', '/v1/orders', v1, orderBody());
    await send('POST', '/v1/orders', { ...v1, 'idempotency-key': 'log-test-1' }, { ...orderBody(), notes: 'x'.repeat(10) });
    await send('POST', '/v1/orders', v1, { bad: true }); // a validation failure is logged too
    const integration = (
      await send('POST', '/api/admin/integrations', admin, { name: 'shop', platform: 'custom', credentials: { access_token: 'shpat_supersecretvalue123' } })
    ).json();
    secrets.add('shpat_supersecretvalue123');
    await send('POST', '/api/integrations/orders', { authorization: `Bearer ${integration.ingest_key}` }, { ...orderBody(), external_id: 'ext-1' });
    await send('POST', '/api/integrations/orders', { authorization: `Bearer ${integration.ingest_key}` }, { nope: 1 });
    await send('PUT', `/api/admin/integrations/${integration.id}`, admin, { rotate_ingest_key: true });
    await send('DELETE', `/v1/api-keys/${second.id}`, v1);
    await send('GET', '/v1/api-keys', { ...v1, authorization: `Bearer ${second.secret}` }); // revoked: 401
    await send('POST', '/api/auth/logout', { authorization: `Bearer ${session}` });
    await send('GET', '/api/auth/me', { authorization: `Bearer ${session}` }); // ended: 401

    expect(secrets.size).toBeGreaterThanOrEqual(8);
    // The flow was logged, at trace level: one access line per request at least.
    expect(lines.filter((l) => l.includes('"msg":"request"')).length).toBeGreaterThanOrEqual(sent);
    const leaks = [...secrets].flatMap((s) => lines.filter((l) => l.includes(s)).map((l) => `${s.slice(0, 6)}… in ${l.slice(0, 200)}`));
    expect(leaks).toEqual([]);
  });
});

describe('carrier accounts: credentials and carrier tokens', () => {
  it('appear in no log line and no response body (create, patch, test, logs, purchase, address checks; /v1 and admin)', { timeout: 180_000 }, async () => {
    const t = await createTenant(app);
    const root = await superAdminHeaders(app);
    const linesBefore = lines.length;
    const bodies: string[] = [];
    const send = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string>, payload?: unknown) => {
      const res = await app.inject({ method, url, headers, payload: payload as never });
      bodies.push(res.body);
      return res;
    };
    const credentials = {
      ups: { client_id: 'ups-client-id-1', client_secret: CARRIER_SECRETS.ups },
      usps: {
        client_id: 'fake-client-id',
        client_secret: CARRIER_SECRETS.usps,
        crid: '56982563',
        mid: '904128936',
        manifest_mid: '904128937',
        payment_account_number: CARRIER_SECRETS.uspsPayment,
        payment_account_type: 'EPS',
      },
      fedex: { api_key: 'fake-api-key', secret_key: CARRIER_SECRETS.fedex },
      dhl_express: { api_key: 'fake-api-key', api_secret: CARRIER_SECRETS.dhl },
    };
    const fakes = { ups, usps, fedex, dhl_express: dhl };
    const accounts: Record<string, string> = {};
    // Created on /v1 (UPS with a wrong client id first, then patched to the right credentials) and on the admin surface.
    for (const carrier of ['ups', 'usps', 'fedex', 'dhl_express'] as const) {
      const viaAdmin = carrier === 'fedex' || carrier === 'dhl_express';
      const payload = {
        carrier,
        driver: 'api',
        account_number: carrier === 'ups' ? 'A1B2C3' : '740561073',
        base_url: fakes[carrier].url,
        credentials: credentials[carrier],
      };
      const res = await send('POST', viaAdmin ? '/api/admin/carrier-accounts' : '/v1/carrier-accounts', viaAdmin ? t.adminHeaders : t.headers, payload);
      expect(res.statusCode, res.body).toBe(201);
      accounts[carrier] = res.json().id;
    }
    expect(
      (
        await send('PATCH', `/v1/carrier-accounts/${accounts.ups}`, t.headers, {
          credentials: { ...credentials.ups, client_id: 'fake-client-id' },
          is_default: true,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await send('PATCH', `/api/admin/carrier-accounts/${accounts.fedex}`, t.adminHeaders, { credentials: credentials.fedex, description: 'FedEx' }))
        .statusCode,
    ).toBe(200);
    // A refused create and a refused patch echo nothing they were sent.
    expect(
      (
        await send('POST', '/v1/carrier-accounts', t.headers, {
          carrier: 'ups',
          driver: 'api',
          credentials: { client_secret: CARRIER_SECRETS.ups, extra: CARRIER_SECRETS.ups },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await send('PATCH', `/v1/carrier-accounts/${accounts.usps}`, t.headers, { credentials: { ...credentials.usps, payment_account_type: 'PERMIT' } }))
        .statusCode,
    ).toBe(400);
    for (const id of Object.values(accounts)) {
      expect((await send('POST', `/v1/carrier-accounts/${id}/test`, t.headers)).json().health.status).toBe('ok');
      await send('POST', `/api/admin/carrier-accounts/${id}/test`, t.adminHeaders);
    }

    // The purchase path with an api account (UPS and USPS, the latter with its payment authorization), a void, an address check.
    const shipFrom = {
      name: 'Warehouse',
      company: 'Acme',
      street1: '350 5th Ave',
      city: 'New York',
      state: 'NY',
      postal_code: '10118',
      country: 'US',
      phone: '2125550100',
    };
    const shipTo = {
      name: 'Ada Lovelace',
      street1: '1 Market St',
      city: 'San Francisco',
      state: 'CA',
      postal_code: '94105',
      country: 'US',
      phone: '4155550100',
    };
    await send('POST', '/v1/rates/query', t.headers, {
      ship_from: shipFrom,
      ship_to: shipTo,
      parcel: { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 },
    });
    for (const [carrier, service] of [
      ['ups', 'ups_ground'],
      ['usps', 'usps_ground_advantage'],
    ] as const) {
      const order = await send('POST', '/v1/orders', t.headers, { ...orderBody(), ship_to: shipTo, ship_from: shipFrom });
      const bought = await send('POST', '/v1/shipments', t.headers, {
        order_id: order.json().id,
        service_code: service,
        carrier_account_id: accounts[carrier],
      });
      expect(bought.statusCode, bought.body).toBe(201);
      expect((await send('POST', `/v1/shipments/${bought.json().id}/void`, t.headers)).statusCode).toBe(200);
    }
    for (const carrier of ['ups', 'fedex'] as const) {
      expect((await send('POST', '/v1/addresses/validate', t.headers, { ...shipTo, carrier_account_id: accounts[carrier] })).statusCode).toBe(200);
    }
    // A token refetched after expiry, and a failing carrier, are logged too.
    ups.expireTokens();
    ups.queue('xav', { status: 503 }, { status: 503 }, { status: 503 });
    await send('POST', '/v1/addresses/validate', t.headers, { ...shipTo, carrier_account_id: accounts.ups });

    // Every view of the accounts: lists, reads, exchange logs, the audit log.
    await send('GET', '/v1/carrier-accounts?limit=100', t.headers);
    await send('GET', '/api/admin/carrier-accounts?limit=100', t.adminHeaders);
    for (const id of Object.values(accounts)) {
      await send('GET', `/v1/carrier-accounts/${id}`, t.headers);
      const logs = await send('GET', `/v1/carrier-accounts/${id}/logs`, t.headers);
      expect(logs.json().data.length).toBeGreaterThan(0);
      await send('GET', `/api/admin/carrier-accounts/${id}/logs`, t.adminHeaders);
    }
    await send('GET', `/api/super-admin/audit-log?limit=100`, root);
    await send('DELETE', `/v1/carrier-accounts/${accounts.dhl_express}`, t.headers);

    // The tokens the carriers issued and we sent back (OAuth bearers, USPS payment authorizations, basic auth).
    const tokens = new Set<string>();
    for (const fake of [ups, usps, fedex, dhl]) {
      for (const r of fake.requests) {
        const auth = /^(?:Bearer|Basic) (.+)$/.exec(String(r.headers.authorization ?? ''))?.[1];
        if (auth) tokens.add(auth);
        const payment = r.headers['x-payment-authorization-token'];
        if (typeof payment === 'string' && payment) tokens.add(payment);
      }
    }
    expect(tokens.size).toBeGreaterThanOrEqual(5);
    expect(lines.length).toBeGreaterThan(linesBefore + 30); // the flow was logged, at trace level
    const secrets = [...Object.values(CARRIER_SECRETS), ...tokens];
    const leaks = secrets.flatMap((secret) => [
      ...lines.filter((l) => l.includes(secret)).map((l) => `${secret.slice(0, 6)}… in log ${l.slice(0, 200)}`),
      ...bodies.filter((b) => b.includes(secret)).map((b) => `${secret.slice(0, 6)}… in body ${b.slice(0, 200)}`),
    ]);
    expect(leaks).toEqual([]);
    for (const fake of [ups, usps, fedex, dhl]) expect(fake.violations).toEqual([]);
  });
});

describe('store connections: credentials, tokens and OAuth codes', () => {
  it('appear in no log line and no response body (connect both ways, activate, webhooks, sync, write-back)', { timeout: 180_000 }, async () => {
    const t = await createTenant(app);
    await app.inject({
      method: 'PATCH',
      url: '/api/admin/workspace',
      headers: t.adminHeaders,
      payload: { origin_address: { name: 'W', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' } },
    });
    const bodies: string[] = [];
    const send = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers = t.adminHeaders) => {
      const res = await app.inject({ method, url, headers, payload: payload as never });
      bodies.push(res.body);
      return res;
    };
    const base = { platform: 'shopify', store_ref: 'secret-shop.myshopify.com', base_url: shopify.url };
    const created = (
      await send('POST', '/api/admin/integrations', {
        ...base,
        name: 'custom app',
        credentials: { access_token: shopify.accessToken, client_secret: shopify.clientSecret },
      })
    ).json();
    await app.services.channelSync.activate({ workspace_id: t.workspaceId, environment: 'test', integration_id: created.id });
    const runs = await app.deps.db.selectFrom('channel_sync_runs').select('id').where('integration_id', '=', created.id).execute();
    for (const { id } of runs) await app.services.channelSync.run({ workspace_id: t.workspaceId, environment: 'test', run_id: id });
    const order = shopify.shop.seedOrder();
    const target = await app.listen({ host: '127.0.0.1', port: 0 });
    await shopify.sendWebhook(`${target}/api/integrations/${created.id}/webhooks`, 'orders/create', shopify.restOrder(order));
    await shopify.sendWebhook(`${target}/api/integrations/${created.id}/webhooks`, 'orders/create', shopify.restOrder(order), { secret: 'wrong-secret-value' });
    const deliveries = await app.deps.db.selectFrom('channel_deliveries').select('id').where('integration_id', '=', created.id).execute();
    for (const { id } of deliveries) await app.services.channelDeliveries.apply({ workspace_id: t.workspaceId, environment: 'test', delivery_id: id });
    const imported = await app.deps.db
      .selectFrom('orders')
      .select('id')
      .where('source', '=', created.id)
      .where('external_id', '=', String(order.id))
      .executeTakeFirstOrThrow();
    const label = (await send('POST', '/v1/shipments', { order_id: imported.id, service_code: 'usps_ground_advantage' }, t.headers)).json();
    const [wb] = await app.deps.db.selectFrom('write_backs').select('id').where('shipment_id', '=', label.id).execute();
    await app.services.channelWriteBacks.attempt({ workspace_id: t.workspaceId, environment: 'test', write_back_id: wb.id });
    await send('POST', `/api/admin/integrations/${created.id}/test`);
    await send('GET', `/api/admin/integrations/${created.id}`);

    shopify.setExpiringTokens(true, 60);
    const pending = (
      await send('POST', '/api/admin/integrations', {
        ...base,
        name: 'oauth',
        credentials: { client_id: shopify.clientId, client_secret: shopify.clientSecret },
      })
    ).json();
    const state = new URL(pending.connection.authorize_url).searchParams.get('state')!;
    const code = shopify.issueCode();
    const query: Record<string, string> = { code, shop: 'secret-shop.myshopify.com', state, timestamp: '1700000000' };
    const { createHmac } = await import('node:crypto');
    query.hmac = createHmac('sha256', shopify.clientSecret)
      .update(
        Object.keys(query)
          .sort()
          .map((k) => `${k}=${query[k]}`)
          .join('&'),
      )
      .digest('hex');
    const callback = await app.inject({ method: 'GET', url: `/api/integrations/oauth/shopify/callback?${new URLSearchParams(query)}` });
    expect(callback.statusCode).toBe(302);
    await send('POST', `/api/admin/integrations/${pending.id}/test`); // refreshes the 60 s token first
    shopify.setExpiringTokens(false);
    const issued = shopify.requests
      .flatMap((r) => (r.fields.includes('oauth') ? [] : [String(r.headers['x-shopify-access-token'] ?? '')]))
      .filter((v) => v.length > 8);
    const secrets = [...new Set([shopify.clientSecret, shopify.accessToken, code, state, ...issued])];
    expect(issued.length).toBeGreaterThan(2);
    const leaks = secrets.flatMap((secret) => [
      ...lines.filter((l) => l.includes(secret)).map((l) => `${secret.slice(0, 6)}… in log: ${l.slice(0, 160)}`),
      ...bodies.filter((b) => b.includes(secret) && secret !== state).map((b) => `${secret.slice(0, 6)}… in a response: ${b.slice(0, 160)}`),
    ]);
    expect(leaks).toEqual([]);
  });
});
