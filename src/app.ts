import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import { Counter } from 'prom-client';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import { openDatabase, type DatabaseHandle } from './platform/db/database.js';
import { prepareDatabase } from './bootstrap/database.js';
import { createInvalidationBus } from './platform/cache/invalidation-bus.js';
import { createCounterStore, type CounterStore } from './platform/cache/counter-store.js';
import { createJobQueue, type JobQueue } from './platform/jobs/index.js';
import { loggerOptions } from './platform/logger.js';
import type { DestinationStream } from 'pino';
import { registerAccessLog } from './platform/http/access-log.js';
import { requestsInFlight } from './platform/http/in-flight.js';
import { lazyRequestLogger } from './platform/http/request-logger.js';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './platform/http/error-handler.js';
import { registerJsonParser } from './platform/http/json-parser.js';
import { registerNulGuard } from './platform/http/nul-guard.js';
import { registerIdempotency } from './platform/http/idempotency.js';
import { registerRequestAuth } from './platform/http/request-context.js';
import { carrierRequestMetrics, channelRequestMetrics, channelSyncLagGauge, registerMetrics } from './platform/http/metrics.js';
import { ErrorResponseSchema, type App } from './platform/http/schemas.js';
import { openApiOptions } from './platform/http/openapi.js';
import { DeferredCompilation, SerializerCache, schemasReached } from './platform/http/lazy-compilers.js';
import { addDateFormats } from './platform/http/dates.js';
import type { Deps } from './platform/deps.js';
import { getCarrierRegistry, type CarrierRegistry } from './carriers/registry.js';
import { composeServices, type Services } from './compose.js';
import { guardedLookup } from './platform/ssrf.js';
import { systemRoutes } from './platform/http/system.routes.js';
import {
  AccountSchema,
  ApiKeySchema,
  MemberSchema,
  WorkspaceSchema,
  adminWorkspaceRoutes,
  apiKeysRoutes,
  authRoutes,
  membersRoutes,
  superAdminIdentityRoutes,
} from './modules/identity/index.js';
import { ordersRoutes } from './modules/orders/index.js';
import { ratesRoutes } from './modules/rates/index.js';
import { addressesRoutes } from './modules/addresses/index.js';
import {
  adminIntegrationsRoutes,
  channelExchangeSink,
  channelReceiverRoutes,
  integrationIntakeRoutes,
  syncLagByPlatform,
  writeBacksRoutes,
} from './modules/integrations/index.js';
import { labelPrintRoutes, publicTrackingRoutes, shipmentsRoutes } from './modules/shipments/index.js';
import { superAdminSettingsRoutes } from './modules/settings/index.js';
import { adminBatchesRoutes, batchesRoutes } from './modules/batches/index.js';
import { setupWebhooks, webhooksRoutes } from './modules/webhooks/index.js';
import type { LookupFunction } from 'node:net';
import { superAdminAuditRoutes } from './modules/audit/index.js';
import { apiRequestCounter, superAdminAnalyticsRoutes } from './modules/analytics/index.js';
import { publicOfficeRedeemRoutes, superAdminOfficeRedeemRoutes } from './modules/office-redeem/index.js';
import { adminMtlsRoutes, clientCertificateGuard } from './modules/mtls/index.js';
import { defaultWebDir, webRoutes } from './platform/http/dashboard.routes.js';
import { carrierAccountsRoutes, exchangeLogSink, type ApiDriverCatalogue } from './modules/carrier-accounts/index.js';
import { shippingRulesRoutes } from './modules/shipping-rules/index.js';
import { manifestsRoutes } from './modules/manifests/index.js';
import { pickupsRoutes } from './modules/pickups/index.js';
import { trackersRoutes } from './modules/trackers/index.js';
import { packagesRoutes } from './modules/packages/index.js';
import { locationsRoutes } from './modules/locations/index.js';
import { CarrierHttpClient } from './carriers/http/client.js';
import { ChannelHttpClient } from './channels/http/client.js';
import { builtInApiDrivers } from './carriers/api-drivers.js';
import { enforceRouteRoles } from './route-roles.js';

