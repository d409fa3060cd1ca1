import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, superAdminHeaders, type Tenant } from '../helpers/app.js';

// Schema-driven fuzzing: every operation of the OpenAPI document, with the right credentials,
// gets malformed and hostile inputs. Whatever a client sends, the answer is never a 5xx.
let app: FastifyInstance;
let t: Tenant;
let root: Record<string, string>;
let ingestKey: string;
let doc: { paths: Record<string, Record<string, { requestBody?: unknown }>> };

beforeAll(async () => {
  app = await buildTestApp();
  t = await createTenant(app);
  root = await superAdminHeaders(app);
  doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const integration = await app.inject({ method: 'POST', url: '/api/admin/integrations', headers: t.adminHeaders, payload: { name: 'fuzz', platform: 'custom' } });
  ingestKey = integration.json().ingest_key;
});

const bodies: unknown[] = [
  {},
  [],
  null,
  'text',
  42,
  { a: 1 },
  { name: 'x'.repeat(10_000) },
  { ship_to: 'nope', line_items: 'nope', parcel: [] },
  { ship_to: { country: '🇺🇸', postal_code: '\u0000' }, line_items: [{ quantity: 1e308, unit_price: { amount: -0, currency: 'usd' } }] },
  { ship_from: { country: 'US', postal_code: '94105' }, ship_to: { country: 'US', postal_code: '10001' }, parcel: { weight_oz: 1e300, length_in: 1e300, width_in: 1e300, height_in: 1e300 } },
  { ship_from: { country: 'US', postal_code: '94105' }, ship_to: { country: 'US', postal_code: '10001' }, parcel: { weight_oz: 0.0001, length_in: 0.001, width_in: 0.001, height_in: 0.001 }, ship_date: '2026-02-30' },
  { email: 'a@b.c', password: 'x'.repeat(1000), name: '', workspace_name: '' },
  { __proto__: { admin: true }, constructor: { prototype: { x: 1 } } },
  { expires_at: 'not-a-date', environment: 'prod', name: null },
  { value: { deep: [[[[[[[[]]]]]]]] } },
  { name: 'a\u0000b', email: 'a\u0000@b.c', notes: '\u0000', config: { 'k\u0000': '\u0000' } },
];

const paramValues = ['x', '0', 'ord_' + 'z'.repeat(26), '%00', '..%2F..%2Fetc', 'a'.repeat(190), '💥'];
const queryStrings = ['', '?limit=-1', '?limit=abc', '?cursor=%%%', '?cursor=eyJ0IjoibmFuIiwiaWQiOjF9', '?created_after=yesterday', '?status=;drop', '?q=%27%22%5C', '?q=%00&status=%00&cursor=%00'];

function headersFor(path: string): Record<string, string> {
  if (path.startsWith('/v1')) return t.headers;
  if (path.startsWith('/api/super-admin')) return root;
  if (path.startsWith('/api/integrations')) return { authorization: `Bearer ${ingestKey}` };
  if (path.startsWith('/api/admin') || path.startsWith('/api/auth')) return t.adminHeaders;
  return {};
}

describe('fuzzing every route', () => {
  it('never answers 5xx', { timeout: 240_000 }, async () => {
    const failures: string[] = [];
    let requests = 0;
    for (const [template, ops] of Object.entries(doc.paths)) {
      if (template === '/api/auth/logout') continue; // would end the session the rest uses
      for (const method of Object.keys(ops)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        for (const param of paramValues) {
          const url = template.replace(/\{[^}]+\}/g, encodeURIComponent(param));
          const variants = method === 'get' || method === 'delete' ? queryStrings.map((q) => ({ url: url + q, payload: undefined })) : bodies.map((b) => ({ url, payload: b }));
          for (const v of variants) {
            const res = await app.inject({
              method: method.toUpperCase() as 'GET',
              url: v.url,
              headers: { ...headersFor(template), ...(v.payload !== undefined ? { 'content-type': 'application/json' } : {}) },
              payload: v.payload === undefined ? undefined : JSON.stringify(v.payload),
            });
            requests++;
            if (res.statusCode >= 500) failures.push(`${method.toUpperCase()} ${v.url} ${JSON.stringify(v.payload)?.slice(0, 80)} → ${res.statusCode} ${res.body.slice(0, 120)}`);
            else if (res.statusCode >= 400) {
              const body = res.json();
              if (typeof body.code !== 'string' || typeof body.message !== 'string' || body.request_id !== res.headers['x-request-id']) {
                failures.push(`${method.toUpperCase()} ${v.url}: error body not in the common shape: ${res.body.slice(0, 120)}`);
              }
            }
          }
          if (!template.includes('{')) break; // no path parameter: one round is enough
        }
      }
    }
    expect(requests).toBeGreaterThan(300);
    expect(failures).toEqual([]);
  });
});
