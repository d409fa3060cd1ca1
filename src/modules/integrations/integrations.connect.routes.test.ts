import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { sha256Hex } from '../../platform/crypto.js';

// Connecting a Shopify store (docs/channels.md, §10.5): the two kinds of credentials, what the
// answers show of them, settings, base_url and the refusals. The protocol itself is tested in
// src/channels/shopify against the fake platform.

let app: FastifyInstance;
let strict: FastifyInstance;
let t: Tenant;
let other: Tenant;

beforeAll(async () => {
  const encryptionKey = randomBytes(32).toString('base64');
  app = await buildTestApp({ config: { encryptionKey, channelAllowBaseUrlOverride: true, publicBaseUrl: 'https://ship.example.com' } });
  strict = await buildTestApp({ config: { encryptionKey } });
  t = await createTenant(app);
  other = await createTenant(app);
});

const CUSTOM_APP = { access_token: 'shpat_0123456789abcdefCAFE', client_secret: 'shpss_0123456789abcdefBEEF' };
const OAUTH = { client_id: 'client-id-123', client_secret: 'shpss_0123456789abcdefBEEF' };

async function create(body: Record<string, unknown>, target = app, headers = t.adminHeaders) {
  return target.inject({
    method: 'POST',
    url: '/api/admin/integrations',
    headers,
    payload: { name: 'Acme', platform: 'shopify', store_ref: 'acme.myshopify.com', ...body },
  });
}

