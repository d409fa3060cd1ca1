import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { prepare, run, type Prepared } from './graphql.js';
import { loadShopifySchema } from './schema.js';
import { FakeShop, type FakeOrder } from './shop.js';

export { FakeShop, type FakeOrder, type SeedOrder, type SeedLine } from './shop.js';
export { loadShopifySchema, SHOPIFY_SCHEMA_FILE } from './schema.js';

/**
 * A fake Shopify on 127.0.0.1 (a double of Shopify, not of our code): the Admin GraphQL API at
 * `/admin/api/2026-07/graphql.json` and the OAuth token endpoint `/admin/oauth/access_token`.
 *
 * Every GraphQL document is validated against Shopify's published schema (and variables
 * coerced against it); each problem is recorded in `violations` (a test asserts none) and
 * answered as Shopify does (200 with `errors`). Valid documents are priced and executed over an
 * in-memory shop (shop.ts) with a real cost bucket: a query costing more than is available is
 * answered THROTTLED without running. Webhooks are signed and sent as Shopify sends them.
 *
 * Faults are queued per root field (`fail('fulfillmentCreate', {kind: 'drop_after_apply'})`),
 * for the token endpoint (`fail('oauth', …)`) or for any call (`fail('*', …)`), each used once.
 */

export const FAKE_API_VERSION = '2026-07';
const GRAPHQL_PATH = `/admin/api/${FAKE_API_VERSION}/graphql.json`;
const TOKEN_PATH = '/admin/oauth/access_token';

export type FakeFault =
  /** Answered normally (to fault the second call of a field, not the first). */
  | { kind: 'none' }
  /** 200 with `errors: [{extensions: {code: THROTTLED}}]`, nothing run. */
  | { kind: 'throttled' }
  /** An HTTP status with a JSON body (5xx, 429 with Retry-After, …); nothing run. */
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: unknown }
  /** Never answers. */
  | { kind: 'hang' }
  /** Runs the request (a mutation is applied), then drops the connection without answering. */
  | { kind: 'drop_after_apply' }
  /** Runs the request (a mutation is applied) at once and answers `ms` later. */
  | { kind: 'delay_after_apply'; ms: number }
  /** A mutation answered with these userErrors, nothing applied. */
  | { kind: 'user_errors'; errors: { field: string[] | null; message: string }[] };

export interface FakeShopifyRequest {
  path: string;
  /** Root fields of the GraphQL operation (`orders`, `fulfillmentCreate`), or `oauth`. */
  fields: string[];
  body: unknown;
  headers: http.IncomingHttpHeaders;
  problems: string[];
  /** The operation ran against the shop (not refused: token, validation, a fault, throttled). */
  applied?: boolean;
}

export interface FakeShopifyOptions {
  shopDomain?: string;
  clientId?: string;
  clientSecret?: string;
  /** The bucket: points (Shopify's standard 1,000) and points restored per second (50). */
  bucketSize?: number;
  restoreRate?: number;
  scopes?: string[];
  /** Shopify's clock for updated_at and the bucket's refill (Date.now); a test shares its fake clock with the client. */
  clock?: () => number;
}

export interface WebhookDelivery {
  url: string;
  topic: string;
  headers: Record<string, string>;
  body: string;
  status: number | null;
  responseBody: string;
}

