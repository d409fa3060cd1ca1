import type { Engine } from '../../platform/db/database.js';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { AjvCompiler } from '@fastify/ajv-compiler';
import type { TSchema } from '@sinclair/typebox';
import { AppError, invalidState, validationError, type ErrorDetail } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Deps } from '../../platform/deps.js';
import type { Scope, ServiceContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db/types.js';
import { clampLimit, paginate, type Page } from '../../platform/http/pagination.js';
import { addDateFormats } from '../../platform/http/dates.js';
import { recordEvent } from '../events/index.js';
import { AddressSchema, validateAddress } from '../addresses/index.js';
import { API_SOURCE, checkOrderBody, OrderBody, type OrderInput, type OrdersService } from '../orders/index.js';
import type { LabelPrints, ShipmentsService } from '../shipments/index.js';
import type { LocationsService } from '../locations/index.js';
import type { LabelFormat } from '../labels/index.js';
import * as repo from './batches.repo.js';
import {
  MAX_BATCH_ITEMS,
  PurchaseItemSchema,
  ReturnItemSchema,
  type Batch,
  type BatchItem,
  type CreateBatchInput,
  type PurchaseItem,
  type ReturnItem,
} from './batches.schemas.js';
import type { BatchItemRow, BatchRow, BatchStatus, BatchType, ItemError, ItemStatus } from './batches.tables.js';
import { toBatch, toBatchItem } from './batches.wire.js';

export const RUN_CHUNK_JOB = 'batches.run_chunk';
/** Items per job: small enough that a crashed chunk costs little to redo, large enough to amortise the job. */
export const CHUNK_SIZE = 50;
/**
 * A chunk job's lease: a job still active this long after it started (its worker was killed) is
 * expired by the queue's maintenance and runs again elsewhere. Short, so a batch whose worker
 * died resumes within about a minute and a half on PostgreSQL (lease + maintenance interval).
 */
export const CHUNK_EXPIRE_SECONDS = 60;
/**
 * A run stops taking items after this long and queues a continuation of its range, so a live
 * worker never outlives its lease on a slow machine (which would hand the same chunk to a second
 * worker: harmless, items are exactly-once, but wasted).
 */
export const CHUNK_BUDGET_MS = 20_000;
/** How stale a chunk's view of which of its items are still pending may get before an item is taken (see pendingCheck). */
export const PENDING_RECHECK_MS = 200;
const CHUNK_JOB_OPTIONS = { expireInSeconds: CHUNK_EXPIRE_SECONDS, retryLimit: 10, retryDelaySeconds: 2 } as const;
/** How long a running batch's counts are kept per process (see BatchesService.countsOf). */
export const RUNNING_COUNTS_MS = 1000;
const FINISHED: readonly BatchStatus[] = ['completed', 'completed_with_errors', 'failed', 'cancelled'];

export interface ChunkJob {
  batch_id: string;
  workspace_id: string;
  environment: 'test' | 'live';
  from: number;
  to: number;
}

/** Thrown inside an item's transaction when the item already left pending: rolls its work (label, order, move) back. */
class ItemAlreadyFinished extends Error {}

/**
 * Items processed at once within one chunk job (BATCH_ITEM_CONCURRENCY): 4 on PostgreSQL, 2 on
 * the embedded engine. PGlite has one connection, so every item in flight is a transaction an
 * interactive request queues behind: at 4 items × 2 chunks an order read took 90 ms (p50) during
 * a batch, at 2 × 1 it took 2.3 ms for 17 % fewer items/s (bench row batch-interactive).
 */
export function itemConcurrency(engine: Engine, configured: number | undefined): number {
  return configured ?? (engine === 'pglite' ? 2 : 4);
}

type ItemValidator = ((value: unknown) => boolean) & {
  errors?: { instancePath: string; message?: string; params?: { missingProperty?: string; additionalProperty?: string } }[] | null;
};
// Items are checked with the same Ajv setup as request bodies (no coercion), one validator per schema.
const compileItemValidator = AjvCompiler()({}, {
  customOptions: { coerceTypes: false, allErrors: true, removeAdditional: false },
  onCreate: addDateFormats,
} as never) as unknown as (route: unknown) => ItemValidator;
const validators = new Map<TSchema, ItemValidator>();
function checkShape(schema: TSchema, value: unknown): ErrorDetail[] {
  let validate = validators.get(schema);
  if (!validate) validators.set(schema, (validate = compileItemValidator({ schema, method: 'POST', url: '/v1/batches', httpPart: 'body' })));
  if (validate(value)) return [];
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  for (const e of validate.errors ?? []) {
    const name = e.params?.missingProperty ?? e.params?.additionalProperty;
    const path = [e.instancePath.replace(/^\//, '').replace(/\//g, '.'), name].filter(Boolean).join('.') || 'item';
    if (seen.has(path)) continue;
    seen.add(path);
    details.push({
      field: path,
      message: e.params?.missingProperty ? 'is required' : e.params?.additionalProperty ? 'is not a known field' : (e.message ?? 'is invalid'),
    });
    if (details.length >= 20) break;
  }
  return details;
}

export class BatchesService {
  /** Running batches' counts, per batch id (see countsOf). */
  private readonly runningCounts = new Map<string, { version: number; at: number; counts: repo.Counts }>();

  constructor(
    private readonly deps: Deps,
    private readonly orders: OrdersService,
    private readonly shipments: ShipmentsService,
    private readonly locations: Pick<LocationsService, 'locationIdFor'>,
    private readonly prints: Pick<LabelPrints, 'mergedFile'>,
  ) {}

  private get baseUrl(): string {
    return this.deps.config.publicBaseUrl;
  }

  /**
   * POST /v1/batches: the batch, its items (each validated now: a malformed item is stored as
   * failed, the rest pending) and one job per chunk of items, all in one transaction.
   */
  async create(ctx: ServiceContext, input: CreateBatchInput): Promise<Batch> {
    const raw = rawItems(input);
    if (raw.length === 0) throw validationError([{ field: input.items ? 'items' : 'order_ids', message: 'must have at least one item' }]);
    if (raw.length > MAX_BATCH_ITEMS) {
      throw new AppError(
        'payload_too_large',
        `A batch holds at most ${MAX_BATCH_ITEMS.toLocaleString('en-US')} items; this one has ${raw.length.toLocaleString('en-US')}. Split it into several batches.`,
      );
    }
    if (input.location_id !== undefined && input.type !== 'purchase_labels')
      throw validationError([{ field: 'location_id', message: 'only with type purchase_labels' }]);
    // 404 now, not a failed item per label later.
    const locationId = input.location_id !== undefined ? await this.locations.locationIdFor(ctx, input.location_id) : null;
    const now = this.deps.now();
    const id = newId('batch');
    const items = raw.map((value, idx) => {
      const details = checkItem(input.type, value);
      return {
        id: newId('batchItem'),
        batch_id: id,
        workspace_id: ctx.workspaceId,
        environment: ctx.environment,
        idx,
        status: (details.length ? 'failed' : 'pending') as ItemStatus,
        input: JSON.stringify(value ?? null),
        error: details.length ? JSON.stringify({ code: 'validation_failed', message: 'The item is invalid.', details } satisfies ItemError) : null,
        finished_at: details.length ? now : null,
      };
    });
    const row = await this.deps.db.transaction().execute(async (trx) => {
      const batch = await repo.insertBatch(
        trx,
        {
          id,
          workspace_id: ctx.workspaceId,
          environment: ctx.environment,
          type: input.type,
          status: 'queued',
          label_format:
            input.type === 'purchase_labels' ? (input.label_format ?? 'pdf_4x6') : input.type === 'create_returns' ? (input.label_format ?? null) : null,
          service_code: input.type === 'purchase_labels' ? (input.service_code ?? null) : null,
          location_id: locationId,
          total: items.length,
          actor: JSON.stringify({ type: ctx.actor.type, id: ctx.actor.id, email: ctx.actor.email ?? null }),
          created_at: now,
          updated_at: now,
        },
        items,
      );
      for (let from = 0; from < items.length; from += CHUNK_SIZE) {
        const to = Math.min(from + CHUNK_SIZE, items.length);
        if (!items.slice(from, to).some((it) => it.status === 'pending')) continue;
        const job: ChunkJob = { batch_id: id, workspace_id: ctx.workspaceId, environment: ctx.environment, from, to };
        await this.deps.jobs.send(RUN_CHUNK_JOB, job, { ...CHUNK_JOB_OPTIONS, executor: trx });
      }
      return batch;
    });
    if (!items.some((it) => it.status === 'pending')) await this.finishIfDone(id);
    return this.present(this.deps.db, (await repo.findBatchById(this.deps.db, id)) ?? row);
  }

  async get(scope: Scope, id: string): Promise<Batch> {
    return this.present(this.deps.db, await this.findOrThrow(scope, id));
  }

  async list(scope: Scope, opts: { limit?: number; cursor?: string }): Promise<Page<Batch>> {
    const page = await paginate(repo.batchesQuery(this.deps.db, scope), opts);
    const data = [];
    for (const row of page.data) data.push(await this.present(this.deps.db, row));
    return { ...page, data };
  }

  async items(scope: Scope, id: string, opts: { limit?: number; cursor?: string; status?: ItemStatus }): Promise<Page<BatchItem>> {
    await this.findOrThrow(scope, id);
    const limit = clampLimit(opts.limit);
    const rows = await repo.listItems(this.deps.db, scope, id, {
      limit,
      status: opts.status,
      afterIndex: opts.cursor === undefined ? undefined : decodeIndexCursor(opts.cursor),
    });
    const has_more = rows.length > limit;
    const data = has_more ? rows.slice(0, limit) : rows;
    return { data: data.map(toBatchItem), has_more, next_cursor: has_more ? encodeIndexCursor(data[data.length - 1].idx) : null };
  }

  /** Items not started become cancelled; finished ones stay. A finished batch is 409. */
  async cancel(ctx: ServiceContext, id: string): Promise<Batch> {
    const now = this.deps.now();
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await repo.findBatch(trx, ctx, id, { forUpdate: true });
      if (!row) throw new AppError('not_found', 'No such batch.');
      if (row.status === 'cancelled') return this.present(trx, row);
      if (FINISHED.includes(row.status))
        throw invalidState(`The batch is ${row.status}; only a queued or running batch can be cancelled.`, { current: row.status, allowedMoves: [] });
      return this.present(trx, await repo.cancelBatch(trx, id, now));
    });
  }

  /** The merged label file: rendered once (off the event loop), then kept. */
  async label(scope: Scope, id: string): Promise<{ body: Buffer; content_type: string; filename: string }> {
    const batch = await this.findOrThrow(scope, id);
    if (!FINISHED.includes(batch.status))
      throw invalidState(`The batch is ${batch.status}; its label file is ready when it has finished.`, {
        current: batch.status,
        allowedMoves: ['cancel'],
        detail: `is ${batch.status}; the label file is made when the batch has finished`,
      });
    const format = (batch.label_format ?? 'pdf_4x6') as LabelFormat;
    const ext = format === 'zpl_4x6' ? 'zpl' : 'pdf';
    const filename = `batch-${id}.${ext}`;
    const stored = await repo.findBatchLabel(this.deps.db, id);
    if (stored) return { body: Buffer.from(stored.body.buffer, stored.body.byteOffset, stored.body.byteLength), content_type: stored.content_type, filename };
    const shipmentIds = await repo.shipmentIdsOf(this.deps.db, id);
    if (shipmentIds.length === 0) throw new AppError('not_found', 'The batch bought no labels.');
    // png_4x6 has no multi-page form: its batch file is the 4x6 PDF.
    const rendered = await this.prints.mergedFile(scope, shipmentIds, format === 'png_4x6' ? 'pdf_4x6' : format);
    await repo.insertBatchLabel(this.deps.db, { batch_id: id, content_type: rendered.content_type, body: rendered.body, created_at: this.deps.now() });
    return { body: rendered.body, content_type: rendered.content_type, filename };
  }

  /**
   * One chunk job: its pending items, a few at a time, each in its own transaction. Safe to
   * run again (after a crash, an expiry, or alongside a stale copy): only pending items are
   * taken, and an item leaves pending once (its work commits with its mark). Stops taking items
   * when `signal` aborts (the attempt's deadline) or the time budget is spent; in the latter
   * case a continuation job takes the rest of the range. Returns how many items this run finished.
   */
  async runChunk(job: ChunkJob, signal?: AbortSignal): Promise<number> {
    const batch = await repo.findBatchById(this.deps.db, job.batch_id);
    if (!batch || batch.workspace_id !== job.workspace_id || batch.environment !== job.environment) return 0;
    if (FINISHED.includes(batch.status)) return 0;
    if (batch.status === 'queued') {
      const now = this.deps.now();
      await repo.markRunning(this.deps.db, batch.id, now);
    }
    const ctx: ServiceContext = { workspaceId: batch.workspace_id, environment: batch.environment, actor: batch.actor, requestId: `batch:${batch.id}` };
    const queue = await repo.pendingItemsInRange(this.deps.db, batch.id, job.from, job.to);
    const startedAt = Date.now();
    let finished = 0;
    let overBudget = false;
    const stillPending = this.pendingCheck(batch.id, job, queue);
    const workers = Array.from(
      { length: Math.min(itemConcurrency(this.deps.database.engine, this.deps.config.batchItemConcurrency), queue.length) },
      async () => {
        for (let item = await stillPending(); item; item = await stillPending()) {
          if (signal?.aborted) return;
          if (Date.now() - startedAt > CHUNK_BUDGET_MS) {
            overBudget = true;
            return;
          }
          if (await this.runItem(ctx, batch, item)) finished++;
          // Let interactive requests in between items.
          await yieldToLoop();
        }
      },
    );
    // Every lane ends before the run does (a failed run must not leave lanes working behind the
    // job's retry); then the first unexpected error fails the job, whose retry takes what is left.
    const failure = (await Promise.allSettled(workers)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
    if (overBudget && !signal?.aborted) await this.deps.jobs.send(RUN_CHUNK_JOB, job, CHUNK_JOB_OPTIONS);
    // Which process did which share of a batch (several workers on PostgreSQL): one line per run.
    this.deps.log.info({ batch_id: batch.id, from: job.from, to: job.to, finished, pid: process.pid, continued: overBudget }, 'batch chunk run ended');
    await this.finishIfDone(batch.id);
    return finished;
  }

  /**
   * The chunk's next item still pending: the items cancelled (or finished by another run) since
   * the range was read are dropped first. The range's pending items are read again in one
   * statement, at most every PENDING_RECHECK_MS (shared by the lanes), not one read per
   * item. An item cancelled after that read is still bought, then rolled back with its mark
   * (finishItem finds it no longer pending) and its label voided, as one cancelled while its
   * label was being bought always was.
   */
  private pendingCheck(batchId: string, range: Pick<ChunkJob, 'from' | 'to'>, queue: BatchItemRow[]): () => Promise<BatchItemRow | undefined> {
    let readAt = Date.now();
    let reading: Promise<void> | undefined;
    const reread = async () => {
      const pending = await repo.pendingIdsInRange(this.deps.db, batchId, range.from, range.to);
      for (let i = queue.length - 1; i >= 0; i--) if (!pending.has(queue[i].id)) queue.splice(i, 1);
      readAt = Date.now();
    };
    return async () => {
      if (queue.length > 0 && Date.now() - readAt >= PENDING_RECHECK_MS) {
        reading ??= reread().finally(() => (reading = undefined));
        await reading;
      }
      return queue.shift();
    };
  }

  /** Returns true when this run moved the item out of pending. */
  private async runItem(ctx: ServiceContext, batch: BatchRow, item: BatchItemRow): Promise<boolean> {
    const now = () => this.deps.now();
    try {
      switch (batch.type) {
        case 'purchase_labels': {
          const input = item.input as PurchaseItem;
          await this.shipments.purchaseInBatch(
            ctx,
            {
              order_id: input.order_id,
              service_code: input.service_code ?? batch.service_code ?? undefined,
              label_format: (input.label_format ?? batch.label_format ?? 'pdf_4x6') as never,
              address_validation: input.address_validation,
              options: input.options,
              location_id: input.location_id ?? batch.location_id ?? undefined,
            },
            async (trx, shipment) => {
              if (!(await repo.finishItem(trx, item.id, { status: 'succeeded', result: { shipment }, shipmentId: shipment.id }, now())))
                throw new ItemAlreadyFinished();
            },
          );
          return true;
        }
        case 'create_returns': {
          // The return label and the item's mark commit together (as purchase_labels).
          const { shipment_id: shipmentId, ...input } = item.input as ReturnItem;
          const labelFormat = (input.label_format ?? batch.label_format ?? undefined) as ReturnItem['label_format'];
          await this.shipments.createReturn(ctx, shipmentId, { ...input, label_format: labelFormat }, async (trx, shipment) => {
            if (!(await repo.finishItem(trx, item.id, { status: 'succeeded', result: { shipment }, shipmentId: shipment.id }, now())))
              throw new ItemAlreadyFinished();
          });
          return true;
        }
        case 'import_orders': {
          // The order and the item's mark commit together: a crash between them can neither
          // import twice (no external_id to find it again) nor leave the item pending after its work.
          await this.orders.upsertOrder(ctx, API_SOURCE, item.input as OrderInput, async (trx, { order }) => {
            if (!(await repo.finishItem(trx, item.id, { status: 'succeeded', result: { order } }, now()))) throw new ItemAlreadyFinished();
          });
          return true;
        }
        case 'validate_addresses': {
          // Pure: nothing to commit beside the mark.
          const result = validateAddress(item.input as never);
          return repo.finishItem(this.deps.db, item.id, { status: 'succeeded', result: result as never }, now());
        }
        case 'process_orders': {
          // Same transaction as the move: a rerun after a crash finds the item done, not a 409 on its own work.
          await this.orders.processOrder(ctx, (item.input as { order_id: string }).order_id, async (trx, order) => {
            if (!(await repo.finishItem(trx, item.id, { status: 'succeeded', result: { order } }, now()))) throw new ItemAlreadyFinished();
          });
          return true;
        }
      }
    } catch (err) {
      if (err instanceof ItemAlreadyFinished) return false;
      const error: ItemError =
        err instanceof AppError
          ? { code: err.code, message: err.message, ...(err.details !== undefined ? { details: err.details } : {}) }
          : { code: 'internal_error', message: 'The item could not be processed.' };
      if (!(err instanceof AppError)) this.deps.log.error({ err, batch_id: batch.id, item_id: item.id }, 'batch item failed unexpectedly');
      return repo.finishItem(this.deps.db, item.id, { status: 'failed', error }, now());
    }
  }

  /** When no item is pending: the final status and `batch.completed`, once (under the batch's row lock). */
  async finishIfDone(batchId: string): Promise<void> {
    // Most chunk runs end with items left elsewhere: one indexed probe, not a count of every item.
    if (await repo.hasPending(this.deps.db, batchId)) return;
    await this.deps.db.transaction().execute(async (trx) => {
      const row = await repo.lockBatch(trx, batchId);
      if (!row || FINISHED.includes(row.status)) return;
      const counts = await repo.countsOf(trx, batchId, row.total);
      if (counts.pending > 0) return;
      const status: BatchStatus = counts.failed === 0 ? 'completed' : counts.succeeded === 0 ? 'failed' : 'completed_with_errors';
      const now = this.deps.now();
      const done = await repo.markFinished(trx, batchId, status, row.started_at ?? now, now);
      const batch = toBatch(done, counts, this.baseUrl, now);
      await recordEvent(trx, { workspaceId: row.workspace_id, environment: row.environment }, 'batch.completed', { batch, counts: batch.counts });
    });
  }

  private async findOrThrow(scope: Scope, id: string): Promise<BatchRow> {
    const row = await repo.findBatch(this.deps.db, scope, id);
    if (!row) throw new AppError('not_found', 'No such batch.');
    return row;
  }

  private async present(executor: Executor, row: BatchRow): Promise<Batch> {
    return toBatch(row, await this.countsOf(executor, row), this.baseUrl, this.deps.now());
  }

  /**
   * A batch's counts. Counting reads every item (10,000 in a big batch, each rewritten as it
   * finishes), so a queued or running batch's counts, read outside a transaction, are kept for
   * up to RUNNING_COUNTS_MS per process: a client or the dashboard polling its progress costs
   * one count a second, not one per poll (docs/architecture.md "Jobs", Batches). The batch's row
   * moving (running, finished, cancelled) makes a fresh count; a finished batch is always
   * counted.
   */
  private async countsOf(executor: Executor, row: BatchRow): Promise<repo.Counts> {
    if (executor !== this.deps.db || FINISHED.includes(row.status)) return repo.countsOf(executor, row.id, row.total);
    const version = new Date(row.updated_at).getTime();
    const now = Date.now();
    const kept = this.runningCounts.get(row.id);
    if (kept && kept.version === version && now - kept.at < RUNNING_COUNTS_MS) return kept.counts;
    const counts = await repo.countsOf(executor, row.id, row.total);
    if (this.runningCounts.size >= 1000) for (const [id, k] of this.runningCounts) if (now - k.at >= RUNNING_COUNTS_MS) this.runningCounts.delete(id);
    this.runningCounts.set(row.id, { version, at: now, counts });
    return counts;
  }
}

/** The items as given: `items`, or `order_ids` as `{order_id}` items (`shipment_ids` as `{shipment_id}` for create_returns). */
function rawItems(input: CreateBatchInput): unknown[] {
  const { type, items, order_ids, shipment_ids } = input;
  if (items && order_ids) throw validationError([{ field: 'items', message: 'send items or order_ids, not both' }]);
  if (shipment_ids && type !== 'create_returns') throw validationError([{ field: 'shipment_ids', message: 'only for create_returns' }]);
  if (type === 'create_returns') {
    if (order_ids) throw validationError([{ field: 'order_ids', message: 'create_returns takes items or shipment_ids' }]);
    if (items && shipment_ids) throw validationError([{ field: 'items', message: 'send items or shipment_ids, not both' }]);
    if (shipment_ids) return shipment_ids.map((shipment_id) => ({ shipment_id }));
    if (!items) throw validationError([{ field: 'items', message: 'items or shipment_ids is required' }]);
    return items;
  }
  if (type === 'import_orders' || type === 'validate_addresses') {
    if (order_ids) throw validationError([{ field: 'order_ids', message: `${type} takes items` }]);
    if (!items) throw validationError([{ field: 'items', message: 'is required' }]);
    return items;
  }
  if (order_ids) return order_ids.map((order_id) => ({ order_id }));
  if (!items) throw validationError([{ field: 'items', message: 'items or order_ids is required' }]);
  // process_orders items may be ids or {order_id}.
  return type === 'process_orders' ? items.map((it) => (typeof it === 'string' ? { order_id: it } : it)) : items;
}

const ProcessItemSchema = PurchaseItemSchema; // {order_id} (service fields are ignored for processing)

function checkItem(type: BatchType, value: unknown): ErrorDetail[] {
  switch (type) {
    case 'purchase_labels':
      return checkShape(PurchaseItemSchema, value);
    case 'create_returns':
      return checkShape(ReturnItemSchema, value);
    case 'process_orders':
      return checkShape(ProcessItemSchema, value);
    case 'validate_addresses':
      return checkShape(AddressSchema, value);
    case 'import_orders': {
      const shape = checkShape(OrderBody, value);
      return shape.length ? shape : checkOrderBody(value);
    }
  }
}

function encodeIndexCursor(idx: number): string {
  return Buffer.from(`i:${idx}`).toString('base64url');
}

function decodeIndexCursor(cursor: string): number {
  const m = /^i:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw validationError([{ field: 'cursor', message: 'is not a cursor of this list' }]);
  return Number(m[1]);
}
