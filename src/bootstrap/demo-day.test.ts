import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers/app.js';
import { registerBatchJobs } from '../modules/batches/index.js';
import { registerManifestJobs } from '../modules/manifests/index.js';
import { seedDemoIfEmpty } from './seed.js';
import { seedDemoDay } from './demo-day.js';

// The first start's demo workspace on a fresh database: every part of the day is
// read back through the API with the demo key, as a newcomer's dashboard reads it.

let app: FastifyInstance;
let headers: Record<string, string>;
let adminHeaders: Record<string, string>;
let seedMs: number;

beforeAll(async () => {
  app = await buildTestApp();
  await registerBatchJobs(app.deps, app.services.batches);
  await registerManifestJobs(app.deps, app.services.manifests);
  await app.deps.jobs.start();
  const seed = await seedDemoIfEmpty(app);
  expect(seed).toBeDefined();
  const started = performance.now();
  await seedDemoDay(app, seed!);
  seedMs = performance.now() - started;
  headers = { authorization: `Bearer ${seed!.apiKey}`, 'x-service-workspace': seed!.workspaceId };
  const login = await app.identity.accounts.login({ email: seed!.email, password: seed!.password }, {});
  adminHeaders = { authorization: `Bearer ${login.token}`, 'x-service-workspace': seed!.workspaceId, 'x-service-environment': 'test' };
});

const get = async (url: string, h = headers) => {
  const res = await app.inject({ method: 'GET', url, headers: h });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
};

/** Polls a read until `done` says so (the batch and manifest workers run in this process). */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 300 && !done(value); i++) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}

describe('the demo workspace', () => {
  it('holds orders in every state, one archived', async () => {
    const orders = (await get('/v1/orders?limit=100')).data as { status: string }[];
    const count = (s: string) => orders.filter((o) => o.status === s).length;
    expect(orders.length).toBeGreaterThanOrEqual(24);
    for (const status of ['awaiting_fulfillment', 'processing', 'shipped', 'delivered', 'cancelled']) expect(count(status), status).toBeGreaterThan(0);
    const archived = (await get('/api/admin/orders?archived=true', adminHeaders)).data as { status: string; archived: boolean }[];
    expect(archived).toHaveLength(1);
    expect(archived[0]).toMatchObject({ archived: true, status: 'cancelled' });
  });

  it('has labels of the four carriers at every tracking stage, one exception', async () => {
    const shipments = (await get('/v1/shipments?limit=100')).data as { carrier: string; tracking_status: string; status: string; is_return?: boolean }[];
    expect(new Set(shipments.map((s) => s.carrier))).toEqual(new Set(['usps', 'ups', 'fedex', 'dhl_express']));
    const stages = new Set(shipments.filter((s) => s.status !== 'voided').map((s) => s.tracking_status));
    for (const stage of ['pre_transit', 'in_transit', 'out_for_delivery', 'delivered', 'failure']) expect(stages, stage).toContain(stage);
    expect(shipments.filter((s) => s.tracking_status === 'failure')).toHaveLength(1);
  });

  it('has a US → GB shipment of two items with its customs documents', async () => {
    const shipments = (await get('/v1/shipments?limit=100')).data as { id: string; ship_to: { country: string }; customs: { items: unknown[] } | null }[];
    const gb = shipments.find((s) => s.ship_to.country === 'GB');
    expect(gb).toBeDefined();
    expect(gb!.customs?.items).toHaveLength(2);
    const docs = (await get(`/v1/shipments/${gb!.id}/documents`)).data as { type: string }[];
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.map((d) => d.type)).toContain('commercial_invoice');
  });

  it('has a pay-on-scan return and a voided label with its refund', async () => {
    const shipments = (await get('/v1/shipments?limit=100')).data as { id: string; is_return: boolean; charge?: string; return_of?: string; status: string }[];
    const returns = shipments.filter((s) => s.is_return);
    expect(returns).toHaveLength(1);
    expect(returns[0]).toMatchObject({ charge: 'on_scan', billing_status: 'pending' });
    const voided = shipments.filter((s) => s.status === 'voided');
    expect(voided).toHaveLength(1);
    const refunds = (await get('/v1/refunds')).data as { shipment_id?: string; id?: string; status: string }[];
    expect(refunds).toHaveLength(1);
    expect(JSON.stringify(refunds[0])).toContain(voided[0].id);
  });

  it('has a ready manifest, a scheduled pickup and a completed batch', async () => {
    const manifests = await until(
      () => get('/v1/manifests'),
      (m) => m.data.every((x: { status: string }) => x.status !== 'pending'),
    );
    expect(manifests.data).toHaveLength(1);
    expect(manifests.data[0]).toMatchObject({ carrier: 'usps', status: 'ready', rejected: [] });
    const pickups = (await get('/v1/pickups')).data;
    expect(pickups).toHaveLength(1);
    expect(pickups[0]).toMatchObject({ carrier: 'ups', status: 'scheduled' });
    const batches = await until(
      () => get('/v1/batches'),
      (b) => b.data.every((x: { status: string }) => x.status === 'completed' || x.status === 'failed' || x.status === 'cancelled'),
    );
    expect(batches.data).toHaveLength(1);
    expect(batches.data[0]).toMatchObject({ type: 'purchase_labels', status: 'completed' });
  });

  it('has a webhook endpoint with deliveries, one dead-lettered', async () => {
    const endpoints = (await get('/v1/webhooks')).data as { id: string; url: string }[];
    expect(endpoints).toHaveLength(1);
    expect(endpoints[0].url).toBe('http://127.0.0.1:9/demo-webhooks');
    const deliveries = (await get(`/v1/webhooks/${endpoints[0].id}/deliveries?limit=100`)).data as { status: string }[];
    expect(deliveries.length).toBeGreaterThan(5);
    expect(deliveries.filter((d) => d.status === 'dead')).toHaveLength(1);
  });

  it('is quick, leaves the demo on the starter plan, and is not made twice', async () => {
    expect(seedMs).toBeLessThan(30_000);
    const ws = await get('/api/admin/workspace', adminHeaders);
    expect(ws.plan).toBe('starter');
    expect(await seedDemoIfEmpty(app)).toBeUndefined();
  });
});

describe('the demo webhook endpoint where private targets are allowed (WEBHOOK_ALLOW_PRIVATE_TARGETS)', () => {
  it('is registered through the API with the refusing loopback URL', async () => {
    const other = await buildTestApp({ config: { webhookAllowPrivateTargets: true } });
    const seed = (await seedDemoIfEmpty(other))!;
    await seedDemoDay(other, seed);
    const res = await other.inject({
      method: 'GET',
      url: '/v1/webhooks',
      headers: { authorization: `Bearer ${seed.apiKey}`, 'x-service-workspace': seed.workspaceId },
    });
    expect(res.json().data.map((e: { url: string }) => e.url)).toEqual(['http://127.0.0.1:9/demo-webhooks']);
  });
});
