import { describe, expect, it } from 'vitest';
import { rejection, useChannelApiTest } from '../../../test/helpers/channel-api.js';
import { bigcommerceFakeStore, startFakeBigcommerce } from '../../../test/helpers/fake-bigcommerce/index.js';
import type { ReceivedRequest } from '../../../test/helpers/webhook-receiver.js';
import { ChannelError, type ChannelConnection, type ChannelOrder } from '../types.js';
import type { BigcommerceChannel } from './client.js';
import { platform as bigcommerce } from './index.js';

const SECRET = 'whsec-0123456789abcdefghijklmnopqrstuv';
const api = useChannelApiTest({
  startFake: (clock) => startFakeBigcommerce({ clock }),
  createChannel: (http) => bigcommerce.createChannel(http) as BigcommerceChannel,
  startAt: Date.parse('2026-03-02T10:00:00Z'),
  stepMs: 60_000,
  reset: (fake) => fake.store.hooks.clear(),
  secrets: (fake) => [fake.accessToken, SECRET],
});
const { sleeps, exchanges, outcomes } = api;
let seq = 0;

const conn = (over: Partial<ChannelConnection> = {}): ChannelConnection => ({
  integrationId: `int_test${++seq}`,
  storeRef: api.fake.storeHash,
  origin: api.fake.origin,
  credentials: { access_token: api.fake.accessToken, webhook_secret: SECRET },
  ...over,
});

const tracking = (number: string, carrier = 'ups') => ({
  company: 'ups',
  number,
  url: `https://www.ups.com/track?tracknum=${number}`,
  carrier,
  service: 'UPS Ground',
});

