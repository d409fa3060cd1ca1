import type { Deps } from '../../platform/deps.js';
import { batchesService, RUN_CHUNK_JOB, type ChunkJob } from './batches.service.js';

/**
 * Chunk jobs of every batch. Chunks at once per process (BATCH_WORKERS): 2 on PostgreSQL, 1 on
 * the embedded engine (one connection; see itemConcurrency). With the item concurrency inside
 * each, that bounds the work a batch takes from interactive requests.
 */
export async function registerBatchJobs(deps: Deps): Promise<void> {
  const fallback = deps.database.engine === 'pglite' ? 1 : 2;
  const n = Number(process.env.BATCH_WORKERS ?? fallback);
  const concurrency = Number.isInteger(n) && n >= 1 && n <= 32 ? n : fallback;
  await deps.jobs.work<ChunkJob>(RUN_CHUNK_JOB, async (data, job) => {
    await batchesService(deps).runChunk(data, job.signal);
  }, { concurrency, pollingIntervalSeconds: 1 });
}
