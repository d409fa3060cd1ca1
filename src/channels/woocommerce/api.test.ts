import { describe, expect, it } from 'vitest';
import { rejection, useChannelApiTest } from '../../../test/helpers/channel-api.js';
import { startFakeWooCommerce, wooFakeStore } from '../../../test/helpers/fake-woocommerce/index.js';
import type { ReceivedRequest } from '../../../test/helpers/webhook-receiver.js';
import { ChannelError, type ChannelConnection, type ChannelOrder } from '../types.js';
import type { WooCommerceChannel } from './client.js';
import { platform as woocommerce } from './index.js';

const SECRET = 'whsec0123456789abcdefghijABCDEFGHIJ';
const api = useChannelApiTest({
  startFake: (clock) => startFakeWooCommerce({ clock, siteUrl: 'https://Fake-Goods.example/' }),
  createChannel: (http) => woocommerce.createChannel(http) as WooCommerceChannel,
  /** One clock for the client and the fake: WooCommerce's dates and the client's waits move together. */
  startAt: Date.parse('2026-03-02T15:00:00.000Z'),
  stepMs: 60_000,
  reset: (fake) => fake.site.webhooks.clear(),
  secrets: ({ credentials: { consumer_key, consumer_secret } }) => [
    consumer_secret,
    SECRET,
    Buffer.from(`${consumer_key}:${consumer_secret}`).toString('base64'),
  ],
});
const { sleeps, exchanges, outcomes } = api;
let seq = 0;

const conn = (over: Partial<ChannelConnection> = {}): ChannelConnection => ({
  integrationId: `int_woo${++seq}`,
  storeRef: woocommerce.normaliseStoreRef(api.fake.siteUrl)!,
  origin: api.fake.url,
  credentials: { ...api.fake.credentials, webhook_secret: SECRET },
  ...over,
});

const tracking = (number: string) => ({ company: 'UPS', number, url: `https://www.ups.com/track?tracknum=${number}`, carrier: 'ups', service: 'UPS Ground' });

const verify = (r: Pick<ReceivedRequest, 'headers' | 'raw'>, over: { secret?: string; storeRef?: string } = {}) =>
  api.channel.verifyWebhook({ headers: r.headers, rawBody: r.raw, secret: over.secret ?? SECRET, storeRef: over.storeRef ?? conn().storeRef });

describe('the fake WooCommerce checks what it is sent', () => {
  it('records requests the description refuses (it is not a rubber stamp)', async () => {
    const auth = `Basic ${Buffer.from(`${api.fake.credentials.consumer_key}:${api.fake.credentials.consumer_secret}`).toString('base64')}`;
    const list = await fetch(`${api.fake.url}/wp-json/wc/v3/orders?orderby=updated&per_page=500&since=2026-01-01`, { headers: { authorization: auth } });
    expect(list.status).toBe(400);
    expect(((await list.json()) as { code: string }).code).toBe('rest_invalid_param');
    const o = api.fake.site.seedOrder();
    await fetch(`${api.fake.url}/wp-json/wc/v3/orders/${o.id}/notes`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'shipped', customer_note: 'yes' }),
    });
    await fetch(`${api.fake.url}/wp-json/wc/v3/orders/${o.id}/fulfillments`, { method: 'POST', headers: { authorization: auth } });
    const problems = api.fake.violations.join('\n');
    expect(problems).toMatch(/orderby must be one of .*got updated/);
    expect(problems).toMatch(/per_page must be 1 to 100/);
    expect(problems).toMatch(/query parameter since is not declared/);
    expect(problems).toMatch(/required property 'note'/);
    expect(problems).toMatch(/customer_note must be boolean/);
    expect(problems).toMatch(/POST \/wp-json\/wc\/v3\/orders\/\d+\/fulfillments: a route the fake does not serve/);
    expect(o.notes).toEqual([]);
    api.fake.violations.length = 0;
  });
});

