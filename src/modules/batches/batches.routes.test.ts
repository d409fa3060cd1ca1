import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, expectV1AuthMatrix, type Tenant } from '../../../test/helpers/app.js';
import { registerBatchJobs } from './index.js';
import type { BatchItem } from './batches.schemas.js';

let app: FastifyInstance;
let t: Tenant;

beforeAll(async () => {
  app = await buildTestApp();
  await registerBatchJobs(app.deps, app.services.batches);
  await app.deps.jobs.start();
  t = await createTenant(app);
});

const shipFrom = { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const orderBody = (extra: Record<string, unknown> = {}) => ({
  customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
  ship_to: shipTo,
  ship_from: shipFrom,
  line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 1, weight_oz: 12 }],
  parcel: { weight_oz: 16, length_in: 10, width_in: 8, height_in: 4 },
  ...extra,
});

async function createOrders(n: number, headers = t.headers): Promise<string[]> {
  const ids = [];
  for (let i = 0; i < n; i++) {
    const res = await app.inject({ method: 'POST', url: '/v1/orders', headers, payload: orderBody() });
    expect(res.statusCode, res.body).toBe(201);
    ids.push(res.json().id as string);
  }
  return ids;
}

async function createBatch(payload: Record<string, unknown>, headers = t.headers) {
  const res = await app.inject({ method: 'POST', url: '/v1/batches', headers, payload });
  expect(res.statusCode, res.body).toBe(202);
  return res.json();
}

