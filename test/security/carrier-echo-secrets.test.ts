import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../helpers/app.js';
import { startEchoProxy, type EchoProxy } from '../helpers/echo-proxy.js';
import { dhlFixture, startFakeDhl, type FakeDhl } from '../helpers/fake-dhl.js';
import { fedexFixture, startFakeFedex, type FakeFedex } from '../helpers/fake-fedex.js';
import { startFakeUps, upsFixture, type FakeUps } from '../helpers/fake-ups.js';

// A carrier, or a proxy at the account's base_url, that quotes our request back in its error
// answers must not turn the account's secrets into readable text (secrets are
// never returned after creation): not in the account's health message, a rate query's
// messages, a purchase's 422 details, the exchange log, nor a log line. The secrets carry
// characters that every encoding changes, so each encoded form is a different string to find.

const UPS_ID = 'fake-client-id';
const UPS_SECRET = 'ups-Secret/42+"quoted"&x=1';
/** FedEx sends its secret form-encoded in the token request's body (a space becomes `+`). */
const FEDEX_KEY = 'fake-fedex-key';
const FEDEX_SECRET = 'fedex secret/0d6f+2b85&k=v';
const DHL_KEY = 'fake-api-key';
const DHL_SECRET = 'dhl-api-secret/a47c+13e9';

const shipFrom = {
  name: 'Warehouse',
  company: 'Acme',
  street1: '350 5th Ave',
  city: 'New York',
  state: 'NY',
  postal_code: '10118',
  country: 'US',
  phone: '2125550100',
};
const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US', phone: '4155550100' };
const parcel = { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 };
/** What the echo proxy appends: proof that a quoted request reached the place looked at. */
const ECHO = 'you sent authorization';

const lines: string[] = [];
let ups: FakeUps;
let dhl: FakeDhl;
let fedex: FakeFedex;
let fedexProxy: EchoProxy;
let upsProxy: EchoProxy;
let dhlProxy: EchoProxy;
let app: FastifyInstance;
let t: Tenant;
let upsAccount: string;
let dhlAccount: string;
let fedexAccount: string;

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** Every form a secret could leak in: as is, JSON-escaped, percent- and form-encoded, base64 alone and as a Basic value. */
function formsOf(secret: string, user: string): string[] {
  return [
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    b64(secret),
    b64(`${user}:${secret}`),
    b64(`${user}:${secret}`).replaceAll('+', '-').replaceAll('/', '_'),
  ];
}

/** The secrets' forms plus every bearer token the carrier issued and we sent back through the proxy. */
function forbidden(): string[] {
  const tokens = [...upsProxy.seen.authorization, ...dhlProxy.seen.authorization, ...fedexProxy.seen.authorization].flatMap((a) =>
    a.startsWith('Bearer ') ? [a.slice(7)] : [],
  );
  expect(tokens.length).toBeGreaterThan(0);
  return [...new Set([...formsOf(UPS_SECRET, UPS_ID), ...formsOf(DHL_SECRET, DHL_KEY), ...formsOf(FEDEX_SECRET, FEDEX_KEY), ...tokens])];
}

function leaksIn(where: string, text: string): string[] {
  return forbidden().flatMap((f) =>
    text.includes(f) ? [`${where} holds ${f.slice(0, 8)}…: ${text.slice(Math.max(0, text.indexOf(f) - 60), text.indexOf(f) + 20)}`] : [],
  );
}

beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  ups = await startFakeUps({ clientId: UPS_ID, clientSecret: UPS_SECRET });
  dhl = await startFakeDhl({ apiKey: DHL_KEY, apiSecret: DHL_SECRET });
  upsProxy = await startEchoProxy(ups.url);
  dhlProxy = await startEchoProxy(dhl.url);
  fedex = await startFakeFedex({ apiKey: FEDEX_KEY, secretKey: FEDEX_SECRET });
  fedexProxy = await startEchoProxy(fedex.url);
  app = await buildTestApp({
    config: { logLevel: 'trace', carrierAllowBaseUrlOverride: true, encryptionKey: randomBytes(32).toString('base64') },
    logStream: stream,
  });
  t = await createTenant(app);
  const create = async (payload: Record<string, unknown>) => {
    const res = await app.inject({ method: 'POST', url: '/v1/carrier-accounts', headers: t.headers, payload: { driver: 'api', ...payload } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().health.status).toBe('ok');
    return res.json().id as string;
  };
  upsAccount = await create({
    carrier: 'ups',
    account_number: 'A1B2C3',
    base_url: upsProxy.url,
    credentials: { client_id: UPS_ID, client_secret: UPS_SECRET },
  });
  dhlAccount = await create({
    carrier: 'dhl_express',
    account_number: '123456789',
    base_url: dhlProxy.url,
    credentials: { api_key: DHL_KEY, api_secret: DHL_SECRET },
  });
  fedexAccount = await create({
    carrier: 'fedex',
    account_number: '740561073',
    base_url: fedexProxy.url,
    credentials: { api_key: FEDEX_KEY, secret_key: FEDEX_SECRET },
  });
  upsProxy.echo = true;
  fedexProxy.echo = true;
  dhlProxy.echo = true;
}, 60_000);
afterAll(async () => {
  await app?.close();
  await Promise.all([upsProxy?.close(), dhlProxy?.close(), fedexProxy?.close(), ups?.close(), dhl?.close(), fedex?.close()]);
});

