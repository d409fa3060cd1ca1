import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { startFakeShopify, type FakeShopify } from '../../../test/helpers/fake-shopify/index.js';
import { nextDelaySeconds } from './channels.write-backs.js';

// Tracking back to the store (docs/channels.md) against the fake Shopify: created with the label
// in one transaction, read before write, holds, two locations, refusals, a revoked token that
// makes write-backs wait, a void that cancels the fulfillment; every document schema-checked.

let app: FastifyInstance;
let fake: FakeShopify;
let t: Tenant;
let integrationId: string;
let base: string;

const shipFrom = { name: 'Warehouse', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };

beforeAll(async () => {
  // A fast-restoring cost bucket: these tests are about write-backs, not about waiting for Shopify's bucket.
  fake = await startFakeShopify({ shopDomain: 'acme.myshopify.com', clientSecret: 'shpss_writeback_secret', restoreRate: 1000 });
  app = await buildTestApp({ config: { encryptionKey: randomBytes(32).toString('base64'), channelAllowBaseUrlOverride: true } });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
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
      base_url: fake.url,
      credentials: { access_token: fake.accessToken, client_secret: fake.clientSecret },
      settings: { notify_customer: true },
    },
  });
  integrationId = res.json().id;
});

afterAll(async () => {
  expect(fake.violations).toEqual([]);
  await fake.close();
});

const integration = () => app.deps.db.selectFrom('integrations').selectAll().where('id', '=', integrationId).executeTakeFirstOrThrow();

/** A store order imported through the one apply step, and a label bought for it. */
async function importAndBuy(seed: Parameters<FakeShopify['shop']['seedOrder']>[0] = {}) {
  const fakeOrder = fake.shop.seedOrder(seed);
  const order = await fetchImported(fakeOrder.id);
  const buy = await app.inject({ method: 'POST', url: '/v1/shipments', headers: t.headers, payload: { order_id: order.orderId, service_code: 'ups_ground' } });
  expect(buy.statusCode, buy.body).toBe(201);
  const [wb] = await app.deps.db.selectFrom('write_backs').selectAll().where('shipment_id', '=', buy.json().id).execute();
  return { fakeOrder, shipment: buy.json(), wb };
}

/** Imported through the receiver's own path: a signed delivery from the fake, then the job. */
async function fetchImported(externalId: number) {
  await fake.sendWebhook(`${base}/api/integrations/${integrationId}/webhooks`, 'orders/create', fake.restOrder(externalId));
  const pending = await app.deps.db
    .selectFrom('channel_deliveries')
    .select('id')
    .where('integration_id', '=', integrationId)
    .where('status', '=', 'pending')
    .execute();
  for (const { id } of pending) await app.services.channelDeliveries.apply({ workspace_id: t.workspaceId, environment: 'test', delivery_id: id });
  const imported = await app.deps.db
    .selectFrom('orders')
    .select('id')
    .where('source', '=', integrationId)
    .where('external_id', '=', String(externalId))
    .executeTakeFirstOrThrow();
  return { orderId: imported.id };
}

const attempt = (id: string) => app.services.channelWriteBacks.attempt({ workspace_id: t.workspaceId, environment: 'test', write_back_id: id });

