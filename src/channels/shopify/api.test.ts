import { describe, expect, it } from 'vitest';
import { rejection, useChannelApiTest } from '../../../test/helpers/channel-api.js';
import { startFakeShopify } from '../../../test/helpers/fake-shopify/index.js';
import { getChannelPlatform } from '../registry.js';
import { ChannelError, type ChannelConnection, type ChannelOrder } from '../types.js';
import type { ShopifyChannel } from './client.js';

const api = useChannelApiTest({
  startFake: (clock) => startFakeShopify({ clock }),
  createChannel: (http) => getChannelPlatform('shopify')!.createChannel(http) as ShopifyChannel,
  /** One clock for the client and the fake: a wait the client sleeps refills the fake's bucket. */
  startAt: Date.now(),
  secrets: (fake) => [fake.accessToken, fake.clientSecret, /shpat_[0-9a-f]{32}|shprt_[0-9a-f]{32}/],
});
const { sleeps, exchanges, outcomes } = api;
let seq = 0;

const conn = (over: Partial<ChannelConnection> = {}): ChannelConnection => ({
  integrationId: `int_test${++seq}`,
  storeRef: api.fake.shopDomain,
  origin: api.fake.url,
  credentials: { access_token: api.fake.accessToken, client_secret: api.fake.clientSecret },
  ...over,
});

const tracking = (number: string) => ({ company: 'UPS', number, url: `https://www.ups.com/track?tracknum=${number}`, carrier: 'ups', service: 'UPS Ground' });

describe('the fake Shopify checks what it is sent', () => {
  it('records a document the schema refuses (it is not a rubber stamp)', async () => {
    const res = await fetch(`${api.fake.url}/admin/api/2026-07/graphql.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shopify-access-token': api.fake.accessToken },
      body: JSON.stringify({ query: '{ orders(first: 1) { nodes { id totalPrice fulfillmentStatus } } }' }),
    });
    const body = (await res.json()) as { errors: { message: string }[] };
    expect(body.errors.map((e) => e.message).join('\n')).toMatch(/totalPrice|fulfillmentStatus/);
    // A deprecated field is refused too: the channel must not lean on what Shopify is removing.
    await fetch(`${api.fake.url}/admin/api/2026-07/graphql.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shopify-access-token': api.fake.accessToken },
      body: JSON.stringify({ query: '{ orders(first: 1) { nodes { lineItems(first: 1) { nodes { fulfillableQuantity } } } } }' }),
    });
    expect(api.fake.violations.join('\n')).toMatch(/fulfillableQuantity.*deprecated/);
    api.fake.violations.length = 0;
  });
});

describe('connection and webhook subscriptions', () => {
  it('tests the connection: shop name and granted scopes', async () => {
    const result = await api.channel.testConnection(conn());
    expect(result).toEqual({
      shopName: 'Fake Goods',
      scopes: ['read_orders', 'read_merchant_managed_fulfillment_orders', 'write_merchant_managed_fulfillment_orders'],
    });
    expect(outcomes).toEqual([{ operation: 'connection_test', outcome: 'success' }]);
    expect(api.fake.requests[0].headers['x-shopify-access-token']).toBe(api.fake.accessToken);
  });

  it('creates, lists and deletes subscriptions; deleting one already gone is fine', async () => {
    const c = conn();
    const platform = getChannelPlatform('shopify')!;
    const made = [];
    for (const topic of platform.webhookTopics) made.push(await api.channel.createWebhookSubscription(c, topic, api.receiverUrl));
    expect(made.map((m) => m.topic)).toEqual(['ORDERS_CREATE', 'ORDERS_UPDATED', 'ORDERS_CANCELLED', 'APP_UNINSTALLED']);
    const listed = await api.channel.listWebhookSubscriptions(c);
    expect(listed).toEqual(expect.arrayContaining(made));
    const dup = await rejection(api.channel.createWebhookSubscription(c, 'ORDERS_CREATE', api.receiverUrl));
    expect(dup.kind).toBe('rejected');
    expect(dup.messages.join()).toMatch(/already been taken/);
    for (const m of made) await api.channel.deleteWebhookSubscription(c, m.id);
    await api.channel.deleteWebhookSubscription(c, made[0].id);
    expect(await api.channel.listWebhookSubscriptions(c)).toEqual([]);
  });
});