/** Polls until the batch has finished (the workers run in this process). */
async function finished(id: string, headers = t.headers) {
  for (let i = 0; i < 600; i++) {
    const res = await app.inject({ method: 'GET', url: `/v1/batches/${id}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    const batch = res.json();
    if (!['queued', 'running'].includes(batch.status)) return batch;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`batch ${id} did not finish`);
}

async function allItems(id: string, query = '', headers = t.headers) {
  const out: BatchItem[] = [];
  let cursor: string | null = null;
  do {
    const res = await app.inject({ method: 'GET', url: `/v1/batches/${id}/items?limit=100${query}${cursor ? `&cursor=${cursor}` : ''}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    const page: { data: BatchItem[]; next_cursor: string | null } = res.json();
    out.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return out;
}

const shipmentsOf = (orderIds: string[]) => app.deps.db.selectFrom('shipments').select(['order_id', 'status']).where('order_id', 'in', orderIds).execute();

describe('purchase_labels', () => {
  it('buys every label, reports counts and progress, emits batch.completed, merges the labels', async () => {
    const orderIds = await createOrders(3);
    const created = await createBatch({ type: 'purchase_labels', order_ids: orderIds, service_code: 'usps_ground_advantage' });
    expect(created).toMatchObject({ id: expect.stringMatching(/^bat_/), type: 'purchase_labels', label_format: 'pdf_4x6', counts: { total: 3 } });
    expect(['queued', 'running']).toContain(created.status);

    const batch = await finished(created.id);
    expect(batch).toMatchObject({
      status: 'completed',
      progress: 1,
      counts: { total: 3, pending: 0, succeeded: 3, failed: 0 },
      eta_seconds: null,
      label: { url: expect.stringContaining(`/v1/batches/${created.id}/label`) },
    });
    expect(batch.started_at).not.toBeNull();
    expect(batch.finished_at).not.toBeNull();

    const items = await allItems(created.id);
    expect(items.map((i) => i.index)).toEqual([0, 1, 2]);
    for (const [i, item] of items.entries()) {
      expect(item.status).toBe('succeeded');
      expect(item.result.shipment).toMatchObject({ id: expect.stringMatching(/^shp_/), order_id: orderIds[i], service_code: 'usps_ground_advantage' });
    }
    const shipments = await shipmentsOf(orderIds);
    expect(shipments).toHaveLength(3);

    const events = await app.deps.db.selectFrom('events').selectAll().where('type', '=', 'batch.completed').where('workspace_id', '=', t.workspaceId).execute();
    expect(events).toHaveLength(1);
    expect((events[0].data as { counts: unknown }).counts).toMatchObject({ total: 3, succeeded: 3, failed: 0 });

    const label = await app.inject({ method: 'GET', url: `/v1/batches/${created.id}/label`, headers: t.headers });
    expect(label.statusCode).toBe(200);
    expect(label.headers['content-type']).toBe('application/pdf');
    const pages = [...label.rawPayload.toString('latin1').matchAll(/\/Type \/Page\b/g)];
    expect(pages).toHaveLength(3);
  }, 120_000); // the first batch also starts the label render workers

  it('concatenates ZPL labels, picks the cheapest service by default', async () => {
    const orderIds = await createOrders(2);
    const created = await createBatch({ type: 'purchase_labels', items: orderIds.map((order_id) => ({ order_id })), label_format: 'zpl_4x6' });
    expect(await finished(created.id)).toMatchObject({ status: 'completed' });
    const label = await app.inject({ method: 'GET', url: `/v1/batches/${created.id}/label`, headers: t.headers });
    expect(label.statusCode).toBe(200);
    expect(label.headers['content-type']).toContain('application/x-zpl');
    expect(label.body.match(/\^XA/g)).toHaveLength(2);
  });

  it('without a service buys what the shipping rules choose, each shipment with its selection', async () => {
    const tenant = await createTenant(app);
    const rule = await app.inject({
      method: 'POST',
      url: '/v1/shipping-rules',
      headers: tenant.headers,
      payload: { name: 'UPS only', priority: 1, then: { exclude_carriers: ['usps', 'fedex', 'dhl_express'], choose: 'cheapest' } },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const orderIds = await createOrders(2, tenant.headers);
    const created = await createBatch({ type: 'purchase_labels', order_ids: orderIds }, tenant.headers);
    expect(await finished(created.id, tenant.headers)).toMatchObject({ status: 'completed' });
    const rows = await app.deps.db.selectFrom('shipments').select(['carrier', 'selection']).where('order_id', 'in', orderIds).execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.carrier).toBe('ups');
      expect(row.selection).toMatchObject({ rule_id: rule.json().id, strategy: 'cheapest' });
    }
  });

  it("checks each item's customs: derived from the lines, or 422 customs_required for the item", async () => {
    const london = { name: 'Ada Lovelace', street1: '10 Downing St', city: 'London', postal_code: 'SW1A 2AA', country: 'GB' };
    const intl = async (line: Record<string, unknown>) => {
      const res = await app.inject({ method: 'POST', url: '/v1/orders', headers: t.headers, payload: orderBody({ ship_to: london, line_items: [line] }) });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    const declarable = await intl({
      sku: 'MUG-1',
      name: 'Ceramic coffee mug',
      quantity: 1,
      weight_oz: 12,
      unit_price: { amount: 1250, currency: 'USD' },
      hs_tariff_number: '691200',
    });
    const undeclarable = await intl({ sku: 'MUG-1', name: 'Ceramic coffee mug', quantity: 1, weight_oz: 12 });
    const created = await createBatch({ type: 'purchase_labels', order_ids: [declarable, undeclarable], service_code: 'usps_priority_mail_international' });
    expect(await finished(created.id)).toMatchObject({ status: 'completed_with_errors', counts: { succeeded: 1, failed: 1 } });
    const items = await allItems(created.id);
    expect(items[1].error).toMatchObject({ code: 'customs_required', details: [{ field: 'line_items[0].unit_price' }] });
    const rows = await app.deps.db.selectFrom('shipments').select(['order_id', 'customs']).where('order_id', 'in', [declarable, undeclarable]).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ order_id: declarable, customs: { derived: true, items: [{ hs_tariff_number: '691200' }] } });
  });

  it('records per-item errors: completed_with_errors, the right code per failed item', async () => {
    const [good, good2] = await createOrders(2);
    const created = await createBatch({
      type: 'purchase_labels',
      items: [{ order_id: good }, { order_id: 'ord_doesnotexist' }, { bogus: 1 }, { order_id: good2, service_code: 'no_such_service' }, 'text'],
    });
    const batch = await finished(created.id);
    expect(batch).toMatchObject({ status: 'completed_with_errors', counts: { total: 5, succeeded: 1, failed: 4, pending: 0 } });
    const items = await allItems(created.id);
    expect(items.map((i) => i.status)).toEqual(['succeeded', 'failed', 'failed', 'failed', 'failed']);
    expect(items[1].error).toMatchObject({ code: 'not_found' });
    expect(items[2].error).toMatchObject({ code: 'validation_failed', details: expect.arrayContaining([expect.objectContaining({ field: 'order_id' })]) });
    expect(items[3].error).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field: 'service_code' })] });
    const failed = await allItems(created.id, '&status=failed');
    expect(failed.map((i) => i.index)).toEqual([1, 2, 3, 4]);
    // Another purchase of an already shipped order fails with the state error, buying nothing.
    const again = await createBatch({ type: 'purchase_labels', order_ids: [good] });
    expect(await finished(again.id)).toMatchObject({ status: 'failed', label: null });
    expect((await allItems(again.id))[0].error).toMatchObject({ code: 'invalid_state' });
    expect(await shipmentsOf([good])).toHaveLength(1);
    const noLabels = await app.inject({ method: 'GET', url: `/v1/batches/${again.id}/label`, headers: t.headers });
    expect(noLabels.statusCode).toBe(404);
  });

  it('cancels midway: pending items are cancelled, finished ones stay, nothing is bought twice', async () => {
    const orderIds = await createOrders(60);
    const created = await createBatch({ type: 'purchase_labels', order_ids: orderIds, service_code: 'usps_ground_advantage' });
    const res = await app.inject({ method: 'POST', url: `/v1/batches/${created.id}/cancel`, headers: t.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('cancelled');
    expect(res.json().counts.cancelled).toBeGreaterThan(0);
    // Items in flight at the moment of the cancel roll back; let the workers drain.
    await new Promise((r) => setTimeout(r, 1500));
    const batch = (await app.inject({ method: 'GET', url: `/v1/batches/${created.id}`, headers: t.headers })).json();
    expect(batch.status).toBe('cancelled');
    expect(batch.counts.pending).toBe(0);
    expect(batch.counts.succeeded + batch.counts.failed + batch.counts.cancelled).toBe(60);
    const items = await allItems(created.id);
    const succeeded = new Set(items.filter((i) => i.status === 'succeeded').map((i) => i.result.shipment.order_id));
    const shipments = await shipmentsOf(orderIds);
    expect(new Set(shipments.map((s) => s.order_id))).toEqual(succeeded);
    expect(shipments).toHaveLength(succeeded.size);
    const again = await app.inject({ method: 'POST', url: `/v1/batches/${created.id}/cancel`, headers: t.headers });
    expect(again.statusCode).toBe(200);
    const done = await createBatch({ type: 'validate_addresses', items: [shipTo] });
    await finished(done.id);
    const late = await app.inject({ method: 'POST', url: `/v1/batches/${done.id}/cancel`, headers: t.headers });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('invalid_state');
  });
});

