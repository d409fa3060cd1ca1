import type { Deps } from '../../platform/deps.js';
import { COMPLETE_PICKUPS_JOB, type PickupsService } from './pickups.service.js';

/** Every minute: pickups whose window has ended complete (idempotent; a late run catches up). */
export async function registerPickupJobs(deps: Deps, pickups: PickupsService): Promise<void> {
  await deps.jobs.work(COMPLETE_PICKUPS_JOB, async () => {
    await pickups.completeDue();
  });
  await deps.jobs.schedule(COMPLETE_PICKUPS_JOB, '* * * * *');
}
