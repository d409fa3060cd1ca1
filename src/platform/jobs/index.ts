import type { DatabaseHandle } from '../db/database.js';
import { consoleJobLogger, type JobLogger, type JobQueue } from './job-queue.js';
import { PgBossQueue } from './pg-boss-queue.js';
import { pgliteConnection, postgresConnection, type QueueConnection } from './sql-adapters.js';

export * from './job-queue.js';
export { MemoryJobQueue, type MemoryJob, type MemoryJobQueueOptions, type MemoryJobState, type RunSummary } from './memory-queue.js';
export { parseCron, type CronSchedule } from './cron.js';

export interface CreateJobQueueOptions {
  log?: JobLogger;
  /** PostgreSQL only: size of the queue's own pool. Default 4. */
  poolMax?: number;
  /** See PgBossQueueOptions. Default 30. */
  maintenanceIntervalSeconds?: number;
}

/**
 * The durable queue on the application database: pg-boss over PGlite (through the handle's
 * Kysely connection) or over PostgreSQL (its own small pool on the same database). Each call
 * makes an independent instance (several instances behave like several processes).
 */
export function createJobQueue(handle: DatabaseHandle, options: CreateJobQueueOptions = {}): JobQueue {
  const logger = options.log ?? consoleJobLogger;
  return new PgBossQueue({
    connection: queueConnection(handle, options.poolMax ?? 4, logger),
    log: logger,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds,
    // On PGlite this process is the only sender, and a local send wakes its worker at once:
    // polling only catches delayed jobs and retries, so it can be slow (and spare the one
    // database connection). PostgreSQL workers must notice other processes' sends.
    defaultPollingIntervalSeconds: handle.engine === 'pglite' ? 5 : 1,
  });
}

function queueConnection(handle: DatabaseHandle, poolMax: number, logger: JobLogger): QueueConnection {
  if (handle.engine === 'pglite') {
    if (!handle.pglite) throw new Error('PGlite handle without its PGlite instance');
    return pgliteConnection(handle.db, handle.pglite);
  }
  if (!handle.connectionString) throw new Error('PostgreSQL handle without a connection string');
  return postgresConnection({
    connectionString: handle.connectionString,
    poolMax,
    onPoolError: (err) => logger.error({ err }, 'job queue connection error'),
  });
}

/** Create or migrate the queue's schema (for `prepareDatabase`), leaving nothing open. */
export async function installJobQueue(handle: DatabaseHandle): Promise<void> {
  const queue = createJobQueue(handle, { poolMax: 1 });
  try {
    await queue.install();
  } finally {
    await queue.stop();
  }
}
