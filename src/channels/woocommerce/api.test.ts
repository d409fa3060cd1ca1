import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeWooCommerce, wooFakeStore, type FakeWooCommerce } from '../../../test/helpers/fake-woocommerce/index.js';
import { ChannelHttpClient, type ChannelExchange, type ChannelOutcome } from '../http/client.js';
import { ChannelError, type ChannelConnection, type ChannelOrder } from '../types.js';
import type { WooCommerceChannel } from './client.js';
import { woocommerce } from './index.js';

let fake: FakeWooCommerce;
let http_: ChannelHttpClient;
let channel: WooCommerceChannel;
/** One clock for the client and the fake: WooCommerce's dates and the client's waits move together. */
let clock = Date.parse('2026-03-02T15:00:00.000Z');
let sleeps: number[];
let exchanges: ChannelExchange[];
let outcomes: { operation: string; outcome: ChannelOutcome }[];
let seq = 0;
const SECRET = 'whsec0123456789abcdefghijABCDEFGHIJ';

interface Received {
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
}
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];
let receiverStatus = 200;

const conn = (over: Partial<ChannelConnection> = {}): ChannelConnection => ({
  integrationId: `int_woo${++seq}`,
  storeRef: woocommerce.normaliseStoreRef(fake.siteUrl)!,
  origin: fake.url,
  credentials: { ...fake.credentials, webhook_secret: SECRET },
  ...over,
});

const tracking = (number: string) => ({ company: 'UPS', number, url: `https://www.ups.com/track?tracknum=${number}`, carrier: 'ups', service: 'UPS Ground' });

async function rejection(p: Promise<unknown>): Promise<ChannelError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ChannelError);
  return err as ChannelError;
}

const verify = (r: Received, over: { secret?: string; storeRef?: string } = {}) =>
  channel.verifyWebhook({ headers: r.headers, rawBody: r.raw, secret: over.secret ?? SECRET, storeRef: over.storeRef ?? conn().storeRef });