describe('a carrier that quotes our requests back', () => {
  it("leaks no secret or token into a rate query's messages", async () => {
    ups.queue('rates', { status: 400, body: upsFixture('error-invalid-postal') });
    dhl.queue('rates', { status: 400, body: dhlFixture('error-invalid-postal') });
    const domestic = await app.inject({
      method: 'POST',
      url: '/v1/rates/query',
      headers: t.headers,
      payload: { ship_from: shipFrom, ship_to: shipTo, parcel, carrier_accounts: [upsAccount] },
    });
    const abroad = await app.inject({
      method: 'POST',
      url: '/v1/rates/query',
      headers: t.headers,
      payload: { ship_from: shipFrom, ship_to: { country: 'GB', postal_code: 'SW1A 1AA', city: 'London' }, parcel, carrier_accounts: [dhlAccount] },
    });
    for (const res of [domestic, abroad]) {
      expect(res.statusCode, res.body).toBe(200);
      expect(JSON.stringify(res.json().messages)).toContain(ECHO);
    }
    expect([...leaksIn('UPS rate messages', domestic.body), ...leaksIn('DHL rate messages', abroad.body)]).toEqual([]);
  });

  it("leaks no secret or token into a purchase's 422 details", async () => {
    const order = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: {
        customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
        ship_to: shipTo,
        ship_from: shipFrom,
        line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 1, weight_oz: 24 }],
        parcel,
      },
    });
    expect(order.statusCode, order.body).toBe(201);
    ups.queue('ship', { status: 400, body: { response: { errors: [{ code: '120802', message: 'Ship To postal code is invalid.' }] } } });
    const res = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: { order_id: order.json().id, service_code: 'ups_ground', carrier_account_id: upsAccount },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().code).toBe('carrier_rejected');
    expect(JSON.stringify(res.json().details)).toContain(ECHO);
    expect(leaksIn('purchase 422', res.body)).toEqual([]);
  });

  it('leaks no secret into the health message of a refused token or Basic login, on read and list', async () => {
    // The right credentials, refused anyway: the answer quotes the Basic header (UPS, DHL) or the
    // form body (FedEx) that carries them.
    fedex.queue('token', { status: 401, body: fedexFixture('error-auth') });
    ups.queue('token', { status: 401, body: upsFixture('error-auth') });
    dhl.queue('address_validate', { status: 401, body: dhlFixture('error-auth') });
    for (const id of [upsAccount, dhlAccount, fedexAccount]) {
      const res = await app.inject({ method: 'POST', url: `/v1/carrier-accounts/${id}/test`, headers: t.headers });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().health.status).toBe('invalid_credentials');
      expect(res.json().health.message).toContain(ECHO);
      expect(leaksIn(`test of ${id}`, res.body)).toEqual([]);
      const read = await app.inject({ method: 'GET', url: `/v1/carrier-accounts/${id}`, headers: t.headers });
      expect(read.json().health.message).toContain(ECHO);
      expect(leaksIn(`read of ${id}`, read.body)).toEqual([]);
    }
    const list = await app.inject({ method: 'GET', url: '/v1/carrier-accounts?limit=100', headers: t.headers });
    expect(leaksIn('account list', list.body)).toEqual([]);
  });

  it('scrubs a health message and an exchange stored before answers were scrubbed, on read', async () => {
    const stored = `quoted earlier: Basic ${b64(`${UPS_ID}:${UPS_SECRET}`)} and ${UPS_SECRET}`;
    await app.deps.db.updateTable('carrier_accounts').set({ health_message: stored }).where('id', '=', upsAccount).execute();
    const read = await app.inject({ method: 'GET', url: `/v1/carrier-accounts/${upsAccount}`, headers: t.headers });
    expect(read.json().health.message).toBe('quoted earlier: Basic [REDACTED] and [REDACTED]');
    const list = await app.inject({ method: 'GET', url: '/v1/carrier-accounts?limit=100', headers: t.headers });
    expect([...leaksIn('read', read.body), ...leaksIn('list', list.body)]).toEqual([]);
    // An exchange logged before the client scrubbed them (still within the 7 days kept).
    await sql`
      insert into carrier_exchanges (id, carrier_account_id, workspace_id, environment, operation, method, path, status, duration_ms, outcome, request_body, response_body, request_id, created_at)
      select 'cx_stored_before', a.id, a.workspace_id, a.environment, 'token', 'POST', '/security/v1/oauth/token', 401, 5, 'invalid_credentials', null,
             ${JSON.stringify({ response: { errors: [{ code: '250002', message: stored }] } })}::jsonb, null, now()
      from carrier_accounts a where a.id = ${upsAccount}`.execute(app.deps.db);
    const logs = await app.inject({ method: 'GET', url: `/v1/carrier-accounts/${upsAccount}/logs`, headers: t.headers });
    expect(logs.body).toContain('quoted earlier: Basic [REDACTED] and [REDACTED]');
    expect(leaksIn('exchange log', logs.body)).toEqual([]);
  });

  it('leaks nothing into the exchange log, nor into any log line', async () => {
    await app.inject({ method: 'GET', url: '/v1/carrier-accounts?limit=1', headers: t.headers }); // the log sink flushes after 250 ms
    await new Promise((r) => setTimeout(r, 400));
    for (const id of [upsAccount, dhlAccount, fedexAccount]) {
      const logs = await app.inject({ method: 'GET', url: `/v1/carrier-accounts/${id}/logs`, headers: t.headers });
      expect(logs.statusCode, logs.body).toBe(200);
      expect(logs.body).toContain(ECHO);
      expect(leaksIn(`exchange log of ${id}`, logs.body)).toEqual([]);
    }
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.flatMap((l) => leaksIn('log line', l))).toEqual([]);
    expect([...ups.violations, ...dhl.violations, ...fedex.violations]).toEqual([]);
  });
});
