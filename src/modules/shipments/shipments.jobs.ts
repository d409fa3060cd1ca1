import type { Deps } from '../../platform/deps.js';
import type { ShipmentsService } from './shipments.service.js';
import { DECIDE_DUE_REFUNDS_JOB, DECIDE_REFUND_JOB } from './shipments.refunds.js';

export const POLL_TRACKING_JOB = 'shipments.poll_tracking';

/** Ingest due carrier scans every minute (reads also catch up, so nothing waits for the job). */
export async function registerShipmentJobs(deps: Deps, shipments: ShipmentsService): Promise<void> {
  await deps.jobs.work(POLL_TRACKING_JOB, async () => {
    await shipments.tracking.pollDue();
  });
  await deps.jobs.schedule(POLL_TRACKING_JOB, '* * * * *');
  // Refunds of voided simulated labels: each void sends one job due after
  // sandbox.refund_delay_seconds; the minute sweep decides any whose job ran early (the queue
  // runs on the database clock) or was lost. Deciding is idempotent.
  await deps.jobs.work<{ shipment_id: string }>(DECIDE_REFUND_JOB, async (data) => {
    await shipments.refunds.decide(data.shipment_id);
  });
  await deps.jobs.work(DECIDE_DUE_REFUNDS_JOB, async () => {
    await shipments.refunds.decideDue();
  });
  await deps.jobs.schedule(DECIDE_DUE_REFUNDS_JOB, '* * * * *');
}