beforeAll(async () => {
  fake = await startFakeWooCommerce({ clock: () => clock, siteUrl: 'https://Fake-Goods.example/' });
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks) });
      res.writeHead(receiverStatus).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/integrations/int_x/webhooks`;
}, 120_000);

afterAll(async () => {
  await fake?.close();
  await http_?.close();
  await new Promise<void>((r) => receiver?.close(() => r()));
});

beforeEach(async () => {
  fake.reset();
  fake.site.webhooks.clear();
  received.length = 0;
  receiverStatus = 200;
  clock += 60_000;
  await http_?.close();
  sleeps = [];
  exchanges = [];
  outcomes = [];
  http_ = new ChannelHttpClient({
    now: () => clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    onExchange: (e) => exchanges.push(e),
    metrics: { requestFinished: ({ operation, outcome }) => outcomes.push({ operation, outcome }) },
  });
  channel = woocommerce.createChannel(http_) as WooCommerceChannel;
});

afterEach(() => {
  // Every request the channel sent matched WooCommerce's published description, and so did the fake's answers.
  expect(fake.violations).toEqual([]);
  const log = JSON.stringify(exchanges);
  const { consumer_key, consumer_secret } = fake.credentials;
  expect(log).not.toContain(consumer_secret);
  expect(log).not.toContain(SECRET);
  expect(log).not.toContain(Buffer.from(`${consumer_key}:${consumer_secret}`).toString('base64'));
});

describe('the fake WooCommerce checks what it is sent', () => {
  it('records requests the description refuses (it is not a rubber stamp)', async () => {
    const auth = `Basic ${Buffer.from(`${fake.credentials.consumer_key}:${fake.credentials.consumer_secret}`).toString('base64')}`;
    const list = await fetch(`${fake.url}/wp-json/wc/v3/orders?orderby=updated&per_page=500&since=2026-01-01`, { headers: { authorization: auth } });
    expect(list.status).toBe(400);
    expect(((await list.json()) as { code: string }).code).toBe('rest_invalid_param');
    const o = fake.site.seedOrder();
    await fetch(`${fake.url}/wp-json/wc/v3/orders/${o.id}/notes`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify({ text: 'shipped', customer_note: 'yes' }) });
    await fetch(`${fake.url}/wp-json/wc/v3/orders/${o.id}/fulfillments`, { method: 'POST', headers: { authorization: auth } });
    const problems = fake.violations.join('\n');
    expect(problems).toMatch(/orderby must be one of .*got updated/);
    expect(problems).toMatch(/per_page must be 1 to 100/);
    expect(problems).toMatch(/query parameter since is not declared/);
    expect(problems).toMatch(/required property 'note'/);
    expect(problems).toMatch(/customer_note must be boolean/);
    expect(problems).toMatch(/POST \/wp-json\/wc\/v3\/orders\/\d+\/fulfillments: a route the fake does not serve/);
    expect(o.notes).toEqual([]);
    fake.violations.length = 0;
  });
});

describe('connection and webhook subscriptions', () => {
  it('tests the connection with one authenticated order read; WooCommerce reports no scopes', async () => {
    expect(await channel.testConnection(conn())).toEqual({ scopes: [] });
    expect(fake.requests.map((r) => `${r.method} ${r.path}?${new URLSearchParams(r.query)}`)).toEqual(['GET /wp-json/wc/v3/orders?per_page=1']);
    expect(fake.requests[0].headers.authorization).toMatch(/^Basic /);
    expect(exchanges[0].request_headers.authorization).toBe('[REDACTED]');
    expect(outcomes).toEqual([{ operation: 'connection_test', outcome: 'success' }]);
  });

  it('creates the three order webhooks with our secret; each is pinged, the ping is answered and never applied', async () => {
    const c = conn();
    const made = [];
    for (const topic of woocommerce.webhookTopics) made.push(await channel.createWebhookSubscription(c, topic, receiverUrl));
    expect(made.map((m) => [m.topic, m.callbackUrl, m.active])).toEqual([
      ['order.created', receiverUrl, true],
      ['order.updated', receiverUrl, true],
      ['order.deleted', receiverUrl, true],
    ]);
    expect([...fake.site.webhooks.values()].map((w) => w.secret)).toEqual([SECRET, SECRET, SECRET]);
    expect(fake.count('webhook_create')).toBe(3);
    // WooCommerce's ping: an unsigned form body, none of the webhook headers.
    expect(received.map((r) => r.raw.toString())).toEqual(made.map((m) => `webhook_id=${m.id}`));
    expect(received[0].headers['x-wc-webhook-signature']).toBeUndefined();
    const pinged = verify(received[0]);
    expect(pinged).toMatchObject({ ok: true, ping: true, topic: 'ping' });
    expect(JSON.stringify(exchanges)).not.toContain(SECRET);
    expect(exchanges[0].request_body).toMatchObject({ topic: 'order.created', delivery_url: receiverUrl, secret: '[REDACTED]' });
  });

  it('lists every webhook over several pages; disabled and paused ones are inactive until reactivated', async () => {
    for (let i = 0; i < 120; i++) fake.site.addWebhook({ topic: 'product.updated', delivery_url: `https://elsewhere.example/${i}` });
    const c = conn();
    const ours = await channel.createWebhookSubscription(c, 'order.updated', receiverUrl);
    const paused = fake.site.addWebhook({ topic: 'order.created', delivery_url: receiverUrl, status: 'paused', secret: SECRET });
    const listed = await channel.listWebhookSubscriptions(c);
    expect(listed).toHaveLength(122);
    expect(fake.requests.filter((r) => r.route === 'webhooks_list').map((r) => r.query.page)).toEqual(['1', '2']);
    expect(listed.find((w) => w.id === ours.id)).toEqual({ ...ours, active: true });
    expect(listed.find((w) => w.id === String(paused.id))!.active).toBe(false);

    wooFakeStore(fake).breakWebhooks();
    expect((await channel.listWebhookSubscriptions(c)).find((w) => w.id === ours.id)!.active).toBe(false);
    await channel.reactivateWebhookSubscription(c, ours.id);
    await channel.reactivateWebhookSubscription(c, String(paused.id));
    const after = await channel.listWebhookSubscriptions(c);
    expect(after.filter((w) => w.id === ours.id || w.id === String(paused.id)).map((w) => w.active)).toEqual([true, true]);
    expect(fake.requests.filter((r) => r.route === 'webhook_update').map((r) => r.body)).toEqual([{ status: 'active' }, { status: 'active' }]);
  });

  it('deletes for good (force=true); deleting one already gone is fine', async () => {
    const c = conn();
    const made = await channel.createWebhookSubscription(c, 'order.created', receiverUrl);
    await channel.deleteWebhookSubscription(c, made.id);
    await channel.deleteWebhookSubscription(c, made.id);
    expect(fake.requests.filter((r) => r.route === 'webhook_delete').map((r) => r.query)).toEqual([{ force: 'true' }, { force: 'true' }]);
    expect(await channel.listWebhookSubscriptions(c)).toEqual([]);
    expect(outcomes.filter((o) => o.operation === 'webhooks_delete').map((o) => o.outcome)).toEqual(['success', 'client_error']);
  });

  it('a webhook whose deliveries fail five times in a row is disabled, and comes back when reactivated', async () => {
    const c = conn();
    const made = await channel.createWebhookSubscription(c, 'order.updated', receiverUrl);
    const o = fake.site.seedOrder();
    receiverStatus = 500;
    for (let i = 0; i < 5; i++) await fake.emitTopic('order.updated', o);
    expect((await channel.listWebhookSubscriptions(c))[0]).toMatchObject({ id: made.id, active: false });
    expect(await fake.emitTopic('order.updated', o)).toEqual([]);
    receiverStatus = 200;
    await channel.reactivateWebhookSubscription(c, made.id);
    expect((await fake.emitTopic('order.updated', o)).map((d) => d.status)).toEqual([200]);
  });

  it('refuses to create a webhook without our secret, and relays WooCommerce\'s refusal of a bad topic', async () => {
    const c = conn();
    const noSecret = await rejection(channel.createWebhookSubscription({ ...c, credentials: fake.credentials }, 'order.created', receiverUrl));
    expect(noSecret.kind).toBe('rejected');
    expect(fake.count('webhook_create')).toBe(0);
    const bad = await rejection(channel.createWebhookSubscription(c, 'order.shipped', receiverUrl));
    expect(bad).toMatchObject({ kind: 'rejected', platformStatus: 'woocommerce_rest_webhook_invalid_topic', retryable: false });
    expect(bad.messages).toEqual(['Webhook topic is required and must be valid.']);
  });
});

