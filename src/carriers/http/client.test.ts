import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CarrierError } from '../types.js';
import { CarrierHttpClient, parseJson, parseRetryAfterMs, type CarrierExchange, type CarrierOutcome } from './client.js';
import { CarrierTransportError } from './errors.js';
import { redactBody, redactHeaders } from './redact.js';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

let server: Server;
let base: string;
let handler: Handler = (_req, _body, res) => res.end('{}');
const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string; remotePort: number }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body, remotePort: req.socket.remotePort! });
      handler(req, body, res);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
});
afterEach(() => {
  seen.length = 0;
});

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function harness(extra: ConstructorParameters<typeof CarrierHttpClient>[0] = {}) {
  const sleeps: number[] = [];
  const exchanges: CarrierExchange[] = [];
  const outcomes: CarrierOutcome[] = [];
  const durations: number[] = [];
  const client = new CarrierHttpClient({
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    onExchange: (e) => exchanges.push(e),
    metrics: {
      requestFinished: (l) => outcomes.push(l.outcome),
      requestDuration: (_l, s) => durations.push(s),
    },
    ...extra,
  });
  return { client, sleeps, exchanges, outcomes, durations };
}

const call = (over: Partial<Parameters<CarrierHttpClient['request']>[0]> = {}) => ({
  carrier: 'ups',
  accountId: 'ca_1',
  operation: 'rates',
  method: 'POST' as const,
  url: `${base}/api/rating/v2409/Shop`,
  json: { hello: 'world' },
  idempotent: true,
  timeoutMs: 2000,
  ...over,
});