describe('the fake BigCommerce checks what it is sent', () => {
  it('records a request the descriptions refuse (it is not a rubber stamp)', async () => {
    const res = await fetch(`${api.fake.origin}/v2/orders/1/shipments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-auth-token': api.fake.accessToken },
      body: JSON.stringify({ tracking_numbr: '1Z', items: [{ quantity: 1 }] }),
    });
    expect(res.status).toBe(400);
    const problems = api.fake.violations.join('\n');
    expect(problems).toMatch(/order_address_id/);
    expect(problems).toMatch(/additional properties/);
    expect(problems).toMatch(/order_product_id/);
    api.fake.violations.length = 0;
    await fetch(`${api.fake.origin}/v2/orders?sort=modified&limit=ten`, { headers: { accept: 'application/json', 'x-auth-token': api.fake.accessToken } });
    expect(api.fake.violations.join('\n')).toMatch(/limit must be a number/);
    expect(api.fake.violations.join('\n')).toMatch(/sort modified is not/);
    api.fake.violations.length = 0;
  });
});

describe('connection and webhook subscriptions', () => {
  it('tests the connection with the order statuses and the X-Auth-Token header', async () => {
    expect(await api.channel.testConnection(conn())).toEqual({ scopes: [] });
    expect(api.fake.requests[0]).toMatchObject({ method: 'GET', path: '/v2/order_statuses' });
    expect(api.fake.requests[0].headers['x-auth-token']).toBe(api.fake.accessToken);
    expect(outcomes).toEqual([{ operation: 'connection_test', outcome: 'success' }]);
    expect(exchanges[0].request_headers['x-auth-token']).toBe('[REDACTED]');
  });

  it('creates hooks carrying the secret header, lists, reactivates and deletes them', async () => {
    const c = conn();
    const made = [];
    for (const topic of bigcommerce.webhookTopics) made.push(await api.channel.createWebhookSubscription(c, topic, api.receiverUrl));
    expect(made.map((m) => m.topic)).toEqual(['store/order/created', 'store/order/updated', 'store/order/statusUpdated']);
    expect([...api.fake.store.hooks.values()].map((h) => h.headers)).toEqual([
      { 'X-Service-Webhook-Token': SECRET },
      { 'X-Service-Webhook-Token': SECRET },
      { 'X-Service-Webhook-Token': SECRET },
    ]);
    expect(await api.channel.listWebhookSubscriptions(c)).toEqual(made);
    // The request log masks the secret in the hook's headers.
    expect(JSON.stringify(exchanges.filter((e) => e.operation === 'webhooks_create'))).not.toContain(SECRET);

    const dup = await rejection(api.channel.createWebhookSubscription(c, 'store/order/created', api.receiverUrl));
    expect(dup).toMatchObject({ kind: 'rejected', platformStatus: '422' });
    expect(dup.messages.join()).toMatch(/already exists/);

    // Failed deliveries deactivate a hook; reactivation turns it back on.
    api.receiverStatus = 500;
    const o = api.fake.store.seedOrder();
    for (let i = 0; i < 3; i++) await api.fake.emit('store/order/updated', o.id);
    const listed = await api.channel.listWebhookSubscriptions(c);
    expect(listed.find((h) => h.topic === 'store/order/updated')!.active).toBe(false);
    await api.channel.reactivateWebhookSubscription(c, made[1].id);
    expect((await api.channel.listWebhookSubscriptions(c)).every((h) => h.active)).toBe(true);

    for (const m of made) await api.channel.deleteWebhookSubscription(c, m.id);
    await api.channel.deleteWebhookSubscription(c, made[0].id);
    expect(await api.channel.listWebhookSubscriptions(c)).toEqual([]);
  });

  it('lists every page of hooks', async () => {
    for (let i = 0; i < 260; i++) api.fake.store.addHook('store/order/created', `https://example.com/h${i}`, true, null);
    const listed = await api.channel.listWebhookSubscriptions(conn());
    expect(listed).toHaveLength(260);
    expect(api.fake.requests.map((r) => r.query.page)).toEqual(['1', '2']);
  });
});

describe('orders in', () => {
  it('pages through the orders changed since an instant, oldest first, then the empty page (204)', async () => {
    const start = api.clock;
    api.fake.store.seedOrder({ date_modified: start - 3600_000 });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      api.clock += 1000;
      ids.push(String(api.fake.store.seedOrder().id));
    }
    api.clock += 1000;
    // An edit moves an order to the end.
    api.fake.store.editOrder(ids[0], (o) => (o.billing.email = 'new@example.com'));
    const c = conn();
    const seen: ChannelOrder[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { orders: ChannelOrder[]; nextCursor: string | null } = await api.channel.listOrdersUpdatedSince(c, new Date(start).toISOString(), cursor, 3);
      seen.push(...page.orders);
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThanOrEqual(3);
    const unique = [...new Map(seen.map((o) => [o.external_id, o])).values()];
    expect(unique.map((o) => o.external_id)).toEqual([...ids.slice(1), ids[0]]);
    expect(unique.at(-1)!.customer.email).toBe('new@example.com');
    const versions = seen.map((o) => o.version);
    expect([...versions].sort()).toEqual(versions);
    const listCalls = api.fake.requests.filter((r) => r.operationId === 'getOrders');
    expect(listCalls[0].query).toMatchObject({
      sort: 'date_modified:asc',
      limit: '3',
      page: '1',
      min_date_modified: new Date(start).toISOString().replace('Z', '+00:00'),
    });

    // Nothing changed since: BigCommerce answers 204 with no body.
    const empty = await api.channel.listOrdersUpdatedSince(c, new Date(api.clock + 3600_000).toISOString(), null, 3);
    expect(empty).toEqual({ orders: [], nextCursor: null });
  });

  it('pages within one second when a whole page changed in it', async () => {
    const since = new Date(api.clock).toISOString();
    api.clock += 1000;
    const ids = Array.from({ length: 5 }, () => String(api.fake.store.seedOrder().id));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { orders: ChannelOrder[]; nextCursor: string | null } = await api.channel.listOrdersUpdatedSince(conn(), since, cursor, 2);
      seen.push(...page.orders.map((o) => o.external_id));
      cursor = page.nextCursor;
    } while (cursor);
    expect([...new Set(seen)]).toEqual(ids);
  });

  it('fetches one order with its products, addresses and shipments; an unknown one is null', async () => {
    const o = api.fake.store.seedOrder({
      products: [
        { sku: 'A', quantity: 3, price: '4.10' },
        { sku: 'E-BOOK', type: 'digital' },
        { sku: 'B', address: 1 },
      ],
      addresses: [{ street_1: '1 Peachtree St', shipping_method: 'Flat Rate' }, { street_1: '2 Elsewhere Ave' }],
    });
    const order = (await api.channel.fetchOrder(conn(), String(o.id)))!;
    expect(order).toMatchObject({
      external_id: String(o.id),
      external_number: String(o.id),
      version: new Date(Math.floor(o.date_modified / 1000) * 1000).toISOString(),
      platform_status: '11',
      cancelled: false,
      currency: 'USD',
      customer: { name: 'Pat Buyer', email: 'pat@example.com', phone: '4045550100' },
      ship_to: { name: 'Pat Buyer', street1: '1 Peachtree St', city: 'Alpharetta', state: 'GA', postal_code: '30005', country: 'US' },
      shipping_line: { code: null, title: 'Flat Rate' },
      fulfillments: [],
    });
    // The second address's product is not shipped with this order's parcel.
    expect(order.line_items).toEqual([
      {
        external_line_id: String(o.products[0].id),
        sku: 'A',
        name: 'Towel 1',
        quantity: 3,
        unit_price: { amount: 410, currency: 'USD' },
        weight_oz: null,
        requires_shipping: true,
      },
      {
        external_line_id: String(o.products[1].id),
        sku: 'E-BOOK',
        name: 'Towel 2',
        quantity: 1,
        unit_price: { amount: 1250, currency: 'USD' },
        weight_oz: null,
        requires_shipping: false,
      },
    ]);
    expect(order.raw_updated_at).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000$/);
    expect(await api.channel.fetchOrder(conn(), '999999')).toBeNull();
    expect((await rejection(api.channel.fetchOrder(conn(), 'abc'))).kind).toBe('not_found');
  });

  it('reads every page of an order with more than 250 products', async () => {
    const o = api.fake.store.seedOrder({ products: Array.from({ length: 260 }, (_, i) => ({ sku: `L${i}` })) });
    const order = (await api.channel.fetchOrder(conn(), String(o.id)))!;
    expect(order.line_items).toHaveLength(260);
    expect(api.fake.count('getOrderProducts')).toBe(2);
  });

  it('verifies thin deliveries as BigCommerce sends them and names the order to fetch', async () => {
    const c = conn();
    await api.channel.createWebhookSubscription(c, 'store/order/updated', api.receiverUrl);
    const o = api.fake.store.seedOrder();
    await api.fake.emit('store/order/updated', o.id);
    api.clock += 5000;
    await api.fake.emit('store/order/updated', o.id);
    expect(api.received).toHaveLength(2);
    const [first, second] = api.received;
    const verify = (d: Pick<ReceivedRequest, 'headers' | 'raw'>, over: { secret?: string; storeRef?: string } = {}) =>
      api.channel.verifyWebhook({ headers: d.headers, rawBody: d.raw, secret: over.secret ?? SECRET, storeRef: over.storeRef ?? api.fake.storeHash });
    const verified = verify(first);
    expect(verified).toMatchObject({ ok: true, topic: 'store/order/updated', storeRef: api.fake.storeHash, apiVersion: null });
    if (!verified.ok) throw new Error('unreachable');
    const body = JSON.parse(first.raw.toString());
    expect(api.channel.parseWebhookOrder(verified.topic, body)).toEqual({ kind: 'fetch', external_id: String(o.id) });
    expect(api.channel.webhookOrderId(body)).toBe(String(o.id));
    // Two events of one order share BigCommerce's hash; their delivery ids differ.
    const again = verify(second);
    expect(JSON.parse(second.raw.toString()).hash).toBe(body.hash);
    expect(again.ok && again.deliveryId).not.toBe(verified.deliveryId);
    // A retry (the same bytes) has the same delivery id.
    expect(verify({ headers: first.headers, raw: Buffer.from(first.raw) })).toEqual(verified);

    expect(verify(first, { secret: 'another-secret' })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verify({ headers: { 'content-type': 'application/json' }, raw: first.raw })).toEqual({ ok: false, reason: 'missing_signature' });
    expect(verify(first, { storeRef: 'otherstore1' })).toEqual({ ok: false, reason: 'wrong_store' });
    expect(() => api.channel.parseWebhookOrder('store/product/updated', body)).toThrow(ChannelError);
    expect(() => api.channel.parseWebhookOrder('store/order/updated', { data: { type: 'cart', id: 'x' } })).toThrow(ChannelError);
  });
});

