import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { FakeStore } from '../fake-store.js';
import { loadBigcommerceSpecs } from './spec.js';
import { FakeBigcommerceStore, type FakeOrder } from './store.js';

export { FakeBigcommerceStore, rfc2822, type FakeOrder, type FakeHook, type SeedOrder, type SeedProduct } from './store.js';
export { loadBigcommerceSpecs } from './spec.js';

/**
 * A fake BigCommerce on 127.0.0.1 (a double of BigCommerce, not of our code): Orders V2 under
 * `/stores/{store_hash}/v2` and Webhooks V3 under `/stores/{store_hash}/v3/hooks`.
 *
 * Every request is checked against BigCommerce's published descriptions (method, path, query
 * parameters, headers, JSON body: spec.ts) and each problem is recorded in `violations` (a test
 * asserts none) and answered 400; every 2xx answer it gives is checked against the documented
 * response schema too. `X-Auth-Token` must be a token it issued (401 otherwise; `revokeTokens`).
 * Empty lists answer 204 with no body, as BigCommerce does. Hooks receive thin deliveries with
 * the hook's own headers; a hook whose deliveries keep failing is deactivated.
 *
 * Faults are queued per operationId (`fail('createOrderShipments', {kind: 'drop_after_apply'})`)
 * or for any call (`fail('*', …)`), each used once.
 */

export type FakeFault =
  /** Answered normally (to fault the second call, not the first). */
  | { kind: 'none' }
  /** An HTTP status (429 carries `X-Rate-Limit-Time-Reset-Ms: resetMs`), nothing run. */
  | { kind: 'status'; status: number; resetMs?: number; body?: unknown }
  /** Never answers. */
  | { kind: 'hang' }
  /** Runs the request (a write is applied), then drops the connection without answering. */
  | { kind: 'drop_after_apply' }
  /** Runs the request (a write is applied) at once and answers `ms` later. */
  | { kind: 'delay_after_apply'; ms: number };

export interface FakeBigcommerceRequest {
  method: string;
  path: string;
  operationId: string | null;
  query: Record<string, string>;
  body: unknown;
  headers: http.IncomingHttpHeaders;
  problems: string[];
}

export interface Delivery {
  url: string;
  scope: string;
  headers: Record<string, string>;
  body: string;
  status: number | null;
}

export interface FakeBigcommerceOptions {
  storeHash?: string;
  /** BigCommerce's clock for date_modified (Date.now); a test shares its clock with the client. */
  clock?: () => number;
  /** Failed deliveries in a row after which a hook is deactivated (BigCommerce: after its retries run out). */
  deactivateAfter?: number;
}

const V2_NOT_FOUND = [{ status: 404, message: 'The requested resource was not found.' }];

