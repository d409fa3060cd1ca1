import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics for one app instance (a registry of its own, so several apps in one
 * test process do not collide): request counts and latency per route, plus gauges that
 * callers feed (job queue depth).
 */
export function registerMetrics(app: FastifyInstance, opts: { queueDepth: () => Promise<Record<string, { queued: number; active: number; failed: number }>> }) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status_code'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method and route',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  new Gauge({
    name: 'job_queue_depth',
    help: 'Jobs per queue and state',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      const depth = await opts.queueDepth().catch(() => ({}));
      for (const [queue, d] of Object.entries(depth)) {
        this.set({ queue, state: 'queued' }, d.queued);
        this.set({ queue, state: 'active' }, d.active);
        this.set({ queue, state: 'failed' }, d.failed);
      }
    },
  });

  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, not the URL, keeps label cardinality bounded.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status_code: String(reply.statusCode) });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    done();
  });

  return registry;
}
