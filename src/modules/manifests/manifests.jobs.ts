import type { Deps } from '../../platform/deps.js';
import { BUILD_MANIFEST_JOB, type BuildManifestJob, type ManifestsService } from './manifests.service.js';

/** Manifest forms are made by a job (POST answers 202 at once); a run on a manifest no longer pending does nothing. */
export async function registerManifestJobs(deps: Deps, manifests: ManifestsService): Promise<void> {
  await deps.jobs.work<BuildManifestJob>(
    BUILD_MANIFEST_JOB,
    async (data, job) => {
      await manifests.build(data, { attempt: job.attempt, maxAttempts: job.maxAttempts });
    },
    { concurrency: 2 },
  );
}
