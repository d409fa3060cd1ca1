import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { fedexFixture, startFakeFedex, type FakeFedex } from '../../../test/helpers/fake-fedex.js';
import { startFakeUps, upsFixture, type FakeUps } from '../../../test/helpers/fake-ups.js';
import { CARRIER_ADDRESS_VALIDATION_EXAMPLE, CARRIER_ADDRESS_VALIDATION_REQUEST_EXAMPLE } from './addresses.examples.js';

// POST /v1/addresses/validate with a carrier_account_id: the account's
// carrier validates, through its api driver, against fake carriers on loopback that check every
// request against the carriers' published descriptions (test/helpers/fake-*.ts).

const UPS_SECRET = 'fake-ups-secret-addr-4e1b';
const FEDEX_SECRET = 'fake-fedex-secret-addr-8d2c';
const URL = '/v1/addresses/validate';
/** What UPS's and FedEx's recorded answers hold (fixtures xav-valid and address-resolved). */
const CALABASAS = { street1: '26601 W AGOURA RD', city: 'CALABASAS', state: 'CA', postal_code: '91302-1954', country: 'US' };

let ups: FakeUps;
let fedex: FakeFedex;
let app: FastifyInstance;
let t: Tenant;
let upsAccount: string;
let fedexAccount: string;