describe('other batch types', () => {
  it('import_orders, validate_addresses and process_orders', async () => {
    const imported = await createBatch({ type: 'import_orders', items: [orderBody({ external_id: 'ext-batch-1' }), { customer: {} }] });
    expect(await finished(imported.id)).toMatchObject({ status: 'completed_with_errors', counts: { succeeded: 1, failed: 1 } });
    const importItems = await allItems(imported.id);
    expect(importItems[0].result.order).toMatchObject({ id: expect.stringMatching(/^ord_/), external_id: 'ext-batch-1' });
    expect(importItems[1].error).toMatchObject({ code: 'validation_failed' });

    const validated = await createBatch({ type: 'validate_addresses', items: [shipTo, { ...shipTo, postal_code: 'nope', country: 'ZZ' }, 42] });
    expect(await finished(validated.id)).toMatchObject({ counts: { succeeded: 2, failed: 1 } });
    const validItems = await allItems(validated.id);
    expect(validItems[0].result.status).toBeDefined();
    expect(validItems[1].result.status).toBe('invalid');

    const [o1] = await createOrders(1);
    const processed = await createBatch({ type: 'process_orders', order_ids: [o1, 'ord_missing'] });
    expect(await finished(processed.id)).toMatchObject({ status: 'completed_with_errors' });
    const processItems = await allItems(processed.id);
    expect(processItems[0].result.order).toMatchObject({ id: o1, status: 'processing' });
    expect(processItems[1].error).toMatchObject({ code: 'not_found' });
  });
});