export interface BuildAppOptions {
  config: Config;
  /** An open database (tests); otherwise opened from the config and closed with the app. */
  database?: DatabaseHandle;
  counters?: CounterStore;
  jobs?: JobQueue;
  now?: () => Date;
  /** The carriers (tests: a failing or an extra one); by default every folder under src/carriers/. */
  carriers?: CarrierRegistry;
  /** Requests per minute per IP on /api/auth and /api/public (≥ 60). */
  perIpPerMinute?: number;
  /** Where log lines go (tests capture them); stdout by default. */
  logStream?: DestinationStream;
  /** The built dashboard (index.html + assets/); web/dist of this checkout by default. */
  webDir?: string;
  /** Run migrations at build (default). Tests start from an already migrated template. */
  migrate?: boolean;
  /** How webhook receivers' names resolve (tests); the private-address guard still applies. */
  webhookLookup?: LookupFunction;
  /** The carriers' api drivers (tests inject fakes); the built-in ones by default. */
  apiDrivers?: ApiDriverCatalogue;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * A request that has not arrived whole (headers and body) within REQUEST_TIMEOUT_MS is cut with
 * 408 request_timeout, so a client dribbling its body a byte at a time cannot pin a connection.
 * Node checks the deadline only every `connectionsCheckingInterval` (30 s by default, which would
 * let such a request live up to 50 s): a quarter of the timeout, at most 5 s, cuts it within
 * 1.25× the timeout. The headers' own deadline (60 s by default) is held to the same bound.
 */
function requestDeadline(timeoutMs: number) {
  const server = { connectionsCheckingInterval: Math.min(5_000, Math.max(100, Math.round(timeoutMs / 4))), headersTimeout: timeoutMs };
  return { requestTimeout: timeoutMs, server };
}

/** Build the whole service (API routes, job handlers registered but not started). Never listens. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const ownsDatabase = !options.database;
  const database = options.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir }));

  const compilation = new DeferredCompilation();
  const slowRequests = requestDeadline(config.requestTimeoutMs);
  const app = Fastify({
    // TLS_CERT/TLS_KEY: HTTPS. With TLS_CLIENT_CA the server asks for a client certificate but
    // lets the handshake finish without one: only workspaces flagged mtls_required demand it,
    // per request (see modules/mtls), so other clients keep working on the same port.
    ...(config.tls
      ? {
          https: {
            ...slowRequests.server,
            cert: config.tls.cert,
            key: config.tls.key,
            ...(config.tls.clientCa ? { ca: config.tls.clientCa, requestCert: true, rejectUnauthorized: false } : {}),
          },
        }
      : { http: slowRequests.server }),
    requestTimeout: slowRequests.requestTimeout,
    logger: options.logStream ? { ...loggerOptions(config.logLevel), stream: options.logStream } : loggerOptions(config.logLevel),
    // One line per request instead, from registerAccessLog below (errors: the error handler's).
    logController: new LogController({ disableRequestLogging: true }),
    // request.log made only when a request logs through it (platform/http/request-logger.ts).
    childLoggerFactory: lazyRequestLogger,
    bodyLimit: 1024 * 1024,
    // Accept a sane incoming X-Request-Id; otherwise make one.
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : `req_${crypto.randomUUID().replaceAll('-', '')}`;
    },
    requestIdHeader: false,
    // Behind a proxy, TRUST_PROXY=1 takes the client IP from X-Forwarded-For (per-IP limits).
    trustProxy: config.trustProxy,
    ajv: { customOptions: { removeAdditional: false, allErrors: true, coerceTypes: 'array', useDefaults: true }, onCreate: addDateFormats },
    // Query strings and path parameters arrive as text and are coerced ("20" → 20); JSON bodies
    // carry their own types, so a string where a number belongs is a 400, never a guess.
    schemaController: { compilersFactory: compilersFactory(compilation) as never },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Every answer, whatever layer gives it (router, HTTP parser, shutdown), is in the common
    // error shape with X-Request-Id; Fastify's own bodies echo the input and carry no id.
    frameworkErrors,
    clientErrorHandler,
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();

  try {
    if (options.migrate !== false) await prepareDatabase(database);
    const bus = await createInvalidationBus({
      connectionString: database.connectionString,
      db: database.db,
      onError: (err) => app.log.error({ err }, 'cache invalidation listener failed'),
    });
    const counterFailures = new Counter({
      name: 'rate_limit_store_failures_total',
      help: 'Calls to the shared rate-limit store (Redis) that failed or timed out and were let through',
      labelNames: ['operation'],
      registers: [],
    });
    const counters =
      options.counters ??
      (await createCounterStore(config.redisUrl, {
        timeoutMs: config.rateLimitTimeoutMs,
        onFailure: failOpenReporter(app, counterFailures),
      }));
    const jobs = options.jobs ?? createJobQueue(database, { log: app.log });
    const carriers = options.carriers ?? (await getCarrierRegistry(app.log));
    const deps: Deps = { config, database, db: database.db, bus, counters, jobs, log: app.log, carriers, now: options.now ?? (() => new Date()) };
    app.decorate('deps', deps);
    const webhooks = setupWebhooks(deps, { lookup: options.webhookLookup });
    registerRequestAuth(app);

    // The hooks every request runs are callback-style where they never wait: an async hook costs
    // a promise and a microtask per request even when it returns at once.
    // On the embedded database, background rounds wait for a moment without requests (in-flight.ts).
    const inFlight = database.engine === 'pglite' ? requestsInFlight(deps) : null;
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      inFlight?.opened(reply.raw);
      done();
    });
    registerErrorHandling(app);
    registerAccessLog(app, config.logLevel);
    registerJsonParser(app);
    registerNulGuard(app);
    // Parses the dashboard's session cookie (read by the session guard); signs nothing.
    await app.register(cookie);
    const registry = registerMetrics(app, { queueDepth: () => jobs.depth() });
    registry.registerMetric(counterFailures);

    for (const schema of [ErrorResponseSchema, AccountSchema, WorkspaceSchema, ApiKeySchema, MemberSchema]) app.addSchema(schema);
    await app.register(swagger, openApiOptions(config));
    await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });

    await app.register(systemRoutes, { deps, registry });
    // One HTTP client for every real carrier call of this process: keep-alive pools, breakers,
    // token caches; its exchanges go to the accounts' logs, its timings to /metrics.
    const exchangeLog = exchangeLogSink(deps);
    const carrierHttp = new CarrierHttpClient({ onExchange: (e) => exchangeLog.record(e), metrics: carrierRequestMetrics(registry) });
    // Likewise for store platforms: cost buckets per integration, retries for reads only; the
    // exchanges are scrubbed of each connection's own secrets, which the services open.
    const channelExchangeLog = channelExchangeSink(deps, (row) => services.channelCredentials.scrubberFor(row));
    // A store's own URL (WooCommerce) is the merchant's to type: without the test-double
    // override, every connection refuses names resolving to private addresses (docs/channels.md).
    const channelHttp = new ChannelHttpClient({
      onExchange: (e) => channelExchangeLog.record(e),
      metrics: channelRequestMetrics(registry),
      ...(config.channelAllowBaseUrlOverride ? {} : { lookup: guardedLookup() }),
    });
    channelSyncLagGauge(registry, () => syncLagByPlatform(deps.db, deps.now()));
    const services: Services = composeServices(deps, options.apiDrivers ?? builtInApiDrivers(carrierHttp, carriers), channelHttp);
    app.decorate('services', services);
    // Write-backs are created in the transaction that buys or voids a label (an event hook).
    const unregisterWriteBacks = services.channelWriteBacks.register();
    app.decorate('identity', services.identity);
    // The super-admin's password check is a scrypt on libuv's pool (~100 ms on a restart, the
    // event loop idle): it runs while the routes are registered, and is awaited before the app
    // is returned (a changed password must end the old sessions before anyone is served).
    const superAdmin =
      config.superAdminEmail && config.superAdminPassword ? app.identity.accounts.ensureSuperAdmin(config.superAdminEmail, config.superAdminPassword) : null;
    // Handled where it is awaited below; this only keeps an early failure from counting as unhandled meanwhile.
    superAdmin?.catch(() => {});
    await app.register(registerRoutes as never, { deps, services, perIpPerMinute: options.perIpPerMinute ?? 120 });

    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    await app.register(webRoutes as never, { webDir: options.webDir ?? defaultWebDir() });

    await superAdmin;

    // Schemas compile on first use; once the server listens, the rest compile in the background.
    app.addHook('onListen', async () => {
      void compilation.compileAll();
    });
    app.addHook('onClose', async () => {
      compilation.clear();
      webhooks.stopRelay();
      await jobs.stop({ timeoutMs: 10_000 }).catch((err: unknown) => app.log.error({ err }, 'job queue stop failed'));
      webhooks.close();
      await carrierHttp.close();
      await channelHttp.close();
      services.identity.mailer.close();
      unregisterWriteBacks();
      await exchangeLog.drain();
      await channelExchangeLog.drain();
      await bus.close();
      await counters.close();
      // The last minute of /v1 request counts, written while the database is still open (the
      // routes scope's own onClose runs after this one, when an owned database is gone).
      await apiRequestCounter(deps).stop();
      if (ownsDatabase) await database.close();
    });
    await app.ready();
    return app;
  } catch (err) {
    await app.close().catch(() => {});
    if (ownsDatabase) await database.close().catch(() => {});
    throw err;
  }
}

/**
 * Every failure of the shared counter store counts in the metric; the warning is logged at most
 * every 10 s (a dead Redis under load would otherwise write one line per request).
 */
function failOpenReporter(app: FastifyInstance, metric: Counter<'operation'>) {
  let lastWarning = 0;
  let suppressed = 0;
  return (operation: string, err: unknown) => {
    metric.inc({ operation });
    const now = Date.now();
    if (now - lastWarning < 10_000) {
      suppressed++;
      return;
    }
    app.log.warn({ err, operation, suppressed }, 'rate-limit store unavailable: failing open (requests are not limited)');
    lastWarning = now;
    suppressed = 0;
  };
}

/**
 * Validators and serializers for route schemas. Bodies are validated without coercion, query
 * strings and params with it; every schema compiles on first use (see DeferredCompilation).
 */
function compilersFactory(compilation: DeferredCompilation) {
  const validators = AjvCompiler();
  const serializers = SerializerSelector();
  const compiledSerializers = new SerializerCache();
  type Compile = (route: unknown) => never;
  return {
    buildValidator(externalSchemas: unknown, ajvOptions: { customOptions: Record<string, unknown> }) {
      // Each is an Ajv instance that compiles its meta-schema and adds every shared schema
      // (~0.1 s each on a restart): made with the first schema that needs it, after listen.
      let coercing: Compile | undefined;
      let strict: Compile | undefined;
      const compilerFor = (httpPart: string | undefined): Compile => {
        if (httpPart !== 'body') return (coercing ??= validators(externalSchemas as never, ajvOptions as never) as Compile);
        return (strict ??= validators(
          externalSchemas as never,
          { ...ajvOptions, customOptions: { ...ajvOptions.customOptions, coerceTypes: false } } as never,
        ) as Compile);
      };
      return (route: { httpPart?: string }) => compilation.validator(() => compilerFor(route.httpPart)(route));
    },
    buildSerializer(externalSchemas: Record<string, unknown>, serializerOptions: unknown) {
      // Each serializer is given only the shared schemas its schema refers to (schemasReached).
      // Routes with the same response schema share one serializer (SerializerCache).
      return (route: { schema: unknown }) =>
        compilation.serializer(() => {
          const shared = schemasReached(route.schema, externalSchemas) ?? externalSchemas;
          return compiledSerializers.get({ schema: route.schema, shared, options: serializerOptions }, () =>
            (serializers(shared as never, serializerOptions as never) as Compile)(route),
          );
        });
    },
  };
}

/** Every route group, each in its own scope with its guard. */
async function registerRoutes(app: App, opts: { deps: Deps; services: Services; perIpPerMinute: number }) {
  const {
    orders,
    shipments,
    batches,
    labelPrints,
    officeRedeem,
    carrierAccounts,
    carrierGateway,
    shippingRules,
    manifests,
    pickups,
    trackers,
    packages,
    locations,
  } = opts.services;
  const { guards } = app.identity;
  const requests = apiRequestCounter(opts.deps);
  // Closed before the app's own onClose (which closes the database): the last counts are kept.
  app.addHook('onClose', async () => requests.stop());

  await app.register(
    async (v1: App) => {
      v1.addHook('onRequest', guards.apiKey);
      // Every authenticated /v1 request counts toward its workspace's analytics.
      v1.addHook('onResponse', (request, _reply, done) => {
        const scope = request.auth?.scope;
        if (scope) requests.count(scope.workspaceId, scope.environment);
        done();
      });
      v1.addHook('onRequest', clientCertificateGuard({ config: opts.deps.config, workspaces: app.identity.workspaces, mtls: opts.services.mtls }));
      // After the key's guard (which sets the key's role): every route's role from the one table.
      enforceRouteRoles(v1, '/v1');
      registerIdempotency(v1, opts.deps.db, opts.deps.now, { engine: opts.deps.database.engine });
      await v1.register(apiKeysRoutes, { surface: 'v1' });
      await v1.register(ordersRoutes, { surface: 'v1', orders });
      await v1.register(ratesRoutes, { gateway: carrierGateway, packages, locations });
      await v1.register(addressesRoutes, { carriers: carrierGateway });
      await v1.register(shipmentsRoutes, { surface: 'v1', shipments });
      await v1.register(batchesRoutes, { batches });
      await v1.register(labelPrintRoutes, { surface: 'v1', prints: labelPrints });
      await v1.register(webhooksRoutes, { surface: 'v1', webhooks: opts.services.webhooks });
      await v1.register(carrierAccountsRoutes, { surface: 'v1', service: carrierAccounts });
      await v1.register(shippingRulesRoutes, { surface: 'v1', service: shippingRules });
      await v1.register(manifestsRoutes, { surface: 'v1', service: manifests });
      await v1.register(pickupsRoutes, { surface: 'v1', service: pickups });
      await v1.register(trackersRoutes, { surface: 'v1', service: trackers });
      await v1.register(packagesRoutes, { surface: 'v1', service: packages });
      await v1.register(locationsRoutes, { surface: 'v1', service: locations });
    },
    { prefix: '/v1' },
  );

  await app.register(authRoutes, { prefix: '/api/auth', perIpPerMinute: opts.perIpPerMinute });

  await app.register(
    async (admin: App) => {
      admin.addHook('onRequest', guards.admin);
      enforceRouteRoles(admin, '/api/admin');
      await admin.register(apiKeysRoutes, { surface: 'admin' });
      await admin.register(adminWorkspaceRoutes);
      await admin.register(membersRoutes);
      await admin.register(ordersRoutes, { surface: 'admin', orders });
      await admin.register(adminIntegrationsRoutes, { integrations: opts.services.integrations, sync: opts.services.channelSync, orders });
      await admin.register(writeBacksRoutes, { writeBacks: opts.services.channelWriteBacks });
      await admin.register(shipmentsRoutes, { surface: 'admin', shipments });
      await admin.register(adminBatchesRoutes, { batches });
      await admin.register(labelPrintRoutes, { surface: 'admin', prints: labelPrints });
      await admin.register(webhooksRoutes, { surface: 'admin', webhooks: opts.services.webhooks });
      await admin.register(adminMtlsRoutes, { mtls: opts.services.mtls });
      await admin.register(ratesRoutes, { surface: 'admin', gateway: carrierGateway, packages, locations });
      await admin.register(carrierAccountsRoutes, { surface: 'admin', service: carrierAccounts });
      await admin.register(shippingRulesRoutes, { surface: 'admin', service: shippingRules });
      await admin.register(manifestsRoutes, { surface: 'admin', service: manifests });
      await admin.register(pickupsRoutes, { surface: 'admin', service: pickups });
      await admin.register(trackersRoutes, { surface: 'admin', service: trackers });
      await admin.register(packagesRoutes, { surface: 'admin', service: packages });
      await admin.register(locationsRoutes, { surface: 'admin', service: locations });
    },
    { prefix: '/api/admin' },
  );

  await app.register(superAdminIdentityRoutes, { prefix: '/api/super-admin' });
  await app.register(superAdminSettingsRoutes, { prefix: '/api/super-admin', settings: opts.services.settings });
  await app.register(superAdminAuditRoutes, { prefix: '/api/super-admin' });
  await app.register(superAdminAnalyticsRoutes, { prefix: '/api/super-admin', analytics: opts.services.analytics });
  await app.register(superAdminOfficeRedeemRoutes, { prefix: '/api/super-admin', officeRedeem });

  await app.register(publicOfficeRedeemRoutes, { prefix: '/api/public', perIpPerMinute: opts.perIpPerMinute, officeRedeem });

  await app.register(publicTrackingRoutes, { prefix: '/api/public', perIpPerMinute: opts.perIpPerMinute, shipments });

  // Order intake: the integration's ingest key; per-IP limit 10× the public one (stores push in bulk).
  await app.register(integrationIntakeRoutes, {
    prefix: '/api/integrations',
    perIpPerMinute: opts.perIpPerMinute * 10,
    orders,
    integrations: opts.services.integrations,
  });
  // Store platforms' webhooks: the signature is the credential (no key, no session).
  await app.register(channelReceiverRoutes, {
    prefix: '/api/integrations',
    deliveries: opts.services.channelDeliveries,
    credentials: opts.services.channelCredentials,
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
  }
}
