import type { FastifyInstance } from 'fastify';
import { purgeExpiredIdempotencyKeys } from '../platform/http/idempotency.js';
import {
  ACTIVATE_JOB,
  APPLY_DELIVERY_JOB,
  purgeOldChannelExchanges,
  SYNC_JOB,
  WRITE_BACK_JOB,
  type ActivateJob,
  type ApplyDeliveryJob,
  type SyncJob,
  type WriteBackJob,
} from '../modules/integrations/index.js';
import { registerShipmentJobs } from '../modules/shipments/index.js';
import { registerBatchJobs } from '../modules/batches/index.js';
import { registerWebhookJobs } from '../modules/webhooks/index.js';
import { purgeOldExchanges } from '../modules/carrier-accounts/index.js';
import { registerManifestJobs } from '../modules/manifests/index.js';
import { registerPickupJobs } from '../modules/pickups/index.js';
import { registerTrackerJobs } from '../modules/trackers/index.js';

/** Register every module's job handlers and schedules on the app's queue (not started). */
export async function registerJobHandlers(app: FastifyInstance): Promise<void> {
  const { jobs, db, now } = app.deps;
  await jobs.work('maintenance.purge_idempotency_keys', async () => purgeExpiredIdempotencyKeys(db, now()));
  await jobs.schedule('maintenance.purge_idempotency_keys', '17 * * * *');
  // Carrier exchange logs are kept 7 days (GET /v1/carrier-accounts/:id/logs).
  await jobs.work('maintenance.purge_carrier_exchanges', async () => {
    await purgeOldExchanges(app.deps);
  });
  await jobs.schedule('maintenance.purge_carrier_exchanges', '23 * * * *');
  // Store platform exchange logs likewise (GET /api/admin/integrations/:id/logs).
  await jobs.work('maintenance.purge_channel_exchanges', async () => {
    await purgeOldChannelExchanges(app.deps);
  });
  await jobs.schedule('maintenance.purge_channel_exchanges', '29 * * * *');
  // Token expiry → token_expired (one integration.health_changed event per change); prunes old intake failures.
  await jobs.work('integrations.check_health', async () => {
    await app.services.integrations.checkHealth(now());
  });
  await jobs.schedule('integrations.check_health', '* * * * *');
  // Store webhook deliveries through the one apply step (docs/channels.md).
  await jobs.work<ApplyDeliveryJob>(APPLY_DELIVERY_JOB, async (data) => app.services.channelDeliveries.apply(data), { concurrency: 4 });
  // Store connections: activation (test, webhooks, backfill), sync runs, reconciliation on each connection's interval.
  await jobs.work<ActivateJob>(ACTIVATE_JOB, async (data) => app.services.channelSync.activate(data));
  await jobs.work<SyncJob>(SYNC_JOB, async (data) => app.services.channelSync.run(data), { concurrency: 2 });
  await jobs.work('integrations.reconcile_due', async () => {
    await app.services.channelSync.reconcileDue();
  });
  await jobs.schedule('integrations.reconcile_due', '* * * * *');
  // Tracking back to the stores: one attempt per job; the service schedules the next one on its ladder.
  await jobs.work<WriteBackJob>(
    WRITE_BACK_JOB,
    async (data) => {
      await app.services.channelWriteBacks.attempt(data);
    },
    { concurrency: 2 },
  );
  // Due carrier scans → tracking events, shipment and order status, tracking.updated; return
  // labels charged on their first scan or expired; refunds of voided labels decided.
  await registerShipmentJobs(app.deps, app.services.shipments);
  // Webhook deliveries: sent in batches, retried on the settings' schedule, dead after the last attempt.
  await registerWebhookJobs(app.deps);
  // Batch chunks: items exactly once, resumed after a crash (the chunk job is retried).
  await registerBatchJobs(app.deps, app.services.batches);
  // End of day: manifest forms (made by a job, at the carrier where its API closes), and pickups completing at their window's end.
  await registerManifestJobs(app.deps, app.services.manifests);
  await registerPickupJobs(app.deps, app.services.pickups);
  // Trackers of labels bought elsewhere: due scans asked of their carrier (tracking.updated on a change).
  await registerTrackerJobs(app.deps, app.services.trackers);
}