describe('POST /v1/batches envelope', () => {
  it('is idempotent with an Idempotency-Key', async () => {
    const orderIds = await createOrders(1);
    const headers = { ...t.headers, 'idempotency-key': `batch-${Date.now()}` };
    const a = await app.inject({ method: 'POST', url: '/v1/batches', headers, payload: { type: 'purchase_labels', order_ids: orderIds } });
    const b = await app.inject({ method: 'POST', url: '/v1/batches', headers, payload: { type: 'purchase_labels', order_ids: orderIds } });
    expect(a.statusCode).toBe(202);
    expect(b.statusCode).toBe(202);
    expect(b.json().id).toBe(a.json().id);
    const count = await app.deps.db
      .selectFrom('batch_items')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('batch_id', '=', a.json().id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
    await finished(a.json().id);
    expect(await shipmentsOf(orderIds)).toHaveLength(1);
  });

  it('refuses more than 10,000 items with 413, a malformed envelope with 400', async () => {
    const big = await app.inject({
      method: 'POST',
      url: '/v1/batches',
      headers: t.headers,
      payload: { type: 'validate_addresses', items: Array.from({ length: 10_001 }, () => ({ country: 'US' })) },
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ code: 'payload_too_large', message: expect.stringContaining('10,000') });
    for (const payload of [
      {},
      { type: 'nope', items: [] },
      { type: 'purchase_labels' },
      { type: 'purchase_labels', items: [] },
      { type: 'import_orders', order_ids: ['ord_1'] },
      { type: 'validate_addresses', items: {} },
    ]) {
      const res = await app.inject({ method: 'POST', url: '/v1/batches', headers: t.headers, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    const nul = await app.inject({ method: 'POST', url: '/v1/batches', headers: t.headers, payload: { type: 'purchase_labels', order_ids: ['ord_\u0000'] } });
    expect(nul.statusCode).toBe(400);
  });

  it('accepts a body above the default limit (up to 10 MiB) on this route', async () => {
    // Items too long to validate: they fail at creation, so no worker time is spent on them.
    const items = Array.from({ length: 600 }, () => ({ ...shipTo, street1: 'x'.repeat(2000) }));
    expect(JSON.stringify({ items }).length).toBeGreaterThan(1024 * 1024);
    const res = await app.inject({ method: 'POST', url: '/v1/batches', headers: t.headers, payload: { type: 'validate_addresses', items } });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(202);
    expect(res.json()).toMatchObject({ status: 'failed', counts: { total: 600, failed: 600 } });
    const first = (await app.inject({ method: 'GET', url: `/v1/batches/${res.json().id}/items?limit=1`, headers: t.headers })).json().data[0];
    expect(first.error).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field: 'street1' })] });
  });

  it('lists batches with a cursor; another workspace sees 404; label is 409 until finished', async () => {
    const u = await createTenant(app);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await createBatch({ type: 'validate_addresses', items: [shipTo] }, u.headers)).id);
    const first = (await app.inject({ method: 'GET', url: '/v1/batches?limit=2', headers: u.headers })).json();
    expect(first.data.map((b: { id: string }) => b.id)).toEqual([ids[2], ids[1]]);
    expect(first.has_more).toBe(true);
    const second = (await app.inject({ method: 'GET', url: `/v1/batches?limit=2&cursor=${first.next_cursor}`, headers: u.headers })).json();
    expect(second.data.map((b: { id: string }) => b.id)).toEqual([ids[0]]);
    for (const url of [`/v1/batches/${ids[0]}`, `/v1/batches/${ids[0]}/items`, `/v1/batches/${ids[0]}/label`]) {
      const res = await app.inject({ method: 'GET', url, headers: t.headers });
      expect(res.statusCode, url).toBe(404);
    }
    await expectV1AuthMatrix(app, { method: 'GET', url: `/v1/batches/${ids[0]}` }, { owner: u, otherWorkspaceResource: true });
    await finished(ids[0], u.headers);
    await app.deps.db.updateTable('batches').set({ status: 'running' }).where('id', '=', ids[0]).execute();
    const early = await app.inject({ method: 'GET', url: `/v1/batches/${ids[0]}/label`, headers: u.headers });
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('invalid_state');
  });
});

