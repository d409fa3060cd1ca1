import { createHash, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { FakeStore } from '../fake-store.js';
import { loadWooSpec } from './spec.js';
import { FakeSite, SITE_OFFSET_MS, WEBHOOK_TOPICS, type SeedOrder, type WooOrder, type WooWebhook } from './store.js';

export { FakeSite, type SeedOrder, type WooOrder, type WooWebhook } from './store.js';
export { loadWooSpec, WOOCOMMERCE_SPEC_FILE } from './spec.js';

/**
 * A fake WooCommerce on 127.0.0.1 (a double of WooCommerce, not of our code): the `wc/v3` REST
 * routes the connector uses under `/wp-json/wc/v3`, with HTTP Basic consumer keys.
 *
 * Every request is checked against WooCommerce's published OpenAPI document (spec.ts: route,
 * path and query parameters, JSON body) and every answer the fake gives against the document's
 * schemas; each problem is recorded in `violations` (a test asserts none) and a refused request
 * is answered as WordPress does (400 `rest_invalid_param`). Lists are paged with `X-WP-Total` and
 * `X-WP-TotalPages`. Webhooks are sent as WooCommerce sends them: a form ping `webhook_id=<n>`
 * when one is created, then JSON bodies encoded as PHP encodes them (`\/`, `\uXXXX`) with the
 * `X-WC-Webhook-*` headers and signature; five failed deliveries in a row disable a webhook.
 *
 * Faults are queued per route (`fail('note_create', {kind: 'drop_after_apply'})`) or for any
 * route (`'*'`), each used once.
 */

export type WooRoute =
  'orders_list' | 'order_get' | 'order_update' | 'notes_list' | 'note_create' | 'webhooks_list' | 'webhook_create' | 'webhook_update' | 'webhook_delete';

export type WooFault =
  /** Answered normally (to fault the second call of a route, not the first). */
  | { kind: 'none' }
  /** An HTTP status with a JSON body (5xx, 429 with Retry-After…); nothing run. */
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: unknown }
  /** Never answers. */
  | { kind: 'hang' }
  /** Runs the request (a write is applied), then drops the connection without answering. */
  | { kind: 'drop_after_apply' }
  /** Runs the request (a write is applied) at once and answers `ms` later. */
  | { kind: 'delay_after_apply'; ms: number };

export interface WooRequest {
  method: string;
  path: string;
  route: WooRoute | null;
  query: Record<string, string>;
  body: unknown;
  headers: http.IncomingHttpHeaders;
  problems: string[];
}

export interface WooDelivery {
  webhookId: number;
  url: string;
  topic: string;
  headers: Record<string, string>;
  body: string;
  status: number | null;
}

export interface FakeWooOptions {
  /** The site URL WooCommerce knows itself by (`X-WC-Webhook-Source`), distinct from the loopback URL it is reached at. */
  siteUrl?: string;
  /** WooCommerce's clock for dates (Date.now); a test shares its fake clock with the client. */
  clock?: () => number;
}

const API = '/wp-json/wc/v3';
const USER_AGENT = 'WooCommerce/8.9.1 Hookshot (WordPress/6.5.3)';
/** Consecutive failed deliveries after which WooCommerce disables a webhook (docs/channels-woocommerce.md). */
export const MAX_DELIVERY_FAILURES = 5;

/** JSON as PHP's `json_encode` writes it (WordPress's `wp_json_encode`): `/` and non-ASCII escaped. */
export function phpJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const newKeyPair = () => ({ consumer_key: `ck_${randomBytes(20).toString('hex')}`, consumer_secret: `cs_${randomBytes(20).toString('hex')}` });

function routeOf(method: string, path: string): { route: WooRoute; id?: number } | null {
  const rest = path.startsWith(API) ? path.slice(API.length) : null;
  if (rest === null) return null;
  let m: RegExpExecArray | null;
  if (rest === '/orders' && method === 'GET') return { route: 'orders_list' };
  if ((m = /^\/orders\/(\d+)$/.exec(rest))) {
    if (method === 'GET') return { route: 'order_get', id: Number(m[1]) };
    if (method === 'PUT') return { route: 'order_update', id: Number(m[1]) };
  }
  if ((m = /^\/orders\/(\d+)\/notes$/.exec(rest))) {
    if (method === 'GET') return { route: 'notes_list', id: Number(m[1]) };
    if (method === 'POST') return { route: 'note_create', id: Number(m[1]) };
  }
  if (rest === '/webhooks' && method === 'GET') return { route: 'webhooks_list' };
  if (rest === '/webhooks' && method === 'POST') return { route: 'webhook_create' };
  if ((m = /^\/webhooks\/(\d+)$/.exec(rest))) {
    if (method === 'PUT') return { route: 'webhook_update', id: Number(m[1]) };
    if (method === 'DELETE') return { route: 'webhook_delete', id: Number(m[1]) };
  }
  return null;
}