describe('tracking back: fulfill', () => {
  it('creates one shipment of everything left; a second attempt finds it and writes nothing', async () => {
    const o = api.fake.store.seedOrder({ products: [{ quantity: 2 }, {}, { type: 'digital' }] });
    const c = conn();
    const first = await api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZA1'), notifyCustomer: true });
    expect(first).toEqual({ outcome: 'created', refs: [`${o.id}/shipments/${o.shipments[0].id}`] });
    const post = api.fake.requests.find((r) => r.operationId === 'createOrderShipments')!;
    expect(post.body).toEqual({
      order_address_id: o.addresses[0].id,
      tracking_number: '1ZA1',
      tracking_carrier: 'ups',
      tracking_link: 'https://www.ups.com/track?tracknum=1ZA1',
      shipping_method: 'UPS Ground',
      items: [
        { order_product_id: o.products[0].id, quantity: 2 },
        { order_product_id: o.products[1].id, quantity: 1 },
      ],
    });
    expect(o.status_id).toBe(2);
    expect(await api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZA1'), notifyCustomer: true })).toEqual({
      outcome: 'already_fulfilled',
      refs: (first as { refs: string[] }).refs,
    });
    expect(api.fake.count('createOrderShipments')).toBe(1);
    const read = (await api.channel.fetchOrder(c, String(o.id)))!;
    expect(read.platform_status).toBe('2');
    expect(read.fulfillments).toEqual([{ id: (first as { refs: string[] }).refs[0], status: 'success', tracking_numbers: ['1ZA1'] }]);
    // Another tracking number finds nothing left to ship.
    expect(await api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZA2'), notifyCustomer: false })).toMatchObject({
      outcome: 'closed',
    });
  });

  it('ships only the lines asked for', async () => {
    const o = api.fake.store.seedOrder({ products: [{ quantity: 3 }, { quantity: 1 }] });
    const result = await api.channel.fulfill(conn(), {
      externalOrderId: String(o.id),
      lines: [{ external_line_id: String(o.products[0].id), quantity: 2 }],
      tracking: tracking('1ZC3'),
      notifyCustomer: false,
    });
    expect(result.outcome).toBe('created');
    expect(o.products.map((p) => p.quantity_shipped)).toEqual([2, 0]);
    expect(o.status_id).toBe(3);
  });

  it('cancelled, declined or refunded orders are closed; awaiting payment waits; nothing is written', async () => {
    for (const [status, outcome] of [
      [5, 'closed'],
      [6, 'closed'],
      [4, 'closed'],
      [7, 'on_hold'],
    ] as const) {
      const o = api.fake.store.seedOrder({ status_id: status });
      expect(await api.channel.fulfill(conn(), { externalOrderId: String(o.id), tracking: tracking(`1ZD${status}`), notifyCustomer: false })).toMatchObject({
        outcome,
      });
    }
    expect(api.fake.count('createOrderShipments')).toBe(0);
    expect((await rejection(api.channel.fulfill(conn(), { externalOrderId: '424242', tracking: tracking('1ZD6'), notifyCustomer: false }))).kind).toBe(
      'not_found',
    );
  });

  it('an answer lost after BigCommerce made the shipment: not re-sent, and the next attempt finds it', async () => {
    const o = api.fake.store.seedOrder();
    const c = conn();
    api.fake.fail('createOrderShipments', { kind: 'drop_after_apply' });
    const err = await rejection(api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZE5'), notifyCustomer: false }));
    expect(err).toMatchObject({ kind: 'network', retryable: true });
    expect(api.fake.count('createOrderShipments')).toBe(1);
    expect(o.shipments).toHaveLength(1);
    const retry = await api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZE5'), notifyCustomer: false });
    expect(retry).toEqual({ outcome: 'already_fulfilled', refs: [`${o.id}/shipments/${o.shipments[0].id}`] });
    expect(api.fake.count('createOrderShipments')).toBe(1);
    expect(o.shipments).toHaveLength(1);
  });

  it("a refusal carries BigCommerce's messages", async () => {
    const o = api.fake.store.seedOrder();
    api.fake.fail('createOrderShipments', { kind: 'status', status: 400, body: [{ status: 400, message: 'The field tracking_carrier is invalid.' }] });
    const err = await rejection(api.channel.fulfill(conn(), { externalOrderId: String(o.id), tracking: tracking('1ZG7'), notifyCustomer: false }));
    expect(err).toMatchObject({ kind: 'rejected', platformStatus: '400', retryable: false, messages: ['The field tracking_carrier is invalid.'] });
  });

  it('voids a shipment (twice is fine) and the order can ship again', async () => {
    const o = api.fake.store.seedOrder();
    const c = conn();
    const made = (await api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZH8'), notifyCustomer: false })) as { refs: string[] };
    const request = { ref: made.refs[0], externalOrderId: String(o.id), trackingNumber: '1ZH8' };
    await api.channel.cancelFulfillment(c, request);
    await api.channel.cancelFulfillment(c, request);
    expect(o.shipments).toEqual([]);
    expect(o.status_id).toBe(11);
    expect((await rejection(api.channel.cancelFulfillment(c, { ...request, ref: 'gid://x' }))).kind).toBe('rejected');
    expect((await api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZH8'), notifyCustomer: false })).outcome).toBe('created');
  });
});

describe('limits and failures', () => {
  it('429 waits the X-Rate-Limit-Time-Reset-Ms BigCommerce asks for, then reads again', async () => {
    api.fake.fail('getOrderStatuses', { kind: 'status', status: 429, resetMs: 1500 });
    await api.channel.testConnection(conn());
    expect(sleeps).toEqual([1500]);
    expect(outcomes.map((o) => o.outcome)).toEqual(['throttled', 'success']);
  });

  it('a 429 outlasting the deadline is ChannelError throttled with retryAfterMs; a write is not re-sent', async () => {
    api.fake.fail('getOrderStatuses', { kind: 'status', status: 429, resetMs: 30_000 });
    const err = await rejection(api.channel.testConnection(conn(), { timeoutMs: 5000 }));
    expect(err).toMatchObject({ kind: 'throttled', retryAfterMs: 30_000, platformStatus: '429', retryable: true });
    const o = api.fake.store.seedOrder();
    api.fake.fail('createOrderShipments', { kind: 'status', status: 429, resetMs: 10 });
    expect(await rejection(api.channel.fulfill(conn(), { externalOrderId: String(o.id), tracking: tracking('1ZT1'), notifyCustomer: false }))).toMatchObject({
      kind: 'throttled',
      retryAfterMs: 10,
    });
    expect(api.fake.count('createOrderShipments')).toBe(1);
  });

  it('5xx is retried for reads and ends as server_error; 401 is unauthorized', async () => {
    api.fake.fail(
      'getOrderStatuses',
      { kind: 'status', status: 503 },
      { kind: 'status', status: 503 },
      { kind: 'status', status: 503 },
      { kind: 'status', status: 503 },
    );
    const err = await rejection(api.channel.testConnection(conn()));
    expect(err).toMatchObject({ kind: 'server_error', platformStatus: '503', retryable: true });
    expect(api.fake.count('getOrderStatuses')).toBeGreaterThan(1);
    const refused = await rejection(api.channel.testConnection(conn({ credentials: { access_token: 'bcrevoked' } })));
    expect(refused).toMatchObject({ kind: 'unauthorized', platformStatus: '401', retryable: false });
    expect(refused.message).not.toContain('bcrevoked');
    expect((await rejection(api.channel.testConnection(conn({ credentials: {} })))).kind).toBe('unauthorized');
  });

  it('a hanging BigCommerce ends at the deadline as a timeout', async () => {
    api.fake.fail('getOrderStatuses', { kind: 'hang' });
    const err = await rejection(api.channel.testConnection(conn(), { timeoutMs: 300 }));
    expect(err.kind).toBe('timeout');
  });
});

describe('the FakeStore surface', () => {
  it('connects, seeds, delivers and breaks as the shared scenarios expect', async () => {
    const s = bigcommerceFakeStore(api.fake);
    expect(bigcommerce.normaliseStoreRef(s.connect.store_ref)).toBe(api.fake.storeHash);
    expect(bigcommerce.credentialProblems(s.connect.credentials)).toEqual({ kind: 'token', details: [] });
    const c = conn({ origin: s.url, credentials: { ...s.connect.credentials, webhook_secret: SECRET } });
    for (const topic of bigcommerce.webhookTopics) await api.channel.createWebhookSubscription(c, topic, api.receiverUrl);
    const id = s.seedOrder({ lines: 2 });
    expect((await api.channel.fetchOrder(c, id))!.platform_status).toBe('11');
    s.cancelOrder(id);
    expect(await s.emit(id, 'cancelled')).toEqual([200, 200]);
    expect(await s.redeliverLast()).toBe(200);
    expect((await api.channel.fetchOrder(c, id))!.cancelled).toBe(true);
    s.breakWebhooks();
    expect(s.webhooks().every((w) => !w.active)).toBe(true);
    s.revokeCredentials();
    expect((await rejection(api.channel.testConnection(c))).kind).toBe('unauthorized');
    const fresh = s.freshCredentials();
    await api.channel.testConnection({ ...c, credentials: { ...fresh, webhook_secret: SECRET } });
    s.failNext(503, 1);
    await api.channel.testConnection({ ...c, credentials: { ...fresh, webhook_secret: SECRET } });
    expect(outcomes.slice(-2).map((o) => o.outcome)).toEqual(['server_error', 'success']);
  });
});