describe('orders in', () => {
  it('pages through the orders updated since an instant, oldest update first', async () => {
    const start = api.clock;
    api.clock += 60_000;
    const old = api.fake.shop.seedOrder({ updatedAt: new Date(start - 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z') });
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) ids.push(String(api.fake.shop.seedOrder().id));
    // An edit moves an order to the end of the updated_at order.
    api.fake.shop.editOrder(ids[0], (o) => (o.email = 'new@example.com'));
    const c = conn();
    const seen: ChannelOrder[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { orders: ChannelOrder[]; nextCursor: string | null } = await api.channel.listOrdersUpdatedSince(
        c,
        new Date(start).toISOString(),
        cursor,
        10,
      );
      seen.push(...page.orders);
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    const mine = seen.filter((o) => ids.includes(o.external_id));
    expect(mine.map((o) => o.external_id)).toEqual([...ids.slice(1), ids[0]]);
    expect(seen.some((o) => o.external_id === String(old.id))).toBe(false);
    const versions = seen.map((o) => o.version);
    expect([...versions].sort()).toEqual(versions);
    expect(mine.at(-1)!.customer.email).toBe('new@example.com');
  });

  it('reads every line of an order with more lines than a listing holds', async () => {
    const since = new Date(api.clock).toISOString();
    api.clock += 1000;
    const big = api.fake.shop.seedOrder({ lines: Array.from({ length: 57 }, (_, i) => ({ sku: `L${i}`, grams: 100 })) });
    const page = await api.channel.listOrdersUpdatedSince(conn(), since, null, 10);
    const order = page.orders.find((o) => o.external_id === String(big.id))!;
    expect(order.line_items).toHaveLength(57);
    expect(order.line_items.map((l) => l.sku)).toEqual(Array.from({ length: 57 }, (_, i) => `L${i}`));
  });

  it('fetches one order; an unknown one is null', async () => {
    const o = api.fake.shop.seedOrder({
      name: '#2001',
      lines: [{ sku: 'A', quantity: 3, price: '4.10', grams: 1000 }],
      shippingLine: { code: 'ups_ground', title: 'UPS Ground' },
    });
    const order = (await api.channel.fetchOrder(conn(), String(o.id)))!;
    expect(order).toMatchObject({
      external_id: String(o.id),
      external_number: '#2001',
      platform_status: 'paid:unfulfilled',
      line_items: [{ external_line_id: String(o.lines[0].id), sku: 'A', quantity: 3, unit_price: { amount: 410, currency: 'USD' }, weight_oz: 35.274 }],
      shipping_line: { code: 'ups_ground', title: 'UPS Ground' },
      ship_to: { name: 'Pat Buyer', state: 'GA', country: 'US', postal_code: '30005' },
    });
    expect(await api.channel.fetchOrder(conn(), '999')).toBeNull();
    expect((await rejection(api.channel.fetchOrder(conn(), 'gid://shopify/Order/1'))).kind).toBe('not_found');
  });

  it('verifies and reads webhooks exactly as Shopify sends them, the same order as the API reads', async () => {
    const c = conn();
    await api.channel.createWebhookSubscription(c, 'ORDERS_UPDATED', api.receiverUrl);
    const o = api.fake.shop.seedOrder();
    api.fake.shop.editOrder(o.id, (x) => (x.phone = '+14045550199'));
    await api.fake.emit('ORDERS_UPDATED', o.id);
    expect(api.received).toHaveLength(1);
    const delivery = api.received[0];
    const verified = api.channel.verifyWebhook({
      headers: delivery.headers,
      rawBody: delivery.raw,
      secret: api.fake.clientSecret,
      storeRef: api.fake.shopDomain,
    });
    expect(verified).toMatchObject({ ok: true, topic: 'orders/updated', storeRef: api.fake.shopDomain, apiVersion: '2026-07' });
    if (!verified.ok) throw new Error('unreachable');
    const fromWebhook = api.channel.parseWebhookOrder(verified.topic, JSON.parse(delivery.raw.toString())) as ChannelOrder;
    const fromApi = (await api.channel.fetchOrder(c, String(o.id)))!;
    expect(fromWebhook.raw_updated_at).toMatch(/-05:00$/);
    expect({ ...fromWebhook, raw_updated_at: null }).toEqual({ ...fromApi, raw_updated_at: null });
    // Another secret or another shop: refused.
    expect(api.channel.verifyWebhook({ headers: delivery.headers, rawBody: delivery.raw, secret: 'other', storeRef: api.fake.shopDomain })).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    expect(
      api.channel.verifyWebhook({ headers: delivery.headers, rawBody: delivery.raw, secret: api.fake.clientSecret, storeRef: 'other.myshopify.com' }),
    ).toEqual({
      ok: false,
      reason: 'wrong_store',
    });
    expect((await rejection(Promise.resolve().then(() => api.channel.parseWebhookOrder('products/update', {})))).kind).toBe('rejected');
    expect(() => api.channel.parseWebhookOrder('orders/create', { nope: true })).toThrow(ChannelError);
  });

  it('reads an uninstall, after which the token is refused (401 → unauthorized)', async () => {
    const c = conn();
    await api.channel.createWebhookSubscription(c, 'APP_UNINSTALLED', api.receiverUrl);
    await api.fake.uninstall();
    const delivery = api.received[0];
    const verified = api.channel.verifyWebhook({
      headers: delivery.headers,
      rawBody: delivery.raw,
      secret: api.fake.clientSecret,
      storeRef: api.fake.shopDomain,
    });
    if (!verified.ok) throw new Error(`refused: ${verified.reason}`);
    expect(api.channel.parseWebhookOrder(verified.topic, JSON.parse(delivery.raw.toString()))).toEqual({ kind: 'uninstalled' });
    const err = await rejection(api.channel.testConnection(c));
    expect(err).toMatchObject({ kind: 'unauthorized', platformStatus: '401', retryable: false });
    expect(outcomes.at(-1)).toEqual({ operation: 'connection_test', outcome: 'unauthorized' });
  });
});

describe('tracking back: fulfill', () => {
  it('fulfils an order with tracking; a second attempt finds it and writes nothing', async () => {
    const o = api.fake.shop.seedOrder({ lines: [{ quantity: 2 }, {}] });
    const c = conn();
    const first = await api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZA1'), notifyCustomer: true });
    expect(first).toEqual({ outcome: 'created', refs: [expect.stringMatching(/^gid:\/\/shopify\/Fulfillment\/\d+$/)] });
    expect(api.fake.count('fulfillmentCreate')).toBe(1);
    expect(o.fulfillments[0]).toMatchObject({
      notifyCustomer: true,
      tracking: [{ company: 'UPS', number: '1ZA1', url: 'https://www.ups.com/track?tracknum=1ZA1' }],
    });
    expect(api.fake.shop.displayFulfillmentStatus(o)).toBe('FULFILLED');
    const again = await api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZA1'), notifyCustomer: true });
    expect(again).toEqual({ outcome: 'already_fulfilled', refs: (first as { refs: string[] }).refs });
    expect(api.fake.count('fulfillmentCreate')).toBe(1);
    // The order read back carries the fulfillment (what the apply step recognises as our echo).
    const read = (await api.channel.fetchOrder(c, String(o.id)))!;
    expect(read.platform_status).toBe('paid:fulfilled');
    expect(read.fulfillments).toEqual([{ id: (first as { refs: string[] }).refs[0], status: 'success', tracking_numbers: ['1ZA1'] }]);
  });

  it('splits an order held at two locations into one fulfillmentCreate per location', async () => {
    const o = api.fake.shop.seedOrder({ lines: [{ location: 0 }, { location: 1 }, { location: 1 }] });
    const result = await api.channel.fulfill(conn(), { externalOrderId: String(o.id), tracking: tracking('1ZB2'), notifyCustomer: false });
    expect(result.outcome).toBe('created');
    expect((result as { refs: string[] }).refs).toHaveLength(2);
    expect(api.fake.count('fulfillmentCreate')).toBe(2);
    expect(o.fulfillmentOrders.map((fo) => fo.status)).toEqual(['CLOSED', 'CLOSED']);
  });

  it('ships only the lines asked for', async () => {
    const o = api.fake.shop.seedOrder({ lines: [{ quantity: 3 }, { quantity: 1 }] });
    const result = await api.channel.fulfill(conn(), {
      externalOrderId: String(o.id),
      lines: [{ external_line_id: String(o.lines[0].id), quantity: 2 }],
      tracking: tracking('1ZC3'),
      notifyCustomer: false,
    });
    expect(result.outcome).toBe('created');
    expect(o.fulfillmentOrders[0].lines.map((l) => l.remaining)).toEqual([1, 1]);
    expect(api.fake.shop.displayFulfillmentStatus(o)).toBe('PARTIALLY_FULFILLED');
  });

  it('a held order is on_hold and a cancelled one closed, with nothing written', async () => {
    const held = api.fake.shop.seedOrder({ onHold: true });
    expect(await api.channel.fulfill(conn(), { externalOrderId: String(held.id), tracking: tracking('1ZD4'), notifyCustomer: false })).toMatchObject({
      outcome: 'on_hold',
    });
    const cancelled = api.fake.shop.seedOrder();
    api.fake.shop.cancelOrder(cancelled.id);
    expect(await api.channel.fulfill(conn(), { externalOrderId: String(cancelled.id), tracking: tracking('1ZD5'), notifyCustomer: false })).toMatchObject({
      outcome: 'closed',
    });
    expect(api.fake.count('fulfillmentCreate')).toBe(0);
    expect((await rejection(api.channel.fulfill(conn(), { externalOrderId: '424242', tracking: tracking('1ZD6'), notifyCustomer: false }))).kind).toBe(
      'not_found',
    );
  });

  it('an answer lost after Shopify applied the fulfillment: no retry, and the next attempt finds it', async () => {
    const o = api.fake.shop.seedOrder();
    const c = conn();
    api.fake.fail('fulfillmentCreate', { kind: 'drop_after_apply' });
    const err = await rejection(api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZE5'), notifyCustomer: false }));
    expect(err.kind).toBe('network');
    expect(err.retryable).toBe(true);
    expect(api.fake.count('fulfillmentCreate')).toBe(1);
    expect(o.fulfillments).toHaveLength(1);
    const retry = await api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZE5'), notifyCustomer: false });
    expect(retry).toEqual({ outcome: 'already_fulfilled', refs: [`gid://shopify/Fulfillment/${o.fulfillments[0].id}`] });
    expect(api.fake.count('fulfillmentCreate')).toBe(1);
    expect(o.fulfillments).toHaveLength(1);
  });

  it('with lines, a second attempt after success writes nothing (the rest of a line is not ours)', async () => {
    const o = api.fake.shop.seedOrder({ lines: [{ quantity: 3 }] });
    const request = {
      externalOrderId: String(o.id),
      lines: [{ external_line_id: String(o.lines[0].id), quantity: 2 }],
      tracking: tracking('1ZE6'),
      notifyCustomer: false,
    };
    const first = await api.channel.fulfill(conn(), request);
    expect(first.outcome).toBe('created');
    expect(await api.channel.fulfill(conn(), request)).toEqual({ outcome: 'already_fulfilled', refs: (first as { refs: string[] }).refs });
    expect(o.fulfillmentOrders[0].lines[0].remaining).toBe(1);
    expect(api.fake.count('fulfillmentCreate')).toBe(1);
  });

  it('without lines, a retry after reaching one location of two fulfils the other only', async () => {
    const o = api.fake.shop.seedOrder({ lines: [{ location: 0 }, { location: 1 }] });
    const c = conn();
    api.fake.fail('fulfillmentCreate', { kind: 'none' }, { kind: 'status', status: 503 });
    expect((await rejection(api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZE7'), notifyCustomer: false }))).kind).toBe(
      'server_error',
    );
    expect(o.fulfillments).toHaveLength(1);
    const retry = await api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZE7'), notifyCustomer: false });
    expect(retry).toEqual({ outcome: 'created', refs: o.fulfillments.map((f) => `gid://shopify/Fulfillment/${f.id}`) });
    expect(o.fulfillments).toHaveLength(2);
    expect(api.fake.count('fulfillmentCreate')).toBe(3);
  });

  it('a 5xx is retried for reads, never for fulfillmentCreate', async () => {
    const o = api.fake.shop.seedOrder();
    const c = conn();
    api.fake.fail('order', { kind: 'status', status: 503, headers: { 'retry-after': '2' } });
    api.fake.fail('fulfillmentCreate', { kind: 'status', status: 502 });
    const err = await rejection(api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZF6'), notifyCustomer: false }));
    expect(err).toMatchObject({ kind: 'server_error', platformStatus: '502' });
    expect(api.fake.count('fulfillmentCreate')).toBe(1);
    // The read before it was answered 503 once, waited the 2 s Shopify asked for, and sent again.
    expect(sleeps).toContain(2000);
    expect(outcomes.filter((x) => x.outcome === 'server_error').map((x) => x.operation)).toEqual(['fulfillments_read', 'fulfillment_create']);
  });

  it("userErrors are a rejection with Shopify's messages", async () => {
    const o = api.fake.shop.seedOrder();
    api.fake.fail('fulfillmentCreate', { kind: 'user_errors', errors: [{ field: ['fulfillment', 'trackingInfo'], message: 'Tracking number is not valid' }] });
    const err = await rejection(api.channel.fulfill(conn(), { externalOrderId: String(o.id), tracking: tracking('1ZG7'), notifyCustomer: false }));
    expect(err).toMatchObject({ kind: 'rejected', platformStatus: 'userErrors', retryable: false });
    expect(err.messages).toEqual(['fulfillment.trackingInfo: Tracking number is not valid']);
  });

  it('cancels a fulfillment (twice is fine) and the lines are open again', async () => {
    const o = api.fake.shop.seedOrder();
    const c = conn();
    const made = (await api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZH8'), notifyCustomer: false })) as { refs: string[] };
    await api.channel.cancelFulfillment(c, { ref: made.refs[0], externalOrderId: '1', trackingNumber: '1Z' });
    await api.channel.cancelFulfillment(c, { ref: made.refs[0], externalOrderId: '1', trackingNumber: '1Z' });
    expect(o.fulfillments[0].status).toBe('CANCELLED');
    expect(o.fulfillmentOrders[0].status).toBe('OPEN');
    expect((await rejection(api.channel.cancelFulfillment(c, { ref: 'gid://shopify/Fulfillment/1', externalOrderId: '1', trackingNumber: '1Z' }))).kind).toBe(
      'rejected',
    );
    // A cancelled fulfillment does not count as written: a new attempt fulfils again.
    expect((await api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZH8'), notifyCustomer: false })).outcome).toBe('created');
  });
});

describe('limits and failures', () => {
  it('THROTTLED is waited out for the restore time, then sent again', async () => {
    api.fake.shop.seedOrder();
    api.fake.fail('orders', { kind: 'throttled' });
    const page = await api.channel.listOrdersUpdatedSince(conn(), '2000-01-01T00:00:00Z', null, 10);
    expect(page.orders.length).toBeGreaterThan(0);
    expect(api.fake.count('orders')).toBe(2);
    expect(sleeps.length).toBeGreaterThan(0);
    expect(sleeps[0]).toBeGreaterThan(0);
    expect(outcomes.map((o) => o.outcome)).toEqual(['throttled', 'success']);
  });

  it('waits before a query the bucket cannot cover instead of being throttled', async () => {
    api.fake.shop.seedOrder();
    const c = conn();
    api.fake.setBucket(900, 50);
    await api.channel.listOrdersUpdatedSince(c, '2000-01-01T00:00:00Z', null, 10);
    expect(sleeps).toEqual([]);
    await api.channel.listOrdersUpdatedSince(c, '2000-01-01T00:00:00Z', null, 10);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(10_000);
    expect(outcomes.map((o) => o.outcome)).toEqual(['success', 'success']);
  });

  it('a throttle longer than the deadline is ChannelError throttled with retryAfterMs from the bucket', async () => {
    api.fake.setBucket(5, 1);
    const err = await rejection(api.channel.testConnection(conn()).then(() => api.channel.listOrdersUpdatedSince(conn(), '2000-01-01T00:00:00Z', null, 10)));
    expect(err).toMatchObject({ kind: 'throttled', platformStatus: 'THROTTLED', retryable: true });
    // (requested − available) / restore rate: hundreds of seconds at 1 point a second.
    expect(err.retryAfterMs).toBeGreaterThan(100_000);
  });

  it('a hanging Shopify ends at the deadline as a timeout', async () => {
    api.fake.fail('shop', { kind: 'hang' });
    const err = await rejection(api.channel.testConnection(conn(), { timeoutMs: 300 }));
    expect(err.kind).toBe('timeout');
    expect(outcomes).toEqual([{ operation: 'connection_test', outcome: 'timeout' }]);
  });

  it('a connection without a token, or with a revoked one, is unauthorized', async () => {
    expect((await rejection(api.channel.testConnection(conn({ credentials: {} })))).kind).toBe('unauthorized');
    expect((await rejection(api.channel.testConnection(conn({ credentials: { access_token: 'shpat_revoked' } })))).kind).toBe('unauthorized');
  });
});

describe('OAuth', () => {
  it('exchanges a code for a token that works', async () => {
    const c = conn({ credentials: { client_id: api.fake.clientId, client_secret: api.fake.clientSecret } });
    const code = api.fake.issueCode();
    const tokens = await api.channel.exchangeCode!(c, { clientId: api.fake.clientId, clientSecret: api.fake.clientSecret, code });
    expect(tokens).toEqual({
      accessToken: expect.stringMatching(/^shpat_/),
      scopes: ['read_orders', 'read_merchant_managed_fulfillment_orders', 'write_merchant_managed_fulfillment_orders'],
    });
    expect((await api.channel.testConnection({ ...c, credentials: { access_token: tokens.accessToken } })).shopName).toBe('Fake Goods');
    // A code is single-use: the second exchange is refused.
    const again = await rejection(api.channel.exchangeCode!(c, { clientId: api.fake.clientId, clientSecret: api.fake.clientSecret, code }));
    expect(again).toMatchObject({ kind: 'unauthorized', platformStatus: '400' });
    const log = JSON.stringify(exchanges);
    expect(log).not.toContain(code);
    expect(log).not.toContain(tokens.accessToken);
    expect(exchanges[0].request_body).toEqual({ client_id: api.fake.clientId, client_secret: '[REDACTED]', code: '[REDACTED]' });
  });

  it('expiring tokens come with a refresh token, which rotates', async () => {
    api.fake.setExpiringTokens(true, 3600);
    try {
      const c = conn();
      const tokens = await api.channel.exchangeCode!(c, { clientId: api.fake.clientId, clientSecret: api.fake.clientSecret, code: api.fake.issueCode() });
      expect(tokens.expiresAt).toBe(new Date(api.clock + 3600_000).toISOString());
      expect(tokens.refreshToken).toMatch(/^shprt_/);
      const fresh = await api.channel.refreshToken!(c, {
        clientId: api.fake.clientId,
        clientSecret: api.fake.clientSecret,
        refreshToken: tokens.refreshToken!,
      });
      expect(fresh.accessToken).not.toBe(tokens.accessToken);
      expect(fresh.refreshToken).not.toBe(tokens.refreshToken);
      expect((await api.channel.testConnection({ ...c, credentials: { access_token: fresh.accessToken } })).scopes).toContain('read_orders');
      const reused = await rejection(
        api.channel.refreshToken!(c, { clientId: api.fake.clientId, clientSecret: api.fake.clientSecret, refreshToken: tokens.refreshToken! }),
      );
      expect(reused.kind).toBe('unauthorized');
      expect(exchanges.find((e) => e.operation === 'oauth_refresh')!.request_body).toMatchObject({ grant_type: 'refresh_token', refresh_token: '[REDACTED]' });
      expect(JSON.stringify(exchanges)).not.toContain(tokens.refreshToken!);
    } finally {
      api.fake.setExpiringTokens(false);
    }
  });

  it('builds the authorize URL and checks the callback hmac', () => {
    const url = getChannelPlatform('shopify')!.authorizeUrl!({
      origin: api.fake.url,
      clientId: api.fake.clientId,
      scopes: getChannelPlatform('shopify')!.oauthScopes,
      redirectUri: 'https://ship.example/cb',
      state: 's'.repeat(16),
    });
    expect(url).toContain(`${api.fake.url}/admin/oauth/authorize?client_id=${api.fake.clientId}&scope=read_orders%2C`);
    expect(api.channel.verifyOAuthHmac!({ shop: api.fake.shopDomain, code: 'c', hmac: '00' }, api.fake.clientSecret)).toBe(false);
  });
});

describe('the exchange log', () => {
  it('logs each call by operation with the token header masked and no GraphQL document', async () => {
    const o = api.fake.shop.seedOrder();
    await api.channel.fulfill(conn(), { externalOrderId: String(o.id), tracking: tracking('1ZJ9'), notifyCustomer: false });
    expect(exchanges.map((e) => e.operation)).toEqual(['fulfillments_read', 'fulfillment_orders_read', 'fulfillment_create']);
    for (const e of exchanges) {
      expect(e).toMatchObject({ platform: 'shopify', method: 'POST', path: '/admin/api/2026-07/graphql.json', status: 200, error: null });
      expect(e.request_headers['x-shopify-access-token']).toBe('[REDACTED]');
    }
    expect(exchanges[2].request_body).toMatchObject({ operation: 'fulfillment_create', variables: { fulfillment: { trackingInfo: { number: '1ZJ9' } } } });
    expect((exchanges[2].response_body as { data: unknown }).data).toBeTruthy();
  });
});
