import type { Deps } from '../../platform/deps.js';
import type { ShipmentsService } from './shipments.service.js';

export const POLL_TRACKING_JOB = 'shipments.poll_tracking';

/** Ingest due carrier scans every minute (reads also catch up, so nothing waits for the job). */
export async function registerShipmentJobs(deps: Deps, shipments: ShipmentsService): Promise<void> {
  await deps.jobs.work(POLL_TRACKING_JOB, async () => {
    await shipments.tracking.pollDue();
  });
  await deps.jobs.schedule(POLL_TRACKING_JOB, '* * * * *');
}
