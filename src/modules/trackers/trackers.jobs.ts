import type { Deps } from '../../platform/deps.js';
import { POLL_TRACKERS_JOB, type TrackersService } from './trackers.service.js';

/** Every minute: trackers whose next scan is due ask their carrier (reads of simulated ones also catch up). */
export async function registerTrackerJobs(deps: Deps, trackers: TrackersService): Promise<void> {
  await deps.jobs.work(POLL_TRACKERS_JOB, async () => {
    await trackers.pollDue();
  });
  await deps.jobs.schedule(POLL_TRACKERS_JOB, '* * * * *');
}