export async function startFakeBigcommerce(options: FakeBigcommerceOptions = {}) {
  const specs = loadBigcommerceSpecs();
  const storeHash = options.storeHash ?? 'fk3goods9';
  const storeId = '1025646';
  const clientId = 'fakeclientid0bigcommerce';
  const deactivateAfter = options.deactivateAfter ?? 3;
  const store = new FakeBigcommerceStore(options.clock);
  const newToken = () => `bc${randomBytes(16).toString('hex')}`;
  /** The store API account's token, valid until revoked. */
  let accessToken = newToken();
  const tokens = new Set([accessToken]);
  const faults = new Map<string, FakeFault[]>();
  const requests: FakeBigcommerceRequest[] = [];
  const violations: string[] = [];
  const deliveries: Delivery[] = [];
  const sockets = new Set<Socket>();
  const prefix = `/stores/${storeHash}`;

  function nextFault(operationId: string | null): FakeFault | undefined {
    for (const key of [operationId ?? '', '*']) {
      const q = faults.get(key);
      if (q?.length) return q.shift();
    }
    return undefined;
  }

  function send(res: http.ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) {
    if (body === undefined) {
      res.writeHead(status, headers).end();
      return;
    }
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }

  /** A page of a V2 list: 204 when empty, as BigCommerce answers. */
  function page<T>(items: T[], query: URLSearchParams, defaultLimit = 50): T[] {
    const limit = Math.min(Number(query.get('limit') ?? defaultLimit), 250);
    const p = Math.max(1, Number(query.get('page') ?? 1));
    return items.slice((p - 1) * limit, p * limit);
  }

  function route(method: string, path: string, query: URLSearchParams, body: any, origin: string): { status: number; body?: unknown } {
    const m = (re: RegExp) => re.exec(path);
    let x: RegExpExecArray | null;
    if (method === 'GET' && path === '/v2/order_statuses') {
      return {
        status: 200,
        body: [
          'Incomplete',
          'Pending',
          'Shipped',
          'Partially Shipped',
          'Refunded',
          'Cancelled',
          'Declined',
          'Awaiting Payment',
          'Awaiting Pickup',
          'Awaiting Shipment',
          'Completed',
          'Awaiting Fulfillment',
          'Manual Verification Required',
          'Disputed',
          'Partially Refunded',
        ].map((name, id) => ({ id, name, system_label: name, custom_label: name, system_description: name })),
      };
    }
    if (method === 'GET' && path === '/v2/orders') {
      let list = [...store.orders.values()].filter((o) => !o.is_deleted);
      const min = query.get('min_date_modified');
      // BigCommerce compares at its one-second grain.
      if (min) list = list.filter((o) => Math.floor(o.date_modified / 1000) * 1000 >= Date.parse(min));
      const sort = query.get('sort') ?? 'id';
      const [field, direction] = sort.split(':');
      const key = (o: FakeOrder) => (field === 'date_modified' ? Math.floor(o.date_modified / 1000) : field === 'date_created' ? o.date_created : o.id);
      list.sort((a, b) => (key(a) - key(b) || a.id - b.id) * (direction === 'desc' ? -1 : 1));
      const items = page(list, query);
      return items.length ? { status: 200, body: items.map((o) => store.renderOrder(o, origin)) } : { status: 204 };
    }
    if ((x = m(/^\/v2\/orders\/(\d+)(\/.*)?$/))) {
      const order = store.orders.get(Number(x[1]));
      if (!order) return { status: 404, body: V2_NOT_FOUND };
      const rest = x[2] ?? '';
      if (method === 'GET' && rest === '') return { status: 200, body: store.renderOrder(order, origin) };
      const list = <T>(items: T[], render: (t: T) => unknown) => {
        const slice = page(items, query);
        return slice.length ? { status: 200, body: slice.map(render) } : { status: 204 };
      };
      if (method === 'GET' && rest === '/products') return list(order.products, (p) => store.renderProduct(order, p));
      if (method === 'GET' && rest === '/shipping_addresses') return list(order.addresses, (a) => store.renderAddress(order, a));
      if (method === 'GET' && rest === '/shipments') return list(order.shipments, (s) => store.renderShipment(order, s));
      if (method === 'POST' && rest === '/shipments') {
        const made = store.ship(order, body);
        if (typeof made === 'string') return { status: 400, body: [{ status: 400, message: made }] };
        return { status: 201, body: store.renderShipment(order, made) };
      }
      const s = /^\/shipments\/(\d+)$/.exec(rest);
      if (method === 'DELETE' && s) return store.unship(order, Number(s[1])) ? { status: 204 } : { status: 404, body: V2_NOT_FOUND };
    }
    if (path === '/v3/hooks' && method === 'GET') {
      let hooks = [...store.hooks.values()];
      if (query.has('is_active')) hooks = hooks.filter((h) => String(h.is_active) === query.get('is_active'));
      const limit = Math.min(Number(query.get('limit') ?? 50), 250);
      const p = Math.max(1, Number(query.get('page') ?? 1));
      const data = hooks.slice((p - 1) * limit, p * limit).map((h) => store.renderHook(h, storeHash, clientId));
      const totalPages = Math.max(1, Math.ceil(hooks.length / limit));
      return {
        status: 200,
        body: { data, meta: { pagination: { total: hooks.length, count: data.length, per_page: limit, current_page: p, total_pages: totalPages } } },
      };
    }
    if (path === '/v3/hooks' && method === 'POST') {
      if ([...store.hooks.values()].some((h) => h.scope === body.scope && h.destination === body.destination)) {
        return {
          status: 422,
          body: {
            status: 422,
            title: 'JSON data is missing or invalid',
            type: '/api-docs/getting-started/api-status-codes',
            errors: { scope: 'a webhook for this scope and destination already exists' },
          },
        };
      }
      const hook = store.addHook(body.scope, body.destination, body.is_active ?? true, body.headers ?? null);
      return { status: 200, body: { data: store.renderHook(hook, storeHash, clientId), meta: {} } };
    }
    if ((x = m(/^\/v3\/hooks\/(\d+)$/))) {
      const hook = store.hooks.get(Number(x[1]));
      if (!hook)
        return { status: 404, body: { status: 404, title: `Webhook with id [${x[1]}] not found`, type: '/api-docs/getting-started/api-status-codes' } };
      if (method === 'GET') return { status: 200, body: { data: store.renderHook(hook, storeHash, clientId), meta: {} } };
      if (method === 'PUT') {
        for (const k of ['scope', 'destination', 'is_active', 'headers'] as const) if (body[k] !== undefined) (hook as any)[k] = body[k];
        if (body.is_active === true) hook.failures = 0;
        hook.updated_at = Math.floor(store.now() / 1000);
        return { status: 200, body: { data: store.renderHook(hook, storeHash, clientId), meta: {} } };
      }
      if (method === 'DELETE') {
        store.hooks.delete(hook.id);
        return { status: 200, body: { data: store.renderHook(hook, storeHash, clientId), meta: {} } };
      }
    }
    violations.push(`the fake serves no ${method} ${path}`);
    return { status: 404, body: V2_NOT_FOUND };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://fake-bigcommerce');
      if (!url.pathname.startsWith(`${prefix}/`)) {
        violations.push(`${req.method} ${url.pathname}: not under ${prefix}`);
        return send(res, 404, V2_NOT_FOUND);
      }
      const path = url.pathname.slice(prefix.length);
      const checkUrl = new URL(`${path}${url.search}`, 'http://fake-bigcommerce');
      const { op, problems } = specs.checkRequest(req.method ?? 'GET', checkUrl, req.headers, raw);
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = raw;
      }
      const entry: FakeBigcommerceRequest = {
        method: req.method ?? 'GET',
        path,
        operationId: op?.operationId ?? null,
        query: Object.fromEntries(url.searchParams),
        body,
        headers: req.headers,
        problems,
      };
      requests.push(entry);
      const token = req.headers['x-auth-token'];
      if (typeof token !== 'string' || !tokens.has(token)) {
        return send(res, 401, {
          status: 401,
          title: 'Unauthorized - the v3 Auth client ID or token in the request are not a valid combination for this store.',
          type: '/api-docs/getting-started/api-status-codes',
        });
      }
      if (problems.length) {
        violations.push(...problems.map((p) => `${req.method} ${path}: ${p}`));
        return send(res, 400, {
          status: 400,
          title: 'Input is invalid.',
          type: '/api-docs/getting-started/api-status-codes',
          errors: Object.fromEntries(problems.map((p, i) => [String(i), p])),
        });
      }
      const fault = nextFault(op?.operationId ?? null);
      if (fault?.kind === 'hang') return;
      if (fault?.kind === 'status') {
        const headers: Record<string, string> =
          fault.status === 429 ? { 'x-rate-limit-time-reset-ms': String(fault.resetMs ?? 100), 'x-rate-limit-requests-left': '0' } : {};
        return send(
          res,
          fault.status,
          fault.body ?? (fault.status === 429 ? [{ status: 429, message: 'Too many requests' }] : [{ status: fault.status, message: 'Internal Server Error' }]),
          headers,
        );
      }
      const origin = `http://${req.headers.host}${prefix}`;
      const answer = route(entry.method, path, url.searchParams, body, origin);
      if (op && answer.status < 300 && answer.body !== undefined) {
        violations.push(...specs.checkResponse(op, answer.status, answer.body).map((p) => `answer to ${op.operationId}: ${p}`));
      }
      if (fault?.kind === 'drop_after_apply') {
        req.socket.destroy();
        return;
      }
      if (fault?.kind === 'delay_after_apply') {
        setTimeout(() => send(res, answer.status, answer.body), fault.ms);
        return;
      }
      send(res, answer.status, answer.body);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** POSTs one delivery as BigCommerce does: the hook's own headers, a thin JSON body. */
  async function deliver(target: string, headers: Record<string, string>, body: string, scope: string): Promise<Delivery> {
    const delivery: Delivery = { url: target, scope, headers, body, status: null };
    try {
      const res = await fetch(target, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
      delivery.status = res.status;
      await res.arrayBuffer();
    } catch {
      delivery.status = null;
    }
    deliveries.push(delivery);
    return delivery;
  }

  /**
   * An event on an order to every active hook of that scope. The body is BigCommerce's thin
   * callback; `hash` is the SHA-1 of the JSON of `data`, as the description words it (so two
   * events of one order share it; only `created_at` tells them apart).
   */
  async function emit(scope: string, orderId: number | string, extra: Record<string, unknown> = {}): Promise<Delivery[]> {
    return hold(scope, orderId, extra)();
  }

  /**
   * The event made now, delivered when the function is called (a late delivery). Its `created_at`
   * is when the order changed: the store's clock, or the order's `date_modified` when the fake
   * moved that past the clock (each change a second later, store.ts), so each change is an event
   * of its own.
   */
  function hold(scope: string, orderId: number | string, extra: Record<string, unknown> = {}): () => Promise<Delivery[]> {
    const data = { type: 'order', id: Number(orderId), ...extra };
    const changedAt = Math.max(store.now(), store.orders.get(Number(orderId))?.date_modified ?? 0);
    const payload = {
      created_at: Math.floor(changedAt / 1000),
      store_id: storeId,
      producer: `stores/${storeHash}`,
      scope,
      hash: createHash('sha1').update(JSON.stringify(data)).digest('hex'),
      data,
    };
    const text = JSON.stringify(payload);
    return () => {
      const hooks = [...store.hooks.values()].filter((h) => h.is_active && h.scope === scope);
      return Promise.all(
        hooks.map(async (h) => {
          const d = await deliver(h.destination, { 'content-type': 'application/json', ...(h.headers ?? {}) }, text, scope);
          h.failures = d.status !== null && d.status < 300 ? 0 : h.failures + 1;
          if (h.failures >= deactivateAfter) h.is_active = false;
          return d;
        }),
      );
    };
  }

  const fake = {
    url,
    storeHash,
    /** Where the channel is pointed (the integration's `base_url`): the store's origin on this fake. */
    origin: `${url}${prefix}`,
    get accessToken() {
      return accessToken;
    },
    store,
    requests,
    violations,
    deliveries,
    fail(operationId: string, ...list: FakeFault[]) {
      faults.set(operationId, [...(faults.get(operationId) ?? []), ...list]);
    },
    /** Requests of that operationId. */
    count(operationId: string) {
      return requests.filter((r) => r.operationId === operationId).length;
    },
    emit,
    hold,
    deliver,
    revokeTokens() {
      tokens.clear();
    },
    /** A new working token (the merchant makes a new API account). */
    issueToken(): string {
      accessToken = newToken();
      tokens.add(accessToken);
      return accessToken;
    },
    reset() {
      tokens.add(accessToken);
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
  return fake;
}

export type FakeBigcommerce = Awaited<ReturnType<typeof startFakeBigcommerce>>;

const EVENT_SCOPES: Record<'created' | 'updated' | 'cancelled', string[]> = {
  created: ['store/order/created'],
  updated: ['store/order/updated'],
  // A status change fires both (Webhooks V3: `store/order/updated` lists Status among its triggers).
  cancelled: ['store/order/statusUpdated', 'store/order/updated'],
};

/** The fake as the shared channel scenarios drive it (test/helpers/fake-store.ts). */
export function bigcommerceFakeStore(fake: FakeBigcommerce): FakeStore {
  const holdEmit: FakeStore['holdEmit'] = (id, event) => {
    const held = EVENT_SCOPES[event].map((scope) =>
      fake.hold(scope, id, scope === 'store/order/statusUpdated' ? { status: { previous_status_id: 11, new_status_id: fake.store.order(id).status_id } } : {}),
    );
    return async () => {
      const statuses: number[] = [];
      for (const send of held) for (const d of await send()) statuses.push(d.status ?? 0);
      return statuses;
    };
  };
  return {
    platform: 'bigcommerce',
    url: fake.origin,
    get connect() {
      return { store_ref: fake.storeHash, credentials: { access_token: fake.accessToken } };
    },
    violations: fake.violations,
    seedOrder(opts = {}) {
      const grams = opts.grams === undefined ? 250 : opts.grams;
      const order = fake.store.seedOrder({
        status_id: opts.importable === false ? 7 : 11,
        products: Array.from({ length: opts.lines ?? 1 }, () => ({ weight: grams ?? 0 })),
      });
      return String(order.id);
    },
    editAddress(id, street1) {
      fake.store.editOrder(id, (o) => (o.addresses[0].street_1 = street1));
    },
    cancelOrder(id) {
      fake.store.editOrder(id, (o) => (o.status_id = 5));
    },
    emit: (id, event) => holdEmit(id, event)(),
    holdEmit,
    async redeliverLast() {
      const last = fake.deliveries.at(-1);
      if (!last) throw new Error('nothing was delivered yet');
      return (await fake.deliver(last.url, last.headers, last.body, last.scope)).status ?? 0;
    },
    shippedTracking(id) {
      return fake.store
        .order(id)
        .shipments.map((s) => s.tracking_number)
        .filter(Boolean);
    },
    orderStatus(id) {
      return String(fake.store.order(id).status_id);
    },
    webhooks() {
      return [...fake.store.hooks.values()].map((h) => ({ topic: h.scope, url: h.destination, active: h.is_active }));
    },
    breakWebhooks() {
      for (const h of fake.store.hooks.values()) h.is_active = false;
    },
    revokeCredentials() {
      fake.revokeTokens();
    },
    freshCredentials() {
      return { access_token: fake.issueToken() };
    },
    dropNextWriteAnswer() {
      fake.fail('createOrderShipments', { kind: 'drop_after_apply' });
    },
    delayNextWriteAnswer(ms) {
      fake.fail('createOrderShipments', { kind: 'delay_after_apply', ms });
    },
    failNext(status, times = 1) {
      fake.fail('*', ...Array.from({ length: times }, () => ({ kind: 'status' as const, status })));
    },
    reset() {
      fake.reset();
    },
    close() {
      return fake.close();
    },
  };
}
