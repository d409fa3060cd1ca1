import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import type { Address } from '../../carriers/types.js';
import type { ChannelOrder } from '../../channels/types.js';
import type { SyncSource } from './channels.tables.js';
import type { IntegrationRow } from './integrations.tables.js';

// The one apply step (docs/channels.md) over a real database: every decision an order version
// can meet, and the concurrency the receiver and reconciliation create (one order, one event).

let app: FastifyInstance;
let t: Tenant;
let integration: IntegrationRow;

const shipFrom = { name: 'Warehouse', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };

beforeAll(async () => {
  app = await buildTestApp({ config: { encryptionKey: randomBytes(32).toString('base64') } });
  t = await createTenant(app);
  await app.inject({ method: 'PATCH', url: '/api/admin/workspace', headers: t.adminHeaders, payload: { origin_address: shipFrom } });
  const res = await app.inject({
    method: 'POST',
    url: '/api/admin/integrations',
    headers: t.adminHeaders,
    payload: {
      name: 'Acme',
      platform: 'shopify',
      store_ref: 'acme.myshopify.com',
      credentials: { access_token: 'shpat_applytest_0001', client_secret: 'shpss_applytest_0001' },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  integration = await app.deps.db.selectFrom('integrations').selectAll().where('id', '=', res.json().id).executeTakeFirstOrThrow();
});

const shipTo: Address = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
let seq = 1000;
function storeOrder(over: Partial<ChannelOrder> = {}): ChannelOrder {
  seq += 1;
  return {
    external_id: String(seq),
    external_number: `#${seq}`,
    version: '2026-11-20T10:00:00.000Z',
    platform_status: 'paid:unfulfilled',
    cancelled: false,
    cancelled_at: null,
    currency: 'USD',
    customer: { name: 'Ada Lovelace', email: 'ada@example.com', phone: null },
    ship_to: shipTo,
    line_items: [
      {
        external_line_id: `${seq}01`,
        sku: 'MUG-1',
        name: 'Mug',
        quantity: 2,
        unit_price: { amount: 1500, currency: 'USD' },
        weight_oz: 12,
        requires_shipping: true,
      },
    ],
    shipping_line: { code: 'Standard', title: 'Standard shipping' },
    fulfillments: [],
    raw_updated_at: '2026-11-20T10:00:00.000Z',
    ...over,
  };
}

const apply = (order: ChannelOrder, source: SyncSource = 'webhook') =>
  app.deps.db.transaction().execute((trx) => app.services.channelApply.apply(trx, integration, order, source));

const history = (externalId: string) =>
  app.deps.db
    .selectFrom('order_sync_entries')
    .select(['decision', 'source', 'platform_version', 'changes'])
    .where('integration_id', '=', integration.id)
    .where('external_id', '=', externalId)
    .orderBy('id')
    .execute();

const eventsOf = (type: string, orderId: string) =>
  app.deps.db
    .selectFrom('events')
    .select('data')
    .where('type', '=', type)
    .where('workspace_id', '=', t.workspaceId)
    .execute()
    .then((rows) => rows.filter((r) => (r.data as { order_id?: string }).order_id === orderId));

const readOrder = async (id: string) => (await app.inject({ method: 'GET', url: `/v1/orders/${id}`, headers: t.headers })).json();

describe('applying a store order version', () => {
  it('imports once; repeats and older versions change nothing; an edit applies while open', async () => {
    const v1 = storeOrder({ shipping_line: { code: 'ups_ground', title: 'UPS Ground' } });
    const first = await apply(v1);
    expect(first.decision).toBe('created');
    const order = await readOrder(first.orderId!);
    expect(order).toMatchObject({
      external_id: v1.external_id,
      external_number: v1.external_number,
      source: integration.id,
      status: 'awaiting_fulfillment',
      requested_service: 'ups_ground',
      needs_review: null,
      line_items: [{ sku: 'MUG-1', quantity: 2, weight_oz: 12, external_line_id: v1.line_items[0].external_line_id }],
    });
    expect(order.parcel.weight_oz).toBeGreaterThanOrEqual(24);

    expect((await apply(v1, 'poll')).decision).toBe('stale');
    expect((await apply({ ...v1, version: '2026-11-19T00:00:00.000Z' })).decision).toBe('stale');

    const edited = { ...v1, version: '2026-11-20T11:00:00.000Z', ship_to: { ...shipTo, street1: '2 Market St' } };
    const second = await apply(edited);
    expect(second).toMatchObject({ decision: 'updated', orderId: first.orderId, changes: ['ship_to'] });
    expect((await readOrder(first.orderId!)).ship_to.street1).toBe('2 Market St');
    expect((await apply({ ...edited, version: '2026-11-20T12:00:00.000Z' })).decision).toBe('unchanged');

    expect((await history(v1.external_id)).map((e) => [e.decision, e.source])).toEqual([
      ['created', 'webhook'],
      ['stale', 'poll'],
      ['stale', 'webhook'],
      ['updated', 'webhook'],
      ['unchanged', 'webhook'],
    ]);
    expect(await eventsOf('order.imported', first.orderId!)).toEqual([
      { data: { order_id: first.orderId, integration_id: integration.id, external_id: v1.external_id } },
    ]);
  });

  it('skips statuses that are not imported (and orders with nothing to ship), then imports once they qualify', async () => {
    const pending = storeOrder({ platform_status: 'pending:unfulfilled' });
    expect(await apply(pending)).toMatchObject({ decision: 'skipped_status', orderId: null });
    const digital = storeOrder({ ship_to: null });
    expect((await apply(digital)).decision).toBe('skipped_status');
    const paid = { ...pending, platform_status: 'paid:unfulfilled', version: '2026-11-21T00:00:00.000Z' };
    expect((await apply(paid)).decision).toBe('created');
    expect((await history(pending.external_id)).map((e) => e.decision)).toEqual(['skipped_status', 'created']);
  });

  it('a cancellation cancels an open order; after a label it asks for review, and so does an edit', async () => {
    const open = storeOrder();
    const created = await apply(open);
    const cancelled = await apply({ ...open, version: '2026-11-21T00:00:00.000Z', cancelled: true, cancelled_at: '2026-11-21T00:00:00.000Z' });
    expect(cancelled).toMatchObject({ decision: 'updated', changes: ['status'] });
    expect((await readOrder(created.orderId!)).status).toBe('cancelled');

    const shipped = storeOrder();
    const { orderId } = await apply(shipped);
    const buy = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: { order_id: orderId, service_code: 'usps_ground_advantage' },
    });
    expect(buy.statusCode, buy.body).toBe(201);

    const edit = await apply({ ...shipped, version: '2026-11-21T00:00:00.000Z', line_items: [{ ...shipped.line_items[0], quantity: 3 }] });
    expect(edit).toMatchObject({ decision: 'needs_review', changes: ['line_items', 'parcel'] });
    const flagged = await readOrder(orderId!);
    expect(flagged).toMatchObject({ status: 'shipped', needs_review: { reason: 'edited_after_label', changes: ['line_items', 'parcel'] } });
    expect(flagged.line_items[0].quantity).toBe(2);

    const cancel = await apply({ ...shipped, version: '2026-11-22T00:00:00.000Z', cancelled: true });
    expect(cancel.decision).toBe('needs_review');
    expect(await readOrder(orderId!)).toMatchObject({ status: 'shipped', needs_review: { reason: 'cancelled_on_channel' } });
    expect((await eventsOf('order.needs_review', orderId!)).map((e) => (e.data as { reason: string }).reason)).toEqual([
      'edited_after_label',
      'cancelled_on_channel',
    ]);
    // The label is not voided behind the operator's back.
    expect((await readOrder(orderId!)).shipments.map((s: { status: string }) => s.status)).toEqual(['label_purchased']);
  });

  it('recognises our own write-back echoing back', async () => {
    const v1 = storeOrder();
    const { orderId } = await apply(v1);
    const buy = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: { order_id: orderId, service_code: 'usps_ground_advantage' },
    });
    const shipment = buy.json();
    // The label's write-back (created with it) carries the tracking number the store will echo.
    const [writeBack] = await app.deps.db.selectFrom('write_backs').select('tracking_number').where('shipment_id', '=', shipment.id).execute();
    expect(writeBack.tracking_number).toBe(shipment.tracking_number);
    const echoed = {
      ...v1,
      version: '2026-11-21T00:00:00.000Z',
      platform_status: 'paid:fulfilled',
      fulfillments: [{ id: 'gid://shopify/Fulfillment/1', status: 'SUCCESS', tracking_numbers: [shipment.tracking_number] }],
    };
    expect((await apply(echoed)).decision).toBe('echo');
    const foreign = {
      ...echoed,
      version: '2026-11-22T00:00:00.000Z',
      fulfillments: [{ id: 'gid://shopify/Fulfillment/2', status: 'SUCCESS', tracking_numbers: ['1Z999AA10123456784'] }],
    };
    expect((await apply(foreign)).decision).toBe('unchanged');
  });

  it('racing applies of one new order make one order and one order.imported', async () => {
    const order = storeOrder();
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => apply(order, i % 2 ? 'poll' : 'webhook')));
    const decisions = results.map((r) => r.decision).sort();
    expect(decisions).toEqual(['created', 'stale', 'stale', 'stale', 'stale', 'stale']);
    expect(new Set(results.map((r) => r.orderId)).size).toBe(1);
    const rows = await app.deps.db
      .selectFrom('orders')
      .select('id')
      .where('source', '=', integration.id)
      .where('external_id', '=', order.external_id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(await eventsOf('order.imported', rows[0].id)).toHaveLength(1);
  });
});