const createAccount = async (headers: Record<string, string>, payload: Record<string, unknown>) => {
  const res = await app.inject({ method: 'POST', url: '/v1/carrier-accounts', headers, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
};
const upsPayload = (secret = UPS_SECRET) => ({
  carrier: 'ups',
  driver: 'api',
  account_number: 'A1B2C3',
  base_url: ups.url,
  credentials: { client_id: 'fake-client-id', client_secret: secret },
});
const validate = (payload: Record<string, unknown>, headers = t.headers) => app.inject({ method: 'POST', url: URL, headers, payload });

beforeAll(async () => {
  ups = await startFakeUps({ clientSecret: UPS_SECRET });
  fedex = await startFakeFedex({ secretKey: FEDEX_SECRET });
  for (const [name, fake] of [
    ['ups', ups],
    ['fedex', fedex],
  ] as const) {
    if (!fake.specChecked) console.warn(`[addresses carriers test] ../shared/carrier-specs/${name} is absent: the fake skipped the schema check of requests`);
  }
  app = await buildTestApp({ config: { encryptionKey: randomBytes(32).toString('base64'), carrierAllowBaseUrlOverride: true } });
  t = await createTenant(app);
  upsAccount = await createAccount(t.headers, upsPayload());
  fedexAccount = await createAccount(t.headers, {
    carrier: 'fedex',
    driver: 'api',
    account_number: '740561073',
    base_url: fedex.url,
    credentials: { api_key: 'fake-api-key', secret_key: FEDEX_SECRET },
  });
}, 60_000);
afterAll(async () => {
  await ups?.close();
  await fedex?.close();
});

describe('through a UPS api account', () => {
  it('verified: the address UPS holds comes back as sent, classified residential', async () => {
    const before = ups.count('xav');
    const res = await validate({ name: 'Jane Doe', ...CALABASAS, carrier_account_id: upsAccount });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      status: 'verified',
      residential: 'yes',
      original: { name: 'Jane Doe', ...CALABASAS },
      normalized: { name: 'Jane Doe', ...CALABASAS },
      messages: [],
      candidates: [{ name: 'Jane Doe', ...CALABASAS }],
      source: { type: 'carrier', carrier: 'ups', carrier_account_id: upsAccount },
    });
    expect(ups.count('xav')).toBe(before + 1);
    expect(ups.violations).toEqual([]);
  });

  it("corrected: UPS's candidate is the normalized address, each changed field a message (the documented example)", async () => {
    const res = await validate({ ...CARRIER_ADDRESS_VALIDATION_REQUEST_EXAMPLE, carrier_account_id: upsAccount });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      ...CARRIER_ADDRESS_VALIDATION_EXAMPLE,
      source: { ...CARRIER_ADDRESS_VALIDATION_EXAMPLE.source, carrier_account_id: upsAccount },
    });
    // What UPS was asked: the input's lines, whitespace tidied, in its AddressKeyFormat.
    const sent = JSON.parse(ups.requests.filter((r) => r.operation === 'xav').at(-1)!.body);
    expect(sent.XAVRequest.AddressKeyFormat).toMatchObject({
      AddressLine: ['26601 agoura road'],
      PoliticalDivision2: 'calabasas',
      PostcodePrimaryLow: '91302',
      CountryCode: 'US',
    });
    expect(ups.violations).toEqual([]);
  });

  it('invalid: no candidate from UPS; normalized is the address as sent, the message on street1', async () => {
    ups.queue('xav', { body: upsFixture('xav-none') });
    const res = await validate({
      street1: '1  Nowhere Lane',
      city: 'Calabasas',
      state: 'CA',
      postal_code: '91302',
      country: 'us',
      carrier_account_id: upsAccount,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      status: 'invalid',
      residential: 'unknown',
      original: { street1: '1  Nowhere Lane', country: 'us' },
      normalized: { street1: '1 Nowhere Lane', city: 'Calabasas', state: 'CA', postal_code: '91302', country: 'US' },
      candidates: [],
      source: { type: 'carrier', carrier: 'ups', carrier_account_id: upsAccount },
    });
    expect(body.messages).toEqual([{ code: 'address_not_found', field: 'street1', message: expect.stringContaining('UPS') }]);
    expect(ups.violations).toEqual([]);
  });

  it("a business rejection is 422 carrier_rejected with UPS's message and code in details", async () => {
    ups.queue('xav', { status: 400, body: upsFixture('error-invalid-postal') });
    const res = await validate({ ...CALABASAS, postal_code: '99999', carrier_account_id: upsAccount });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ code: 'carrier_rejected', details: [{ message: expect.stringContaining('99999'), carrier_code: '111285' }] });
  });

  it('UPS down is 503 carrier_unavailable with Retry-After (the idempotent check was retried first)', async () => {
    const before = ups.count('xav');
    ups.queue('xav', { status: 503 }, { status: 503 }, { status: 503 });
    const res = await validate({ ...CALABASAS, carrier_account_id: upsAccount });
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().code).toBe('carrier_unavailable');
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(ups.count('xav')).toBe(before + 3);
    // The exchanges reach the account's log under this request's id (written off the request path, in batches).
    const logged = async () => {
      const logs = (await app.inject({ method: 'GET', url: `/v1/carrier-accounts/${upsAccount}/logs`, headers: t.headers })).json().data;
      return logs.filter((l: { operation: string; request_id: string }) => l.operation === 'address_validation' && l.request_id === res.headers['x-request-id'])
        .length;
    };
    let count = await logged();
    for (let i = 0; i < 50 && count < 3; i++) {
      await new Promise((r) => setTimeout(r, 100));
      count = await logged();
    }
    expect(count).toBe(3);
  });

  it("refused credentials are 422 carrier_account_invalid, and the account's health says so", async () => {
    const bad = await createAccount(t.headers, upsPayload('wrong-secret-0000'));
    const res = await validate({ ...CALABASAS, carrier_account_id: bad });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().code).toBe('carrier_account_invalid');
    const account = (await app.inject({ method: 'GET', url: `/v1/carrier-accounts/${bad}`, headers: t.headers })).json();
    expect(account.health.status).toBe('invalid_credentials');
  });

  it('a country that is not ISO alpha-2 is not sent: the built-in check answers invalid', async () => {
    const before = ups.count('xav');
    const res = await validate({ ...CALABASAS, country: 'Freedonia', carrier_account_id: upsAccount });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'invalid', source: { type: 'built_in' } });
    expect(res.json().messages).toContainEqual(expect.objectContaining({ field: 'country', code: 'invalid_country' }));
    expect(ups.count('xav')).toBe(before);
  });
});

