import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, expectV1AuthMatrix, type Tenant } from '../../../test/helpers/app.js';

const URL = '/v1/addresses/validate';
let app: FastifyInstance;
let tenant: Tenant;

beforeAll(async () => {
  app = await buildTestApp();
  tenant = await createTenant(app);
});

const post = (payload: unknown) => app.inject({ method: 'POST', url: URL, headers: tenant.headers, payload: payload as object });

describe('POST /v1/addresses/validate: results (200)', () => {
  it('verified US address with Pub 28 normalisation', async () => {
    const res = await post({
      name: 'The President',
      street1: '1600 Pennsylvania Avenue Northwest',
      city: 'washington',
      state: 'District of Columbia',
      postal_code: '20500',
      country: 'us',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      status: 'verified',
      residential: 'unknown',
      original: {
        name: 'The President',
        street1: '1600 Pennsylvania Avenue Northwest',
        city: 'washington',
        state: 'District of Columbia',
        postal_code: '20500',
        country: 'us',
      },
      normalized: { name: 'The President', street1: '1600 PENNSYLVANIA AVE NW', city: 'WASHINGTON', state: 'DC', postal_code: '20500', country: 'US' },
      messages: [],
      source: { type: 'built_in' },
    });
  });

  it('corrected city and state, reported in messages', async () => {
    const res = await post({ street1: '9450 Wilshire Blvd', street2: 'apt 2', city: 'Los Angeles', state: 'NY', postal_code: '90210-1234', country: 'US' });
    const body = res.json();
    expect(body.status).toBe('corrected');
    expect(body.residential).toBe('yes');
    expect(body.normalized).toMatchObject({ street2: 'APT 2', city: 'BEVERLY HILLS', state: 'CA', postal_code: '90210-1234' });
    expect(body.messages.map((m: { field: string; code: string }) => `${m.field}:${m.code}`)).toEqual(['city:city_corrected', 'state:state_corrected']);
    for (const m of body.messages) expect(Object.keys(m).sort()).toEqual(['code', 'field', 'message']);
  });

  it('accepts null for optional fields (store exports send them) and treats them as empty', async () => {
    const res = await post({
      name: null,
      company: null,
      street1: '1600 Pennsylvania Ave NW',
      street2: null,
      city: 'Washington',
      state: 'DC',
      postal_code: '20500',
      country: 'US',
      phone: null,
      email: null,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.status).toBe('verified');
    expect(body.normalized.street1).toBe('1600 PENNSYLVANIA AVE NW');
    expect(body.normalized.street2 ?? null).toBeNull();
    // A null required-for-shipping field is a missing field in the result, not a 400.
    const noCity = (await post({ street1: '1 Main St', city: null, postal_code: '20500', country: 'US' })).json();
    expect(noCity.messages).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'city', code: expect.any(String) })]));
  });

  it('an unknown ZIP is an invalid result, not an error', async () => {
    const res = await post({ street1: '1 Main St', city: 'Nowhere', state: 'NY', postal_code: '00000', country: 'US' });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('invalid');
  });

  it('a malformed postal code is an invalid result', async () => {
    const res = await post({ street1: '1 Main St', city: 'Boston', state: 'MA', postal_code: '021', country: 'US' });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('invalid');
    expect(res.json().messages[0]).toMatchObject({ field: 'postal_code', code: 'invalid_postal_code' });
  });

  it('a non-ISO country is an invalid result', async () => {
    const res = await post({ street1: '1 Main St', city: 'Springfield', postal_code: '12345', country: 'Freedonia' });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('invalid');
    expect(res.json().messages).toContainEqual(expect.objectContaining({ field: 'country', code: 'invalid_country' }));
  });

  it('a missing street1 is an invalid result with a message', async () => {
    const res = await post({ city: 'Boston', state: 'MA', postal_code: '02108', country: 'US' });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('invalid');
    expect(res.json().messages).toContainEqual(expect.objectContaining({ field: 'street1', code: 'missing_field' }));
  });

  it('international: unverified, postcode upper-cased with its space', async () => {
    const res = await post({ company: 'HM Treasury', street1: '1 Horse Guards Rd', city: 'London', postal_code: 'sw1a2hq', country: 'GB' });
    const body = res.json();
    expect(body.status).toBe('unverified');
    expect(body.residential).toBe('no');
    expect(body.normalized.postal_code).toBe('SW1A 2HQ');
  });

  it('keeps original strings verbatim and ignores unknown keys', async () => {
    const name = 'Zoe\u0308 Mu\u0308ller';
    const res = await post({ name, street1: '1 main st', city: 'boston', state: 'ma', postal_code: '02108', country: 'US', favourite_colour: 'blue' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.original.name).toBe(name);
    expect(body.original).not.toHaveProperty('favourite_colour');
    expect(body.normalized).not.toHaveProperty('favourite_colour');
  });
});

describe('POST /v1/addresses/validate: schema errors (400)', () => {
  it.each([
    ['country missing', { street1: '1 Main St', postal_code: '02108' }, 'country'],
    ['street1 a number', { street1: 123, country: 'US' }, 'street1'],
    ['postal_code a number', { street1: '1 Main St', postal_code: 2108, country: 'US' }, 'postal_code'],
    ['country a number', { country: 840 }, 'country'],
    ['city a boolean', { street1: '1 Main St', city: true, country: 'US' }, 'city'],
    ['name an object', { name: { first: 'A' }, country: 'US' }, 'name'],
    ['street1 too long', { street1: 'x'.repeat(201), country: 'US' }, 'street1'],
  ])('%s', async (_name, payload, field) => {
    const res = await post(payload);
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json();
    expect(body.code).toBe('validation_failed');
    expect(body.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('a body that is not an object', async () => {
    const res = await post(['US']);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
  });

  it('malformed JSON', async () => {
    const res = await app.inject({ method: 'POST', url: URL, headers: { ...tenant.headers, 'content-type': 'application/json' }, payload: '{"country":' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_json');
  });
});

describe('POST /v1/addresses/validate: auth', () => {
  it('needs a valid API key for the workspace', async () => {
    await expectV1AuthMatrix(app, { method: 'POST', url: URL, payload: { country: 'US' } }, { owner: tenant });
  });
});