describe('orders in', () => {
  it('pages through the orders modified since an instant, oldest first, the boundary second included', async () => {
    const since = clock;
    const old = fake.site.seedOrder({ modifiedAt: since - 3_600_000 });
    // Modified in the very second the watermark names: WooCommerce compares strictly, so it must still come back.
    const boundary = fake.site.seedOrder({ modifiedAt: since + 400 });
    const ids: number[] = [];
    for (let i = 0; i < 23; i++) {
      clock += 1000;
      ids.push(fake.site.seedOrder().id);
    }
    clock += 5000;
    fake.site.edit(ids[0], (o) => (o.billing.email = 'new@example.com'));
    const c = conn();
    const seen: ChannelOrder[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { orders: ChannelOrder[]; nextCursor: string | null } = await channel.listOrdersUpdatedSince(c, new Date(since + 400).toISOString(), cursor, 10);
      seen.push(...page.orders);
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen.map((o) => o.external_id)).toEqual([boundary.id, ...ids.slice(1), ids[0]].map(String));
    expect(seen.some((o) => o.external_id === String(old.id))).toBe(false);
    const versions = seen.map((o) => o.version);
    expect([...versions].sort()).toEqual(versions);
    expect(seen.at(-1)!.customer.email).toBe('new@example.com');
    const first = fake.requests.find((r) => r.route === 'orders_list')!;
    expect(first.query).toEqual({
      modified_after: new Date(Math.floor((since + 400) / 1000) * 1000 - 1000).toISOString().slice(0, 19),
      dates_are_gmt: 'true',
      orderby: 'modified',
      order: 'asc',
      per_page: '10',
      page: '1',
    });
    expect((await rejection(channel.listOrdersUpdatedSince(c, new Date(since).toISOString(), 'abc', 10))).kind).toBe('rejected');
  });

  it('fetches one order mapped field by field; an unknown one is null', async () => {
    const o = fake.site.seedOrder({
      currency: 'JPY',
      billing: { first_name: 'Ann', last_name: 'Payer', email: 'ann@example.com', phone: '+815055501234' },
      shipping: { first_name: 'Ben', last_name: 'Getter', company: 'Getter KK', address_1: '1-2-3 Ginza', address_2: '', city: 'Chuo-ku', state: 'JP13', postcode: '104-0061', country: 'jp' },
      lines: [
        { sku: 'MUG-1', name: 'Blue mug', quantity: 3, price: '1200' },
        { sku: '', name: 'Gift wrap', quantity: 1, price: '300' },
      ],
      shippingLine: { method_id: 'flat_rate', method_title: 'Yamato TA-Q-BIN' },
    });
    const order = (await channel.fetchOrder(conn(), String(o.id)))!;
    expect(order).toEqual({
      external_id: String(o.id),
      external_number: o.number,
      version: new Date(o.modifiedAt).toISOString(),
      platform_status: 'processing',
      cancelled: false,
      cancelled_at: null,
      currency: 'JPY',
      customer: { name: 'Ann Payer', email: 'ann@example.com', phone: '+815055501234' },
      ship_to: { name: 'Ben Getter', company: 'Getter KK', street1: '1-2-3 Ginza', city: 'Chuo-ku', state: 'JP13', postal_code: '104-0061', country: 'JP', phone: '+815055501234', email: 'ann@example.com' },
      line_items: [
        { external_line_id: String(o.lines[0].id), sku: 'MUG-1', name: 'Blue mug', quantity: 3, unit_price: { amount: 1200, currency: 'JPY' }, weight_oz: null, requires_shipping: true },
        { external_line_id: String(o.lines[1].id), sku: null, name: 'Gift wrap', quantity: 1, unit_price: { amount: 300, currency: 'JPY' }, weight_oz: null, requires_shipping: true },
      ],
      shipping_line: { code: 'flat_rate', title: 'Yamato TA-Q-BIN' },
      fulfillments: [],
      raw_updated_at: new Date(o.modifiedAt).toISOString().slice(0, 19),
    });
    expect(await channel.fetchOrder(conn(), '999999')).toBeNull();
    expect((await rejection(channel.fetchOrder(conn(), '12abc'))).kind).toBe('not_found');
  });

  it('verifies and reads deliveries exactly as WooCommerce sends them, the same order as the API reads', async () => {
    const c = conn();
    await channel.createWebhookSubscription(c, 'order.updated', receiverUrl);
    received.length = 0;
    const o = fake.site.seedOrder({ shipping: { address_1: '12 Rue de l’Église / Bât B', city: 'Paris', postcode: '75004', country: 'FR', state: '' } });
    fake.site.edit(o.id, (x) => (x.billing.phone = '+33155550199'));
    await wooFakeStore(fake).emit(String(o.id), 'updated');
    expect(received).toHaveLength(1);
    const delivery = received[0];
    // PHP's encoding: the signature covers these bytes, not a re-serialisation.
    expect(delivery.raw.toString()).toContain('\\/ B\\u00e2t');
    const verified = verify(delivery);
    expect(verified).toMatchObject({ ok: true, topic: 'order.updated', storeRef: 'https://fake-goods.example', deliveryId: delivery.headers['x-wc-webhook-delivery-id'] });
    if (!verified.ok) throw new Error('unreachable');
    const fromWebhook = channel.parseWebhookOrder(verified.topic, JSON.parse(delivery.raw.toString())) as ChannelOrder;
    expect(fromWebhook.ship_to?.street1).toBe('12 Rue de l’Église / Bât B');
    expect(fromWebhook).toEqual(await channel.fetchOrder(c, String(o.id)));
    expect(channel.webhookOrderId(JSON.parse(delivery.raw.toString()))).toBe(String(o.id));

    // Another secret, another site, a body changed after signing, no signature: refused.
    expect(verify(delivery, { secret: 'another-secret-entirely' })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verify(delivery, { storeRef: 'https://other-shop.example' })).toEqual({ ok: false, reason: 'wrong_store' });
    expect(verify({ headers: delivery.headers, raw: Buffer.from(delivery.raw.toString().replace('Paris', 'Lyon')) })).toEqual({ ok: false, reason: 'bad_signature' });
    const { 'x-wc-webhook-signature': _s, ...unsigned } = delivery.headers;
    expect(verify({ headers: unsigned, raw: delivery.raw })).toEqual({ ok: false, reason: 'missing_signature' });
    // The site's home URL with its trailing slash, in another case and scheme, is still this store.
    expect(verify(delivery, { storeRef: 'http://FAKE-GOODS.example/' })).toMatchObject({ ok: true });
    // A retry carries the same delivery id (the receiver's dedupe key).
    await fake.redeliverLast();
    expect(received[1].headers['x-wc-webhook-delivery-id']).toBe(delivery.headers['x-wc-webhook-delivery-id']);
    expect(() => channel.parseWebhookOrder('product.updated', {})).toThrow(ChannelError);
    expect(() => channel.parseWebhookOrder('order.created', { nope: true })).toThrow(ChannelError);
  });

  it('a trashed order comes as order.deleted {id}: read back, it is cancelled; one deleted for good reads as null', async () => {
    const c = conn();
    await channel.createWebhookSubscription(c, 'order.deleted', receiverUrl);
    received.length = 0;
    const trashed = fake.site.seedOrder();
    await fake.trash(trashed.id);
    const delivery = received[0];
    expect(JSON.parse(delivery.raw.toString())).toEqual({ id: trashed.id });
    const verified = verify(delivery);
    if (!verified.ok) throw new Error(`refused: ${verified.reason}`);
    const content = channel.parseWebhookOrder(verified.topic, JSON.parse(delivery.raw.toString()));
    expect(content).toEqual({ kind: 'fetch', external_id: String(trashed.id) });
    expect(await channel.fetchOrder(c, String(trashed.id))).toMatchObject({ platform_status: 'trash', cancelled: true, cancelled_at: new Date(trashed.modifiedAt).toISOString() });

    const gone = fake.site.seedOrder();
    await fake.deleteForGood(gone.id);
    const second = verify(received[1]);
    if (!second.ok) throw new Error('refused');
    const fetchIt = channel.parseWebhookOrder(second.topic, JSON.parse(received[1].raw.toString())) as { external_id: string };
    expect(await channel.fetchOrder(c, fetchIt.external_id)).toBeNull();
  });
});

