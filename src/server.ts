import { loadConfig, ConfigError } from './config.js';
import { buildApp } from './app.js';
import { serviceLogDestination } from './platform/logger.js';
import { DataDirLockedError } from './platform/db/pglite-lock.js';
import { limitHeapGrowth, limitWasmCompilation } from './platform/memory.js';
import { seedDemoIfEmpty } from './bootstrap/seed.js';
import { seedDemoDay } from './bootstrap/demo-day.js';
import { registerJobHandlers } from './bootstrap/jobs.js';

/** Load config → build the app → listen; workers in the same process unless RUN_WORKERS=0. */
async function main() {
  const started = performance.now();
  const config = loadConfig();
  limitHeapGrowth(config.heapGrowingPercent);
  limitWasmCompilation();
  const app = await buildApp({ config, logStream: serviceLogDestination() });
  if (config.runWorkers) {
    await registerJobHandlers(app);
    if (app.deps.database.engine === 'pglite') {
      // We hold the data-dir lock, so jobs still marked active belong to a process that died.
      const recovered = await app.deps.jobs.recoverOrphans();
      if (recovered > 0) app.log.warn({ recovered }, 'requeued jobs interrupted by a crash');
    }
    await app.deps.jobs.start();
  }
  await app.listen({ port: config.port, host: config.host });
  app.log.info({ ms: Math.round(performance.now() - started) }, 'service started');

  if (config.seedDemo) {
    // After listen and not awaited: the first start is healthy at once while the demo day is
    // built (a second or two); a seed error is logged and the service runs on.
    void seedDemo(app, config).catch((err: unknown) => app.log.error({ err }, 'demo seed failed; the service runs without it'));
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // A client that stops reading (an unread response on a kept-alive connection) must not
    // hold the shutdown: after the grace period its connection is cut, so the jobs still stop
    // and the database still closes cleanly. The hard exit is the last resort.
    const cut = setTimeout(() => app.server.closeAllConnections(), config.shutdownGraceMs).unref();
    const force = setTimeout(() => process.exit(1), 30_000).unref();
    await app.close(); // stops accepting, drains requests, stops jobs, closes the database
    clearTimeout(cut);
    clearTimeout(force);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** First start on an empty database only: the demo login, then its realistic day. */
async function seedDemo(app: Awaited<ReturnType<typeof buildApp>>, config: ReturnType<typeof loadConfig>): Promise<void> {
  const seed = await seedDemoIfEmpty(app);
  if (!seed) return;
  // Printed once, on the first start, to the terminal (not the JSON log).
  process.stdout.write(
    `\n  Demo workspace ready (shown once):\n` +
      `    Dashboard:      ${config.publicBaseUrl}/dashboard   (sign in with the demo login)\n` +
      `    Demo login:     ${seed.email} / ${seed.password}\n` +
      `    API reference:  ${config.publicBaseUrl}/docs\n` +
      (config.superAdminEmail
        ? `    Super-admin:    ${config.superAdminEmail} (password from SUPER_ADMIN_PASSWORD)\n`
        : `    Super-admin:    set SUPER_ADMIN_EMAIL and SUPER_ADMIN_PASSWORD\n`) +
      `    Workspace:      ${seed.workspaceId}\n` +
      `    Test API key:   ${seed.apiKey}\n\n`,
  );
  const started = performance.now();
  const day = await seedDemoDay(app, seed);
  const ms = Math.round(performance.now() - started);
  app.log.info({ ms, workspace_id: seed.workspaceId, orders: day.orders }, 'demo workspace seeded with a day of test orders and shipments (after listen)');
  // On the terminal too, beside the banner: the dashboard is full from here on.
  process.stdout.write(`  Demo day ready: ${day.orders} orders in the demo workspace (${ms} ms).\n\n`);
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`Failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  }
  process.exit(1);
});
