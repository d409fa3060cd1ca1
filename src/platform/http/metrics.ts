import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics for one app instance (a registry of its own, so several apps in one
 * test process do not collide): request counts and latency per route, plus gauges that
 * callers feed (job queue depth).
 */
export function registerMetrics(app: FastifyInstance, opts: { queueDepth: () => Promise<Record<string, { queued: number; active: number; failed: number }>> }) {
  const registry = Registry.merge([processMetrics(), new Registry()]);
  const tally = new RequestTally();
  new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status_code'],
    registers: [registry],
    collect() {
      this.reset();
      for (const { labels, count } of tally.counts.values()) this.inc(labels, count);
    },
  });
  registry.registerMetric(tally.latencyMetric('http_request_duration_seconds', 'HTTP request latency by method and route') as never);
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
    tally.record(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  return registry;
}

let processRegistry: Registry | undefined;

/**
 * The process's own metrics (CPU, memory, event loop lag, GC), collected once per process
 * however many apps it builds. prom-client's collectors (a GC observer, an event-loop delay
 * monitor) run for the life of the process: collected into each app's registry, they held every
 * app a process had ever built, its database and caches included.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

interface LatencyTally {
  labels: { method: string; route: string };
  /** Observations per bucket (not cumulative); the last slot is above the top bound. */
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * Request counts and latencies, tallied per request in plain maps under one string key per label
 * set and handed to prom-client when /metrics is read. prom-client's own inc/observe hash and
 * validate the label object on every call, a few µs on every request; the exposition
 * (names, labels, cumulative buckets, _sum, _count) is the same.
 */
class RequestTally {
  readonly counts = new Map<string, { labels: { method: string; route: string; status_code: string }; count: number }>();
  private readonly latency = new Map<string, LatencyTally>();

  record(method: string, route: string, status: number, seconds: number): void {
    const routeKey = `${method} ${route}`;
    const countKey = `${routeKey} ${status}`;
    const c = this.counts.get(countKey);
    if (c) c.count++;
    else this.counts.set(countKey, { labels: { method, route, status_code: String(status) }, count: 1 });
    let l = this.latency.get(routeKey);
    if (!l) {
      l = { labels: { method, route }, buckets: new Array<number>(LATENCY_BUCKETS.length + 1).fill(0), sum: 0, count: 0 };
      this.latency.set(routeKey, l);
    }
    let b = 0;
    while (b < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[b]) b++;
    l.buckets[b]++;
    l.sum += seconds;
    l.count++;
  }

  /** A histogram in the shape prom-client's registry reads from its own metrics. */
  latencyMetric(name: string, help: string) {
    const metric = {
      name,
      help,
      type: 'histogram',
      aggregator: 'sum',
      get: async () => ({ ...metric, values: this.latencyValues(name) }),
      reset: () => this.latency.clear(),
    };
    return metric;
  }

  private latencyValues(name: string) {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const l of this.latency.values()) {
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((le, i) => {
        cumulative += l.buckets[i];
        values.push({ labels: { le, ...l.labels }, value: cumulative, metricName: `${name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...l.labels }, value: l.count, metricName: `${name}_bucket` });
      values.push({ labels: { ...l.labels }, value: l.sum, metricName: `${name}_sum` });
      values.push({ labels: { ...l.labels }, value: l.count, metricName: `${name}_count` });
    }
    return values;
  }
}

/**
 * carrier_requests_total{carrier,operation,outcome} and carrier_request_duration_seconds
 * {carrier,operation}, fed by the carrier HTTP client's metrics hook.
 */
export function carrierRequestMetrics(registry: Registry) {
  const total = new Counter({
    name: 'carrier_requests_total',
    help: 'Calls to carrier APIs by outcome',
    labelNames: ['carrier', 'operation', 'outcome'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'carrier_request_duration_seconds',
    help: 'Duration of calls to carrier APIs',
    labelNames: ['carrier', 'operation'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16],
    registers: [registry],
  });
  return {
    requestFinished(labels: { carrier: string; operation: string; outcome: string }) {
      total.inc(labels);
    },
    requestDuration(labels: { carrier: string; operation: string }, seconds: number) {
      duration.observe(labels, seconds);
    },
  };
}

/** `channel_requests_total{platform,operation,outcome}`, fed by the channel HTTP client once per attempt. */
export function channelRequestMetrics(registry: Registry) {
  const total = new Counter({
    name: 'channel_requests_total',
    help: 'Calls to store platform APIs by outcome',
    labelNames: ['platform', 'operation', 'outcome'],
    registers: [registry],
  });
  return {
    requestFinished(labels: { platform: string; operation: string; outcome: string }) {
      total.inc(labels);
    },
  };
}

/**
 * `channel_sync_lag_seconds{platform}`: for each platform, the largest lag of its active
 * connections (seconds since the store was last known to be in sync), read when scraped.
 */
export function channelSyncLagGauge(registry: Registry, lagByPlatform: () => Promise<Record<string, number>>) {
  new Gauge({
    name: 'channel_sync_lag_seconds',
    help: 'Largest sync lag of the active store connections, per platform',
    labelNames: ['platform'],
    registers: [registry],
    async collect() {
      this.reset();
      const lags = await lagByPlatform().catch(() => ({}));
      for (const [platform, seconds] of Object.entries(lags)) this.set({ platform }, seconds);
    },
  });
}