describe('writing tracking back to Shopify', () => {
  it('a label creates a pending write-back in its transaction; the job fulfils once with the tracking, and a retry finds it', async () => {
    const { fakeOrder, shipment, wb } = await importAndBuy();
    expect(wb).toMatchObject({ action: 'fulfill', status: 'pending', tracking_number: shipment.tracking_number, carrier: 'ups' });
    // The answer is lost after Shopify applied it: the next attempt reads before it writes.
    fake.fail('fulfillmentCreate', { kind: 'drop_after_apply' });
    const first = await attempt(wb.id);
    expect(first).toMatchObject({ status: 'retrying', attempts: 1 });
    const second = await attempt(wb.id);
    expect(second).toMatchObject({ status: 'succeeded', attempts: 2 });
    const fulfillments = fake.shop.order(fakeOrder.id).fulfillments;
    expect(fulfillments).toHaveLength(1);
    expect(fulfillments[0]).toMatchObject({
      notifyCustomer: true,
      tracking: [{ company: 'UPS', number: shipment.tracking_number, url: expect.stringContaining('ups.com') }],
    });
    expect(second!.external_ref).toBe(`gid://shopify/Fulfillment/${fulfillments[0].id}`);

    const listed = await app.inject({ method: 'GET', url: `/api/admin/write-backs?shipment_id=${shipment.id}`, headers: t.adminHeaders });
    expect(listed.json().data).toMatchObject([{ id: wb.id, status: 'succeeded', external_refs: [second!.external_ref] }]);
    const retry = await app.inject({ method: 'POST', url: `/api/admin/write-backs/${wb.id}/retry`, headers: t.adminHeaders });
    expect(retry.statusCode).toBe(409);
    const history = (await app.inject({ method: 'GET', url: `/api/admin/orders/${shipment.order_id}/sync-history`, headers: t.adminHeaders })).json();
    expect(history.write_backs).toMatchObject([{ id: wb.id, status: 'succeeded' }]);
  });

  it('two attempts at once (a drained job beside a scheduled one) talk to the store once', async () => {
    const { fakeOrder, wb } = await importAndBuy();
    // This order's creates that the shop ran (whoever sent them: the two attempts or the
    // scheduled job; a throttled request the client sent again ran once): an earlier test's
    // write-back may still be sent by the job workers while this one runs.
    const ids = fake.shop.order(fakeOrder.id).fulfillmentOrders.map((fo) => `"gid://shopify/FulfillmentOrder/${fo.id}"`);
    const creates = () =>
      fake.requests.filter((r) => r.applied && r.fields.includes('fulfillmentCreate') && ids.some((id) => JSON.stringify(r.body).includes(id))).length;
    const [a, b] = await Promise.all([attempt(wb.id), attempt(wb.id)]);
    expect([a!.status, b!.status]).toContain('succeeded');
    expect(creates()).toBe(1);
    expect(fake.shop.order(fakeOrder.id).fulfillments).toHaveLength(1);
  });

  it('an order split across two locations gets one fulfillment per location', async () => {
    const { fakeOrder, wb } = await importAndBuy({ lines: [{ location: 0 }, { location: 1 }] });
    const done = await attempt(wb.id);
    expect(done).toMatchObject({ status: 'succeeded' });
    expect(done!.external_refs).toHaveLength(2);
    expect(fake.shop.order(fakeOrder.id).fulfillments).toHaveLength(2);
  });

  it('a hold retries with its reason; a refusal is dead with the platform’s message, announced, and can be retried by hand', async () => {
    const held = await importAndBuy({ onHold: true });
    expect(await attempt(held.wb.id)).toMatchObject({ status: 'retrying', last_error: { code: 'fulfillment_on_hold' } });

    const refused = await importAndBuy();
    // A proxy or the platform quoting our request back: the connection's own token never lands in the write-back.
    fake.fail('fulfillmentCreate', {
      kind: 'user_errors',
      errors: [{ field: ['fulfillment'], message: `Fulfillment order is not open (X-Shopify-Access-Token: ${fake.accessToken})` }],
    });
    const dead = await attempt(refused.wb.id);
    expect(dead).toMatchObject({ status: 'dead', last_error: { code: 'rejected', message: expect.stringContaining('not open') } });
    expect(dead!.last_error!.message).not.toContain(fake.accessToken);
    expect(dead!.last_error!.message).toContain('[REDACTED]');
    const events = await app.deps.db
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'shipment.write_back_failed')
      .where('workspace_id', '=', t.workspaceId)
      .execute();
    expect(events.map((e) => (e.data as { write_back_id: string }).write_back_id)).toEqual([refused.wb.id]);
    expect((await integration()).health).toBe('degraded');
    const retried = await app.inject({ method: 'POST', url: `/api/admin/write-backs/${refused.wb.id}/retry`, headers: t.adminHeaders });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toMatchObject({ status: 'succeeded' });
  });

  it('a revoked token makes write-backs wait (not dead) and expires the health; new credentials drain them', async () => {
    const { fakeOrder, wb } = await importAndBuy();
    fake.revokeToken(fake.accessToken);
    expect(await attempt(wb.id)).toMatchObject({ status: 'retrying', last_error: { code: 'unauthorized' } });
    expect((await integration()).health).toBe('token_expired');
    expect(await attempt(wb.id)).toMatchObject({ status: 'retrying' });
    expect(fake.shop.order(fakeOrder.id).fulfillments).toHaveLength(0);

    const token = (await (
      await fetch(`${fake.url}/admin/oauth/access_token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: fake.clientId, client_secret: fake.clientSecret, code: fake.issueCode() }),
      })
    ).json()) as { access_token: string };
    const put = await app.inject({
      method: 'PUT',
      url: `/api/admin/integrations/${integrationId}`,
      headers: t.adminHeaders,
      payload: { credentials: { access_token: token.access_token, client_secret: fake.clientSecret } },
    });
    expect(put.statusCode).toBe(200);
    const tested = await app.inject({ method: 'POST', url: `/api/admin/integrations/${integrationId}/test`, headers: t.adminHeaders });
    expect(tested.json().health).toBe('healthy');
    expect(await attempt(wb.id)).toMatchObject({ status: 'succeeded' });
    expect(fake.shop.order(fakeOrder.id).fulfillments).toHaveLength(1);
  });

  it('a void cancels the fulfillment at the store', async () => {
    const { fakeOrder, shipment, wb } = await importAndBuy();
    await attempt(wb.id);
    const voided = await app.inject({ method: 'POST', url: `/v1/shipments/${shipment.id}/void`, headers: t.headers });
    expect(voided.statusCode, voided.body).toBe(200);
    const cancel = await app.deps.db
      .selectFrom('write_backs')
      .selectAll()
      .where('shipment_id', '=', shipment.id)
      .where('action', '=', 'cancel_fulfillment')
      .executeTakeFirstOrThrow();
    expect(await attempt(cancel.id)).toMatchObject({ status: 'succeeded' });
    expect(fake.shop.order(fakeOrder.id).fulfillments.map((f) => f.status)).toEqual(['CANCELLED']);
  });

  it('the retry ladder: 1, 5, 15, 60 minutes, then every 4 hours until two days have passed', () => {
    const created = new Date('2026-11-01T00:00:00Z');
    expect([1, 2, 3, 4, 5].map((n) => nextDelaySeconds(n, created, created))).toEqual([60, 300, 900, 3600, 14_400]);
    expect(nextDelaySeconds(9, created, new Date('2026-11-02T21:00:00Z'))).toBeNull();
  });
});
