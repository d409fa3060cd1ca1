import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../helpers/app.js';

let app: FastifyInstance;
let t: Tenant;

beforeAll(async () => {
  app = await buildTestApp();
  t = await createTenant(app);
});

describe('error conventions', () => {
  it('unknown route: 404 not_found with request_id equal to X-Request-Id', async () => {
    const res = await app.inject({ method: 'GET', url: '/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found', message: expect.any(String) });
    expect(res.json().request_id).toBe(res.headers['x-request-id']);
  });

  it('wrong method: 405 with Allow', async () => {
    const res = await app.inject({ method: 'PUT', url: '/api/auth/login' });
    expect(res.statusCode).toBe(405);
    expect(res.json().code).toBe('method_not_allowed');
    expect(res.headers.allow).toContain('POST');
  });

  it('malformed JSON: 400 invalid_json', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"email": ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_json');
  });

  it('deeply nested JSON: 400, never a 500', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const res = await app.inject({ method: 'POST', url: '/v1/api-keys', headers: { ...t.headers, 'content-type': 'application/json' }, payload: deep });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_json');
  });

  it('wrong content type: 415', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'text/plain' }, payload: 'hello' });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('unsupported_media_type');
  });

  it('body over 1 MiB: 413', async () => {
    const big = JSON.stringify({ email: 'a'.repeat(1024 * 1024 + 10), password: 'x' });
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: big });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('payload_too_large');
  });

  it('schema failure: 400 validation_failed with field details', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 42, extra: true } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('validation_failed');
    const fields = body.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['password', 'extra']));
  });

  it('does not coerce JSON body types (query strings still are)', async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/api-keys', headers: t.headers, payload: { name: 123 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ field: 'name', message: expect.any(String) }]);
    const order = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: {
        ship_to: { street1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
        line_items: [{ sku: 'A', quantity: '2' }],
      },
    });
    expect(order.statusCode).toBe(400);
    expect(order.json().details.map((d: { field: string }) => d.field)).toContain('line_items[0].quantity');
    const list = await app.inject({ method: 'GET', url: '/v1/api-keys?limit=1', headers: t.headers });
    expect(list.statusCode).toBe(200);
  });

  it('accepts a sane X-Request-Id and replaces an insane one', async () => {
    const ok = await app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'client-abc.123' } });
    expect(ok.headers['x-request-id']).toBe('client-abc.123');
    const bad = await app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'has spaces <script>' } });
    expect(bad.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
  });
});

describe('system endpoints', () => {
  it('GET / and GET /api return the descriptor', async () => {
    for (const url of ['/', '/api']) {
      const body = (await app.inject({ method: 'GET', url })).json();
      expect(body).toMatchObject({ name: expect.any(String), status: 'running', documentation: '/docs' });
      expect(body.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(Object.keys(body.endpoints)).toEqual(expect.arrayContaining(['v1', 'auth', 'admin', 'integrations', 'public', 'super_admin', 'health']));
    }
  });

  it('GET / sends a browser to the dashboard (302); an API client asking for JSON or anything gets the descriptor', async () => {
    const browser = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
    expect(browser.statusCode).toBe(302);
    expect(browser.headers.location).toBe('/dashboard');
    for (const accept of ['application/json', '*/*']) {
      const res = await app.inject({ method: 'GET', url: '/', headers: { accept } });
      expect(res.statusCode).toBe(200);
      expect(res.json().status).toBe('running');
    }
    expect((await app.inject({ method: 'GET', url: '/api', headers: { accept: 'text/html' } })).statusCode).toBe(200);
  });

  it('GET /health checks the database', async () => {
    const res = await app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', checks: { database: { status: 'ok' } } });
  });

  it('GET /health answers a burst of concurrent probes, each with the database check', async () => {
    const all = await Promise.all(Array.from({ length: 20 }, () => app.inject({ method: 'GET', url: '/health' })));
    for (const res of all) {
      expect(res.statusCode).toBe(200);
      expect(res.json().checks.database.latency_ms).toBeGreaterThanOrEqual(0);
    }
  });

  it('GET /metrics exposes request counts, latency and queue depth', async () => {
    await app.inject({ method: 'GET', url: '/health' });
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('http_requests_total{method="GET",route="/health",status_code="200"}');
    expect(res.body).toContain('http_request_duration_seconds_bucket');
    expect(res.body).toContain('job_queue_depth');
  });

  it('GET /openapi.json is a valid OpenAPI 3.1 document describing every route', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const ids = new Set<string>();
    for (const [path, ops] of Object.entries<Record<string, { operationId?: string; summary?: string; responses?: Record<string, unknown> }>>(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.operationId, `${method} ${path}`).toBeTruthy();
        expect(ids.has(op.operationId!), `duplicate ${op.operationId}`).toBe(false);
        ids.add(op.operationId!);
        expect(op.summary, `${method} ${path}`).toBeTruthy();
        expect(Object.keys(op.responses ?? {}), `${method} ${path} error responses`).toEqual(expect.arrayContaining(['400', '500']));
      }
    }
    expect(doc.paths['/v1/api-keys'].post.security).toBeDefined();
    expect(doc.components.securitySchemes).toHaveProperty('apiKey');
    expect(doc.components.securitySchemes).toHaveProperty('session');
  });

  it('serves the API reference at /docs', async () => {
    const res = await app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });
});

