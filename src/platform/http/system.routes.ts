import { Type } from '@sinclair/typebox';
import type { Registry } from 'prom-client';
import { errorResponses, type App } from './schemas.js';
import { pingDatabase, probeStorage } from '../db/database.js';
import type { Deps } from '../deps.js';
import { AppError } from '../errors.js';
import { secretsEqual } from '../crypto.js';
import { DESCRIPTOR_EXAMPLE, HEALTH_EXAMPLE, HEALTH_UNAVAILABLE_EXAMPLE } from './system.examples.js';

const Descriptor = Type.Object(
  {
    name: Type.String(),
    version: Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+' }),
    status: Type.Literal('running'),
    endpoints: Type.Record(Type.String(), Type.Any()),
    documentation: Type.String(),
  },
  { examples: [DESCRIPTOR_EXAMPLE] },
);

const Health = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
    checks: Type.Record(Type.String(), Type.Object({ status: Type.String(), latency_ms: Type.Optional(Type.Number()) })),
  },
  { examples: [HEALTH_EXAMPLE] },
);

/** The groups of the API, for the root descriptor. */
export const endpointGroups = {
  v1: {
    orders: '/v1/orders',
    shipments: '/v1/shipments',
    rates: '/v1/rates/query',
    tracking: '/v1/tracking/:id',
    tracking_events: '/v1/tracking/events',
    addresses: '/v1/addresses/validate',
    batches: '/v1/batches',
    webhooks: '/v1/webhooks',
    api_keys: '/v1/api-keys',
  },
  auth: { register: '/api/auth/register', login: '/api/auth/login', logout: '/api/auth/logout', me: '/api/auth/me' },
  admin: {
    orders: '/api/admin/orders',
    shipments: '/api/admin/shipments',
    integrations: '/api/admin/integrations',
    api_keys: '/api/admin/api-keys',
    workspace: '/api/admin/workspace',
  },
  integrations: { orders: '/api/integrations/orders' },
  public: { track: '/api/public/track/:trackingNumber', office_redeem_lookup: '/api/public/office-redeem/lookup' },
  super_admin: {
    accounts: '/api/super-admin/accounts',
    workspaces: '/api/super-admin/workspaces',
    settings: '/api/super-admin/settings',
    analytics: '/api/super-admin/analytics',
    audit_log: '/api/super-admin/audit-log',
    office_redeem: '/api/super-admin/office-redeem',
  },
  health: '/health',
  metrics: '/metrics',
  openapi: '/openapi.json',
};

export async function systemRoutes(app: App, opts: { deps: Deps; registry: Registry }) {
  const { deps, registry } = opts;
  const descriptor = () => ({
    name: 'shipping-service',
    version: deps.config.version,
    status: 'running' as const,
    endpoints: endpointGroups,
    documentation: '/docs',
  });

  // Static for the life of the process: serialise it once.
  const descriptorJson = JSON.stringify(descriptor());
  for (const url of ['/', '/api']) {
    app.get(url, {
      schema: {
        operationId: url === '/' ? 'getRoot' : 'getApiRoot',
        summary: 'Service descriptor',
        tags: ['system'],
        description:
          url === '/' ? 'A browser (`Accept` naming `text/html`) is sent to the dashboard with a 302; any other client gets the JSON descriptor.' : undefined,
        response: {
          200: Descriptor,
          ...(url === '/' ? { 302: Type.Null({ description: 'To the dashboard (`Location: /dashboard`), for a browser.' }) } : {}),
          ...errorResponses(),
        },
      },
      handler: async (request, reply) => {
        if (url === '/' && request.headers.accept?.includes('text/html')) return reply.redirect('/dashboard', 302);
        return reply.type('application/json; charset=utf-8').send(descriptorJson as never); // a pre-serialised string is sent as is
      },
    });
  }

  app.get('/health', {
    schema: {
      operationId: 'getHealth',
      summary: 'Liveness and database check (503 when the database is unreachable or its storage takes no writes)',
      tags: ['system'],
      response: { 200: Health, ...errorResponses(), 503: { ...Health, examples: [HEALTH_UNAVAILABLE_EXAMPLE] } },
    },
    handler: async (_request, reply) => {
      try {
        const latency = await checkDatabase();
        return { status: 'ok' as const, checks: { database: { status: 'ok', latency_ms: latency } } };
      } catch (err) {
        app.log.warn({ err }, 'health check failed');
        return reply.code(503).send({ status: 'unavailable' as const, checks: { database: { status: 'failing' } } });
      }
    },
  });

  // Health checks arriving while a ping is in flight, or in the same event-loop turn as its
  // answer, share its outcome (single flight): a burst of probes costs one database round trip
  // instead of a queue of them, and no answer is older than that turn.
  let ping: Promise<number> | null = null;
  function checkDatabase(): Promise<number> {
    ping ??= (async () => {
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          Promise.all([pingDatabase(deps.db), probeStorage(deps.database)]),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('database ping timed out')), 2000);
          }),
        ]);
        return Math.round((performance.now() - started) * 100) / 100;
      } finally {
        clearTimeout(timer);
        setImmediate(() => (ping = null));
      }
    })();
    return ping;
  }

  // Metrics name routes, carriers and queue depths: in production they are for the operator's
  // scraper only (docs/channels.md). Without a token there the route does not exist (404);
  // elsewhere it stays open for local use unless a token is set.
  const metricsToken = deps.config.metricsToken;
  function metricsGuard(authorization: string | undefined): void {
    if (!metricsToken) {
      if (deps.config.isProduction) throw new AppError('not_found');
      return;
    }
    const match = /^Bearer (.+)$/i.exec(authorization ?? '');
    if (!match || !secretsEqual(match[1].trim(), metricsToken))
      throw new AppError('unauthorized', 'A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>).');
  }

  app.get('/metrics', {
    schema: {
      operationId: 'getMetrics',
      summary: 'Prometheus metrics (bearer METRICS_TOKEN in production; 404 there when none is set)',
      tags: ['system'],
      produces: ['text/plain'],
      security: [{ metricsToken: [] }],
      response: { 200: Type.String({ description: 'Prometheus text exposition format' }), ...errorResponses(401, 404) },
    },
    handler: async (request, reply) => {
      metricsGuard(request.headers.authorization);
      return reply.type(registry.contentType).send(await registry.metrics());
    },
  });
}
