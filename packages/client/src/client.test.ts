import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureHeader } from '../../../src/modules/webhooks/webhooks.signing.js';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { createShippingClient, retryAfterMs, ShippingApiError, verifyWebhookSignature } from './index.js';
import { retryingFetch } from './retry.js';

// The client against the real service listening on a socket (no inject), plus a stub server for
// the retry behaviour, which the service cannot be made to answer on demand.

let app: FastifyInstance;
let baseUrl: string;
let t: Tenant;

beforeAll(async () => {
  app = await buildTestApp();
  await app.deps.db
    .insertInto('settings')
    .values({ key: 'orders.default_box', value: JSON.stringify({ length_in: 12, width_in: 9, height_in: 6 }) })
    .execute();
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  t = await createTenant(app);
});

const orderBody = (external_id: string) => ({
  external_id,
  ship_to: { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' },
  line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 2, unit_price: { amount: 1250, currency: 'USD' }, weight_oz: 8 }],
});

describe('client against the service', () => {
  it('creates orders with credentials and a fresh Idempotency-Key per POST, and reads them back', async () => {
    const keys: Array<string | null> = [];
    const client = createShippingClient({
      baseUrl,
      apiKey: t.apiKey,
      workspaceId: t.workspaceId,
      // The client hands its fetch a Request (a copy per attempt).
      fetch: (input, init) => {
        keys.push((input as Request).headers.get('idempotency-key'));
        return fetch(input, init);
      },
    });
    const a = await client.orders.create(orderBody('C-1'));
    const b = await client.orders.create(orderBody('C-2'));
    expect(a.id).toMatch(/^ord_/);
    expect(a.id).not.toBe(b.id);
    expect(keys).toHaveLength(2);
    for (const k of keys) expect(k).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[0]).not.toBe(keys[1]);
    expect((await client.orders.get(a.id)).id).toBe(a.id);
  });

  it('replays a POST sent twice with the same explicit Idempotency-Key', async () => {
    const client = createShippingClient({ baseUrl, apiKey: t.apiKey, workspaceId: t.workspaceId });
    const first = await client.orders.create(orderBody('C-idem'), { idempotencyKey: 'client-test-key-1' });
    const again = await client.orders.create(orderBody('C-idem'), { idempotencyKey: 'client-test-key-1' });
    expect(again.id).toBe(first.id);
  });

  it('iterates every order across cursor pages, and the same through paginate()', async () => {
    const tenant = await createTenant(app);
    const client = createShippingClient({ baseUrl, apiKey: tenant.apiKey, workspaceId: tenant.workspaceId });
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await client.orders.create(orderBody(`P-${i}`))).id);
    const seen: string[] = [];
    for await (const order of client.orders.list({ limit: 2 })) seen.push(order.id);
    expect(seen.sort()).toEqual([...created].sort());
    const viaGeneric: string[] = [];
    for await (const order of client.paginate('/v1/orders', { limit: 3 })) viaGeneric.push(order.id);
    expect(viaGeneric.sort()).toEqual([...created].sort());
    const hooks: unknown[] = [];
    for await (const w of client.webhooks.list()) hooks.push(w);
    expect(hooks).toEqual([]);
  });

  it("waits out the service's own 429 (Retry-After) and succeeds on the retry, with the same Idempotency-Key", async () => {
    const tenant = await createTenant(app);
    // A burst of 60 a minute refills one request a second: Retry-After is a second or so.
    await app.identity.workspaces.setPlan(tenant.workspaceId, { plan: 'enterprise', burst_per_minute: 60 }, { type: 'system', id: null }, {});
    let refused = false;
    for (let i = 0; i < 100 && !refused; i++) refused = (await app.inject({ method: 'GET', url: '/v1/api-keys', headers: tenant.headers })).statusCode === 429;
    expect(refused).toBe(true);
    const seen: Array<{ status: number; retryAfter: string | null; key: string | null }> = [];
    const client = createShippingClient({
      baseUrl,
      apiKey: tenant.apiKey,
      workspaceId: tenant.workspaceId,
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        seen.push({ status: res.status, retryAfter: res.headers.get('retry-after'), key: (input as Request).headers.get('idempotency-key') });
        return res;
      },
    });
    const order = await client.orders.create(orderBody('RL-1'));
    expect(order.id).toMatch(/^ord_/);
    expect(seen[0].status).toBe(429);
    expect(Number(seen[0].retryAfter)).toBeGreaterThanOrEqual(1);
    expect(seen.at(-1)!.status).toBe(201);
    expect(new Set(seen.map((s) => s.key)).size).toBe(1);
  });

  it('throws ShippingApiError with the contract error for 404 and bad credentials', async () => {
    const client = createShippingClient({ baseUrl, apiKey: t.apiKey, workspaceId: t.workspaceId });
    const notFound = await client.orders.get('ord_00000000000000000000000000').catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(ShippingApiError);
    expect((notFound as ShippingApiError).status).toBe(404);
    expect((notFound as ShippingApiError).requestId).toBeTruthy();
    const wrong = createShippingClient({ baseUrl, apiKey: 'sk_test_wrong', workspaceId: t.workspaceId });
    const err = await (async () => {
      for await (const o of wrong.orders.list()) return o;
    })().catch((e: unknown) => e);
    expect((err as ShippingApiError).status).toBe(401);
  });
});

