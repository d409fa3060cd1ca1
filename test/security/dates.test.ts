import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, superAdminHeaders } from '../helpers/app.js';
import { makePrincipal, resourceFactories, type Principal } from '../helpers/credentials.js';
import { detailField, isDateSchema, loadOperations, stringFields, type AuthKind } from '../helpers/openapi.js';

// Every date and time a client can send, in a query string or a body, refuses the values no
// database row can be compared with (year 0000 was a 500 from PostgreSQL on all of them) and
// impossible days, times and offsets, as 400 validation_failed naming the field. The fuzz walk
// (fuzz.test.ts) does the same for every date field /openapi.json declares, new ones included;
// this list keeps the parameters the attack run found, by name. And a field named like a time
// must declare a date format (the shared schemas in platform/http/schemas.ts), so the walk finds it.

const OUT_OF_RANGE = [
  '0000-01-01T00:00:00Z',
  '0000-01-01',
  '+275760-09-13T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '10000-01-01T00:00:00Z',
  '9999-12-31T23:59:59-14:00', // year 10000 once in UTC
  '0001-01-01T00:00:00+01:00', // year 0000 once in UTC
  '2026-02-30',
  '2026-02-30T00:00:00Z',
  '2026-01-01T24:00:00Z',
  '2026-03-03T13:60:00Z',
  '2026-03-03T13:00:00+24:00',
  '2026-03-03T13:00:00-99:99',
];

type Case = { auth: AuthKind; method: 'GET' | 'POST' | 'PUT'; url: string; field: string; body?: (value: string) => Record<string, unknown> };

const integration = 'integrations';
const cases: Case[] = [
  ...['/v1/orders', '/api/admin/orders', '/v1/shipments', '/api/admin/shipments'].flatMap((url) =>
    ['created_after', 'created_before'].map((field) => ({
      auth: (url.startsWith('/v1') ? 'apiKey' : 'admin') as AuthKind,
      method: 'GET' as const,
      url,
      field,
    })),
  ),
  { auth: 'apiKey', method: 'GET', url: '/v1/tracking/events', field: 'since' },
  { auth: 'superAdmin', method: 'GET', url: '/api/super-admin/audit-log', field: 'from' },
  { auth: 'superAdmin', method: 'GET', url: '/api/super-admin/audit-log', field: 'to' },
  { auth: 'superAdmin', method: 'GET', url: '/api/super-admin/analytics', field: 'from' },
  { auth: 'superAdmin', method: 'GET', url: '/api/super-admin/analytics', field: 'to' },
  {
    auth: 'admin',
    method: 'POST',
    url: '/api/admin/integrations',
    field: 'token_expires_at',
    body: (v) => ({ name: 'store', platform: 'custom', token_expires_at: v }),
  },
  { auth: 'admin', method: 'PUT', url: `/api/admin/integrations/{${integration}}`, field: 'token_expires_at', body: (v) => ({ token_expires_at: v }) },
  { auth: 'apiKey', method: 'POST', url: '/v1/api-keys', field: 'expires_at', body: (v) => ({ name: 'k', expires_at: v }) },
  { auth: 'admin', method: 'POST', url: '/api/admin/api-keys', field: 'expires_at', body: (v) => ({ name: 'k', environment: 'test', expires_at: v }) },
  ...['/v1/pickups', '/api/admin/pickups'].flatMap((url) =>
    (['start', 'end'] as const).map((end) => ({
      auth: (url.startsWith('/v1') ? 'apiKey' : 'admin') as AuthKind,
      method: 'POST' as const,
      url,
      field: `window.${end}`,
      body: (v: string) => ({ carrier: 'usps', package_count: 1, window: { start: '2026-03-03T13:00:00-05:00', end: '2026-03-03T17:00:00-05:00', [end]: v } }),
    })),
  ),
  ...['/v1/manifests', '/api/admin/manifests'].map((url) => ({
    auth: (url.startsWith('/v1') ? 'apiKey' : 'admin') as AuthKind,
    method: 'POST' as const,
    url,
    field: 'ship_date',
    body: (v: string) => ({ carrier: 'usps', ship_date: v }),
  })),
  ...['/v1/rates/query', '/api/admin/rates/query'].map((url) => ({
    auth: (url.startsWith('/v1') ? 'apiKey' : 'admin') as AuthKind,
    method: 'POST' as const,
    url,
    field: 'ship_date',
    body: (v: string) => ({
      ship_from: { postal_code: '10118', country: 'US' },
      ship_to: { postal_code: '94105', country: 'US' },
      parcel: { weight_oz: 16 },
      ship_date: v,
    }),
  })),
];

