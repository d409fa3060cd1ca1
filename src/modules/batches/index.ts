/** The batches module's import surface: bulk labels, imports, validation and processing as resumable jobs. */
export { BatchesService, RUN_CHUNK_JOB, CHUNK_SIZE } from './batches.service.js';
export { BatchSchema, BatchItemSchema, MAX_BATCH_ITEMS, type Batch, type BatchItem } from './batches.schemas.js';
export { batchesRoutes, adminBatchesRoutes } from './batches.routes.js';
export { registerBatchJobs } from './batches.jobs.js';
export { batchShipmentIds } from './batches.shipments.js';
