import type { Deps } from '../../platform/deps.js';
import { shipmentsService } from './shipments.service.js';

export const POLL_TRACKING_JOB = 'shipments.poll_tracking';

/** Ingest due carrier scans every minute (reads also catch up, so nothing waits for the job). */
export async function registerShipmentJobs(deps: Deps): Promise<void> {
  await deps.jobs.work(POLL_TRACKING_JOB, async () => {
    await shipmentsService(deps).tracking.pollDue();
  });
  await deps.jobs.schedule(POLL_TRACKING_JOB, '* * * * *');
}
