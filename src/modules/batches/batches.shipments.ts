import type { Scope } from '../../platform/context.js';
import type { Executor } from '../../platform/db/types.js';
import { findBatch, shipmentIdsOf } from './batches.repo.js';

/**
 * The labels a batch bought, in item order (a manifest of a batch); null when
 * the scope has no such batch (another workspace's batch reads as none).
 */
export async function batchShipmentIds(executor: Executor, scope: Scope, batchId: string): Promise<string[] | null> {
  const batch = await findBatch(executor, scope, batchId);
  return batch ? shipmentIdsOf(executor, batch.id) : null;
}