describe('connection and webhook subscriptions', () => {
  it('tests the connection with one authenticated order read; WooCommerce reports no scopes', async () => {
    expect(await api.channel.testConnection(conn())).toEqual({ scopes: [] });
    expect(api.fake.requests.map((r) => `${r.method} ${r.path}?${new URLSearchParams(r.query)}`)).toEqual(['GET /wp-json/wc/v3/orders?per_page=1']);
    expect(api.fake.requests[0].headers.authorization).toMatch(/^Basic /);
    expect(exchanges[0].request_headers.authorization).toBe('[REDACTED]');
    expect(outcomes).toEqual([{ operation: 'connection_test', outcome: 'success' }]);
  });

  it('creates the three order webhooks with our secret; each is pinged, the ping is answered and never applied', async () => {
    const c = conn();
    const made = [];
    for (const topic of woocommerce.webhookTopics) made.push(await api.channel.createWebhookSubscription(c, topic, api.receiverUrl));
    expect(made.map((m) => [m.topic, m.callbackUrl, m.active])).toEqual([
      ['order.created', api.receiverUrl, true],
      ['order.updated', api.receiverUrl, true],
      ['order.deleted', api.receiverUrl, true],
    ]);
    expect([...api.fake.site.webhooks.values()].map((w) => w.secret)).toEqual([SECRET, SECRET, SECRET]);
    expect(api.fake.count('webhook_create')).toBe(3);
    // WooCommerce's ping: an unsigned form body, none of the webhook headers.
    expect(api.received.map((r) => r.raw.toString())).toEqual(made.map((m) => `webhook_id=${m.id}`));
    expect(api.received[0].headers['x-wc-webhook-signature']).toBeUndefined();
    const pinged = verify(api.received[0]);
    expect(pinged).toMatchObject({ ok: true, ping: true, topic: 'ping' });
    expect(JSON.stringify(exchanges)).not.toContain(SECRET);
    expect(exchanges[0].request_body).toMatchObject({ topic: 'order.created', delivery_url: api.receiverUrl, secret: '[REDACTED]' });
  });

  it('lists every webhook over several pages; disabled and paused ones are inactive until reactivated', async () => {
    for (let i = 0; i < 120; i++) api.fake.site.addWebhook({ topic: 'product.updated', delivery_url: `https://elsewhere.example/${i}` });
    const c = conn();
    const ours = await api.channel.createWebhookSubscription(c, 'order.updated', api.receiverUrl);
    const paused = api.fake.site.addWebhook({ topic: 'order.created', delivery_url: api.receiverUrl, status: 'paused', secret: SECRET });
    const listed = await api.channel.listWebhookSubscriptions(c);
    expect(listed).toHaveLength(122);
    expect(api.fake.requests.filter((r) => r.route === 'webhooks_list').map((r) => r.query.page)).toEqual(['1', '2']);
    expect(listed.find((w) => w.id === ours.id)).toEqual({ ...ours, active: true });
    expect(listed.find((w) => w.id === String(paused.id))!.active).toBe(false);

    wooFakeStore(api.fake).breakWebhooks();
    expect((await api.channel.listWebhookSubscriptions(c)).find((w) => w.id === ours.id)!.active).toBe(false);
    await api.channel.reactivateWebhookSubscription(c, ours.id);
    await api.channel.reactivateWebhookSubscription(c, String(paused.id));
    const after = await api.channel.listWebhookSubscriptions(c);
    expect(after.filter((w) => w.id === ours.id || w.id === String(paused.id)).map((w) => w.active)).toEqual([true, true]);
    expect(api.fake.requests.filter((r) => r.route === 'webhook_update').map((r) => r.body)).toEqual([{ status: 'active' }, { status: 'active' }]);
  });

  it('deletes for good (force=true); deleting one already gone is fine', async () => {
    const c = conn();
    const made = await api.channel.createWebhookSubscription(c, 'order.created', api.receiverUrl);
    await api.channel.deleteWebhookSubscription(c, made.id);
    await api.channel.deleteWebhookSubscription(c, made.id);
    expect(api.fake.requests.filter((r) => r.route === 'webhook_delete').map((r) => r.query)).toEqual([{ force: 'true' }, { force: 'true' }]);
    expect(await api.channel.listWebhookSubscriptions(c)).toEqual([]);
    expect(outcomes.filter((o) => o.operation === 'webhooks_delete').map((o) => o.outcome)).toEqual(['success', 'client_error']);
  });

  it('a webhook whose deliveries fail five times in a row is disabled, and comes back when reactivated', async () => {
    const c = conn();
    const made = await api.channel.createWebhookSubscription(c, 'order.updated', api.receiverUrl);
    const o = api.fake.site.seedOrder();
    api.receiverStatus = 500;
    for (let i = 0; i < 5; i++) await api.fake.emitTopic('order.updated', o);
    expect((await api.channel.listWebhookSubscriptions(c))[0]).toMatchObject({ id: made.id, active: false });
    expect(await api.fake.emitTopic('order.updated', o)).toEqual([]);
    api.receiverStatus = 200;
    await api.channel.reactivateWebhookSubscription(c, made.id);
    expect((await api.fake.emitTopic('order.updated', o)).map((d) => d.status)).toEqual([200]);
  });

  it("refuses to create a webhook without our secret, and relays WooCommerce's refusal of a bad topic", async () => {
    const c = conn();
    const noSecret = await rejection(api.channel.createWebhookSubscription({ ...c, credentials: api.fake.credentials }, 'order.created', api.receiverUrl));
    expect(noSecret.kind).toBe('rejected');
    expect(api.fake.count('webhook_create')).toBe(0);
    const bad = await rejection(api.channel.createWebhookSubscription(c, 'order.shipped', api.receiverUrl));
    expect(bad).toMatchObject({ kind: 'rejected', platformStatus: 'woocommerce_rest_webhook_invalid_topic', retryable: false });
    expect(bad.messages).toEqual(['Webhook topic is required and must be valid.']);
  });
});

