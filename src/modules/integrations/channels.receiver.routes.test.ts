import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { startFakeShopify, type FakeShopify } from '../../../test/helpers/fake-shopify/index.js';

// The webhook receiver (docs/channels.md, §10.5) over a real socket: deliveries signed exactly
// as Shopify signs them, by the fake platform; duplicates, reordering, forgeries, an uninstall.

let app: FastifyInstance;
let fake: FakeShopify;
let t: Tenant;
let base: string;
let integrationId: string;

beforeAll(async () => {
  fake = await startFakeShopify({ shopDomain: 'acme.myshopify.com', clientSecret: 'shpss_receiver_test_secret' });
  app = await buildTestApp({ config: { encryptionKey: randomBytes(32).toString('base64'), channelAllowBaseUrlOverride: true } });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
  t = await createTenant(app);
  const res = await app.inject({
    method: 'POST',
    url: '/api/admin/integrations',
    headers: t.adminHeaders,
    payload: {
      name: 'Acme',
      platform: 'shopify',
      store_ref: 'acme.myshopify.com',
      base_url: fake.url,
      credentials: { access_token: fake.accessToken, client_secret: fake.clientSecret },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  integrationId = res.json().id;
});

afterAll(async () => {
  await fake.close();
});

const target = () => `${base}/api/integrations/${integrationId}/webhooks`;

/** Applies what the receiver stored, as the job would (each delivery once, in arrival order). */
async function drain() {
  const pending = await app.deps.db
    .selectFrom('channel_deliveries')
    .select('id')
    .where('integration_id', '=', integrationId)
    .where('status', '=', 'pending')
    .orderBy('received_at')
    .orderBy('id')
    .execute();
  for (const { id } of pending) await app.services.channelDeliveries.apply({ workspace_id: t.workspaceId, environment: 'test', delivery_id: id });
}

const ordersOf = async (externalId: string) =>
  (await app.inject({ method: 'GET', url: `/v1/orders?source=${integrationId}&external_id=${externalId}`, headers: t.headers })).json().data;

const history = (externalId: string) =>
  app.deps.db
    .selectFrom('order_sync_entries')
    .select(['decision', 'source'])
    .where('integration_id', '=', integrationId)
    .where('external_id', '=', externalId)
    .orderBy('id')
    .execute();

describe('the webhook receiver', () => {
  it('stores a signed delivery once, answers at once, and the job imports the order', async () => {
    const order = fake.shop.seedOrder({ lines: [{ sku: 'MUG-1', title: 'Mug', quantity: 2, grams: 340 }] });
    const first = await fake.sendWebhook(target(), 'orders/create', fake.restOrder(order), { webhookId: 'delivery-1' });
    expect(first.status, first.responseBody).toBe(200);
    expect(JSON.parse(first.responseBody)).toEqual({ received: true, duplicate: false });
    const again = await fake.sendWebhook(target(), 'orders/create', fake.restOrder(order), { webhookId: 'delivery-1' });
    expect(JSON.parse(again.responseBody)).toEqual({ received: true, duplicate: true });

    await drain();
    const [imported, ...rest] = await ordersOf(String(order.id));
    expect(rest).toEqual([]);
    expect(imported).toMatchObject({ external_id: String(order.id), external_number: order.name, source: integrationId, status: 'awaiting_fulfillment' });
    expect(imported.line_items).toMatchObject([{ sku: 'MUG-1', quantity: 2, external_line_id: String(order.lines[0].id) }]);
    expect((await history(String(order.id))).map((e) => e.decision)).toEqual(['duplicate', 'created']);

    const read = await app.inject({ method: 'GET', url: `/api/admin/integrations/${integrationId}`, headers: t.adminHeaders });
    expect(read.json().sync.last_webhook_at).not.toBeNull();
  });

  it('late and reordered deliveries change nothing; a cancellation arrives as one more version', async () => {
    const order = fake.shop.seedOrder();
    const v1 = fake.restOrder(order);
    fake.shop.editOrder(order.id, (o) => {
      o.shippingAddress = { ...o.shippingAddress!, address1: '200 Peachtree Pkwy' };
    });
    const v2 = fake.restOrder(order);
    await fake.sendWebhook(target(), 'orders/updated', v2);
    await fake.sendWebhook(target(), 'orders/create', v1);
    await drain();
    const [imported] = await ordersOf(String(order.id));
    expect(imported.ship_to.street1).toBe('200 Peachtree Pkwy');
    fake.shop.cancelOrder(order.id);
    await fake.sendWebhook(target(), 'orders/cancelled', fake.restOrder(order));
    await drain();
    expect((await ordersOf(String(order.id)))[0].status).toBe('cancelled');
    expect((await history(String(order.id))).map((e) => e.decision)).toEqual(['created', 'stale', 'updated']);
  });

  it('refuses forgeries, other shops, unknown integrations and oversized bodies, storing nothing', async () => {
    const order = fake.shop.seedOrder();
    const body = fake.restOrder(order);
    const forged = await fake.sendWebhook(target(), 'orders/create', body, { secret: 'not-the-secret' });
    const otherShop = await fake.sendWebhook(target(), 'orders/create', body, { shopDomain: 'evil.myshopify.com' });
    const unknown = await fake.sendWebhook(`${base}/api/integrations/int_01jx0000000000000000000000/webhooks`, 'orders/create', body);
    for (const d of [forged, otherShop, unknown]) {
      expect(d.status).toBe(401);
      expect(JSON.parse(d.responseBody)).toMatchObject({ code: 'invalid_signature', details: [] });
    }
    const unsigned = await fetch(target(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(unsigned.status).toBe(401);
    const huge = await fetch(target(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(huge.status).toBe(413);
    expect((await huge.json()).code).toBe('payload_too_large');
    await drain();
    expect(await ordersOf(String(order.id))).toEqual([]);
  });

  it('an uninstall marks the token expired and the connection disconnected, announced once', async () => {
    const [delivery] = await fake.uninstall(target());
    expect(delivery.status).toBe(200);
    await drain();
    const read = (await app.inject({ method: 'GET', url: `/api/admin/integrations/${integrationId}`, headers: t.adminHeaders })).json();
    expect(read).toMatchObject({ health: 'token_expired', health_reason: 'app_uninstalled', connection: { state: 'disconnected' } });
    const events = await app.deps.db
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'integration.health_changed')
      .where('workspace_id', '=', t.workspaceId)
      .execute();
    expect(events.map((e) => (e.data as { reason: string }).reason)).toEqual(['app_uninstalled']);
  });

  it('five bad signatures within ten minutes degrade a healthy connection, announced once', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/integrations',
      headers: t.adminHeaders,
      payload: {
        name: 'Probed',
        platform: 'shopify',
        store_ref: 'acme.myshopify.com',
        base_url: fake.url,
        credentials: { access_token: fake.accessToken, client_secret: fake.clientSecret },
      },
    });
    const probed = res.json().id as string;
    const body = fake.restOrder(fake.shop.seedOrder());
    for (let i = 0; i < 4; i++)
      expect((await fake.sendWebhook(`${base}/api/integrations/${probed}/webhooks`, 'orders/create', body, { secret: `wrong-${i}` })).status).toBe(401);
    const read = async () => (await app.inject({ method: 'GET', url: `/api/admin/integrations/${probed}`, headers: t.adminHeaders })).json();
    expect((await read()).health).toBe('healthy');
    for (let i = 4; i < 7; i++) await fake.sendWebhook(`${base}/api/integrations/${probed}/webhooks`, 'orders/create', body, { secret: `wrong-${i}` });
    expect(await read()).toMatchObject({ health: 'degraded', health_reason: '5 webhook deliveries with a missing or bad signature within 10 minutes' });
    const events = await app.deps.db
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'integration.health_changed')
      .where('workspace_id', '=', t.workspaceId)
      .execute();
    expect(events.filter((e) => (e.data as { integration_id: string }).integration_id === probed).map((e) => (e.data as { health: string }).health)).toEqual([
      'degraded',
    ]);
  });
});