export async function startFakeShopify(options: FakeShopifyOptions = {}) {
  const schema = loadShopifySchema();
  const shopDomain = options.shopDomain ?? 'fake-goods.myshopify.com';
  const clientId = options.clientId ?? 'fake-client-id';
  const clientSecret = options.clientSecret ?? 'fake-client-secret';
  const bucketSize = options.bucketSize ?? 1000;
  let restoreRate = options.restoreRate ?? 50;
  let scopes = options.scopes ?? ['read_orders', 'read_merchant_managed_fulfillment_orders', 'write_merchant_managed_fulfillment_orders'];
  const shop = new FakeShop(options.clock);
  const tokens = new Map<string, { expiresAt: number | null }>();
  const refreshTokens = new Set<string>();
  const codes = new Set<string>();
  let expiringTokens = false;
  let tokenLifetimeS = 3600;
  const faults = new Map<string, FakeFault[]>();
  const requests: FakeShopifyRequest[] = [];
  const violations: string[] = [];
  const deliveries: WebhookDelivery[] = [];
  const sockets = new Set<Socket>();
  const clock = options.clock ?? Date.now;
  let bucket = { available: bucketSize, at: clock() };

  const newToken = () => `shpat_${randomBytes(16).toString('hex')}`;
  function issueToken(): { access_token: string; scope: string; expires_in?: number; refresh_token?: string; refresh_token_expires_in?: number } {
    const token = newToken();
    if (!expiringTokens) {
      tokens.set(token, { expiresAt: null });
      return { access_token: token, scope: scopes.join(',') };
    }
    tokens.set(token, { expiresAt: clock() + tokenLifetimeS * 1000 });
    const refresh = `shprt_${randomBytes(16).toString('hex')}`;
    refreshTokens.add(refresh);
    return { access_token: token, scope: scopes.join(','), expires_in: tokenLifetimeS, refresh_token: refresh, refresh_token_expires_in: 7_776_000 };
  }
  /** The merchant's custom-app token, valid from the start. */
  const accessToken = newToken();
  tokens.set(accessToken, { expiresAt: null });

  function available(): number {
    const now = clock();
    bucket = { available: Math.min(bucketSize, bucket.available + ((now - bucket.at) / 1000) * restoreRate), at: now };
    return bucket.available;
  }
  const throttleStatus = () => ({ maximumAvailable: bucketSize, currentlyAvailable: Math.floor(available()), restoreRate });

  function nextFault(fields: string[]): FakeFault | undefined {
    for (const f of [...fields, '*']) {
      const q = faults.get(f);
      if (q?.length) return q.shift();
    }
    return undefined;
  }

  function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  }

  async function graphql(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      violations.push(`${GRAPHQL_PATH}: body is not JSON`);
      return json(res, 400, { errors: 'Bad Request' });
    }
    const prepared: Prepared = prepare(schema, body);
    const entry: FakeShopifyRequest = { path: GRAPHQL_PATH, fields: prepared.rootFields, body, headers: req.headers, problems: [...prepared.problems] };
    requests.push(entry);
    if (req.headers['content-type']?.split(';')[0] !== 'application/json') entry.problems.push(`content-type ${req.headers['content-type']}`);
    const token = req.headers['x-shopify-access-token'];
    const known = typeof token === 'string' ? tokens.get(token) : undefined;
    if (!known || (known.expiresAt !== null && known.expiresAt < clock())) {
      return json(res, 401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
    }
    if (prepared.problems.length) {
      violations.push(...prepared.problems.map((p) => `${prepared.rootFields.join(',') || '?'}: ${p}`));
      return json(res, 200, { errors: prepared.problems.map((message) => ({ message, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })) });
    }
    const fault = nextFault(prepared.rootFields);
    if (fault?.kind === 'hang') return;
    if (fault?.kind === 'status') return json(res, fault.status, fault.body ?? { errors: 'Internal Server Error' }, fault.headers);
    if (prepared.cost > bucketSize) {
      return json(res, 200, {
        errors: [
          {
            message: `Query cost is ${prepared.cost}, which exceeds the single query max cost limit (${bucketSize}).`,
            extensions: { code: 'MAX_COST_EXCEEDED', cost: prepared.cost, maxCost: bucketSize },
          },
        ],
      });
    }
    const cost = (actual: number | null) => ({
      requestedQueryCost: prepared.cost,
      actualQueryCost: actual,
      throttleStatus: throttleStatus(),
    });
    if (fault?.kind === 'throttled' || prepared.cost > available()) {
      if (fault?.kind === 'throttled') bucket = { available: Math.min(available(), Math.max(0, prepared.cost - restoreRate)), at: clock() };
      return json(res, 200, {
        errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } }],
        extensions: { cost: cost(null) },
      });
    }
    bucket.available -= prepared.cost;
    if (fault?.kind === 'user_errors') {
      const field = prepared.rootFields[0];
      return json(res, 200, {
        data: { [field]: { userErrors: fault.errors, fulfillment: null, webhookSubscription: null } },
        extensions: { cost: cost(prepared.cost) },
      });
    }
    const ctx = { shop, scopes, problems: [] as string[] };
    entry.applied = true;
    const result = await run(schema, prepared, (body as { variables?: unknown }).variables, ctx);
    if (ctx.problems.length) {
      entry.problems.push(...ctx.problems);
      violations.push(...ctx.problems);
    }
    if (result.errors?.length) violations.push(...result.errors.map((e) => `execution ${prepared.rootFields.join(',')}: ${e.message}`));
    if (fault?.kind === 'drop_after_apply') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'delay_after_apply') await new Promise((r) => setTimeout(r, fault.ms));
    return json(res, 200, {
      ...(result.errors ? { errors: result.errors.map((e) => ({ message: e.message, path: e.path })) } : {}),
      data: result.data,
      extensions: { cost: cost(prepared.cost) },
    });
  }

  function oauth(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
    const type = req.headers['content-type']?.split(';')[0];
    let body: Record<string, string> = {};
    try {
      body = type === 'application/json' ? JSON.parse(raw) : Object.fromEntries(new URLSearchParams(raw));
    } catch {
      violations.push('oauth: body is not JSON');
    }
    const entry: FakeShopifyRequest = { path: TOKEN_PATH, fields: ['oauth'], body, headers: req.headers, problems: [] };
    requests.push(entry);
    const fault = nextFault(['oauth']);
    if (fault?.kind === 'hang') return;
    if (fault?.kind === 'status') return json(res, fault.status, fault.body ?? { errors: 'Internal Server Error' }, fault.headers);
    if (body.client_id !== clientId || body.client_secret !== clientSecret) {
      return json(res, 400, { error: 'invalid_client', error_description: 'Client credentials are invalid' });
    }
    if (body.grant_type === 'refresh_token') {
      if (!refreshTokens.delete(body.refresh_token)) return json(res, 400, { error: 'invalid_grant', error_description: 'Refresh token is invalid' });
      return json(res, 200, issueToken());
    }
    if (body.grant_type && body.grant_type !== 'authorization_code') {
      entry.problems.push(`oauth grant_type ${body.grant_type}`);
      violations.push(`oauth grant_type ${body.grant_type}`);
    }
    if (!codes.delete(body.code))
      return json(res, 400, { error: 'invalid_request', error_description: 'The authorization code was not found or was already used' });
    return json(res, 200, issueToken());
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = new URL(req.url ?? '/', 'http://fake-shopify').pathname;
      if (req.method === 'POST' && path === GRAPHQL_PATH) return void graphql(req, res, raw);
      if (req.method === 'POST' && path === TOKEN_PATH) return oauth(req, res, raw);
      violations.push(`unknown route ${req.method} ${path}`);
      json(res, 404, { errors: 'Not Found' });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** POSTs a webhook as Shopify does (headers per SOURCES.md, body the REST JSON). */
  async function sendWebhook(
    target: string,
    topic: string,
    body: unknown,
    opts: { secret?: string; shopDomain?: string; webhookId?: string; signature?: string } = {},
  ): Promise<WebhookDelivery> {
    const text = JSON.stringify(body);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-shopify-topic': topic,
      'x-shopify-hmac-sha256':
        opts.signature ??
        createHmac('sha256', opts.secret ?? clientSecret)
          .update(text)
          .digest('base64'),
      'x-shopify-shop-domain': opts.shopDomain ?? shopDomain,
      'x-shopify-webhook-id': opts.webhookId ?? randomUUID(),
      'x-shopify-triggered-at': new Date().toISOString(),
      'x-shopify-api-version': FAKE_API_VERSION,
      'x-shopify-event-id': randomUUID(),
    };
    const delivery: WebhookDelivery = { url: target, topic, headers, body: text, status: null, responseBody: '' };
    try {
      const res = await fetch(target, { method: 'POST', headers, body: text, signal: AbortSignal.timeout(10_000) });
      delivery.status = res.status;
      delivery.responseBody = await res.text();
    } catch {
      delivery.status = null;
    }
    deliveries.push(delivery);
    return delivery;
  }

  async function emitBody(topicEnum: string, body: unknown): Promise<WebhookDelivery[]> {
    const topic = topicEnum.toLowerCase().replace('_', '/');
    const subs = [...shop.webhooks.values()].filter((w) => w.topic === topicEnum);
    return Promise.all(subs.map((w) => sendWebhook(w.uri, topic, body)));
  }

  return {
    url,
    shopDomain,
    clientId,
    clientSecret,
    /** The merchant custom app's token (valid until revoked). */
    accessToken,
    shop,
    requests,
    violations,
    deliveries,
    fail(field: string, ...list: FakeFault[]) {
      faults.set(field, [...(faults.get(field) ?? []), ...list]);
    },
    /** Requests whose operation asked for `field`. */
    count(field: string) {
      return requests.filter((r) => r.fields.includes(field)).length;
    },
    /** Sets the bucket's points now (e.g. near empty, to see the client wait). */
    setBucket(points: number, rate = restoreRate) {
      bucket = { available: points, at: clock() };
      restoreRate = rate;
    },
    setScopes(list: string[]) {
      scopes = list;
    },
    /** A code the merchant's authorization would hand back (single-use). */
    issueCode(): string {
      const code = randomBytes(16).toString('hex');
      codes.add(code);
      return code;
    },
    /** Token exchanges answer expiring offline tokens with a refresh token. */
    setExpiringTokens(on: boolean, lifetimeS = 3600) {
      expiringTokens = on;
      tokenLifetimeS = lifetimeS;
    },
    /** A new custom-app token (the merchant rotated it in the admin), valid until revoked. */
    newAccessToken(): string {
      const token = newToken();
      tokens.set(token, { expiresAt: null });
      return token;
    },
    revokeToken(token: string) {
      tokens.delete(token);
    },
    revokeAllTokens() {
      tokens.clear();
      refreshTokens.clear();
    },
    restOrder(order: FakeOrder | number | string) {
      return shop.restOrder(typeof order === 'object' ? order : shop.order(order));
    },
    sendWebhook,
    /** An order event to every subscription on that topic (e.g. `ORDERS_UPDATED`), as Shopify would. */
    async emit(topicEnum: string, order: FakeOrder | number | string): Promise<WebhookDelivery[]> {
      return emitBody(topicEnum, shop.restOrder(typeof order === 'object' ? order : shop.order(order)));
    },
    /** A body captured earlier (`restOrder`) sent now to every subscription on that topic: a late delivery. */
    emitBody,
    /** The merchant uninstalls the app: every token dies, APP_UNINSTALLED goes to its subscribers (or `target`). */
    async uninstall(target?: string): Promise<WebhookDelivery[]> {
      tokens.clear();
      refreshTokens.clear();
      const body = { id: 1, name: shop.name, domain: shopDomain, myshopify_domain: shopDomain };
      const targets = target ? [target] : [...shop.webhooks.values()].filter((w) => w.topic === 'APP_UNINSTALLED').map((w) => w.uri);
      shop.webhooks.clear();
      return Promise.all(targets.map((t) => sendWebhook(t, 'app/uninstalled', body)));
    },
    /** Back to a fresh test: no requests, faults or deliveries, a full bucket, the custom app's token valid again. */
    reset() {
      tokens.set(accessToken, { expiresAt: null });
      requests.length = 0;
      violations.length = 0;
      deliveries.length = 0;
      faults.clear();
      bucket = { available: bucketSize, at: clock() };
      restoreRate = options.restoreRate ?? 50;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export type FakeShopify = Awaited<ReturnType<typeof startFakeShopify>>;