describe('orders in', () => {
  it('pages through the orders modified since an instant, oldest first, the boundary second included', async () => {
    const since = api.clock;
    const old = api.fake.site.seedOrder({ modifiedAt: since - 3_600_000 });
    // Modified in the very second the watermark names: WooCommerce compares strictly, so it must still come back.
    const boundary = api.fake.site.seedOrder({ modifiedAt: since + 400 });
    const ids: number[] = [];
    for (let i = 0; i < 23; i++) {
      api.clock += 1000;
      ids.push(api.fake.site.seedOrder().id);
    }
    api.clock += 5000;
    api.fake.site.edit(ids[0], (o) => (o.billing.email = 'new@example.com'));
    const c = conn();
    const seen: ChannelOrder[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { orders: ChannelOrder[]; nextCursor: string | null } = await api.channel.listOrdersUpdatedSince(
        c,
        new Date(since + 400).toISOString(),
        cursor,
        10,
      );
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
    const first = api.fake.requests.find((r) => r.route === 'orders_list')!;
    expect(first.query).toEqual({
      modified_after: new Date(Math.floor((since + 400) / 1000) * 1000 - 1000).toISOString().slice(0, 19),
      dates_are_gmt: 'true',
      orderby: 'modified',
      order: 'asc',
      per_page: '10',
      page: '1',
    });
    expect((await rejection(api.channel.listOrdersUpdatedSince(c, new Date(since).toISOString(), 'abc', 10))).kind).toBe('rejected');
  });

  it('fetches one order mapped field by field; an unknown one is null', async () => {
    const o = api.fake.site.seedOrder({
      currency: 'JPY',
      billing: { first_name: 'Ann', last_name: 'Payer', email: 'ann@example.com', phone: '+815055501234' },
      shipping: {
        first_name: 'Ben',
        last_name: 'Getter',
        company: 'Getter KK',
        address_1: '1-2-3 Ginza',
        address_2: '',
        city: 'Chuo-ku',
        state: 'JP13',
        postcode: '104-0061',
        country: 'jp',
      },
      lines: [
        { sku: 'MUG-1', name: 'Blue mug', quantity: 3, price: '1200' },
        { sku: '', name: 'Gift wrap', quantity: 1, price: '300' },
      ],
      shippingLine: { method_id: 'flat_rate', method_title: 'Yamato TA-Q-BIN' },
    });
    const order = (await api.channel.fetchOrder(conn(), String(o.id)))!;
    expect(order).toEqual({
      external_id: String(o.id),
      external_number: o.number,
      version: new Date(o.modifiedAt).toISOString(),
      platform_status: 'processing',
      cancelled: false,
      cancelled_at: null,
      currency: 'JPY',
      customer: { name: 'Ann Payer', email: 'ann@example.com', phone: '+815055501234' },
      ship_to: {
        name: 'Ben Getter',
        company: 'Getter KK',
        street1: '1-2-3 Ginza',
        city: 'Chuo-ku',
        state: 'JP13',
        postal_code: '104-0061',
        country: 'JP',
        phone: '+815055501234',
        email: 'ann@example.com',
      },
      line_items: [
        {
          external_line_id: String(o.lines[0].id),
          sku: 'MUG-1',
          name: 'Blue mug',
          quantity: 3,
          unit_price: { amount: 1200, currency: 'JPY' },
          weight_oz: null,
          requires_shipping: true,
        },
        {
          external_line_id: String(o.lines[1].id),
          sku: null,
          name: 'Gift wrap',
          quantity: 1,
          unit_price: { amount: 300, currency: 'JPY' },
          weight_oz: null,
          requires_shipping: true,
        },
      ],
      shipping_line: { code: 'flat_rate', title: 'Yamato TA-Q-BIN' },
      fulfillments: [],
      raw_updated_at: new Date(o.modifiedAt).toISOString().slice(0, 19),
    });
    expect(await api.channel.fetchOrder(conn(), '999999')).toBeNull();
    expect((await rejection(api.channel.fetchOrder(conn(), '12abc'))).kind).toBe('not_found');
  });

  it('verifies and reads deliveries exactly as WooCommerce sends them, the same order as the API reads', async () => {
    const c = conn();
    await api.channel.createWebhookSubscription(c, 'order.updated', api.receiverUrl);
    api.received.length = 0;
    const o = api.fake.site.seedOrder({ shipping: { address_1: '12 Rue de l’Église / Bât B', city: 'Paris', postcode: '75004', country: 'FR', state: '' } });
    api.fake.site.edit(o.id, (x) => (x.billing.phone = '+33155550199'));
    await wooFakeStore(api.fake).emit(String(o.id), 'updated');
    expect(api.received).toHaveLength(1);
    const delivery = api.received[0];
    // PHP's encoding: the signature covers these bytes, not a re-serialisation.
    expect(delivery.raw.toString()).toContain('\\/ B\\u00e2t');
    const verified = verify(delivery);
    expect(verified).toMatchObject({
      ok: true,
      topic: 'order.updated',
      storeRef: 'https://fake-goods.example',
      deliveryId: delivery.headers['x-wc-webhook-delivery-id'],
    });
    if (!verified.ok) throw new Error('unreachable');
    const fromWebhook = api.channel.parseWebhookOrder(verified.topic, JSON.parse(delivery.raw.toString())) as ChannelOrder;
    expect(fromWebhook.ship_to?.street1).toBe('12 Rue de l’Église / Bât B');
    expect(fromWebhook).toEqual(await api.channel.fetchOrder(c, String(o.id)));
    expect(api.channel.webhookOrderId(JSON.parse(delivery.raw.toString()))).toBe(String(o.id));

    // Another secret, another site, a body changed after signing, no signature: refused.
    expect(verify(delivery, { secret: 'another-secret-entirely' })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verify(delivery, { storeRef: 'https://other-shop.example' })).toEqual({ ok: false, reason: 'wrong_store' });
    expect(verify({ headers: delivery.headers, raw: Buffer.from(delivery.raw.toString().replace('Paris', 'Lyon')) })).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    const { 'x-wc-webhook-signature': _s, ...unsigned } = delivery.headers;
    expect(verify({ headers: unsigned, raw: delivery.raw })).toEqual({ ok: false, reason: 'missing_signature' });
    // The site's home URL with its trailing slash, in another case and scheme, is still this store.
    expect(verify(delivery, { storeRef: 'http://FAKE-GOODS.example/' })).toMatchObject({ ok: true });
    // A retry carries the same delivery id (the receiver's dedupe key).
    await api.fake.redeliverLast();
    expect(api.received[1].headers['x-wc-webhook-delivery-id']).toBe(delivery.headers['x-wc-webhook-delivery-id']);
    expect(() => api.channel.parseWebhookOrder('product.updated', {})).toThrow(ChannelError);
    expect(() => api.channel.parseWebhookOrder('order.created', { nope: true })).toThrow(ChannelError);
  });

  it('a trashed order comes as order.deleted {id}: read back, it is cancelled; one deleted for good reads as null', async () => {
    const c = conn();
    await api.channel.createWebhookSubscription(c, 'order.deleted', api.receiverUrl);
    api.received.length = 0;
    const trashed = api.fake.site.seedOrder();
    await api.fake.trash(trashed.id);
    const delivery = api.received[0];
    expect(JSON.parse(delivery.raw.toString())).toEqual({ id: trashed.id });
    const verified = verify(delivery);
    if (!verified.ok) throw new Error(`refused: ${verified.reason}`);
    const content = api.channel.parseWebhookOrder(verified.topic, JSON.parse(delivery.raw.toString()));
    expect(content).toEqual({ kind: 'fetch', external_id: String(trashed.id) });
    expect(await api.channel.fetchOrder(c, String(trashed.id))).toMatchObject({
      platform_status: 'trash',
      cancelled: true,
      cancelled_at: new Date(trashed.modifiedAt).toISOString(),
    });

    const gone = api.fake.site.seedOrder();
    await api.fake.deleteForGood(gone.id);
    const second = verify(api.received[1]);
    if (!second.ok) throw new Error('refused');
    const fetchIt = api.channel.parseWebhookOrder(second.topic, JSON.parse(api.received[1].raw.toString())) as { external_id: string };
    expect(await api.channel.fetchOrder(c, fetchIt.external_id)).toBeNull();
  });
});

describe('tracking back: fulfill as an order note, then completed', () => {
  it('writes one note naming carrier, service, number and link, completes the order; a second attempt writes nothing', async () => {
    const o = api.fake.site.seedOrder({ lines: [{ quantity: 2 }, {}] });
    const c = conn();
    const first = await api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZA1'), notifyCustomer: true });
    expect(first).toEqual({ outcome: 'created', refs: [String(o.notes[0].id)] });
    expect(o.notes).toHaveLength(1);
    expect(o.notes[0]).toMatchObject({ customer_note: true });
    expect(o.notes[0].note).toBe('Shipped with UPS (UPS Ground), tracking number 1ZA1; track it at https://www.ups.com/track?tracknum=1ZA1.');
    expect(o.status).toBe('completed');
    expect(wooFakeStore(api.fake).shippedTracking(String(o.id))).toEqual(['1ZA1']);
    expect(api.fake.requests.map((r) => `${r.method} ${r.route}`)).toEqual(['GET order_get', 'GET notes_list', 'POST note_create', 'PUT order_update']);
    expect(api.fake.requests.at(-1)!.body).toEqual({ status: 'completed' });

    const again = await api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZA1'), notifyCustomer: true });
    expect(again).toEqual({ outcome: 'already_fulfilled', refs: (first as { refs: string[] }).refs });
    expect(api.fake.count('note_create')).toBe(1);
    expect(api.fake.count('order_update')).toBe(1);
  });

  it('an answer lost after WooCommerce added the note: not re-sent, and the next attempt finds it and finishes the status', async () => {
    const o = api.fake.site.seedOrder();
    const c = conn();
    wooFakeStore(api.fake).dropNextWriteAnswer();
    const err = await rejection(api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZE5'), notifyCustomer: false }));
    expect(err).toMatchObject({ kind: 'network', retryable: true });
    expect(api.fake.count('note_create')).toBe(1);
    expect(o.notes).toHaveLength(1);
    expect(o.status).toBe('processing');
    const retry = await api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZE5'), notifyCustomer: false });
    expect(retry).toEqual({ outcome: 'already_fulfilled', refs: [String(o.notes[0].id)] });
    expect(api.fake.count('note_create')).toBe(1);
    expect(o.notes).toHaveLength(1);
    expect(o.status).toBe('completed');
  });

  it('a 5xx is retried for reads (waiting Retry-After) and for the status, never for the note', async () => {
    const o = api.fake.site.seedOrder();
    const c = conn();
    api.fake.fail('notes_list', { kind: 'status', status: 503, headers: { 'retry-after': '2' } });
    api.fake.fail('note_create', { kind: 'status', status: 502 });
    const err = await rejection(api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZF6'), notifyCustomer: false }));
    expect(err).toMatchObject({ kind: 'server_error', platformStatus: '502' });
    expect(api.fake.count('note_create')).toBe(1);
    expect(sleeps).toContain(2000);
    expect(outcomes.filter((x) => x.outcome === 'server_error').map((x) => x.operation)).toEqual(['notes_read', 'note_create']);
    api.fake.fail('order_update', { kind: 'status', status: 500 });
    expect((await api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZF6'), notifyCustomer: false })).outcome).toBe('created');
    expect(api.fake.count('order_update')).toBe(2);
    expect(o.status).toBe('completed');
  });

  it('a cancelled, trashed or refunded order is closed with nothing written; an unknown one not_found', async () => {
    for (const status of ['cancelled', 'trash', 'refunded']) {
      const o = api.fake.site.seedOrder({ status });
      expect(await api.channel.fulfill(conn(), { externalOrderId: String(o.id), tracking: tracking('1ZD5'), notifyCustomer: false })).toMatchObject({
        outcome: 'closed',
      });
    }
    expect(api.fake.count('note_create')).toBe(0);
    expect((await rejection(api.channel.fulfill(conn(), { externalOrderId: '424242', tracking: tracking('1ZD6'), notifyCustomer: false }))).kind).toBe(
      'not_found',
    );
  });

  it('some lines only: the note lists them and the order stays processing; all lines: completed', async () => {
    const o = api.fake.site.seedOrder({
      lines: [
        { name: 'Blue mug', sku: 'MUG-1', quantity: 3 },
        { name: 'Saucer', sku: 'SAU-1' },
      ],
    });
    const part = await api.channel.fulfill(conn(), {
      externalOrderId: String(o.id),
      lines: [{ external_line_id: String(o.lines[0].id), quantity: 2 }],
      tracking: tracking('1ZC3'),
      notifyCustomer: false,
    });
    expect(part.outcome).toBe('created');
    expect(o.notes[0].note).toContain('items: 2 × Blue mug (MUG-1)');
    expect(o.status).toBe('processing');
    const all = o.lines.map((l) => ({ external_line_id: String(l.id), quantity: l.quantity }));
    await api.channel.fulfill(conn(), { externalOrderId: String(o.id), lines: all, tracking: tracking('1ZC4'), notifyCustomer: false });
    expect(o.status).toBe('completed');
  });

  it('a voided label: a note says so and the order is processing again; twice writes nothing more; shipping again writes anew', async () => {
    const o = api.fake.site.seedOrder();
    const c = conn();
    const made = (await api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZH8'), notifyCustomer: true })) as { refs: string[] };
    await api.channel.cancelFulfillment(c, { ref: made.refs[0], externalOrderId: String(o.id), trackingNumber: '1ZH8' });
    expect(o.status).toBe('processing');
    expect(o.notes.at(-1)).toMatchObject({
      customer_note: false,
      note: 'Shipment voided: the label with tracking number 1ZH8 was voided; this parcel will not be sent.',
    });
    expect(wooFakeStore(api.fake).shippedTracking(String(o.id))).toEqual([]);
    await api.channel.cancelFulfillment(c, { ref: made.refs[0], externalOrderId: String(o.id), trackingNumber: '1ZH8' });
    expect(o.notes).toHaveLength(2);
    expect(api.fake.count('note_create')).toBe(2);
    // A voided shipment does not count as written.
    expect((await api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZH8'), notifyCustomer: false })).outcome).toBe('created');
    expect(o.status).toBe('completed');
    expect(wooFakeStore(api.fake).shippedTracking(String(o.id))).toEqual(['1ZH8']);
  });

  it('voiding one of two shipments leaves the order completed', async () => {
    const o = api.fake.site.seedOrder({ lines: [{}, {}] });
    const c = conn();
    const a = (await api.channel.fulfill(c, {
      externalOrderId: String(o.id),
      lines: [{ external_line_id: String(o.lines[0].id), quantity: 1 }],
      tracking: tracking('1ZK1'),
      notifyCustomer: false,
    })) as { refs: string[] };
    await api.channel.fulfill(c, { externalOrderId: String(o.id), tracking: tracking('1ZK2'), notifyCustomer: false });
    expect(o.status).toBe('completed');
    await api.channel.cancelFulfillment(c, { ref: a.refs[0], externalOrderId: String(o.id), trackingNumber: '1ZK1' });
    expect(o.status).toBe('completed');
    expect(wooFakeStore(api.fake).shippedTracking(String(o.id))).toEqual(['1ZK2']);
  });
});

describe('limits and failures', () => {
  it('revoked keys are unauthorized (401), and so is a connection without keys', async () => {
    const c = conn();
    api.fake.revokeKeys();
    const err = await rejection(api.channel.testConnection(c));
    expect(err).toMatchObject({ kind: 'unauthorized', platformStatus: '401', retryable: false, messages: ['Consumer key is invalid.'] });
    expect(err.message).not.toContain(api.fake.credentials.consumer_key);
    expect(outcomes.at(-1)).toEqual({ operation: 'connection_test', outcome: 'unauthorized' });
    expect((await rejection(api.channel.testConnection(conn({ credentials: {} })))).kind).toBe('unauthorized');
    const fresh = api.fake.issueKeys();
    expect(await api.channel.testConnection(conn({ credentials: fresh }))).toEqual({ scopes: [] });
  });

  it('429 is waited out for Retry-After and sent again; past the retries it is throttled with retryAfterMs', async () => {
    api.fake.site.seedOrder();
    const store = wooFakeStore(api.fake);
    store.failNext(429);
    const page = await api.channel.listOrdersUpdatedSince(conn(), '2000-01-01T00:00:00Z', null, 10);
    expect(page.orders.length).toBeGreaterThan(0);
    expect(sleeps).toEqual([1000]);
    expect(outcomes.map((o) => o.outcome)).toEqual(['throttled', 'success']);
    api.fake.fail('orders_list', ...Array.from({ length: 3 }, () => ({ kind: 'status' as const, status: 429, headers: { 'retry-after': '7' } })));
    const err = await rejection(api.channel.listOrdersUpdatedSince(conn(), '2000-01-01T00:00:00Z', null, 10));
    expect(err).toMatchObject({ kind: 'throttled', retryable: true, retryAfterMs: 7000 });
  });

  it('5xx past the retries is server_error; a hanging WooCommerce ends at the deadline as a timeout', async () => {
    wooFakeStore(api.fake).failNext(500, 3);
    expect(await rejection(api.channel.testConnection(conn()))).toMatchObject({ kind: 'server_error', platformStatus: '500', retryable: true });
    expect(api.fake.count('orders_list')).toBe(3);
    api.fake.fail('orders_list', { kind: 'hang' });
    const err = await rejection(api.channel.testConnection(conn(), { timeoutMs: 300 }));
    expect(err.kind).toBe('timeout');
  });
});

describe('the FakeStore surface of the fake', () => {
  it('seeds, edits, cancels, emits and breaks as the shared scenarios expect', async () => {
    const store = wooFakeStore(api.fake);
    expect(store).toMatchObject({ platform: 'woocommerce', url: api.fake.url, connect: { store_ref: api.fake.siteUrl, credentials: api.fake.credentials } });
    expect(woocommerce.normaliseStoreRef(store.connect.store_ref)).toBe('https://fake-goods.example');
    const c = conn();
    await api.channel.createWebhookSubscription(c, 'order.created', api.receiverUrl);
    await api.channel.createWebhookSubscription(c, 'order.updated', api.receiverUrl);
    const id = store.seedOrder({ lines: 2 });
    const skipped = store.seedOrder({ importable: false });
    expect([store.orderStatus(id), store.orderStatus(skipped)]).toEqual(['processing', 'pending']);
    const before = (await api.channel.fetchOrder(c, id))!;
    expect(before.line_items).toHaveLength(2);
    expect(woocommerce.defaultImportStatuses).toContain(before.platform_status);
    store.editAddress(id, '1 New Street');
    const edited = (await api.channel.fetchOrder(c, id))!;
    expect(edited.ship_to?.street1).toBe('1 New Street');
    expect(edited.version > before.version).toBe(true);
    api.received.length = 0;
    expect(await store.emit(id, 'created')).toEqual([200]);
    store.cancelOrder(id);
    expect(await store.emit(id, 'cancelled')).toEqual([200]);
    expect(api.received.map((r) => r.headers['x-wc-webhook-topic'])).toEqual(['order.created', 'order.updated']);
    const cancelled = api.channel.parseWebhookOrder('order.updated', JSON.parse(api.received[1].raw.toString())) as ChannelOrder;
    expect(cancelled).toMatchObject({ cancelled: true, platform_status: 'cancelled' });
    expect(await store.redeliverLast()).toBe(200);
    expect(store.webhooks()).toEqual([
      { topic: 'order.created', url: api.receiverUrl, active: true },
      { topic: 'order.updated', url: api.receiverUrl, active: true },
    ]);
    store.breakWebhooks();
    expect(store.webhooks().map((w) => w.active)).toEqual([false, false]);
    expect(await store.emit(id, 'updated')).toEqual([]);
    store.revokeCredentials();
    expect((await rejection(api.channel.testConnection(c))).kind).toBe('unauthorized');
    expect(await api.channel.testConnection(conn({ credentials: store.freshCredentials() }))).toEqual({ scopes: [] });
    store.reset();
    expect(await api.channel.testConnection(c)).toEqual({ scopes: [] });
  });
});