describe('retries', () => {
  it('retries an idempotent call on 503, honouring Retry-After, then succeeds', async () => {
    let n = 0;
    handler = (_req, _b, res) => (++n < 3 ? json(res, 503, { e: 1 }, { 'retry-after': '1' }) : json(res, 200, { ok: true }));
    const { client, sleeps, outcomes, durations } = harness();
    const res = await client.request(call({ timeoutMs: 10_000 }));
    expect(res.status).toBe(200);
    expect(durations).toHaveLength(3);
    expect(durations.every((d) => d >= 0 && d < 5)).toBe(true);
    expect(res.attempts).toBe(3);
    expect(sleeps).toEqual([1000, 1000]);
    expect(outcomes).toEqual(['server_error', 'server_error', 'success']);
    await client.close();
  });

  it('gives up after 2 retries with a retryable CarrierError carrying the status', async () => {
    handler = (_req, _b, res) => json(res, 500, { e: 1 });
    const { client, sleeps } = harness();
    const err = await client.request(call()).catch((e) => e);
    expect(err).toBeInstanceOf(CarrierError);
    expect(err).toMatchObject({ kind: 'server_error', status: 500, retryable: true, slug: 'ups' });
    expect(seen).toHaveLength(3);
    // Exponential with equal jitter (random 0.5): 250 → 187.5, 500 → 375.
    expect(sleeps).toEqual([188, 375]);
    await client.close();
  });

  it('retries 429 after the Retry-After delay', async () => {
    let n = 0;
    handler = (_req, _b, res) => (++n === 1 ? json(res, 429, {}, { 'retry-after': '2' }) : json(res, 200, {}));
    const { client, sleeps } = harness();
    await client.request(call({ timeoutMs: 10_000 }));
    expect(sleeps).toEqual([2000]);
    await client.close();
  });

  it('does not wait past the deadline: a Retry-After beyond it fails now with retryAfterMs', async () => {
    handler = (_req, _b, res) => json(res, 503, {}, { 'retry-after': '30' });
    const { client, sleeps } = harness();
    const err = await client.request(call({ timeoutMs: 2000 })).catch((e) => e);
    expect(err).toMatchObject({ kind: 'server_error', retryAfterMs: 30_000 });
    expect(sleeps).toEqual([]);
    expect(seen).toHaveLength(1);
    await client.close();
  });

  it('never retries a call not marked idempotent (label purchase)', async () => {
    handler = (_req, _b, res) => json(res, 503, {}, { 'retry-after': '1' });
    const { client, sleeps } = harness();
    const err = await client.request(call({ operation: 'purchase', idempotent: false })).catch((e) => e);
    expect(err).toMatchObject({ kind: 'server_error', retryable: true });
    expect(seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
    await client.close();
  });

  it('returns 4xx answers to the driver without retrying', async () => {
    handler = (_req, _b, res) => json(res, 400, { response: { errors: [{ code: '111285', message: 'bad zip' }] } });
    const { client } = harness();
    const res = await client.request(call());
    expect(res.status).toBe(400);
    expect(seen).toHaveLength(1);
    await client.close();
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfterMs('3', 0)).toBe(3000);
    expect(parseRetryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(parseRetryAfterMs('soon', 0)).toBeNull();
  });
});

describe('deadline', () => {
  it('abandons a hanging server at the deadline with a retryable timeout, without retrying', async () => {
    handler = () => {
      /* never answers */
    };
    const { client, outcomes } = harness();
    const started = Date.now();
    const err = await client.request(call({ timeoutMs: 300 })).catch((e) => e);
    const took = Date.now() - started;
    expect(err).toMatchObject({ kind: 'timeout', retryable: true });
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(3000);
    expect(seen).toHaveLength(1);
    expect(outcomes).toEqual(['timeout']);
    await client.close();
  });

  it('maps a refused connection to a retryable network error', async () => {
    const { client } = harness({ maxRetries: 0 });
    const err = await client.request(call({ url: 'http://127.0.0.1:1/x' })).catch((e) => e);
    expect(err).toMatchObject({ kind: 'network', retryable: true });
    await client.close();
  });

  it('treats a non-JSON body as malformed, retryable only when idempotent', async () => {
    handler = (_req, _b, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('<html>gateway');
    };
    const { client } = harness();
    const res = await client.request(call());
    expect(() => parseJson('ups', res, true)).toThrow(CarrierTransportError);
    expect(() => parseJson('ups', res, false)).toThrowError(expect.objectContaining({ kind: 'malformed_response', retryable: false }));
    await client.close();
  });
});

describe('connection reuse', () => {
  it('keeps connections alive per host', async () => {
    handler = (_req, _b, res) => json(res, 200, {});
    const { client } = harness();
    for (let i = 0; i < 10; i++) await client.request(call());
    // Sequential calls reuse pooled sockets (undici may alternate between two while the first
    // is being released): far fewer connections than requests.
    expect(new Set(seen.map((s) => s.remotePort)).size).toBeLessThanOrEqual(2);
    await client.close();
  });
});

describe('circuit breaker', () => {
  it('opens after 5 consecutive failures, fails fast, lets one trial through after 30 s, closes on success', async () => {
    let now = 1_000_000;
    handler = (_req, _b, res) => json(res, 500, {});
    const { client } = harness({ now: () => now, maxRetries: 0 });
    for (let i = 0; i < 5; i++) await client.request(call()).catch(() => undefined);
    expect(seen).toHaveLength(5);
    expect(client.breakerState('ups', 'ca_1')).toBe('open');
    const fast = await client.request(call()).catch((e) => e);
    expect(fast).toMatchObject({ kind: 'circuit_open', retryable: true, retryAfterMs: 30_000 });
    expect(seen).toHaveLength(5);
    // Another account of the same carrier is unaffected.
    await client.request(call({ accountId: 'ca_2' })).catch(() => undefined);
    expect(seen).toHaveLength(6);

    now += 30_000;
    expect(client.breakerState('ups', 'ca_1')).toBe('half_open');
    // Trial fails → open again for another 30 s.
    await client.request(call()).catch(() => undefined);
    expect(seen).toHaveLength(7);
    expect(client.breakerState('ups', 'ca_1')).toBe('open');
    now += 30_000;
    handler = (_req, _b, res) => json(res, 200, {});
    const ok = await client.request(call());
    expect(ok.status).toBe(200);
    expect(client.breakerState('ups', 'ca_1')).toBe('closed');
    await client.close();
  });
});

describe('OAuth token cache', () => {
  it('fetches one token for concurrent calls, reuses it, refreshes shortly before expiry', async () => {
    let now = 0;
    let fetches = 0;
    handler = (req, _b, res) => json(res, 200, { auth: req.headers.authorization });
    const { client } = harness({ now: () => now, tokenRefreshBeforeMs: 60_000 });
    const oauth = {
      key: 'ca_1',
      fetchToken: async () => {
        fetches += 1;
        await new Promise((r) => setTimeout(r, 50));
        return { accessToken: `tok${fetches}`, expiresInS: 3600 };
      },
    };
    const answers = await Promise.all(Array.from({ length: 5 }, () => client.request(call({ oauth }))));
    expect(fetches).toBe(1);
    expect(answers.map((a) => JSON.parse(a.body).auth)).toEqual(Array(5).fill('Bearer tok1'));
    now = 3600_000 - 61_000;
    await client.request(call({ oauth }));
    expect(fetches).toBe(1);
    now = 3600_000 - 59_000;
    const later = await client.request(call({ oauth }));
    expect(fetches).toBe(2);
    expect(JSON.parse(later.body).auth).toBe('Bearer tok2');
    await client.close();
  });

  it('refetches once on 401 and re-sends (even a non-idempotent call), then returns a second 401', async () => {
    let fetches = 0;
    let valid = 'tok2';
    handler = (req, _b, res) =>
      req.headers.authorization === `Bearer ${valid}`
        ? json(res, 200, { ok: 1 })
        : json(res, 401, { response: { errors: [{ code: '250002', message: 'Invalid Authentication Information.' }] } });
    const { client } = harness();
    const oauth = { key: 'ca_1', fetchToken: async () => ({ accessToken: `tok${++fetches}`, expiresInS: 3600 }) };
    const res = await client.request(call({ oauth, idempotent: false, operation: 'purchase' }));
    expect(res.status).toBe(200);
    expect(fetches).toBe(2);
    expect(seen).toHaveLength(2);
    valid = 'never';
    const refused = await client.request(call({ oauth }));
    expect(refused.status).toBe(401);
    expect(fetches).toBe(3);
    expect(seen).toHaveLength(4);
    await client.close();
  });
});

describe('exchange log and redaction', () => {
  it('logs each exchange with path, status, duration, request id and redacted bodies', async () => {
    handler = (_req, _b, res) => json(res, 200, { access_token: 'eyJsecretvalue', token_type: 'Bearer', label: 'x'.repeat(2000) });
    const { client, exchanges } = harness();
    await client.request(
      call({
        url: `${base}/security/v1/oauth/token?x=1`,
        json: undefined,
        form: { grant_type: 'client_credentials', client_secret: 'hunter2' },
        headers: { authorization: 'Basic dXNlcjpodW50ZXIy', 'x-merchant-id': '123456' },
        requestId: 'req_1',
      }),
    );
    expect(exchanges).toHaveLength(1);
    const e = exchanges[0];
    expect(e).toMatchObject({ method: 'POST', path: '/security/v1/oauth/token?x=1', status: 200, request_id: 'req_1', attempt: 1, error: null });
    expect(e.duration_ms).toBeGreaterThanOrEqual(0);
    expect(e.request_headers.authorization).toBe('[REDACTED]');
    expect(e.request_headers['x-merchant-id']).toBe('123456');
    expect(e.request_body).toEqual({ grant_type: 'client_credentials', client_secret: '[REDACTED]' });
    // Over-eager by design: any key that names a token (token_type too) is masked.
    expect(e.response_body).toEqual({ access_token: '[REDACTED]', token_type: '[REDACTED]', label: '[2000 characters]' });
    const text = JSON.stringify(exchanges);
    for (const secret of ['hunter2', 'dXNlcjpodW50ZXIy', 'eyJsecretvalue']) expect(text).not.toContain(secret);
    await client.close();
  });

  it('redacts a JSON request from its object as sent, and parses the answer once for the log and the driver', async () => {
    handler = (_req, _b, res) => json(res, 200, { Rated: [{ Total: '12.34', AccessToken: 'secret-in-answer' }] });
    const { client, exchanges } = harness();
    const sentAt = new Date('2026-11-28T10:00:00Z');
    const res = await client.request(call({ json: { Shipment: { ShipDate: sentAt, Password: 'hunter2', Weight: 2, Note: undefined } } }));
    const e = exchanges[0];
    // As the wire carried it: the Date as its JSON text, the undefined key absent once stored.
    expect(JSON.parse(JSON.stringify(e.request_body))).toEqual({ Shipment: { ShipDate: '2026-11-28T10:00:00.000Z', Password: '[REDACTED]', Weight: 2 } });
    expect(e.response_body).toEqual({ Rated: [{ Total: '12.34', AccessToken: '[REDACTED]' }] });
    // The driver reads the carrier's own answer (not the redacted copy), without parsing it again.
    expect(res.json?.value).toEqual({ Rated: [{ Total: '12.34', AccessToken: 'secret-in-answer' }] });
    expect(parseJson('ups', res, true)).toBe(res.json?.value);
    await client.close();
  });

  it('scrubs an answer quoting the request of every secret it carried, in any encoding, in the log only', async () => {
    const secret = 'hunter2/secret+"x"';
    const basic = Buffer.from(`client-id:${secret}`).toString('base64');
    // A carrier (or a proxy) quoting the request back inside its error message.
    handler = (req, body, res) =>
      json(res, 400, {
        errors: [{ message: `refused: ${req.headers.authorization} ${body} ${secret}`, detail: `token ${req.headers['x-payment-authorization-token']}` }],
      });
    const { client, exchanges } = harness();
    const form = { grant_type: 'client_credentials', client_secret: secret };
    const res = await client.request(
      call({ json: undefined, form, headers: { authorization: `Basic ${basic}`, 'x-payment-authorization-token': 'pay-token-0123456789' } }),
    );
    const logged = JSON.stringify(exchanges[0]!.response_body);
    for (const form of [secret, JSON.stringify(secret).slice(1, -1), basic, new URLSearchParams({ s: secret }).toString().slice(2), 'pay-token-0123456789'])
      expect(logged).not.toContain(form);
    expect(logged).toContain('refused: Basic [REDACTED] grant_type=client_credentials&client_secret=[REDACTED] [REDACTED]');
    // The driver reads the carrier's own answer: what it makes of it is scrubbed where the account is known (scrubbing-driver.ts).
    expect(res.body).toContain(basic);
    await client.close();
  });

  it('scrubs the log of the tokens cached for the account, and lists them per account', async () => {
    handler = (req, _b, res) => json(res, 400, { message: `bad ${req.headers.authorization}` });
    const { client, exchanges } = harness();
    await client.request(call({ oauth: { key: 'ups:ca_1:host', fetchToken: async () => ({ accessToken: 'tok-issued-0123456789', expiresInS: 3600 }) } }));
    expect(JSON.stringify(exchanges[0]!.response_body)).toBe(JSON.stringify({ message: 'bad Bearer [REDACTED]' }));
    expect(client.tokens.tokensOf('ca_1')).toEqual(['tok-issued-0123456789']);
    expect(client.tokens.tokensOf('ca_2')).toEqual([]);
    client.tokens.clear('ups:ca_1:host');
    expect(client.tokens.tokensOf('ca_1')).toEqual([]);
    await client.close();
  });

  it('redacts nested secret-named fields, headers and free text', () => {
    expect(redactBody(JSON.stringify({ a: { Password: 'p', ClientSecret: 's', api_key: 'k', keep: 'v' } }), 'application/json')).toEqual({
      a: { Password: '[REDACTED]', ClientSecret: '[REDACTED]', api_key: '[REDACTED]', keep: 'v' },
    });
    expect(redactHeaders({ Authorization: 'Bearer x', 'X-Api-Key': 'k', accept: 'a' })).toEqual({
      authorization: '[REDACTED]',
      'x-api-key': '[REDACTED]',
      accept: 'a',
    });
    const text = redactBody('error: token=abc&password=def; header Bearer abc.def', 'text/plain') as string;
    expect(text).not.toMatch(/abc|def(?!;)/);
  });
});