describe('idempotency', () => {
  it('replays the stored response for the same key and body', async () => {
    const headers = { ...t.headers, 'idempotency-key': `k-${Math.random()}` };
    const first = await app.inject({ method: 'POST', url: '/v1/api-keys', headers, payload: { name: 'idem' } });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const second = await app.inject({ method: 'POST', url: '/v1/api-keys', headers, payload: { name: 'idem' } });
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    const keys = (await app.inject({ method: 'GET', url: '/v1/api-keys?limit=100', headers: t.headers })).json().data;
    expect(keys.filter((k: { name: string }) => k.name === 'idem')).toHaveLength(1);
  });

  it('refuses the same key with a different body (422) and while running (409)', async () => {
    const key = `k-${Math.random()}`;
    const headers = { ...t.headers, 'idempotency-key': key };
    await app.inject({ method: 'POST', url: '/v1/api-keys', headers, payload: { name: 'a' } });
    const reused = await app.inject({ method: 'POST', url: '/v1/api-keys', headers, payload: { name: 'b' } });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().code).toBe('idempotency_key_reused');

    const runningKey = `k-${Math.random()}`;
    await app.deps.db
      .insertInto('idempotency_keys')
      .values({
        workspace_id: t.workspaceId,
        environment: 'test',
        key: runningKey,
        // The fingerprint of exactly the request below (method, path, body), as a first attempt would store it.
        fingerprint: createHash('sha256').update('POST /v1/api-keys\n{"name":"a"}').digest('hex'),
        state: 'running',
        response_status: null,
        response_body: null,
        response_content_type: null,
        created_at: new Date(),
        expires_at: new Date(Date.now() + 3600_000),
      })
      .execute();
    const inUse = await app.inject({ method: 'POST', url: '/v1/api-keys', headers: { ...t.headers, 'idempotency-key': runningKey }, payload: { name: 'a' } });
    if (app.deps.database.engine === 'postgres') {
      // Another process holds it under a live lease: wait and retry.
      expect(inUse.statusCode).toBe(409);
      expect(inUse.json().code).toBe('idempotency_key_in_use');
      expect(inUse.headers['retry-after']).toMatch(/^\d+$/);
    } else {
      // The embedded engine admits one process: a running key this one does not hold is dead.
      expect(inUse.statusCode).toBe(201);
    }
  });

  it('keys are scoped per workspace and environment', async () => {
    const key = `shared-${Math.random()}`;
    const a = await app.inject({ method: 'POST', url: '/v1/api-keys', headers: { ...t.headers, 'idempotency-key': key }, payload: { name: 'scoped' } });
    const b = await app.inject({ method: 'POST', url: '/v1/api-keys', headers: { ...t.liveHeaders, 'idempotency-key': key }, payload: { name: 'scoped' } });
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.json().id).not.toBe(a.json().id);
  });

  it('rejects an over-long key', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/api-keys',
      headers: { ...t.headers, 'idempotency-key': 'x'.repeat(256) },
      payload: { name: 'a' },
    });
    expect(res.statusCode).toBe(400);
  });
});
