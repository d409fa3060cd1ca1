import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../helpers/app.js';

// Inputs that once bypassed the contract: a NUL character reached PostgreSQL (500),
// an over-long path parameter got Fastify's own 414 echoing the input without a request id,
// and a 429 carried `details` as an object. Every answer here must be the common
// `{code, message, details?, request_id}` with X-Request-Id, and never a 5xx.
let app: FastifyInstance;
let t: Tenant;

beforeAll(async () => {
  app = await buildTestApp();
  t = await createTenant(app);
});

const address = { street1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' };

function expectCommonError(res: { statusCode: number; headers: Record<string, unknown>; json(): any; body: string }, status: number, code: string) {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
  const body = res.json();
  expect(body).toMatchObject({ code, message: expect.any(String) });
  expect(body.request_id).toBe(res.headers['x-request-id']);
  if (body.details !== undefined) expect(Array.isArray(body.details)).toBe(true);
}

describe('a NUL character in any text input', () => {
  it('in a JSON body field: 400 validation_failed naming the field, nothing written', async () => {
    const before = (await app.inject({ method: 'GET', url: '/v1/orders?limit=100', headers: t.headers })).json().data.length;
    const res = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: { ship_to: address, line_items: [{ sku: 'A', quantity: 1 }], notes: 'a\u0000b' },
    });
    expectCommonError(res, 400, 'validation_failed');
    expect(res.json().details).toEqual([{ field: 'notes', message: expect.stringContaining('NUL') }]);
    const after = (await app.inject({ method: 'GET', url: '/v1/orders?limit=100', headers: t.headers })).json().data.length;
    expect(after).toBe(before);
  });

  it('in nested fields and array items: every field named', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: {
        ship_to: { ...address, street2: 'Apt\u00001' },
        line_items: [
          { sku: 'A', quantity: 1 },
          { sku: '\u0000', quantity: 1 },
        ],
      },
    });
    expectCommonError(res, 400, 'validation_failed');
    expect(res.json().details.map((d: { field: string }) => d.field)).toEqual(['ship_to.street2', 'line_items[1].sku']);
  });

  it('in an address line to validate, in the login email, in a free-form config key', async () => {
    const validate = await app.inject({
      method: 'POST',
      url: '/v1/addresses/validate',
      headers: t.headers,
      payload: { ...address, street1: '1 Main\u0000 St' },
    });
    expectCommonError(validate, 400, 'validation_failed');
    expect(validate.json().details[0].field).toBe('street1');

    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: `${t.email}\u0000`, password: t.password } });
    expectCommonError(login, 400, 'validation_failed');
    expect(login.json().details[0].field).toBe('email');

    const integration = await app.inject({
      method: 'POST',
      url: '/api/admin/integrations',
      headers: t.adminHeaders,
      payload: { name: 'x', platform: 'custom', config: { 'shop\u0000': 1 } },
    });
    expectCommonError(integration, 400, 'validation_failed');
    expect(integration.json().details[0].field).toBe('config');
  });

  it('in a query string, a path parameter or a header that reaches SQL', async () => {
    const query = await app.inject({ method: 'GET', url: '/v1/orders?q=a%00b', headers: t.headers });
    expectCommonError(query, 400, 'validation_failed');
    expect(query.json().details).toEqual([{ field: 'q', message: expect.stringContaining('NUL') }]);

    const param = await app.inject({ method: 'GET', url: '/v1/orders/ord_%00', headers: t.headers });
    expectCommonError(param, 400, 'validation_failed');
    expect(param.json().details[0].field).toBe('id');

    const admin = await app.inject({ method: 'GET', url: '/api/admin/orders/x%00y', headers: t.adminHeaders });
    expectCommonError(admin, 400, 'validation_failed');

    const header = await app.inject({ method: 'POST', url: '/v1/api-keys', headers: { ...t.headers, 'idempotency-key': 'k\u0000' }, payload: { name: 'n' } });
    expectCommonError(header, 400, 'validation_failed');
    expect(header.json().details[0].field).toBe('idempotency-key');
  });
});

describe('over-long and malformed URLs', () => {
  it('a 10,000-character path id: 404 in the common shape, the input not echoed', async () => {
    const res = await app.inject({ method: 'GET', url: `/v1/orders/${'x'.repeat(10_000)}`, headers: t.headers });
    expectCommonError(res, 404, 'not_found');
    expect(res.body.length).toBeLessThan(300);
  });

  it('an id over the schema bound (65 characters): 400 naming the parameter', async () => {
    const res = await app.inject({ method: 'GET', url: `/v1/orders/${'x'.repeat(65)}`, headers: t.headers });
    expectCommonError(res, 400, 'validation_failed');
    expect(res.json().details[0].field).toBe('id');
  });

  it('an unknown 10,000-character route: 404 without echoing it all', async () => {
    const res = await app.inject({ method: 'GET', url: `/${'y'.repeat(10_000)}` });
    expectCommonError(res, 404, 'not_found');
    expect(res.body.length).toBeLessThan(400);
  });

  it('a malformed percent-encoding in a path parameter: 400 in the common shape', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/orders/%E0%A4%A', headers: t.headers });
    expectCommonError(res, 400, 'validation_failed');
  });
});

describe('requests refused by the HTTP parser (real socket)', () => {
  async function raw(request: string): Promise<{ status: number; headers: Record<string, string>; body: any }> {
    const address = app.server.address();
    if (!address || typeof address === 'string') await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const text = await new Promise<string>((resolve, reject) => {
      let data = '';
      const socket = connect(port, '127.0.0.1', () => socket.write(request));
      socket.on('data', (d) => (data += d));
      socket.on('end', () => resolve(data));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
    });
    const [head, body] = text.split('\r\n\r\n');
    const [statusLine, ...lines] = head.split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
  }

  it('a raw NUL in a header: 400 bad_request in the common shape with X-Request-Id', async () => {
    const res = await raw(`GET /v1/orders HTTP/1.1\r\nHost: x\r\nX-Service-Workspace: ws_\u0000\r\n\r\n`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'bad_request', message: expect.any(String) });
    expect(res.body.request_id).toBe(res.headers['x-request-id']);
  });

  it('headers over the size limit: 431 in the common shape', async () => {
    const res = await raw(`GET /${'z'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.body).toMatchObject({ code: 'request_headers_too_large' });
    expect(res.body.request_id).toBe(res.headers['x-request-id']);
  });
});

describe('rate limiting', () => {
  it('429 follows the contract: details (if any) a list, Retry-After and RateLimit-* headers', async () => {
    // A burst of 2 per minute refills one token every 30 s: the third request is refused however slow the machine.
    const tight = await createTenant(app);
    await app.identity.workspaces.setPlan(tight.workspaceId, { plan: 'enterprise', burst_per_minute: 2 }, { type: 'system', id: null }, {});
    let res;
    for (let i = 0; i < 3; i++) res = await app.inject({ method: 'GET', url: '/v1/api-keys', headers: tight.headers });
    expectCommonError(res!, 429, 'rate_limited');
    expect(res!.headers['retry-after']).toMatch(/^\d+$/);
    expect(res!.headers['ratelimit-limit']).toBe('2');
    expect(res!.headers['ratelimit-remaining']).toBe('0');
    expect(res!.headers['ratelimit-policy']).toBe('2;w=60');
  });
});