let app: FastifyInstance;
let me: Principal;
const ids: Record<string, string> = {};

beforeAll(async () => {
  app = await buildTestApp();
  me = await makePrincipal(app, await superAdminHeaders(app));
  ids[integration] = await resourceFactories[integration].create(app, me, 'test');
}, 120_000);

describe('dates and times out of range, or impossible', () => {
  it('are 400 validation_failed naming the field, on every date parameter of every route', { timeout: 120_000 }, async () => {
    const problems: string[] = [];
    for (const c of cases) {
      const headers = await me.headers(c.auth, 'test');
      const path = c.url.replace(`{${integration}}`, ids[integration]);
      for (const value of OUT_OF_RANGE) {
        const res = c.body
          ? await app.inject({ method: c.method, url: path, headers, payload: c.body(value) })
          : await app.inject({ method: c.method, url: `${path}?${c.field}=${encodeURIComponent(value)}`, headers });
        const body = res.json() as { code?: string; details?: Array<{ field: string }> };
        const named = (body.details ?? []).some((d) => d.field === c.field);
        if (res.statusCode !== 400 || body.code !== 'validation_failed' || !named)
          problems.push(`${c.method} ${c.url} ${c.field}=${value}: ${res.statusCode} ${res.body.slice(0, 160)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the first and last instants that are in range are answered (not refused, not a 500)', async () => {
    for (const value of ['0001-01-01', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z']) {
      for (const url of ['/v1/orders?created_after=', '/v1/shipments?created_before=', '/v1/tracking/events?since=']) {
        const res = await app.inject({ method: 'GET', url: `${url}${encodeURIComponent(value)}`, headers: await me.headers('apiKey') });
        expect(res.statusCode, `${url}${value}: ${res.body}`).toBe(200);
      }
    }
    const root = await me.headers('superAdmin');
    for (const q of ['from=0001-01-01&to=0001-01-02', 'to=0001-01-05', 'from=9999-12-30&to=9999-12-31T23:59:59.999Z']) {
      for (const url of ['/api/super-admin/audit-log', '/api/super-admin/analytics']) {
        const res = await app.inject({ method: 'GET', url: `${url}?${q}`, headers: root });
        expect(res.statusCode, `${url}?${q}: ${res.body}`).toBe(200);
      }
    }
    const far = await app.inject({
      method: 'POST',
      url: '/api/admin/integrations',
      headers: await me.headers('admin'),
      payload: { name: 'far', platform: 'custom', token_expires_at: '9999-12-31T23:59:59Z' },
    });
    expect(far.statusCode, far.body).toBe(201);
    expect(far.json().token_expires_at).toBe('9999-12-31T23:59:59.000Z');
    const key = await app.inject({
      method: 'POST',
      url: '/v1/api-keys',
      headers: await me.headers('apiKey'),
      payload: { name: 'long', expires_at: '9999-12-31T23:59:59+14:00' },
    });
    expect(key.statusCode, key.body).toBe(201);
  });
});

describe('every request field named like a date or time', () => {
  it('declares a date format (so the validator and the fuzz walk see it as one)', async () => {
    const TIME_NAME = /(^|_)(at|date|since|from|to|until|before|after|start|end|time)$/;
    const { doc, operations } = await loadOperations(app);
    const undeclared: string[] = [];
    const checked: string[] = [];
    for (const op of operations) {
      for (const p of op.parameters.filter((q) => q.in === 'query' && TIME_NAME.test(q.name))) {
        checked.push(`${op.operationId} ${p.name}`);
        if (!p.schema || !isDateSchema(p.schema, doc)) undeclared.push(`${op.method} ${op.path} ?${p.name}`);
      }
      for (const { path, schema } of op.body ? stringFields(op.body, doc) : []) {
        const name = path.at(-1);
        if (typeof name !== 'string' || !TIME_NAME.test(name)) continue;
        checked.push(`${op.operationId} ${detailField(path)}`);
        // A nullable field lists its string branch here; its null branch has no format to declare.
        if (!isDateSchema(schema, doc)) undeclared.push(`${op.method} ${op.path} ${detailField(path)}`);
      }
    }
    expect(checked.length).toBeGreaterThan(20);
    expect(undeclared).toEqual([]);
  });
});