describe('through a FedEx api account', () => {
  it("corrected: FedEx's resolved address, classification and changed fields", async () => {
    const res = await validate({
      name: 'Jane Doe',
      street1: '26601 Agoura Rd',
      city: 'Calabasas',
      state: 'CA',
      postal_code: '91302',
      country: 'US',
      carrier_account_id: fedexAccount,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      status: 'corrected',
      residential: 'yes',
      normalized: { name: 'Jane Doe', ...CALABASAS },
      candidates: [{ name: 'Jane Doe', ...CALABASAS }],
      source: { type: 'carrier', carrier: 'fedex', carrier_account_id: fedexAccount },
    });
    expect(body.messages.map((m: { field: string; code: string }) => `${m.field}:${m.code}`)).toEqual([
      'street1:address_corrected',
      'postal_code:address_corrected',
    ]);
    expect(fedex.violations).toEqual([]);
  });

  it('verified: the resolved address as sent', async () => {
    const res = await validate({ ...CALABASAS, carrier_account_id: fedexAccount });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'verified', residential: 'yes', messages: [], normalized: CALABASAS });
  });

  it('invalid: FedEx\'s "standardized address not found" refusal is a verdict, not an error', async () => {
    fedex.queue('address', { status: 400, body: fedexFixture('error-address-not-found') });
    const res = await validate({
      street1: '1 Nowhere Lane',
      city: 'Calabasas',
      state: 'CA',
      postal_code: '91302',
      country: 'US',
      carrier_account_id: fedexAccount,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'invalid',
      candidates: [],
      normalized: { street1: '1 Nowhere Lane' },
      messages: [{ code: 'address_not_found', field: 'street1' }],
    });
    expect(fedex.violations).toEqual([]);
  });

  it('FedEx down is 503 carrier_unavailable with Retry-After', async () => {
    fedex.queue(
      'address',
      { status: 503, body: fedexFixture('error-unavailable') },
      { status: 503, body: fedexFixture('error-unavailable') },
      { status: 503, body: fedexFixture('error-unavailable') },
    );
    const res = await validate({ ...CALABASAS, carrier_account_id: fedexAccount });
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().code).toBe('carrier_unavailable');
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});

describe('accounts that cannot validate: 400 on carrier_account_id', () => {
  const fieldOf = (res: { json(): { code: string; details: Array<{ field: string; message: string }> } }) => res.json().details;

  it('a simulated account: use the built-in validator without it', async () => {
    const accounts = (await app.inject({ method: 'GET', url: '/v1/carrier-accounts?carrier=ups', headers: t.headers })).json().data;
    const simulated = accounts.find((a: { driver: string }) => a.driver === 'simulated').id;
    const res = await validate({ ...CALABASAS, carrier_account_id: simulated });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    expect(fieldOf(res)).toEqual([{ field: 'carrier_account_id', message: expect.stringMatching(/simulated.*built-in validator/) }]);
  });

  it("another workspace's account, the other environment's, an unknown id: the same 400, nothing asked", async () => {
    const other = await createTenant(app);
    const foreign = await createAccount(other.headers, upsPayload());
    const live = await createAccount(t.liveHeaders, upsPayload());
    const before = ups.count('xav');
    for (const id of [foreign, live, 'ca_00000000000000000000000000']) {
      const res = await validate({ ...CALABASAS, carrier_account_id: id });
      expect(res.statusCode, res.body).toBe(400);
      expect(fieldOf(res)).toEqual([{ field: 'carrier_account_id', message: 'is not an enabled carrier account of this workspace and environment' }]);
    }
    expect(ups.count('xav')).toBe(before);
    // The owner, in its environment, may.
    expect((await validate({ ...CALABASAS, carrier_account_id: foreign }, other.headers)).statusCode).toBe(200);
  });

  it('a disabled or deleted account', async () => {
    const disabled = await createAccount(t.headers, upsPayload());
    await app.inject({ method: 'PATCH', url: `/v1/carrier-accounts/${disabled}`, headers: t.headers, payload: { enabled: false } });
    const deleted = await createAccount(t.headers, upsPayload());
    await app.inject({ method: 'DELETE', url: `/v1/carrier-accounts/${deleted}`, headers: t.headers });
    for (const id of [disabled, deleted]) {
      const res = await validate({ ...CALABASAS, carrier_account_id: id });
      expect(res.statusCode, res.body).toBe(400);
      expect(fieldOf(res)[0].field).toBe('carrier_account_id');
    }
  });

  it('a carrier_account_id that is not a string is a schema 400', async () => {
    const res = await validate({ ...CALABASAS, carrier_account_id: 42 });
    expect(res.statusCode).toBe(400);
    expect(fieldOf(res).map((d) => d.field)).toContain('carrier_account_id');
  });
});

describe('without carrier_account_id', () => {
  it('the built-in validator answers as before, and says so', async () => {
    const before = ups.count('xav') + fedex.count('address');
    const res = await validate({ name: 'Jane Doe', street1: '26601 agoura road', city: 'calabasas', state: 'CA', postal_code: '91302', country: 'US' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.source).toEqual({ type: 'built_in' });
    expect(body).not.toHaveProperty('candidates');
    expect(body.normalized).toMatchObject({ street1: '26601 AGOURA RD', city: 'CALABASAS' });
    expect(ups.count('xav') + fedex.count('address')).toBe(before);
  });
});
