import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { AppError } from '../../platform/errors.js';
import { moveOrder, orderOrigin } from './orders.service.js';

let app: FastifyInstance;
let t: Tenant;
let scope: { workspaceId: string; environment: 'test' };

beforeAll(async () => {
  app = await buildTestApp();
  t = await createTenant(app);
  scope = { workspaceId: t.workspaceId, environment: 'test' };
});

async function createOrder(extra: Record<string, unknown> = {}): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers: t.headers,
    payload: {
      customer: { name: 'Ada Lovelace' },
      ship_to: { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' },
      line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 1, weight_oz: 8 }],
      ...extra,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

const move = (orderId: string, what: Parameters<typeof moveOrder>[3]) =>
  app.deps.db.transaction().execute((trx) => moveOrder(trx, scope, orderId, what, new Date()));

describe('moveOrder', () => {
  it('moves an order from a status the move allows and returns it as moved', async () => {
    const id = await createOrder();
    const moved = await move(id, 'purchase_label');
    expect(moved).toMatchObject({ id, status: 'shipped' });
    expect(moved.shipped_at).toBeInstanceOf(Date);
    const stored = await app.deps.db.selectFrom('orders').select(['status', 'shipped_at']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.status).toBe('shipped');
  });

  it('refuses a move its status does not allow with 409 naming the status, and changes nothing', async () => {
    const id = await createOrder();
    await move(id, 'purchase_label');
    await expect(move(id, 'purchase_label')).rejects.toMatchObject({ code: 'invalid_state', message: expect.stringContaining('shipped') });
    const stored = await app.deps.db.selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.status).toBe('shipped');
  });

  it('says 404 for an order of another scope or none', async () => {
    const id = await createOrder();
    await expect(
      app.deps.db.transaction().execute((trx) => moveOrder(trx, { ...scope, environment: 'live' }, id, 'process', new Date())),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(move('ord_none', 'process')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('two purchases of one order at once: one moves it, the other is 409', async () => {
    const id = await createOrder();
    const outcomes = await Promise.allSettled([move(id, 'purchase_label'), move(id, 'purchase_label')]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const [rejected] = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(rejected!.reason).toBeInstanceOf(AppError);
    expect(rejected!.reason).toMatchObject({ code: 'invalid_state' });
  });
});

describe('orderOrigin', () => {
  it('answers the origin of an order moved in the same transaction as of one read from the table', async () => {
    const id = await createOrder({ external_id: `ext-${Date.now()}` });
    const read = await orderOrigin(app.deps.db, scope, id);
    expect(read).toMatchObject({ source: 'api', external_id: expect.stringMatching(/^ext-/) });
    const afterMove = await app.deps.db.transaction().execute(async (trx) => {
      await moveOrder(trx, scope, id, 'process', new Date());
      return orderOrigin(trx, scope, id);
    });
    expect(afterMove).toEqual(read);
    expect(await orderOrigin(app.deps.db, scope, 'ord_none')).toBeUndefined();
  });
});