describe('tracking back: fulfill as an order note, then completed', () => {
  it('writes one note naming carrier, service, number and link, completes the order; a second attempt writes nothing', async () => {
    const o = fake.site.seedOrder({ lines: [{ quantity: 2 }, {}] });
    const c = conn();
    const first = await channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZA1'), notifyCustomer: true });
    expect(first).toEqual({ outcome: 'created', refs: [String(o.notes[0].id)] });
    expect(o.notes).toHaveLength(1);
    expect(o.notes[0]).toMatchObject({ customer_note: true });
    expect(o.notes[0].note).toBe('Shipped with UPS (UPS Ground), tracking number 1ZA1; track it at https://www.ups.com/track?tracknum=1ZA1.');
    expect(o.status).toBe('completed');
    expect(wooFakeStore(fake).shippedTracking(String(o.id))).toEqual(['1ZA1']);
    expect(fake.requests.map((r) => `${r.method} ${r.route}`)).toEqual(['GET order_get', 'GET notes_list', 'POST note_create', 'PUT order_update']);
    expect(fake.requests.at(-1)!.body).toEqual({ status: 'completed' });

    const again = await channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZA1'), notifyCustomer: true });
    expect(again).toEqual({ outcome: 'already_fulfilled', refs: (first as { refs: string[] }).refs });
    expect(fake.count('note_create')).toBe(1);
    expect(fake.count('order_update')).toBe(1);
  });

  it('an answer lost after WooCommerce added the note: not re-sent, and the next attempt finds it and finishes the status', async () => {
    const o = fake.site.seedOrder();
    const c = conn();
    wooFakeStore(fake).dropNextWriteAnswer();
    const err = await rejection(channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZE5'), notifyCustomer: false }));
    expect(err).toMatchObject({ kind: 'network', retryable: true });
    expect(fake.count('note_create')).toBe(1);
    expect(o.notes).toHaveLength(1);
    expect(o.status).toBe('processing');
    const retry = await channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZE5'), notifyCustomer: false });
    expect(retry).toEqual({ outcome: 'already_fulfilled', refs: [String(o.notes[0].id)] });
    expect(fake.count('note_create')).toBe(1);
    expect(o.notes).toHaveLength(1);
    expect(o.status).toBe('completed');
  });

  it('a 5xx is retried for reads (waiting Retry-After) and for the status, never for the note', async () => {
    const o = fake.site.seedOrder();
    const c = conn();
    fake.fail('notes_list', { kind: 'status', status: 503, headers: { 'retry-after': '2' } });
    fake.fail('note_create', { kind: 'status', status: 502 });
    const err = await rejection(channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZF6'), notifyCustomer: false }));
    expect(err).toMatchObject({ kind: 'server_error', platformStatus: '502' });
    expect(fake.count('note_create')).toBe(1);
    expect(sleeps).toContain(2000);
    expect(outcomes.filter((x) => x.outcome === 'server_error').map((x) => x.operation)).toEqual(['notes_read', 'note_create']);
    fake.fail('order_update', { kind: 'status', status: 500 });
    expect((await channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZF6'), notifyCustomer: false })).outcome).toBe('created');
    expect(fake.count('order_update')).toBe(2);
    expect(o.status).toBe('completed');
  });

  it('a cancelled, trashed or refunded order is closed with nothing written; an unknown one not_found', async () => {
    for (const status of ['cancelled', 'trash', 'refunded']) {
      const o = fake.site.seedOrder({ status });
      expect(await channel.fulfill(conn(), { externalOrderId: String(o.id), tracking: tracking('1ZD5'), notifyCustomer: false })).toMatchObject({ outcome: 'closed' });
    }
    expect(fake.count('note_create')).toBe(0);
    expect((await rejection(channel.fulfill(conn(), { externalOrderId: '424242', tracking: tracking('1ZD6'), notifyCustomer: false }))).kind).toBe('not_found');
  });

  it('some lines only: the note lists them and the order stays processing; all lines: completed', async () => {
    const o = fake.site.seedOrder({ lines: [{ name: 'Blue mug', sku: 'MUG-1', quantity: 3 }, { name: 'Saucer', sku: 'SAU-1' }] });
    const part = await channel.fulfill(conn(), { externalOrderId: String(o.id), lines: [{ external_line_id: String(o.lines[0].id), quantity: 2 }], tracking: tracking('1ZC3'), notifyCustomer: false });
    expect(part.outcome).toBe('created');
    expect(o.notes[0].note).toContain('items: 2 × Blue mug (MUG-1)');
    expect(o.status).toBe('processing');
    const all = o.lines.map((l) => ({ external_line_id: String(l.id), quantity: l.quantity }));
    await channel.fulfill(conn(), { externalOrderId: String(o.id), lines: all, tracking: tracking('1ZC4'), notifyCustomer: false });
    expect(o.status).toBe('completed');
  });

  it('a voided label: a note says so and the order is processing again; twice writes nothing more; shipping again writes anew', async () => {
    const o = fake.site.seedOrder();
    const c = conn();
    const made = (await channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZH8'), notifyCustomer: true })) as { refs: string[] };
    await channel.cancelFulfillment(c, { ref: made.refs[0], externalOrderId: String(o.id), trackingNumber: '1ZH8' });
    expect(o.status).toBe('processing');
    expect(o.notes.at(-1)).toMatchObject({ customer_note: false, note: 'Shipment voided: the label with tracking number 1ZH8 was voided; this parcel will not be sent.' });
    expect(wooFakeStore(fake).shippedTracking(String(o.id))).toEqual([]);
    await channel.cancelFulfillment(c, { ref: made.refs[0], externalOrderId: String(o.id), trackingNumber: '1ZH8' });
    expect(o.notes).toHaveLength(2);
    expect(fake.count('note_create')).toBe(2);
    // A voided shipment does not count as written.
    expect((await channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZH8'), notifyCustomer: false })).outcome).toBe('created');
    expect(o.status).toBe('completed');
    expect(wooFakeStore(fake).shippedTracking(String(o.id))).toEqual(['1ZH8']);
  });

  it('voiding one of two shipments leaves the order completed', async () => {
    const o = fake.site.seedOrder({ lines: [{}, {}] });
    const c = conn();
    const a = (await channel.fulfill(c, { externalOrderId: String(o.id), lines: [{ external_line_id: String(o.lines[0].id), quantity: 1 }], tracking: tracking('1ZK1'), notifyCustomer: false })) as { refs: string[] };
    await channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZK2'), notifyCustomer: false });
    expect(o.status).toBe('completed');
    await channel.cancelFulfillment(c, { ref: a.refs[0], externalOrderId: String(o.id), trackingNumber: '1ZK1' });
    expect(o.status).toBe('completed');
    expect(wooFakeStore(fake).shippedTracking(String(o.id))).toEqual(['1ZK2']);
  });
});

describe('limits and failures', () => {
  it('revoked keys are unauthorized (401), and so is a connection without keys', async () => {
    const c = conn();
    fake.revokeKeys();
    const err = await rejection(channel.testConnection(c));
    expect(err).toMatchObject({ kind: 'unauthorized', platformStatus: '401', retryable: false, messages: ['Consumer key is invalid.'] });
    expect(err.message).not.toContain(fake.credentials.consumer_key);
    expect(outcomes.at(-1)).toEqual({ operation: 'connection_test', outcome: 'unauthorized' });
    expect((await rejection(channel.testConnection(conn({ credentials: {} })))).kind).toBe('unauthorized');
    const fresh = fake.issueKeys();
    expect(await channel.testConnection(conn({ credentials: fresh }))).toEqual({ scopes: [] });
  });

  it('429 is waited out for Retry-After and sent again; past the retries it is throttled with retryAfterMs', async () => {
    fake.site.seedOrder();
    const store = wooFakeStore(fake);
    store.failNext(429);
    const page = await channel.listOrdersUpdatedSince(conn(), '2000-01-01T00:00:00Z', null, 10);
    expect(page.orders.length).toBeGreaterThan(0);
    expect(sleeps).toEqual([1000]);
    expect(outcomes.map((o) => o.outcome)).toEqual(['throttled', 'success']);
    fake.fail('orders_list', ...Array.from({ length: 3 }, () => ({ kind: 'status' as const, status: 429, headers: { 'retry-after': '7' } })));
    const err = await rejection(channel.listOrdersUpdatedSince(conn(), '2000-01-01T00:00:00Z', null, 10));
    expect(err).toMatchObject({ kind: 'throttled', retryable: true, retryAfterMs: 7000 });
  });

  it('5xx past the retries is server_error; a hanging WooCommerce ends at the deadline as a timeout', async () => {
    wooFakeStore(fake).failNext(500, 3);
    expect(await rejection(channel.testConnection(conn()))).toMatchObject({ kind: 'server_error', platformStatus: '500', retryable: true });
    expect(fake.count('orders_list')).toBe(3);
    fake.fail('orders_list', { kind: 'hang' });
    const err = await rejection(channel.testConnection(conn(), { timeoutMs: 300 }));
    expect(err.kind).toBe('timeout');
  });
});

describe('the FakeStore surface of the fake', () => {
  it('seeds, edits, cancels, emits and breaks as the shared scenarios expect', async () => {
    const store = wooFakeStore(fake);
    expect(store).toMatchObject({ platform: 'woocommerce', url: fake.url, connect: { store_ref: fake.siteUrl, credentials: fake.credentials } });
    expect(woocommerce.normaliseStoreRef(store.connect.store_ref)).toBe('https://fake-goods.example');
    const c = conn();
    await channel.createWebhookSubscription(c, 'order.created', receiverUrl);
    await channel.createWebhookSubscription(c, 'order.updated', receiverUrl);
    const id = store.seedOrder({ lines: 2 });
    const skipped = store.seedOrder({ importable: false });
    expect([store.orderStatus(id), store.orderStatus(skipped)]).toEqual(['processing', 'pending']);
    const before = (await channel.fetchOrder(c, id))!;
    expect(before.line_items).toHaveLength(2);
    expect(woocommerce.defaultImportStatuses).toContain(before.platform_status);
    store.editAddress(id, '1 New Street');
    const edited = (await channel.fetchOrder(c, id))!;
    expect(edited.ship_to?.street1).toBe('1 New Street');
    expect(edited.version > before.version).toBe(true);
    received.length = 0;
    expect(await store.emit(id, 'created')).toEqual([200]);
    store.cancelOrder(id);
    expect(await store.emit(id, 'cancelled')).toEqual([200]);
    expect(received.map((r) => r.headers['x-wc-webhook-topic'])).toEqual(['order.created', 'order.updated']);
    const cancelled = channel.parseWebhookOrder('order.updated', JSON.parse(received[1].raw.toString())) as ChannelOrder;
    expect(cancelled).toMatchObject({ cancelled: true, platform_status: 'cancelled' });
    expect(await store.redeliverLast()).toBe(200);
    expect(store.webhooks()).toEqual([
      { topic: 'order.created', url: receiverUrl, active: true },
      { topic: 'order.updated', url: receiverUrl, active: true },
    ]);
    store.breakWebhooks();
    expect(store.webhooks().map((w) => w.active)).toEqual([false, false]);
    expect(await store.emit(id, 'updated')).toEqual([]);
    store.revokeCredentials();
    expect((await rejection(channel.testConnection(c))).kind).toBe('unauthorized');
    expect(await channel.testConnection(conn({ credentials: store.freshCredentials() }))).toEqual({ scopes: [] });
    store.reset();
    expect(await channel.testConnection(c)).toEqual({ scopes: [] });
  });
});