describe('retries', () => {
  let stub: Server;
  let stubUrl: string;
  const answers: Array<{ status: number; headers?: Record<string, string> }> = [];
  const received: Array<{ key: string | undefined; body: string }> = [];

  beforeAll(async () => {
    stub = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ key: req.headers['idempotency-key'] as string | undefined, body });
        const a = answers.shift() ?? { status: 200 };
        res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
        res.end(a.status === 200 ? '{"ok":true}' : '{"code":"rate_limited","message":"slow down","request_id":"r"}');
      });
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => stub.close(() => resolve())));

  it('retries 429 and 503 honouring Retry-After, resending the same body and Idempotency-Key', async () => {
    answers.length = 0;
    received.length = 0;
    answers.push({ status: 429, headers: { 'retry-after': '0' } }, { status: 503, headers: { 'retry-after': '0' } });
    const client = createShippingClient({ baseUrl: stubUrl, apiKey: 'sk_test_x', workspaceId: 'ws_x' });
    const r = await client.api.POST('/v1/rates/query', { body: { ship_to: { country: 'US' } } as never });
    expect(r.response.status).toBe(200);
    expect(received).toHaveLength(3);
    expect(new Set(received.map((x) => x.key)).size).toBe(1);
    expect(received[0].key).toBeTruthy();
    expect(new Set(received.map((x) => x.body)).size).toBe(1);
  });

  it('retries a GET after a network error, but not a POST sent without a key', async () => {
    let calls = 0;
    const flaky = async () => {
      calls++;
      if (calls === 1) throw new TypeError('fetch failed');
      return new Response('{}', { status: 200 });
    };
    const f = retryingFetch(flaky, { sleep: async () => {} });
    expect((await f(new Request('http://x/v1/orders'))).status).toBe(200);
    expect(calls).toBe(2);
    calls = 0;
    const unkeyed = retryingFetch(flaky, { idempotencyKeys: false, sleep: async () => {} });
    await expect(unkeyed(new Request('http://x/v1/orders', { method: 'POST', body: '{}' }))).rejects.toThrow('fetch failed');
    expect(calls).toBe(1);
  });

  it('gives up after maxRetries and returns the last answer', async () => {
    answers.length = 0;
    received.length = 0;
    for (let i = 0; i < 5; i++) answers.push({ status: 429, headers: { 'retry-after': '0' } });
    const client = createShippingClient({ baseUrl: stubUrl, apiKey: 'k', workspaceId: 'w', retry: { maxRetries: 2 } });
    const r = await client.api.GET('/v1/orders', {});
    expect(r.response.status).toBe(429);
    expect(received).toHaveLength(3);
  });

  it('waits what Retry-After says (capped), else backs off exponentially', async () => {
    const waits: number[] = [];
    const replies = [
      new Response(null, { status: 429, headers: { 'retry-after': '2' } }),
      new Response(null, { status: 503, headers: { 'retry-after': '120' } }),
      new Response(null, { status: 503 }),
      new Response(null, { status: 429 }),
      new Response('{}', { status: 200 }),
    ];
    const f = retryingFetch(async () => replies.shift()!, { maxRetries: 4, maxDelayMs: 30_000, baseDelayMs: 500, sleep: async (ms) => void waits.push(ms) });
    expect((await f(new Request('http://x/v1/orders'))).status).toBe(200);
    // 2 s as asked; 120 s capped at 30 s; then no header: 500 ms × 2^attempt.
    expect(waits).toEqual([2000, 30_000, 2000, 4000]);
  });

  it('reads Retry-After as seconds or a date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});

describe('verifyWebhookSignature', () => {
  const body = '{"type":"shipment.created","data":{"id":"shp_1"}}';
  const now = 1_800_000_000;

  it('accepts what the service signs, with either secret during a rotation', () => {
    expect(verifyWebhookSignature(body, signatureHeader(body, ['whsec_a'], now), 'whsec_a', 300, now)).toBe(true);
    const rotated = signatureHeader(body, ['whsec_new', 'whsec_old'], now);
    expect(verifyWebhookSignature(body, rotated, 'whsec_old', 300, now)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body), rotated, 'whsec_new', 300, now)).toBe(true);
  });

  it('gives the expected answer for every shared vector (clients/conformance/webhook-vectors.json)', () => {
    const file = JSON.parse(readFileSync(new URL('../../../clients/conformance/webhook-vectors.json', import.meta.url), 'utf8')) as {
      body: string;
      tolerance: number;
      vectors: Array<{ name: string; header: string; secrets: string[]; now: number; valid: boolean }>;
    };
    const wrong = file.vectors.filter((v) => verifyWebhookSignature(file.body, v.header, v.secrets, file.tolerance, v.now) !== v.valid).map((v) => v.name);
    expect(wrong).toEqual([]);
  });

  it('rejects a changed body, a wrong secret, an old timestamp and malformed headers', () => {
    const header = signatureHeader(body, ['whsec_a'], now);
    expect(verifyWebhookSignature(`${body} `, header, 'whsec_a', 300, now)).toBe(false);
    expect(verifyWebhookSignature(body, header, 'whsec_b', 300, now)).toBe(false);
    expect(verifyWebhookSignature(body, header, 'whsec_a', 300, now + 301)).toBe(false);
    expect(verifyWebhookSignature(body, undefined, 'whsec_a')).toBe(false);
    expect(verifyWebhookSignature(body, 'v1=abc', 'whsec_a', 300, now)).toBe(false);
    expect(verifyWebhookSignature(body, `t=${now}`, 'whsec_a', 300, now)).toBe(false);
  });
});
