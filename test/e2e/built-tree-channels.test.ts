import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, freePort, onboardClient, startBuiltService, type BuiltClient, type BuiltService } from '../helpers/built-service.js';
import type { FakeStore } from '../helpers/fake-store.js';
import { startFakeWooCommerce, wooFakeStore } from '../helpers/fake-woocommerce/index.js';
import { bigcommerceFakeStore, startFakeBigcommerce } from '../helpers/fake-bigcommerce/index.js';
import { getChannelPlatform } from '../../src/channels/registry.js';

// The WooCommerce and BigCommerce connectors as users run them: the bundled tree (`npm start`),
// one process for both platforms, each store a fake that checks every request against the
// platform's published description. Through the HTTP API only: connect (the activation job
// registers the webhooks at PUBLIC_BASE_URL, here the service's own URL, and backfills), a new
// order arrives by a signed webhook the fake sends, a label is bought, and the write-back job
// shows the tracking on the store's order (docs/channels.md). Shopify's flow is in built-tree.test.ts.

const PLATFORMS: { platform: 'woocommerce' | 'bigcommerce'; start: () => Promise<FakeStore> }[] = [
  { platform: 'woocommerce', start: async () => wooFakeStore(await startFakeWooCommerce()) },
  { platform: 'bigcommerce', start: async () => bigcommerceFakeStore(await startFakeBigcommerce()) },
];

const sanFrancisco = { name: 'Warehouse', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };

let svc: BuiltService;
let c: BuiltClient;

beforeAll(async () => {
  const port = await freePort();
  svc = await startBuiltService({
    port,
    env: { CARRIER_ALLOW_BASE_URL_OVERRIDE: '1', CHANNEL_ALLOW_BASE_URL_OVERRIDE: '1', PUBLIC_BASE_URL: `http://127.0.0.1:${port}` },
  });
  c = await onboardClient(svc);
  expectStatus(svc, await svc.request('PATCH', '/api/admin/workspace', { headers: c.admin, json: { origin_address: sanFrancisco } }), 200, 'ship-from');
}, 320_000);

afterAll(async () => {
  await svc?.stop();
}, 30_000);

/** Polls until `read` gives a value (the jobs run in the process, a moment after the call). */
async function until<T>(what: string, read: () => Promise<T | undefined | false> | T | undefined | false): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await read();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not happen within 20 s\n${svc.output().slice(-3000)}`);
}

describe.each(PLATFORMS)('the built tree with a $platform store', ({ platform, start }) => {
  it('connects, imports a signed webhook’s order, and writes the label’s tracking back to the store', async () => {
    const store = await start();
    try {
      const backfilled = store.seedOrder();
      const created = await svc.request('POST', '/api/admin/integrations', {
        headers: c.admin,
        json: { name: `Built ${platform}`, platform, base_url: store.url, ...store.connect },
      });
      expectStatus(svc, created, 201, `connect ${platform}`);
      const id = created.body.id as string;
      const hook = `${svc.baseUrl}/api/integrations/${id}/webhooks`;
      const topics = [...getChannelPlatform(platform)!.webhookTopics].sort();
      await until('webhook registration', () => {
        const subs = store.webhooks().filter((s) => s.active && s.url === hook);
        return (
          subs.length === topics.length &&
          subs
            .map((s) => s.topic)
            .sort()
            .join() === topics.join()
        );
      });
      const orderOf = (externalId: string) => async () =>
        (await svc.request('GET', `/v1/orders?source=${id}&external_id=${externalId}`, { headers: c.v1 })).body.data[0] as
          { id: string; status: string; parcel: { weight_oz: number } } | undefined;
      await until('backfill', orderOf(backfilled));

      const fresh = store.seedOrder();
      const statuses = await store.emit(fresh, 'created');
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.every((s) => s === 200)).toBe(true);
      const order = await until('webhook import', orderOf(fresh));
      const history = await svc.request('GET', `/api/admin/orders/${order.id}/sync-history`, { headers: c.admin });
      expectStatus(svc, history, 200, 'sync history');
      expect(history.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ source: 'webhook', decision: 'created' })]));

      // WooCommerce orders carry no line weights: the packer weighs the parcel.
      if (!(order.parcel.weight_oz > 0))
        expectStatus(svc, await svc.request('PATCH', `/api/admin/orders/${order.id}`, { headers: c.admin, json: { parcel: { weight_oz: 24 } } }), 200, 'weigh');
      const label = await svc.request('POST', '/v1/shipments', { headers: c.v1, json: { order_id: order.id, service_code: 'usps_ground_advantage' } });
      expectStatus(svc, label, 201, `label for a ${platform} order`);
      await until('tracking at the store', () => store.shippedTracking(fresh).length > 0);
      expect(store.shippedTracking(fresh)).toEqual([label.body.tracking_number]);
      const wb = await until('write-back succeeded', async () => {
        const res = await svc.request('GET', `/api/admin/write-backs?shipment_id=${label.body.id}`, { headers: c.admin });
        return res.body.data[0]?.status === 'succeeded' && (res.body.data[0] as { attempts: number });
      });
      expect(wb.attempts).toBe(1);
      expect(store.violations).toEqual([]);
    } finally {
      await store.close();
    }
  }, 60_000);
});
