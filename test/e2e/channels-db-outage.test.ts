import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../helpers/built-service.js';
import { emptyPostgresDatabase, healthy, httpApi, killAllServiceProcesses, startServiceProcess, until, waitForLog, type HttpApi } from '../helpers/cluster.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import type { FakeStore } from '../helpers/fake-store.js';
import { startFakeShopify } from '../helpers/fake-shopify/index.js';
import { shopifyFakeStore } from '../helpers/fake-shopify/store.js';
import { startFakeWooCommerce, wooFakeStore } from '../helpers/fake-woocommerce/index.js';
import { bigcommerceFakeStore, startFakeBigcommerce } from '../helpers/fake-bigcommerce/index.js';
import { getChannelPlatform } from '../../src/channels/registry.js';

// The channel jobs through a PostgreSQL outage (skipped on the PGlite run; test/e2e/db-outage.test.ts
// does the same for the other jobs). One API process (RUN_WORKERS=0, the webhook receiver) and one
// worker (apply, sync, write-back jobs) reach PostgreSQL through a TCP proxy; one store of each
// platform is connected. Then, for each store: a label's write-back is applied at the store and
// its answer arrives while the database is cut (the outcome must still be recorded, not left
// claimed), a webhook stored just before the cut is applied by a job that may meet the cut, and a
// new order's webhook arrives during the cut (answered 503 with Retry-After: docs/channels.md, the
// platform retries). Once the database is back: every order exactly once ('created' once in its
// history), the write-backs succeeded with the tracking shown once at the store, and a manual sync
// completes and changes nothing.

const target = inject('testDb');
afterAll(() => killAllServiceProcesses());

const CUT_MS = 6_000;
/** The store answers the label's write this long after applying it: the cut starts in between. */
const WRITE_ANSWER_DELAY_MS = 3_000;
const shipFrom = { name: 'Warehouse', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };

const PLATFORMS: { platform: FakeStore['platform']; start: () => Promise<FakeStore> }[] = [
  { platform: 'shopify', start: async () => shopifyFakeStore(await startFakeShopify({ shopDomain: 'outage.myshopify.com', restoreRate: 1000 })) },
  { platform: 'woocommerce', start: async () => wooFakeStore(await startFakeWooCommerce()) },
  { platform: 'bigcommerce', start: async () => bigcommerceFakeStore(await startFakeBigcommerce()) },
];

interface Connected {
  platform: string;
  store: FakeStore;
  id: string;
  /** Label bought before the cut; its write-back's answer comes during it. */
  labelled: string;
  tracking: string;
  shipmentId: string;
  /** Its `created` delivery stored just before the cut. */
  before: string;
  /** Its `created` delivery sent during the cut. */
  during: string;
}

