import type { FastifyInstance } from 'fastify';
import { purgeExpiredIdempotencyKeys } from '../platform/http/idempotency.js';

/** Register every module's job handlers and schedules on the app's queue (not started). */
export async function registerJobHandlers(app: FastifyInstance): Promise<void> {
  const { jobs, db, now } = app.deps;
  await jobs.work('maintenance.purge_idempotency_keys', async () => purgeExpiredIdempotencyKeys(db, now()));
  await jobs.schedule('maintenance.purge_idempotency_keys', '17 * * * *');
}
