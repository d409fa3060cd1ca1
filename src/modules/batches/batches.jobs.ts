import type { Deps } from '../../platform/deps.js';
import { RUN_CHUNK_JOB, type BatchesService, type ChunkJob } from './batches.service.js';

/**
 * Chunk jobs of every batch. Chunks at once per process (BATCH_WORKERS): 2 on PostgreSQL, 1 on
 * the embedded engine (one connection; see itemConcurrency). With the item concurrency inside
 * each, that bounds the work a batch takes from interactive requests.
 */
export async function registerBatchJobs(deps: Deps, batches: BatchesService): Promise<void> {
  const concurrency = deps.config.batchWorkers ?? (deps.database.engine === 'pglite' ? 1 : 2);
  await deps.jobs.work<ChunkJob>(
    RUN_CHUNK_JOB,
    async (data, job) => {
      await batches.runChunk(data, job.signal);
    },
    { concurrency, pollingIntervalSeconds: 1 },
  );
}
