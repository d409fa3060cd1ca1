import { loadConfig, ConfigError } from './config.js';
import { buildApp } from './app.js';
import { serviceLogDestination } from './platform/logger.js';
import { registerJobHandlers } from './bootstrap/jobs.js';
import { limitHeapGrowth } from './platform/memory.js';

/**
 * Job workers alone (no HTTP listener), for PostgreSQL deployments that scale workers apart
 * from the API. Same modules and handlers as `npm start`.
 */
async function main() {
  const config = loadConfig();
  if (!config.databaseUrl) {
    throw new ConfigError('dist/src/worker.js needs DATABASE_URL: the embedded database serves one process (npm start runs workers).');
  }
  limitHeapGrowth(config.heapGrowingPercent);
  const app = await buildApp({ config, logStream: serviceLogDestination() });
  await registerJobHandlers(app);
  await app.deps.jobs.start();
  app.log.info('worker started');
  const shutdown = async () => {
    const force = setTimeout(() => process.exit(1), 30_000).unref();
    await app.close();
    clearTimeout(force);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
}

main().catch((err) => {
  process.stderr.write(`${err instanceof ConfigError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