class Answer {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    /** The document's schema the answer must match (`shop_order`, `order_note`, `webhook`), `[]` for a list of them. */
    readonly schema: string | null = null,
    readonly list = false,
  ) {}
}

const wpError = (status: number, code: string, message: string, extra: Record<string, unknown> = {}) =>
  new Answer(status, { code, message, data: { status, ...extra } });

export async function startFakeWooCommerce(options: FakeWooOptions = {}) {
  const spec = loadWooSpec();
  const clock = options.clock ?? Date.now;
  const siteUrl = (options.siteUrl ?? 'https://fake-goods.example').replace(/\/+$/, '');
  const site = new FakeSite(siteUrl, clock);
  const merchantKeys = newKeyPair();
  let keys = [merchantKeys];
  const requests: WooRequest[] = [];
  const violations: string[] = [];
  const deliveries: WooDelivery[] = [];
  const faults = new Map<string, WooFault[]>();
  const sockets = new Set<Socket>();

  function nextFault(route: WooRoute): WooFault | undefined {
    for (const key of [route, '*']) {
      const q = faults.get(key);
      if (q?.length) return q.shift();
    }
    return undefined;
  }

  function authorised(header: string | undefined): boolean {
    const m = /^Basic\s+(\S+)$/i.exec(header ?? '');
    if (!m) return false;
    const decoded = Buffer.from(m[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon > 0 && keys.some((k) => k.consumer_key === decoded.slice(0, colon) && k.consumer_secret === decoded.slice(colon + 1));
  }

  function page<T>(items: T[], query: Record<string, string>, render: (t: T) => unknown, schema: string): Answer {
    const perPage = Number(query.per_page ?? 10);
    const pageNo = Number(query.page ?? 1);
    const total = items.length;
    const pages = Math.max(1, Math.ceil(total / perPage));
    const slice = items.slice((pageNo - 1) * perPage, pageNo * perPage).map(render);
    return new Answer(200, slice, { 'x-wp-total': String(total), 'x-wp-totalpages': String(total === 0 ? 0 : pages) }, schema, true);
  }

  /** A date parameter as an instant: GMT when `dates_are_gmt` or when it names its zone, else the site's local time. */
  function dateParam(value: string, gmt: boolean): number {
    if (/(Z|[+-]\d{2}:?\d{2})$/i.test(value)) return Date.parse(value);
    return Date.parse(`${value.replace(' ', 'T')}Z`) - (gmt ? 0 : SITE_OFFSET_MS);
  }

  function listOrders(query: Record<string, string>): Answer {
    const gmt = query.dates_are_gmt === 'true' || query.dates_are_gmt === '1';
    let list = [...site.orders.values()].filter((o) => o.status !== 'trash');
    // Strictly after, to the second: WordPress's date query with `inclusive` false.
    if (query.modified_after) {
      const after = dateParam(query.modified_after, gmt);
      list = list.filter((o) => Math.floor(o.modifiedAt / 1000) * 1000 > after);
    }
    const key = query.orderby ?? 'date';
    const value = (o: WooOrder) => (key === 'modified' ? o.modifiedAt : key === 'id' ? o.id : o.createdAt);
    const dir = (query.order ?? 'desc') === 'asc' ? 1 : -1;
    list.sort((a, b) => dir * (value(a) - value(b) || a.id - b.id));
    return page(list, query, (o) => site.orderJson(o), 'shop_order');
  }

  async function handle(route: WooRoute, id: number | undefined, query: Record<string, string>, body: Record<string, any>): Promise<Answer> {
    const missingOrder = () => wpError(404, 'woocommerce_rest_shop_order_invalid_id', 'Invalid ID.');
    switch (route) {
      case 'orders_list':
        return listOrders(query);
      case 'order_get': {
        const o = site.orders.get(id!);
        return o ? new Answer(200, site.orderJson(o), {}, 'shop_order') : missingOrder();
      }
      case 'order_update': {
        const o = site.orders.get(id!);
        if (!o) return missingOrder();
        if (body.status !== undefined && body.status !== o.status) site.edit(o.id, (x) => (x.status = body.status));
        return new Answer(200, site.orderJson(o), {}, 'shop_order');
      }
      case 'notes_list': {
        const o = site.orders.get(id!);
        if (!o) return wpError(404, 'woocommerce_rest_order_invalid_id', 'Invalid order ID.');
        return new Answer(
          200,
          [...o.notes].sort((a, b) => b.id - a.id).map((n) => site.noteJson(n)),
          {},
          'order_note',
          true,
        );
      }
      case 'note_create': {
        const o = site.orders.get(id!);
        if (!o) return wpError(404, 'woocommerce_rest_order_invalid_id', 'Invalid order ID.');
        const n = site.addNote(o, String(body.note), body.customer_note === true);
        return new Answer(201, site.noteJson(n), {}, 'order_note');
      }
      case 'webhooks_list': {
        let list = [...site.webhooks.values()].sort((a, b) => b.id - a.id);
        if (query.status && query.status !== 'all') list = list.filter((w) => w.status === query.status);
        return page(list, query, (w) => site.webhookJson(w), 'webhook');
      }
      case 'webhook_create': {
        if (!WEBHOOK_TOPICS.includes(body.topic)) return wpError(400, 'woocommerce_rest_webhook_invalid_topic', 'Webhook topic is required and must be valid.');
        if (!/^https?:\/\/\S+$/.test(String(body.delivery_url)))
          return wpError(400, 'woocommerce_rest_webhook_invalid_delivery_url', 'Webhook delivery URL must be a valid URL starting with http:// or https://.');
        const w = site.addWebhook({ name: body.name, status: body.status, topic: body.topic, delivery_url: body.delivery_url, secret: body.secret });
        // WooCommerce pings a new webhook's URL before answering.
        await ping(w);
        return new Answer(201, site.webhookJson(w), {}, 'webhook');
      }
      case 'webhook_update': {
        const w = site.webhooks.get(id!);
        if (!w) return wpError(404, 'woocommerce_rest_webhook_invalid_id', 'Invalid ID.');
        for (const k of ['name', 'status', 'topic', 'secret'] as const) if (body[k] !== undefined) (w as any)[k] = body[k];
        if (body.status === 'active') w.failures = 0;
        w.modifiedAt = clock();
        return new Answer(200, site.webhookJson(w), {}, 'webhook');
      }
      case 'webhook_delete': {
        const w = site.webhooks.get(id!);
        if (!w) return wpError(404, 'woocommerce_rest_webhook_invalid_id', 'Invalid ID.');
        if (query.force !== 'true' && query.force !== '1') return wpError(501, 'woocommerce_rest_trash_not_supported', 'Webhooks do not support trashing.');
        site.webhooks.delete(w.id);
        return new Answer(200, site.webhookJson(w), {}, 'webhook');
      }
    }
  }

  function checkAnswer(answer: Answer): string[] {
    if (!answer.schema || answer.status >= 300) return [];
    const v = spec.validator(`woocommerce-wc#/components/schemas/${answer.schema}`);
    const items = answer.list ? (answer.body as unknown[]) : [answer.body];
    return items.flatMap((item) =>
      v(item) ? [] : (v.errors ?? []).slice(0, 5).map((e) => `fake's ${answer.schema} answer ${e.instancePath || '/'} ${e.message}`),
    );
  }

  function send(res: http.ServerResponse, answer: Answer) {
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=UTF-8', ...answer.headers });
    res.end(JSON.stringify(answer.body));
  }

  async function serve(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
    const url = new URL(req.url ?? '/', 'http://fake-woocommerce');
    const method = req.method ?? 'GET';
    const matched = routeOf(method, url.pathname);
    const { problems } = spec.checkRequest(method, url, req.headers, raw);
    let body: Record<string, any> = {};
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        // checkRequest recorded it.
      }
    }
    const entry: WooRequest = {
      method,
      path: url.pathname,
      route: matched?.route ?? null,
      query: Object.fromEntries(url.searchParams),
      body,
      headers: req.headers,
      problems,
    };
    requests.push(entry);
    if (!matched) {
      violations.push(`${method} ${url.pathname}: a route the fake does not serve${problems.length ? ` (${problems.join('; ')})` : ''}`);
      return send(res, wpError(404, 'rest_no_route', 'No route was found matching the URL and request method.'));
    }
    if (problems.length) {
      violations.push(...problems.map((p) => `${method} ${url.pathname}: ${p}`));
      return send(res, wpError(400, 'rest_invalid_param', `Invalid parameter(s): ${problems.join('; ')}`, { params: problems }));
    }
    if (!authorised(req.headers.authorization)) {
      return send(
        res,
        req.headers.authorization
          ? wpError(401, 'woocommerce_rest_authentication_error', 'Consumer key is invalid.')
          : wpError(401, 'woocommerce_rest_cannot_view', 'Sorry, you cannot list resources.'),
      );
    }
    const fault = nextFault(matched.route);
    if (fault?.kind === 'hang') return;
    if (fault?.kind === 'status')
      return send(
        res,
        new Answer(
          fault.status,
          fault.body ?? { code: 'internal_server_error', message: 'There has been a critical error on this website.', data: { status: fault.status } },
          fault.headers,
        ),
      );
    const answer = await handle(matched.route, matched.id, entry.query, body);
    const answerProblems = checkAnswer(answer);
    if (answerProblems.length) violations.push(...answerProblems);
    if (fault?.kind === 'drop_after_apply') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'delay_after_apply') await new Promise((r) => setTimeout(r, fault.ms));
    send(res, answer);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      serve(req, res, Buffer.concat(chunks).toString('utf8')).catch((err: unknown) => {
        violations.push(`the fake failed: ${String(err)}`);
        if (!res.headersSent) send(res, wpError(500, 'internal_server_error', 'fake failure'));
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function post(target: string, headers: Record<string, string>, body: string): Promise<number | null> {
    try {
      const res = await fetch(target, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
      await res.arrayBuffer();
      return res.status;
    } catch {
      return null;
    }
  }

  /** What WooCommerce sends a new webhook's URL: a bare form body, unsigned, none of the webhook headers. */
  async function ping(w: WooWebhook): Promise<number | null> {
    const status = await post(w.delivery_url, { 'user-agent': USER_AGENT, 'content-type': 'application/x-www-form-urlencoded' }, `webhook_id=${w.id}`);
    deliveries.push({ webhookId: w.id, url: w.delivery_url, topic: 'ping', headers: {}, body: `webhook_id=${w.id}`, status });
    return status;
  }

  /** One delivery as `WC_Webhook::deliver` makes it; failures counted as WooCommerce counts them (2xx–302 succeed). */
  async function deliver(w: WooWebhook, payload: unknown, opts: { headers?: Record<string, string> } = {}): Promise<WooDelivery> {
    const body = phpJson(payload);
    const [resource, event] = w.topic.split('.');
    const headers: Record<string, string> = {
      'user-agent': USER_AGENT,
      'content-type': 'application/json',
      'x-wc-webhook-source': `${siteUrl}/`,
      'x-wc-webhook-topic': w.topic,
      'x-wc-webhook-resource': resource,
      'x-wc-webhook-event': event,
      'x-wc-webhook-signature': createHmac('sha256', w.secret).update(body).digest('base64'),
      'x-wc-webhook-id': String(w.id),
      'x-wc-webhook-delivery-id': createHash('md5')
        .update(`${w.id}${clock()}${randomBytes(4).toString('hex')}`)
        .digest('hex'),
      ...opts.headers,
    };
    return sendDelivery({ webhookId: w.id, url: w.delivery_url, topic: w.topic, headers, body, status: null });
  }

  async function sendDelivery(template: WooDelivery): Promise<WooDelivery> {
    const delivery = { ...template, status: await post(template.url, template.headers, template.body) };
    deliveries.push(delivery);
    const w = site.webhooks.get(delivery.webhookId);
    if (w) {
      if (delivery.status !== null && delivery.status >= 200 && delivery.status < 303) w.failures = 0;
      else if (++w.failures >= MAX_DELIVERY_FAILURES) w.status = 'disabled';
    }
    return delivery;
  }

  /** The event's deliveries to every active webhook on `topic`. */
  async function emitTopic(topic: string, order: WooOrder): Promise<WooDelivery[]> {
    return hold(topic, order)();
  }

  /** The event's payload taken now (the order as it is), delivered when the function is called: a late delivery. */
  function hold(topic: string, order: WooOrder): () => Promise<WooDelivery[]> {
    const payload = topic === 'order.deleted' ? { id: order.id } : site.orderJson(order);
    return async () => {
      const subs = [...site.webhooks.values()].filter((w) => w.topic === topic && w.status === 'active');
      const out: WooDelivery[] = [];
      for (const w of subs) out.push(await deliver(w, payload));
      return out;
    };
  }

  return {
    url,
    siteUrl,
    site,
    requests,
    violations,
    deliveries,
    spec,
    /** The merchant's REST API key pair (valid until revoked). */
    get credentials() {
      return { ...merchantKeys };
    },
    fail(route: WooRoute | '*', ...list: WooFault[]) {
      faults.set(route, [...(faults.get(route) ?? []), ...list]);
    },
    count(route: WooRoute) {
      return requests.filter((r) => r.route === route).length;
    },
    revokeKeys() {
      keys = [];
    },
    /** A new key pair that works (revoked ones stay revoked until `reset`). */
    issueKeys() {
      const pair = newKeyPair();
      keys.push(pair);
      return { ...pair };
    },
    deliver,
    emitTopic,
    hold,
    /** The last delivery sent again byte for byte, delivery id included. */
    async redeliverLast(): Promise<WooDelivery> {
      const last = deliveries.filter((d) => d.topic !== 'ping').at(-1);
      if (!last) throw new Error('the fake WooCommerce has sent nothing yet');
      return sendDelivery(last);
    },
    /** The merchant moves the order to the trash (`order.deleted` with `{id}` goes to subscribers). */
    async trash(id: number | string): Promise<WooDelivery[]> {
      const o = site.edit(id, (x) => (x.status = 'trash'));
      return emitTopic('order.deleted', o);
    },
    /** The order deleted for good: `GET /orders/{id}` answers 404 from now on. */
    async deleteForGood(id: number | string): Promise<WooDelivery[]> {
      const o = site.order(id);
      site.orders.delete(o.id);
      return emitTopic('order.deleted', o);
    },
    reset() {
      keys = [merchantKeys];
      requests.length = 0;
      violations.length = 0;
      deliveries.length = 0;
      faults.clear();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export type FakeWooCommerce = Awaited<ReturnType<typeof startFakeWooCommerce>>;

/** The platform-neutral surface the module's channel scenarios drive (test/helpers/fake-store.ts). */
export function wooFakeStore(fake: FakeWooCommerce): FakeStore {
  const original = fake.credentials;
  return {
    platform: 'woocommerce',
    url: fake.url,
    connect: { store_ref: fake.siteUrl, credentials: { ...original } },
    violations: fake.violations,
    seedOrder(opts = {}) {
      const seed: SeedOrder = {
        status: opts.importable === false ? 'pending' : 'processing',
        lines: Array.from({ length: opts.lines ?? 1 }, (_, i) => ({ sku: `SKU-${i + 1}`, name: `Item ${i + 1}` })),
      };
      // An order's lines carry no weight in WooCommerce: `grams` has nowhere to go.
      return String(fake.site.seedOrder(seed).id);
    },
    editAddress(id, street1) {
      fake.site.edit(id, (o) => (o.shipping.address_1 = street1));
    },
    cancelOrder(id) {
      fake.site.edit(id, (o) => (o.status = 'cancelled'));
    },
    async emit(id, event) {
      const topic = event === 'created' ? 'order.created' : 'order.updated';
      const sent = await fake.emitTopic(topic, fake.site.order(id));
      return sent.map((d) => d.status ?? 0);
    },
    holdEmit(id, event) {
      const send = fake.hold(event === 'created' ? 'order.created' : 'order.updated', fake.site.order(id));
      return async () => (await send()).map((d) => d.status ?? 0);
    },
    async redeliverLast() {
      return (await fake.redeliverLast()).status ?? 0;
    },
    shippedTracking(id) {
      return fake.site.shippedTracking(fake.site.order(id));
    },
    orderStatus(id) {
      return fake.site.order(id).status;
    },
    webhooks() {
      return [...fake.site.webhooks.values()].map((w) => ({ topic: w.topic, url: w.delivery_url, active: w.status === 'active' }));
    },
    breakWebhooks() {
      for (const w of fake.site.webhooks.values()) w.status = 'disabled';
    },
    revokeCredentials() {
      fake.revokeKeys();
    },
    freshCredentials() {
      return fake.issueKeys();
    },
    dropNextWriteAnswer() {
      // The write-back's writes: the note first (never re-sent), so its answer is the one lost.
      fake.fail('note_create', { kind: 'drop_after_apply' });
    },
    delayNextWriteAnswer(ms) {
      fake.fail('note_create', { kind: 'delay_after_apply', ms });
    },
    failNext(status, times = 1) {
      const headers: Record<string, string> = status === 429 ? { 'retry-after': '1' } : {};
      fake.fail('*', ...Array.from({ length: times }, () => ({ kind: 'status' as const, status, headers })));
    },
    reset() {
      fake.reset();
    },
    close() {
      return fake.close();
    },
  };
}
