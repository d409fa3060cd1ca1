import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import type { ChunkJob } from './batches.service.js';

// An item's work and its mark commit in one transaction (a batch "loses nothing and
// repeats nothing"). The failure between the two is real, not mocked: a trigger makes the
// database refuse any update of one item row, as a crash after the work would leave it. The
// chunk is then run again without the trigger, as the job's retry would.
// The queue is not started: the test runs the chunk itself, so it controls both runs.

let app: FastifyInstance;
let t: Tenant;

beforeAll(async () => {
  app = await buildTestApp();
  t = await createTenant(app);
});

const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const orderBody = (notes: string) => ({ ship_to: shipTo, line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 1, weight_oz: 12 }], notes });

async function createBatch(payload: Record<string, unknown>): Promise<{ id: string; counts: { total: number } }> {
  const res = await app.inject({ method: 'POST', url: '/v1/batches', headers: t.headers, payload });
  expect(res.statusCode, res.body).toBe(202);
  return res.json();
}

const chunkOf = (batch: { id: string; counts: { total: number } }): ChunkJob => ({
  batch_id: batch.id,
  workspace_id: t.workspaceId,
  environment: 'test',
  from: 0,
  to: batch.counts.total,
});

const items = (batchId: string) => app.deps.db.selectFrom('batch_items').selectAll().where('batch_id', '=', batchId).orderBy('idx').execute();

/** From now on the database refuses every update of this item row (until `allow()`). */
async function refuseUpdatesOf(itemId: string): Promise<{ allow(): Promise<void> }> {
  const name = `refuse_${randomBytes(4).toString('hex')}`;
  await sql
    .raw(
      `create function ${name}() returns trigger language plpgsql as $$ begin
         if old.id = '${itemId}' then raise exception 'injected failure: the mark of % is refused', old.id; end if;
         return new;
       end $$`,
    )
    .execute(app.deps.db);
  await sql.raw(`create trigger ${name} before update on batch_items for each row execute function ${name}()`).execute(app.deps.db);
  return {
    async allow() {
      await sql.raw(`drop trigger ${name} on batch_items`).execute(app.deps.db);
      await sql.raw(`drop function ${name}()`).execute(app.deps.db);
    },
  };
}

describe('import_orders: the order and the item mark commit together', () => {
  it('a failure after the import leaves no order behind, and the rerun imports it exactly once', async () => {
    const tag = `atomic-${randomBytes(4).toString('hex')}`;
    // No external_id: nothing but the item's own mark could tell a rerun the order exists.
    const batch = await createBatch({ type: 'import_orders', items: [0, 1, 2].map((i) => orderBody(`${tag}-${i}`)) });
    const before = await items(batch.id);
    const refusal = await refuseUpdatesOf(before[1].id);

    await expect(app.services.batches.runChunk(chunkOf(batch))).rejects.toThrow(/injected failure/);
    const ordersOf = (i: number) =>
      app.deps.db.selectFrom('orders').select('id').where('workspace_id', '=', t.workspaceId).where('notes', '=', `${tag}-${i}`).execute();
    // The refused item is still pending and its order was rolled back with the mark.
    expect((await items(batch.id)).map((it) => it.status)).toEqual(['succeeded', 'pending', 'succeeded']);
    expect(await ordersOf(1)).toEqual([]);

    await refusal.allow();
    expect(await app.services.batches.runChunk(chunkOf(batch))).toBe(1);
    const after = await items(batch.id);
    expect(after.map((it) => it.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    for (const i of [0, 1, 2]) {
      const orders = await ordersOf(i);
      expect(orders, `order ${i}`).toHaveLength(1);
      expect((after[i].result as { order: { id: string } }).order.id).toBe(orders[0].id);
    }
    const read = await app.inject({ method: 'GET', url: `/v1/batches/${batch.id}`, headers: t.headers });
    expect(read.json()).toMatchObject({ status: 'completed', counts: { total: 3, succeeded: 3, failed: 0, pending: 0 } });
  });
});

describe('process_orders: the move and the item mark commit together', () => {
  it('a failure after the move leaves the order unprocessed, and the rerun succeeds (not a 409 on its own work)', async () => {
    const orderIds: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await app.inject({ method: 'POST', url: '/v1/orders', headers: t.headers, payload: orderBody(`process-${i}`) });
      expect(res.statusCode, res.body).toBe(201);
      orderIds.push(res.json().id);
    }
    const batch = await createBatch({ type: 'process_orders', order_ids: orderIds });
    const refusal = await refuseUpdatesOf((await items(batch.id))[0].id);

    await expect(app.services.batches.runChunk(chunkOf(batch))).rejects.toThrow(/injected failure/);
    const statusOf = async (id: string) => (await app.deps.db.selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    expect(await statusOf(orderIds[0])).toBe('awaiting_fulfillment');
    expect(await statusOf(orderIds[1])).toBe('processing');

    await refusal.allow();
    await app.services.batches.runChunk(chunkOf(batch));
    const after = await items(batch.id);
    expect(after.map((it) => [it.status, it.error])).toEqual([
      ['succeeded', null],
      ['succeeded', null],
    ]);
    expect(await statusOf(orderIds[0])).toBe('processing');
    // Moved once: one audit entry for the order, from the run that committed.
    const audits = await app.deps.db
      .selectFrom('audit_log')
      .select('id')
      .where('target_id', '=', orderIds[0])
      .where('action', '=', 'order.processed')
      .execute();
    expect(audits).toHaveLength(1);
  });
});
