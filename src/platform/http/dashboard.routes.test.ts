import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers/app.js';

// The dashboard's static files: a fake build in a temp dir stands in for web/dist.
let app: FastifyInstance;
let bare: FastifyInstance;
const INDEX = '<!doctype html><html><head><script type="module" src="/dashboard/assets/app-abc.js"></script></head><body><div id="root"></div></body></html>';

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'web-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  writeFileSync(path.join(dir, 'assets', 'app-abc.js'), 'console.log(1)');
  app = await buildTestApp({ webDir: dir });
  bare = await buildTestApp({ webDir: path.join(dir, 'missing') });
});

describe('the single-page app', () => {
  it.each(['/dashboard', '/dashboard/', '/dashboard/orders', '/dashboard/orders/ord_123', '/track/1Z999AA10123456784', '/redeem'])(
    'GET %s answers index.html with a strict CSP',
    async (url) => {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toBe(INDEX);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );

  it('serves hashed assets with a long cache, and a missing asset is a JSON 404', async () => {
    const js = await app.inject({ method: 'GET', url: '/dashboard/assets/app-abc.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toMatch(/immutable/);
    const missing = await app.inject({ method: 'GET', url: '/dashboard/assets/nope.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('not_found');
    const traversal = await app.inject({ method: 'GET', url: '/dashboard/assets/..%2f..%2fpackage.json' });
    expect(traversal.statusCode).toBe(404);
  });

  it('does not list the pages in the OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths).some((p: string) => p.startsWith('/dashboard') || p.startsWith('/track') || p === '/redeem')).toBe(false);
  });

  it('answers 503 with a hint when the dashboard is not built', async () => {
    const res = await bare.inject({ method: 'GET', url: '/dashboard' });
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('service_unavailable');
    expect(res.json().message).toMatch(/npm run build/);
  });
});