describe('connecting a Shopify store', () => {
  it('a custom app is active at once; secrets are masked in every answer and sealed at rest', async () => {
    const res = await create({ credentials: CUSTOM_APP, settings: { notify_customer: true } });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      platform: 'shopify',
      store_ref: 'acme.myshopify.com',
      base_url: null,
      credentials: { access_token: '••••CAFE', client_secret: '••••BEEF' },
      connection: { state: 'active', authorize_url: null, scopes: [] },
      settings: {
        import_statuses: ['paid:unfulfilled', 'paid:partial', 'partially_paid:unfulfilled', 'partially_paid:partial'],
        write_back: true,
        notify_customer: true,
        backfill_days: 14,
        reconcile_interval_minutes: 5,
      },
      sync: { last_webhook_at: null, last_reconciled_at: null, lag_seconds: null },
      health: 'healthy',
    });
    expect(created.connection.connected_at).toEqual(created.created_at);
    expect(created.health_since).toEqual(created.created_at);

    const read = await app.inject({ method: 'GET', url: `/api/admin/integrations/${created.id}`, headers: t.adminHeaders });
    const list = await app.inject({ method: 'GET', url: '/api/admin/integrations?platform=shopify', headers: t.adminHeaders });
    const audit = await app.deps.db.selectFrom('audit_log').select('changes').where('target_id', '=', created.id).execute();
    const row = await app.deps.db.selectFrom('integrations').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    for (const text of [res.body, read.body, list.body, JSON.stringify(audit), JSON.stringify(row.credentials_masked), row.credentials_sealed ?? '']) {
      expect(text).not.toContain(CUSTOM_APP.access_token);
      expect(text).not.toContain(CUSTOM_APP.client_secret);
    }
    expect(read.json().credentials).toEqual(created.credentials);
  });

  it('OAuth waits for authorization with a single-use state bound to the integration', async () => {
    const res = await create({ credentials: OAUTH, store_ref: 'oauth-shop.myshopify.com' });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created.connection).toMatchObject({ state: 'pending_authorization', connected_at: null });
    const url = new URL(created.connection.authorize_url);
    expect(`${url.origin}${url.pathname}`).toBe('https://oauth-shop.myshopify.com/admin/oauth/authorize');
    expect(url.searchParams.get('client_id')).toBe('client-id-123');
    expect(url.searchParams.get('scope')).toBe('read_orders,read_merchant_managed_fulfillment_orders,write_merchant_managed_fulfillment_orders');
    expect(url.searchParams.get('redirect_uri')).toBe('https://ship.example.com/api/integrations/oauth/shopify/callback');
    const state = url.searchParams.get('state')!;
    expect(state.length).toBeGreaterThanOrEqual(16);
    const row = await app.deps.db.selectFrom('integrations').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.oauth_state_hash).toBe(sha256Hex(state));
    expect(created.credentials).toEqual({ client_id: 'client-id-123', client_secret: '••••BEEF' });

    // A base_url moves the install link to that origin.
    const proxied = await create({ credentials: OAUTH, store_ref: 'proxied.myshopify.com', base_url: 'http://127.0.0.1:9/fake' });
    expect(new URL(proxied.json().connection.authorize_url).href.startsWith('http://127.0.0.1:9/fake/admin/oauth/authorize?')).toBe(true);
  });

  it('refuses what a connection cannot be made of, one detail per problem', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ store_ref: undefined, credentials: CUSTOM_APP }, ['store_ref']],
      [{ store_ref: 'https://acme.myshopify.com', credentials: CUSTOM_APP }, ['store_ref']],
      [{ store_ref: 'acme.example.com', credentials: CUSTOM_APP }, ['store_ref']],
      [{}, ['credentials']],
      [{ credentials: { access_token: 'shpat_x' } }, ['credentials.client_secret']],
      [{ credentials: { client_secret: 'x' } }, ['credentials.access_token']],
      [{ credentials: { ...CUSTOM_APP, password: 'x' } }, ['credentials.password']],
      [{ credentials: CUSTOM_APP, token_expires_at: '2030-01-01T00:00:00Z' }, ['token_expires_at']],
      [{ credentials: CUSTOM_APP, base_url: 'ftp://x' }, ['base_url']],
      [{ credentials: CUSTOM_APP, base_url: 'http://user:pw@127.0.0.1/' }, ['base_url']],
      [{ credentials: CUSTOM_APP, settings: { backfill_days: 400 } }, ['settings.backfill_days']],
      [{ credentials: CUSTOM_APP, settings: { colour: 'red' } }, ['settings.colour']],
    ];
    for (const [body, fields] of cases) {
      const res = await create(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      const got = res.json().details.map((d: { field: string }) => d.field);
      for (const f of fields) expect(got, JSON.stringify(body)).toContain(f);
    }
    // Push-intake platforms take none of the connection's fields.
    const custom = await create({ platform: 'custom', store_ref: undefined, settings: { write_back: false } });
    expect(custom.statusCode).toBe(400);
    expect(custom.json().details).toEqual([expect.objectContaining({ field: 'settings' })]);
  });

  it('a WooCommerce site on a loopback or private address only with CHANNEL_ALLOW_BASE_URL_OVERRIDE; a BigCommerce store hash is checked', async () => {
    const tenant = await createTenant(strict);
    const woo = { consumer_key: 'ck_0123456789abcdef', consumer_secret: 'cs_0123456789abcdef' };
    for (const site of ['https://127.0.0.1', 'https://10.1.2.3/shop', 'https://localhost:8443', 'https://[::1]']) {
      const res = await create({ platform: 'woocommerce', store_ref: site, credentials: woo }, strict, tenant.adminHeaders);
      expect(res.statusCode, site).toBe(400);
      expect(res.json().details, site).toEqual([{ field: 'store_ref', message: expect.stringContaining('private, loopback or link-local') }]);
    }
    const allowed = await create({ platform: 'woocommerce', store_ref: 'https://127.0.0.1', credentials: woo });
    expect(allowed.statusCode, allowed.body).toBe(201);
    const publicSite = await create({ platform: 'woocommerce', store_ref: 'shop.example.com/', credentials: woo }, strict, tenant.adminHeaders);
    expect(publicSite.statusCode, publicSite.body).toBe(201);
    expect(publicSite.json()).toMatchObject({
      store_ref: 'https://shop.example.com',
      credentials: { consumer_key: expect.stringMatching(/^••••/), consumer_secret: expect.stringMatching(/^••••/) },
    });
    expect(publicSite.body).not.toContain('webhook_secret');
    const badHash = await create(
      { platform: 'bigcommerce', store_ref: 'not a hash!', credentials: { access_token: 'bc_token_0123456789' } },
      strict,
      tenant.adminHeaders,
    );
    expect(badHash.statusCode).toBe(400);
    expect(badHash.json().details.map((d: { field: string }) => d.field)).toEqual(['store_ref']);
  });

  it('base_url only with CHANNEL_ALLOW_BASE_URL_OVERRIDE', async () => {
    const tenant = await createTenant(strict);
    const res = await create({ credentials: CUSTOM_APP, base_url: 'http://127.0.0.1:9' }, strict, tenant.adminHeaders);
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ field: 'base_url', message: expect.stringContaining('CHANNEL_ALLOW_BASE_URL_OVERRIDE') }]);
  });

  it('PUT merges settings, replaces credentials whole, refuses a platform change; another workspace sees 404', async () => {
    const created = (await create({ credentials: CUSTOM_APP })).json();
    const put = (payload: Record<string, unknown>, headers = t.adminHeaders) =>
      app.inject({ method: 'PUT', url: `/api/admin/integrations/${created.id}`, headers, payload });

    const merged = await put({ settings: { reconcile_interval_minutes: 10 } });
    expect(merged.statusCode, merged.body).toBe(200);
    expect(merged.json().settings).toMatchObject({ reconcile_interval_minutes: 10, write_back: true, backfill_days: 14 });
    expect((await put({ settings: { write_back: false } })).json().settings).toMatchObject({ reconcile_interval_minutes: 10, write_back: false });

    const replaced = await put({ credentials: { access_token: 'shpat_replacement_token_9999', client_secret: 'shpss_replacement_secret_7777' } });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().credentials).toEqual({ access_token: '••••9999', client_secret: '••••7777' });
    expect(replaced.body).not.toContain('shpat_replacement_token_9999');

    const toOAuth = await put({ credentials: OAUTH });
    expect(toOAuth.json().connection.state).toBe('pending_authorization');

    expect((await put({ platform: 'custom' })).json().details).toEqual([expect.objectContaining({ field: 'platform' })]);
    expect((await put({ credentials: { access_token: 'x' } })).statusCode).toBe(400);
    expect((await put({ name: 'Theirs' }, other.adminHeaders)).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/admin/integrations/${created.id}`, headers: other.adminHeaders })).statusCode).toBe(404);
  });
});