describe.runIf(target.engine === 'postgres')('channel jobs through a PostgreSQL outage', () => {
  it('loses no delivery, applies each order once and records every write-back once the database is back', { timeout: 600_000 }, async () => {
    if (target.engine !== 'postgres') return;
    const directUrl = await emptyPostgresDatabase(target, 'chblip');
    const proxy = await startTcpProxy({ host: new URL(directUrl).hostname, port: Number(new URL(directUrl).port || 5432) });
    const viaProxy = new URL(directUrl);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: viaProxy.toString(),
      NODE_ENV: 'development',
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      CHANNEL_ALLOW_BASE_URL_OVERRIDE: '1',
      PUBLIC_BASE_URL: base,
      SUPER_ADMIN_EMAIL: 'root@chblip.test',
      SUPER_ADMIN_PASSWORD: 'chblip-test-password',
    };
    const api = startServiceProcess('server', { ...env, PORT: String(port), RUN_WORKERS: '0' });
    expect(await healthy(base, api), api.output()).toBe(true);
    const worker = startServiceProcess('worker', { ...env, LOG_LEVEL: 'info' });
    expect(await waitForLog(worker, 'worker started'), worker.output()).toBe(true);
    const logs = () => `--- api ---\n${api.output().slice(-3000)}\n--- worker ---\n${worker.output().slice(-3000)}`;
    const a: HttpApi = httpApi(base, 'api', []);
    const stores: FakeStore[] = [];

    try {
      const root = {
        authorization: `Bearer ${(await a.call('POST', '/api/auth/login', {}, { email: env.SUPER_ADMIN_EMAIL, password: env.SUPER_ADMIN_PASSWORD })).json.token}`,
      };
      const reg = await a.call(
        'POST',
        '/api/auth/register',
        {},
        { email: 'ops@chblip.test', password: 'long enough pw', name: 'Ops', workspace_name: 'Channel blip' },
      );
      const workspaceId: string = reg.json.workspace.id;
      expect((await a.call('POST', `/api/super-admin/accounts/${reg.json.account.id}/approve`, root)).status).toBe(200);
      const session = (await a.call('POST', '/api/auth/login', {}, { email: 'ops@chblip.test', password: 'long enough pw' })).json.token;
      const admin = { authorization: `Bearer ${session}`, 'x-service-workspace': workspaceId, 'x-service-environment': 'test' };
      const v1 = {
        authorization: `Bearer ${(await a.call('POST', '/api/admin/api-keys', admin, { name: 'main', environment: 'test' })).json.secret}`,
        'x-service-workspace': workspaceId,
      };
      expect((await a.call('PATCH', `/api/super-admin/workspaces/${workspaceId}`, root, { plan: 'enterprise', burst_per_minute: 1_000_000 })).status).toBe(200);
      expect((await a.call('PATCH', '/api/admin/workspace', admin, { origin_address: shipFrom })).status).toBe(200);

      const ordersOf = async (integrationId: string, externalId: string) =>
        (await a.call('GET', `/v1/orders?source=${integrationId}&external_id=${externalId}`, v1)).json.data as {
          id: string;
          status: string;
          parcel: { weight_oz: number };
        }[];
      const imported = (integrationId: string, externalId: string) => async () => (await ordersOf(integrationId, externalId))[0];

      // ---- connected, an order imported and labelled, its write-back answered late ----
      const connected: Connected[] = [];
      for (const { platform, start } of PLATFORMS) {
        const store = await start();
        stores.push(store);
        const created = await a.call('POST', '/api/admin/integrations', admin, { name: `Blip ${platform}`, platform, base_url: store.url, ...store.connect });
        expect(created.status, JSON.stringify(created.json)).toBe(201);
        const id: string = created.json.id;
        const topics = getChannelPlatform(platform)!.webhookTopics.length;
        await until(
          async () => store.webhooks().filter((s) => s.active && s.url === `${base}/api/integrations/${id}/webhooks`).length === topics,
          `${platform} webhooks`,
          60_000,
          logs,
          100,
        );
        await until(
          async () =>
            (await a.call('GET', `/api/admin/integrations/${id}/sync-runs`, admin)).json.data.some((r: { status: string }) => r.status === 'completed'),
          `${platform} backfill`,
          60_000,
          logs,
          100,
        );

        const labelled = store.seedOrder();
        expect(await store.emit(labelled, 'created')).toEqual(expect.arrayContaining([200]));
        const order = await until(imported(id, labelled), `${platform} order imported`, 30_000, logs, 100);
        if (!(order.parcel.weight_oz > 0))
          expect((await a.call('PATCH', `/api/admin/orders/${order.id}`, admin, { parcel: { weight_oz: 24 } })).status).toBe(200);
        store.delayNextWriteAnswer(WRITE_ANSWER_DELAY_MS);
        const label = await a.call('POST', '/v1/shipments', v1, { order_id: order.id, service_code: 'usps_ground_advantage' });
        expect(label.status, JSON.stringify(label.json)).toBe(201);
        connected.push({
          platform,
          store,
          id,
          labelled,
          tracking: label.json.tracking_number,
          shipmentId: label.json.id,
          before: store.seedOrder(),
          during: store.seedOrder(),
        });
      }
      // The cut starts once every store has applied its write and before any answer came back.
      const writtenAt = Date.now();
      for (const c of connected) await until(async () => c.store.shippedTracking(c.labelled).length > 0, `${c.platform} write applied`, 20_000, logs, 20);
      // Stored by the receiver just before the cut: the apply job may meet the cut.
      for (const c of connected) expect(await c.store.emit(c.before, 'created')).toEqual(expect.arrayContaining([200]));
      expect(Date.now() - writtenAt, 'the writes must still be waiting for their answers when the cut starts').toBeLessThan(WRITE_ANSWER_DELAY_MS);

      // ---- the cut ----
      proxy.cut();
      const cutAt = Date.now();
      const during: { platform: string; statuses: number[] }[] = [];
      for (const c of connected) during.push({ platform: c.platform, statuses: await c.store.emit(c.during, 'created') });
      const probe = await fetch(`${base}/api/integrations/${connected[0].id}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      const probeBody = await probe.json();
      await new Promise((r) => setTimeout(r, Math.max(0, CUT_MS - (Date.now() - cutAt))));
      proxy.restore();

      expect(api.child.exitCode, logs()).toBeNull();
      expect(worker.child.exitCode, logs()).toBeNull();
      // The receiver cannot store a delivery: it refuses it so the platform sends it again (never a 200 for a delivery not kept).
      expect(
        during.filter((d) => d.statuses.length === 0 || d.statuses.some((s) => s !== 503)),
        logs(),
      ).toEqual([]);
      expect(probe.status).toBe(503);
      expect(probe.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(probeBody).toMatchObject({ code: 'service_unavailable', message: expect.any(String), details: [], request_id: expect.any(String) });

      // ---- the platforms retry what was refused; everything finishes exactly once ----
      await until(async () => (await fetch(`${base}/health`)).status === 200, 'health after the restore', 30_000, logs, 200);
      for (const c of connected) expect(await c.store.redeliverLast(), `${c.platform} retry of the refused delivery`).toBe(200);
      for (const c of connected) {
        await until(imported(c.id, c.before), `${c.platform}: the delivery stored before the cut applied`, 60_000, logs);
        await until(imported(c.id, c.during), `${c.platform}: the delivery refused during the cut applied on the retry`, 60_000, logs);
        await until(
          async () => (await a.call('GET', `/api/admin/write-backs?shipment_id=${c.shipmentId}`, admin)).json.data[0]?.status === 'succeeded',
          `${c.platform}: the write-back answered during the cut recorded as succeeded`,
          60_000,
          logs,
          500,
        );
        const sync = await a.call('POST', `/api/admin/integrations/${c.id}/sync`, admin, {});
        expect(sync.status, JSON.stringify(sync.json)).toBe(202);
      }
      for (const c of connected) {
        await until(
          async () =>
            (await a.call('GET', `/api/admin/integrations/${c.id}/sync-runs`, admin)).json.data.every(
              (r: { status: string }) => !['queued', 'running'].includes(r.status),
            ),
          `${c.platform} sync runs finished`,
          60_000,
          logs,
          250,
        );
      }

      const direct = new pg.Client({ connectionString: directUrl });
      await direct.connect();
      try {
        for (const c of connected) {
          expect(c.store.shippedTracking(c.labelled), c.platform).toEqual([c.tracking]);
          for (const externalId of [c.labelled, c.before, c.during]) {
            expect(await ordersOf(c.id, externalId), `${c.platform} order ${externalId}`).toHaveLength(1);
            const { rows } = await direct.query<{ n: string }>(
              `select count(*) as n from order_sync_entries where integration_id = $1 and external_id = $2 and decision = 'created'`,
              [c.id, externalId],
            );
            expect(Number(rows[0].n), `${c.platform} order ${externalId} created once`).toBe(1);
          }
          const runs = (await a.call('GET', `/api/admin/integrations/${c.id}/sync-runs`, admin)).json.data as { status: string }[];
          expect(
            runs.map((r) => r.status).filter((s) => s !== 'completed'),
            c.platform,
          ).toEqual([]);
          const wbs = (
            await direct.query<{ status: string; claimed_until: Date | null }>(`select status, claimed_until from write_backs where shipment_id = $1`, [
              c.shipmentId,
            ])
          ).rows;
          expect(wbs).toEqual([{ status: 'succeeded', claimed_until: null }]);
          expect(c.store.violations, c.platform).toEqual([]);
        }
        const stuck = await direct.query(`select id, status from channel_deliveries where workspace_id = $1 and status <> 'applied'`, [workspaceId]);
        expect(stuck.rows).toEqual([]);
      } finally {
        await direct.end();
      }
    } finally {
      await Promise.all([api.stop(), worker.stop()]);
      for (const s of stores) await s.close();
      await proxy.close();
    }
  });
});
