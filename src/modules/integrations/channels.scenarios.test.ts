import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getChannelPlatform } from '../../channels/registry.js';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import type { FakeStore } from '../../../test/helpers/fake-store.js';
import { startFakeShopify } from '../../../test/helpers/fake-shopify/index.js';
import { shopifyFakeStore } from '../../../test/helpers/fake-shopify/store.js';
import { startFakeWooCommerce, wooFakeStore } from '../../../test/helpers/fake-woocommerce/index.js';
import { bigcommerceFakeStore, startFakeBigcommerce } from '../../../test/helpers/fake-bigcommerce/index.js';

// The scenarios every store connector passes (docs/channels.md), run against each platform's
// fake, which checks every request against the platform's published description: connect and
// backfill, webhooks applied once, edits and cancellations, tracking written back once and
// undone on a void, a revoked key, stopped webhooks repaired by reconciliation, and a platform
// answering 429 and 5xx.

const PLATFORMS: { name: string; start: () => Promise<FakeStore> }[] = [
  { name: 'shopify', start: async () => shopifyFakeStore(await startFakeShopify({ shopDomain: 'acme.myshopify.com', restoreRate: 1000 })) },
  { name: 'woocommerce', start: async () => wooFakeStore(await startFakeWooCommerce()) },
  { name: 'bigcommerce', start: async () => bigcommerceFakeStore(await startFakeBigcommerce()) },
];

const shipFrom = { name: 'Warehouse', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };

/** A free loopback port: the service's public URL (where the fake delivers) must be known before it starts. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe.each(PLATFORMS)('a $name store', ({ name: platform, start }) => {
  let app: FastifyInstance;
  let store: FakeStore;
  let t: Tenant;
  let integrationId: string;

  beforeAll(async () => {
    store = await start();
    const port = await freePort();
    app = await buildTestApp({
      config: { encryptionKey: randomBytes(32).toString('base64'), channelAllowBaseUrlOverride: true, publicBaseUrl: `http://127.0.0.1:${port}` },
    });
    await app.listen({ host: '127.0.0.1', port });
    t = await createTenant(app);
    await app.inject({ method: 'PATCH', url: '/api/admin/workspace', headers: t.adminHeaders, payload: { origin_address: shipFrom } });
  });

  afterAll(async () => {
    expect(store.violations).toEqual([]);
    await store.close();
    await app.close();
  });

  const admin = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown) =>
    app.inject({ method, url, headers: t.adminHeaders, payload: payload as never });
  const scope = () => ({ workspace_id: t.workspaceId, environment: 'test' as const });
  const integration = () => app.deps.db.selectFrom('integrations').selectAll().where('id', '=', integrationId).executeTakeFirstOrThrow();

  async function runQueued() {
    const runs = await app.deps.db
      .selectFrom('channel_sync_runs')
      .select('id')
      .where('integration_id', '=', integrationId)
      .where('status', '=', 'queued')
      .orderBy('created_at')
      .execute();
    for (const { id } of runs) await app.services.channelSync.run({ ...scope(), run_id: id });
    return app.deps.db
      .selectFrom('channel_sync_runs')
      .selectAll()
      .where('id', 'in', runs.length ? runs.map((r) => r.id) : ['-'])
      .execute();
  }

  async function applyDeliveries() {
    const pending = await app.deps.db
      .selectFrom('channel_deliveries')
      .select('id')
      .where('integration_id', '=', integrationId)
      .where('status', '=', 'pending')
      .orderBy('received_at')
      .execute();
    for (const { id } of pending) await app.services.channelDeliveries.apply({ ...scope(), delivery_id: id });
  }

  const ordersOf = async () =>
    (await app.inject({ method: 'GET', url: `/v1/orders?source=${integrationId}&limit=100`, headers: t.headers })).json().data as {
      id: string;
      external_id: string;
      status: string;
      ship_to: { street1: string };
      parcel: { weight_oz: number };
    }[];
  const orderOf = async (externalId: string) => (await ordersOf()).filter((o) => o.external_id === externalId);
  const attempt = (id: string) => app.services.channelWriteBacks.attempt({ ...scope(), write_back_id: id });

  async function buyLabel(externalId: string) {
    const [order] = await orderOf(externalId);
    // WooCommerce and BigCommerce orders carry no line weights: the packer weighs the parcel.
    if (!(order.parcel.weight_oz > 0)) await admin('PATCH', `/api/admin/orders/${order.id}`, { parcel: { weight_oz: 24 } });
    const buy = await app.inject({ method: 'POST', url: '/v1/shipments', headers: t.headers, payload: { order_id: order.id, service_code: 'ups_ground' } });
    expect(buy.statusCode, buy.body).toBe(201);
    const wb = await app.deps.db.selectFrom('write_backs').selectAll().where('shipment_id', '=', buy.json().id).executeTakeFirstOrThrow();
    return { shipment: buy.json() as { id: string; order_id: string; tracking_number: string }, wb };
  }

  it('connects: subscriptions at our URL for every topic, and the backfill imports what the defaults import', async () => {
    const importable = store.seedOrder();
    const skipped = store.seedOrder({ importable: false });
    const res = await admin('POST', '/api/admin/integrations', { name: `Acme ${platform}`, platform, base_url: store.url, ...store.connect });
    expect(res.statusCode, res.body).toBe(201);
    integrationId = res.json().id;
    expect(JSON.stringify(res.json())).not.toContain(Object.values(store.connect.credentials).find((v) => v.length > 8));
    await app.services.channelSync.activate({ ...scope(), integration_id: integrationId });

    const url = `${app.deps.config.publicBaseUrl}/api/integrations/${integrationId}/webhooks`;
    const subs = store.webhooks();
    expect(subs.map((s) => s.topic).sort()).toEqual([...getChannelPlatform(platform)!.webhookTopics].sort());
    expect(subs.every((s) => s.url === url && s.active)).toBe(true);

    const [run] = await runQueued();
    expect(run).toMatchObject({ kind: 'backfill', status: 'completed' });
    expect((await ordersOf()).map((o) => o.external_id)).toEqual([importable]);
    expect(await orderOf(skipped)).toEqual([]);
  });

  it('a new order arrives by webhook once; the platform’s retry of the same delivery is a duplicate', async () => {
    const id = store.seedOrder({ lines: 2 });
    expect(await store.emit(id, 'created')).toEqual(expect.arrayContaining([200]));
    await applyDeliveries();
    expect(await store.redeliverLast()).toBe(200);
    await applyDeliveries();
    const [order] = await orderOf(id);
    expect(await orderOf(id)).toHaveLength(1);
    const history = (await admin('GET', `/api/admin/orders/${order.id}/sync-history`)).json().data as { decision: string }[];
    expect(history.map((e) => e.decision)).toContain('created');
    expect(history.map((e) => e.decision)).toContain('duplicate');
    expect(history.filter((e) => e.decision === 'created')).toHaveLength(1);
  });

  it('an edit follows the store; a cancellation cancels the open order', async () => {
    const id = store.seedOrder();
    await store.emit(id, 'created');
    await applyDeliveries();
    store.editAddress(id, '9 Elm St');
    await store.emit(id, 'updated');
    await applyDeliveries();
    expect((await orderOf(id))[0].ship_to.street1).toBe('9 Elm St');

    store.cancelOrder(id);
    await store.emit(id, 'cancelled');
    await applyDeliveries();
    expect((await orderOf(id))[0].status).toBe('cancelled');
  });

  const decisions = async (externalId: string) =>
    (
      await app.deps.db
        .selectFrom('order_sync_entries')
        .select('decision')
        .where('integration_id', '=', integrationId)
        .where('external_id', '=', externalId)
        .orderBy('id')
        .execute()
    ).map((e) => e.decision);

  it('an update delivered after a newer one changes nothing: the newer state wins', async () => {
    const id = store.seedOrder();
    await store.emit(id, 'created');
    await applyDeliveries();
    store.editAddress(id, '1 Old Rd');
    const late = store.holdEmit(id, 'updated');
    store.editAddress(id, '2 New Rd');
    await store.emit(id, 'updated');
    await applyDeliveries();
    expect((await orderOf(id))[0].ship_to.street1).toBe('2 New Rd');

    const statuses = await late();
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200)).toBe(true);
    await applyDeliveries();
    expect((await orderOf(id))[0].ship_to.street1).toBe('2 New Rd');
    // Taken as a delivery of its own (not a retry) and found older than what was applied.
    expect((await decisions(id)).slice(-1)).toEqual(['stale']);
  });

  it('a cancellation, then a late "created": the order is not brought back', async () => {
    // Imported, then cancelled: the late creation is older than the cancellation.
    const imported = store.seedOrder();
    await store.emit(imported, 'created');
    await applyDeliveries();
    const lateImported = store.holdEmit(imported, 'created');
    store.cancelOrder(imported);
    await store.emit(imported, 'cancelled');
    await applyDeliveries();
    expect(await lateImported()).toEqual(expect.arrayContaining([200]));
    await applyDeliveries();
    expect((await orderOf(imported)).map((o) => o.status)).toEqual(['cancelled']);

    // Never imported: the platform's queue sends the cancellation before the creation.
    const overtaken = store.seedOrder();
    const lateCreated = store.holdEmit(overtaken, 'created');
    store.cancelOrder(overtaken);
    await store.emit(overtaken, 'cancelled');
    await applyDeliveries();
    expect(await orderOf(overtaken)).toEqual([]);
    expect(await lateCreated()).toEqual(expect.arrayContaining([200]));
    await applyDeliveries();
    expect(await orderOf(overtaken)).toEqual([]);
    expect(await decisions(overtaken)).not.toContain('created');
    expect(store.orderStatus(overtaken)).toBe(store.orderStatus(imported));
  });

  it('a label writes its tracking back once, even when the platform’s answer is lost; a void undoes it', async () => {
    const id = store.seedOrder();
    await store.emit(id, 'created');
    await applyDeliveries();
    const { shipment, wb } = await buyLabel(id);
    expect(shipment).toMatchObject({ write_back: { id: wb.id, action: 'fulfill', status: 'pending', attempts: 0 } });
    store.dropNextWriteAnswer();
    expect(await attempt(wb.id)).toMatchObject({ status: 'retrying', attempts: 1 });
    expect(await attempt(wb.id)).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(store.shippedTracking(id)).toEqual([shipment.tracking_number]);
    const read = (await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}`, headers: t.headers })).json();
    expect(read.write_back).toMatchObject({ id: wb.id, status: 'succeeded', attempts: 2, external_ref: expect.any(String), last_error: null });

    const voided = await app.inject({ method: 'POST', url: `/v1/shipments/${shipment.id}/void`, headers: t.headers });
    expect(voided.statusCode, voided.body).toBe(200);
    const cancel = await app.deps.db
      .selectFrom('write_backs')
      .selectAll()
      .where('shipment_id', '=', shipment.id)
      .where('action', '=', 'cancel_fulfillment')
      .executeTakeFirstOrThrow();
    expect(await attempt(cancel.id)).toMatchObject({ status: 'succeeded' });
    expect(store.shippedTracking(id)).toEqual([]);
    const listed = (await app.inject({ method: 'GET', url: `/v1/shipments?order_id=${shipment.order_id}`, headers: t.headers })).json().data;
    expect(listed.map((s: { write_back: unknown }) => s.write_back)).toEqual([
      expect.objectContaining({ id: cancel.id, action: 'cancel_fulfillment', status: 'succeeded' }),
    ]);
  });

  it('an order whose lines carry no weight: a purchase is 422 naming parcel until the parcel is set', async () => {
    const id = store.seedOrder({ grams: null });
    await store.emit(id, 'created');
    await applyDeliveries();
    const [order] = await orderOf(id);
    expect(order.parcel.weight_oz).toBe(0);
    const refused = await app.inject({ method: 'POST', url: '/v1/shipments', headers: t.headers, payload: { order_id: order.id, service_code: 'ups_ground' } });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'parcel' }] });
    expect((await admin('PATCH', `/api/admin/orders/${order.id}`, { parcel: { weight_oz: 20 } })).statusCode).toBe(200);
    const bought = await app.inject({ method: 'POST', url: '/v1/shipments', headers: t.headers, payload: { order_id: order.id, service_code: 'ups_ground' } });
    expect(bought.statusCode, bought.body).toBe(201);
    expect(bought.json().parcel.weight_oz).toBe(20);
  });

  it('revoked credentials: the write-back waits and the health expires once; new credentials drain it', async () => {
    const id = store.seedOrder();
    await store.emit(id, 'created');
    await applyDeliveries();
    const { shipment, wb } = await buyLabel(id);
    store.revokeCredentials();
    expect(await attempt(wb.id)).toMatchObject({ status: 'retrying', last_error: { code: 'unauthorized' } });
    expect(await attempt(wb.id)).toMatchObject({ status: 'retrying' });
    expect((await integration()).health).toBe('token_expired');
    const announced = await app.deps.db
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'integration.health_changed')
      .where('workspace_id', '=', t.workspaceId)
      .execute();
    expect(announced.filter((e) => (e.data as { health: string }).health === 'token_expired')).toHaveLength(1);

    const put = await admin('PUT', `/api/admin/integrations/${integrationId}`, { credentials: store.freshCredentials() });
    expect(put.statusCode, put.body).toBe(200);
    expect((await admin('POST', `/api/admin/integrations/${integrationId}/test`)).json().health).toBe('healthy');
    expect(await attempt(wb.id)).toMatchObject({ status: 'succeeded' });
    expect(store.shippedTracking(id)).toEqual([shipment.tracking_number]);
  });

  it('reconciliation repairs the webhooks the platform stopped, reads what they missed, and says so in health', async () => {
    store.breakWebhooks();
    const missed = store.seedOrder();
    await app.services.channelSync.queueRun(await integration(), 'reconcile', null);
    const [run] = await runQueued();
    expect(run).toMatchObject({ kind: 'reconcile', status: 'completed' });
    expect(
      store
        .webhooks()
        .filter((s) => s.active)
        .map((s) => s.topic)
        .sort(),
    ).toEqual([...getChannelPlatform(platform)!.webhookTopics].sort());
    expect(await orderOf(missed)).toHaveLength(1);
    expect((await integration()).health).toBe('degraded');
  });

  it('a platform answering 503 and 429 while it is read: the sync waits, retries and completes', async () => {
    const id = store.seedOrder();
    store.failNext(503);
    store.failNext(429);
    const res = await admin('POST', `/api/admin/integrations/${integrationId}/sync`, {});
    expect(res.statusCode, res.body).toBe(202);
    const [run] = await runQueued();
    expect(run).toMatchObject({ status: 'completed' });
    expect(await orderOf(id)).toHaveLength(1);
  });

  it('the exchange log shows each call with its outcome and no secret; /metrics counts them per platform', async () => {
    const wanted = ['success', 'server_error', 'throttled', 'unauthorized'];
    let logs: { operation: string; outcome: string; status: number | null }[] = [];
    // The log is written in batches a moment after each call: wait until every outcome is in.
    for (let i = 0; i < 50 && !wanted.every((o) => logs.some((l) => l.outcome === o)); i++) {
      await new Promise((r) => setTimeout(r, 100));
      const res = await admin('GET', `/api/admin/integrations/${integrationId}/logs`);
      expect(res.statusCode, res.body).toBe(200);
      logs = res.json().data;
    }
    expect(logs.length).toBeGreaterThan(5);
    expect(logs.map((l) => l.outcome)).toEqual(expect.arrayContaining(wanted));
    const text = JSON.stringify(logs);
    for (const secret of [...Object.values(store.connect.credentials)].filter((v) => v.length >= 8)) expect(text).not.toContain(secret);
    const metrics = await app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(new RegExp(`channel_requests_total\\{platform="${platform}",operation="[a-z_]+",outcome="success"\\} \\d+`));
    expect(metrics.body).toMatch(new RegExp(`channel_sync_lag_seconds\\{platform="${platform}"\\} \\d+`));
    const other = await createTenant(app);
    expect((await app.inject({ method: 'GET', url: `/api/admin/integrations/${integrationId}/logs`, headers: other.adminHeaders })).statusCode).toBe(404);
  });
});