describe('admin', () => {
  it('batch-generate and batch-process answer 202 with the batch; the dashboard reads batches', async () => {
    const orderIds = await createOrders(2);
    const gen = await app.inject({
      method: 'POST',
      url: '/api/admin/orders/batch-generate',
      headers: t.adminHeaders,
      payload: { order_ids: [orderIds[0]], service_code: 'cheapest' },
    });
    expect(gen.statusCode, gen.body).toBe(202);
    expect(gen.json()).toMatchObject({ id: expect.stringMatching(/^bat_/), type: 'purchase_labels' });
    const proc = await app.inject({ method: 'POST', url: '/api/admin/orders/batch-process', headers: t.adminHeaders, payload: { order_ids: [orderIds[1]] } });
    expect(proc.statusCode, proc.body).toBe(202);
    expect(proc.json().type).toBe('process_orders');
    await finished(gen.json().id);
    await finished(proc.json().id);
    const read = await app.inject({ method: 'GET', url: `/api/admin/batches/${gen.json().id}`, headers: t.adminHeaders });
    expect(read.json()).toMatchObject({ status: 'completed', counts: { succeeded: 1 } });
    const items = await app.inject({ method: 'GET', url: `/api/admin/batches/${proc.json().id}/items`, headers: t.adminHeaders });
    expect(items.json().data[0].result.order.status).toBe('processing');
    const list = await app.inject({ method: 'GET', url: '/api/admin/batches', headers: t.adminHeaders });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.length).toBeGreaterThanOrEqual(2);
    const noSession = await app.inject({ method: 'GET', url: '/api/admin/batches', headers: { 'x-service-workspace': t.workspaceId } });
    expect(noSession.statusCode).toBe(401);
  });
});

describe('create_returns', () => {
  async function shipped(n: number): Promise<string[]> {
    const ids = [];
    for (const orderId of await createOrders(n)) {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/shipments',
        headers: t.headers,
        payload: { order_id: orderId, service_code: 'usps_ground_advantage' },
      });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id as string);
    }
    return ids;
  }

  it('makes a return label per item (its RMA and reason kept), a failed item for an unknown shipment, and merges the return labels', async () => {
    const [a, b] = await shipped(2);
    const created = await createBatch({
      type: 'create_returns',
      items: [
        { shipment_id: a, rma_number: 'RMA-A', reason: 'Broken' },
        { shipment_id: 'shp_01jx0000000000000000000000' },
        { shipment_id: b, charge: 'on_creation' },
        { order_id: 'ord_x' },
      ],
    });
    expect(created).toMatchObject({ type: 'create_returns', counts: { total: 4 } });
    const batch = await finished(created.id);
    expect(batch).toMatchObject({
      status: 'completed_with_errors',
      counts: { succeeded: 2, failed: 2 },
      label: { url: expect.stringContaining(`/v1/batches/${created.id}/label`) },
    });
    const items = await allItems(created.id);
    expect(items[0]).toMatchObject({
      status: 'succeeded',
      result: { shipment: { is_return: true, return_of: a, rma_number: 'RMA-A', reason: 'Broken', charge: 'on_scan', billing_status: 'pending' } },
    });
    expect(items[1]).toMatchObject({ status: 'failed', error: { code: 'not_found' } });
    expect(items[2]).toMatchObject({ status: 'succeeded', result: { shipment: { return_of: b, charge: 'on_creation', billing_status: 'charged' } } });
    expect(items[3]).toMatchObject({ status: 'failed', error: { code: 'validation_failed' } });
    const label = await app.inject({ method: 'GET', url: `/v1/batches/${created.id}/label`, headers: t.headers });
    expect(label.statusCode).toBe(200);
    expect(label.headers['content-type']).toBe('application/pdf');
    const outbound = (await app.inject({ method: 'GET', url: `/v1/shipments/${a}`, headers: t.headers })).json();
    expect(outbound.returns).toEqual([
      { id: items[0].result.shipment.id, tracking_number: items[0].result.shipment.tracking_number, status: 'label_purchased', billing_status: 'pending' },
    ]);
  });

  it('takes shipment_ids; another workspace\u2019s shipment is a failed item (not_found), and shipment_ids belongs to create_returns only', async () => {
    const [a] = await shipped(1);
    const other = await createTenant(app);
    const created = await createBatch({ type: 'create_returns', shipment_ids: [a] }, other.headers);
    const batch = await finished(created.id, other.headers);
    expect(batch).toMatchObject({ status: 'failed', counts: { failed: 1 } });
    expect((await allItems(created.id, '', other.headers))[0]).toMatchObject({ status: 'failed', error: { code: 'not_found' } });
    const mine = await finished((await createBatch({ type: 'create_returns', shipment_ids: [a] })).id);
    expect(mine).toMatchObject({ status: 'completed', counts: { succeeded: 1 } });
    const wrong = await app.inject({ method: 'POST', url: '/v1/batches', headers: t.headers, payload: { type: 'purchase_labels', shipment_ids: [a] } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details).toEqual([{ field: 'shipment_ids', message: 'only for create_returns' }]);
  });
});
