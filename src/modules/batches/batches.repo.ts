import { sql } from 'kysely';
import type { Scope } from '../../platform/context.js';
import type { Executor } from '../../platform/db/types.js';
import { inScope } from '../../platform/db/scope.js';
import { precompiled } from '../../platform/db/precompiled.js';
import type { BatchItemRow, BatchRow, BatchStatus, ItemError, ItemStatus, NewBatchItemRow, NewBatchRow } from './batches.tables.js';

export interface Counts {
  total: number;
  pending: number;
  succeeded: number;
  failed: number;
  cancelled: number;
}

export async function findBatch(executor: Executor, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}): Promise<BatchRow | undefined> {
  let q = executor.selectFrom('batches').selectAll().where('id', '=', id).where(inScope(scope));
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** The job's read: by id alone (the job payload names the scope, checked by the caller). */
export async function findBatchById(executor: Executor, id: string): Promise<BatchRow | undefined> {
  return executor.selectFrom('batches').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countsOf(executor: Executor, batchId: string, total: number): Promise<Counts> {
  const rows = await executor
    .selectFrom('batch_items')
    .select(['status', sql<string>`count(*)`.as('n')])
    .where('batch_id', '=', batchId)
    .groupBy('status')
    .execute();
  const counts: Counts = { total, pending: 0, succeeded: 0, failed: 0, cancelled: 0 };
  for (const r of rows) counts[r.status] = Number(r.n);
  return counts;
}

/**
 * Whether any item is still pending: the first entry of the (batch_id, status, idx) index, so
 * the chunk runs that end mid-batch (most of them) skip counting every item.
 */
export async function hasPending(executor: Executor, batchId: string): Promise<boolean> {
  const row = await executor
    .selectFrom('batch_items')
    .select(sql<number>`1`.as('one'))
    .where('batch_id', '=', batchId)
    .where('status', '=', 'pending')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function pendingItemsInRange(executor: Executor, batchId: string, from: number, to: number): Promise<BatchItemRow[]> {
  return executor
    .selectFrom('batch_items')
    .selectAll()
    .where('batch_id', '=', batchId)
    .where('status', '=', 'pending')
    .where('idx', '>=', from)
    .where('idx', '<', to)
    .orderBy('idx')
    .execute();
}

// An item's move out of pending runs for every item of a batch, and the chunk's re-read of its
// pending items often: compiled once, and named prepared statements (no parse and plan per
// call; see nameStatement in platform/db/database.ts).
const selectPendingInRange = precompiled(
  ['batchId', 'pending', 'from', 'to'],
  (db, v) =>
    db
      .selectFrom('batch_items')
      .select('id')
      .where('batch_id', '=', v.batchId as string)
      .where('status', '=', v.pending as ItemStatus)
      .where('idx', '>=', v.from as number)
      .where('idx', '<', v.to as number),
  { statement: 'batches.pending_in_range' },
);

/** The ids of a chunk's items still pending (one statement for the chunk). */
export async function pendingIdsInRange(executor: Executor, batchId: string, from: number, to: number): Promise<Set<string>> {
  const rows = await selectPendingInRange(executor, { batchId, pending: 'pending', from, to });
  return new Set(rows.map((r) => r.id));
}

const finishPendingItem = precompiled(
  ['status', 'result', 'error', 'shipmentId', 'finishedAt', 'id', 'pending'],
  (db, v) =>
    db
      .updateTable('batch_items')
      .set({
        status: v.status as ItemStatus,
        result: v.result as string | null,
        error: v.error as string | null,
        shipment_id: v.shipmentId as string | null,
        finished_at: v.finishedAt as Date,
      })
      .where('id', '=', v.id as string)
      .where('status', '=', v.pending as ItemStatus)
      .returning('id'),
  { statement: 'batches.finish_item' },
);

/**
 * An item's one move out of pending. Returns false when it had already left pending (another
 * run of the same chunk finished it, or the batch was cancelled): the caller then keeps nothing.
 */
export async function finishItem(
  executor: Executor,
  itemId: string,
  outcome: { status: 'succeeded' | 'failed'; result?: Record<string, unknown>; error?: ItemError; shipmentId?: string },
  now: Date,
): Promise<boolean> {
  const rows = await finishPendingItem(executor, {
    status: outcome.status,
    result: outcome.result ? JSON.stringify(outcome.result) : null,
    error: outcome.error ? JSON.stringify(outcome.error) : null,
    shipmentId: outcome.shipmentId ?? null,
    finishedAt: now,
    id: itemId,
    pending: 'pending',
  });
  return rows.length > 0;
}

export async function listItems(
  executor: Executor,
  scope: Scope,
  batchId: string,
  opts: { afterIndex?: number; status?: ItemStatus; limit: number },
): Promise<BatchItemRow[]> {
  let q = executor.selectFrom('batch_items').selectAll().where('batch_id', '=', batchId).where(inScope(scope));
  if (opts.afterIndex !== undefined) q = q.where('idx', '>', opts.afterIndex);
  if (opts.status) q = q.where('status', '=', opts.status);
  return q
    .orderBy('idx')
    .limit(opts.limit + 1)
    .execute();
}

/** A new batch and its items (in statements of 500 items), in the caller's transaction. */
export async function insertBatch(executor: Executor, batch: NewBatchRow, items: readonly NewBatchItemRow[]): Promise<BatchRow> {
  const row = await executor.insertInto('batches').values(batch).returningAll().executeTakeFirstOrThrow();
  for (let i = 0; i < items.length; i += 500)
    await executor
      .insertInto('batch_items')
      .values(items.slice(i, i + 500))
      .execute();
  return row;
}

/** The scope's batches, for the cursor paginator. */
export function batchesQuery(executor: Executor, scope: Scope) {
  return executor.selectFrom('batches').selectAll().where(inScope(scope));
}

/** Cancel: the items not started become cancelled, then the batch. */
export async function cancelBatch(executor: Executor, batchId: string, now: Date): Promise<BatchRow> {
  await executor
    .updateTable('batch_items')
    .set({ status: 'cancelled', finished_at: now })
    .where('batch_id', '=', batchId)
    .where('status', '=', 'pending')
    .execute();
  return executor
    .updateTable('batches')
    .set({ status: 'cancelled', finished_at: now, updated_at: now })
    .where('id', '=', batchId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** queued → running, once (a second chunk finds it running already). */
export async function markRunning(executor: Executor, batchId: string, now: Date): Promise<void> {
  await executor
    .updateTable('batches')
    .set({ status: 'running', started_at: now, updated_at: now })
    .where('id', '=', batchId)
    .where('status', '=', 'queued')
    .execute();
}

/** The batch row under its lock (the final-status step). */
export async function lockBatch(executor: Executor, batchId: string): Promise<BatchRow | undefined> {
  return executor.selectFrom('batches').selectAll().where('id', '=', batchId).forUpdate().executeTakeFirst();
}

export async function markFinished(executor: Executor, batchId: string, status: BatchStatus, startedAt: Date, now: Date): Promise<BatchRow> {
  return executor
    .updateTable('batches')
    .set({ status, finished_at: now, started_at: startedAt, updated_at: now })
    .where('id', '=', batchId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The shipments the batch bought, in item order. */
export async function shipmentIdsOf(executor: Executor, batchId: string): Promise<string[]> {
  const rows = await executor
    .selectFrom('batch_items')
    .select('shipment_id')
    .where('batch_id', '=', batchId)
    .where('shipment_id', 'is not', null)
    .orderBy('idx')
    .execute();
  return rows.map((r) => r.shipment_id!);
}

export async function findBatchLabel(executor: Executor, batchId: string) {
  return executor.selectFrom('batch_labels').selectAll().where('batch_id', '=', batchId).executeTakeFirst();
}

/** Keep the merged label file (a concurrent render of the same file is dropped). */
export async function insertBatchLabel(
  executor: Executor,
  label: { batch_id: string; content_type: string; body: Uint8Array; created_at: Date },
): Promise<void> {
  await executor
    .insertInto('batch_labels')
    .values(label)
    .onConflict((oc) => oc.column('batch_id').doNothing())
    .execute();
}
