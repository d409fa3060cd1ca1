import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { RUNNING_COUNTS_MS } from './batches.service.js';

// A queued or running batch's counts are kept up to RUNNING_COUNTS_MS per process
// (docs/architecture.md "Jobs", Batches): what must hold is that they are never older than that,
// and that the batch's own row moving (here: cancelled) is seen at once. No job workers run
// here, so the batch stays queued until the test moves it.
let app: FastifyInstance;
let t: Tenant;
beforeAll(async () => {
  app = await buildTestApp();
  t = await createTenant(app);
});

const address = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const get = async (id: string) => {
  const res = await app.inject({ method: 'GET', url: `/v1/batches/${id}`, headers: t.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('batch progress', () => {
  it('is at most RUNNING_COUNTS_MS old while the batch runs, and fresh once its row moves', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/v1/batches',
      headers: t.headers,
      payload: { type: 'validate_addresses', items: [address, address, address] },
    });
    expect(created.statusCode, created.body).toBe(202);
    const id: string = created.json().id;
    expect((await get(id)).counts).toMatchObject({ total: 3, pending: 3, succeeded: 0 });
    // An item finishes (as a chunk run would, in another process): the poll right after may
    // still show the kept counts, the one after RUNNING_COUNTS_MS shows it.
    const [first] = await app.deps.db.selectFrom('batch_items').select('id').where('batch_id', '=', id).orderBy('idx').limit(1).execute();
    await app.deps.db.updateTable('batch_items').set({ status: 'succeeded', finished_at: new Date() }).where('id', '=', first.id).execute();
    const soon = await get(id);
    expect([3, 2]).toContain(soon.counts.pending);
    await new Promise((r) => setTimeout(r, RUNNING_COUNTS_MS + 50));
    expect((await get(id)).counts).toMatchObject({ pending: 2, succeeded: 1 });
    // Another finishes, and the batch is cancelled: the cancelled batch's counts are exact at once.
    const [second] = await app.deps.db
      .selectFrom('batch_items')
      .select('id')
      .where('batch_id', '=', id)
      .where('status', '=', 'pending')
      .orderBy('idx')
      .limit(1)
      .execute();
    await app.deps.db.updateTable('batch_items').set({ status: 'failed', finished_at: new Date() }).where('id', '=', second.id).execute();
    const cancelled = await app.inject({ method: 'POST', url: `/v1/batches/${id}/cancel`, headers: t.headers });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().counts).toMatchObject({ pending: 0, succeeded: 1, failed: 1, cancelled: 1 });
    expect((await get(id)).counts).toMatchObject({ pending: 0, succeeded: 1, failed: 1, cancelled: 1 });
  });
});
