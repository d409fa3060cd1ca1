import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerMetrics } from './metrics.js';

describe('request metrics', () => {
  it("shows the process's own metrics in every app's registry, from one set of collectors per process", async () => {
    const [first, second] = [Fastify(), Fastify()].map((app) => registerMetrics(app, { queueDepth: async () => ({}) }));
    for (const registry of [first, second]) expect(await registry.metrics()).toMatch(/^process_cpu_user_seconds_total \d/m);
    // The same metric objects: a second app started no collectors of its own (they would keep it alive).
    expect(second.getSingleMetric('nodejs_gc_duration_seconds')).toBe(first.getSingleMetric('nodejs_gc_duration_seconds'));
    expect(second.getSingleMetric('http_requests_total')).not.toBe(first.getSingleMetric('http_requests_total'));
  });

  it('exposes counts per method, route and status and a cumulative latency histogram per route', async () => {
    const app = Fastify();
    const registry = registerMetrics(app, { queueDepth: async () => ({}) });
    app.get('/things/:id', async (request) => {
      if ((request.params as { id: string }).id === 'slow') await new Promise((r) => setTimeout(r, 30));
      return { ok: true };
    });
    app.post('/things', async (_request, reply) => reply.code(422).send({ code: 'unprocessable' }));
    for (const id of ['a', 'b', 'slow']) expect((await app.inject({ method: 'GET', url: `/things/${id}` })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/things' })).statusCode).toBe(422);

    const text = await registry.metrics();
    expect(text).toContain('http_requests_total{method="GET",route="/things/:id",status_code="200"} 3');
    expect(text).toContain('http_requests_total{method="POST",route="/things",status_code="422"} 1');
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain('http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/things/:id"} 3');
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="/things/:id"} 3');
    // Buckets are cumulative: never decreasing, the slow request (≥ 30 ms) only from le=0.025 up.
    const buckets = [...text.matchAll(/http_request_duration_seconds_bucket\{le="([^"]+)",method="GET",route="\/things\/:id"\} (\d+)/g)].map(
      (m) => [m[1], Number(m[2])] as const,
    );
    expect(buckets).toHaveLength(12);
    for (let i = 1; i < buckets.length; i++) expect(buckets[i][1]).toBeGreaterThanOrEqual(buckets[i - 1][1]);
    expect(buckets.find(([le]) => le === '0.025')![1]).toBeLessThanOrEqual(2);
    const sum = Number(/http_request_duration_seconds_sum\{method="GET",route="\/things\/:id"\} ([\d.e-]+)/.exec(text)![1]);
    expect(sum).toBeGreaterThanOrEqual(0.03);
    await app.close();
  });
});
