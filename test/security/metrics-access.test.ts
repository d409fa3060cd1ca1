import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers/app.js';

const TOKEN = 'scrape-0123456789abcdef';

async function metrics(app: FastifyInstance, authorization?: string) {
  return app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
}

// docs/channels.md: /metrics in production needs the bearer METRICS_TOKEN, or is 404 without one.
describe('/metrics access', () => {
  describe('in production without METRICS_TOKEN', () => {
    it('answers 404 not_found, with or without a token', async () => {
      const app = await buildTestApp({ config: { nodeEnv: 'production', isProduction: true } });
      for (const res of [await metrics(app), await metrics(app, `Bearer ${TOKEN}`)]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'not_found', details: [], request_id: res.headers['x-request-id'] });
        expect(res.body).not.toContain('http_requests_total');
      }
    });
  });

  describe('in production with METRICS_TOKEN', () => {
    it('answers 401 without the token or with a wrong one, 200 with it', async () => {
      const app = await buildTestApp({ config: { nodeEnv: 'production', isProduction: true, metricsToken: TOKEN } });
      for (const auth of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN]) {
        const res = await metrics(app, auth);
        expect(res.statusCode, String(auth)).toBe(401);
        expect(res.json()).toMatchObject({ code: 'unauthorized', details: [] });
      }
      const ok = await metrics(app, `Bearer ${TOKEN}`);
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toContain('http_requests_total');
    });
  });

  describe('outside production', () => {
    it('is open without METRICS_TOKEN', async () => {
      const app = await buildTestApp();
      expect((await metrics(app)).statusCode).toBe(200);
    });

    it('needs the token once METRICS_TOKEN is set', async () => {
      const app = await buildTestApp({ config: { metricsToken: TOKEN } });
      expect((await metrics(app)).statusCode).toBe(401);
      expect((await metrics(app, `Bearer ${TOKEN}`)).statusCode).toBe(200);
    });
  });
});
