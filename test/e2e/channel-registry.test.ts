import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addChannelPlatforms, CHANNEL_PLATFORMS } from '../../src/channels/registry.js';
import { freePort } from '../helpers/built-service.js';

/**
 * A fourth store platform is one folder (docs/channels.md, "Adding a platform"):
 * `acme_shop/index.ts`, written here into a folder of its own, speaks WooCommerce's protocol (its
 * channel borrowed, as the fifth carrier borrows UPS's rate card) under its own name, labels and
 * default statuses. Added to the registry before the service's modules load (the platform enum
 * of the API is read once), it is listed for the dashboard's form, connected against the
 * WooCommerce fake, and imports an order through the same receiver and apply step.
 */
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const ACME_INDEX = `
import { platform as woo } from '${SRC}/channels/woocommerce/index.js';

export const platform = {
  ...woo,
  slug: 'acme_shop',
  name: 'Acme Shop',
  storeRefLabel: 'Acme site address',
  importStatusesHint: 'Acme order statuses, comma separated',
  defaultImportStatuses: ['processing', 'on-hold'],
};
`;

const dir = await mkdtemp(join(tmpdir(), 'channels-fourth-'));
await mkdir(join(dir, 'acme_shop'));
await writeFile(join(dir, 'acme_shop', 'index.ts'), ACME_INDEX);
// A folder whose export does not match its name is skipped with a warning, not loaded.
await mkdir(join(dir, 'misnamed'));
await writeFile(join(dir, 'misnamed', 'index.ts'), ACME_INDEX);
const warnings: Array<{ platform?: string; problems?: string[] }> = [];
const added = await addChannelPlatforms(dir, { warn: (obj) => warnings.push(obj as { platform?: string }) });

// Loaded after the platform is added, as an embedding application would.
const { buildTestApp, createTenant } = await import('../helpers/app.js');
const { startFakeWooCommerce, wooFakeStore } = await import('../helpers/fake-woocommerce/index.js');

describe('a fourth store platform is one folder', () => {
  let app: FastifyInstance;
  let store: Awaited<ReturnType<typeof wooFakeStore>>;
  let t: Awaited<ReturnType<typeof createTenant>>;

  beforeAll(async () => {
    store = wooFakeStore(await startFakeWooCommerce());
    const port = await freePort();
    app = await buildTestApp({
      config: { encryptionKey: randomBytes(32).toString('base64'), channelAllowBaseUrlOverride: true, publicBaseUrl: `http://127.0.0.1:${port}` },
    });
    await app.listen({ host: '127.0.0.1', port });
    t = await createTenant(app);
  });
  afterAll(async () => {
    expect(store.violations).toEqual([]);
    await store.close();
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is discovered beside the built-in platforms; a misnamed folder is skipped with its reason', () => {
    expect(added).toEqual(['acme_shop']);
    expect(CHANNEL_PLATFORMS.map((p) => p.slug)).toEqual(['acme_shop', 'bigcommerce', 'shopify', 'woocommerce']);
    expect(warnings).toEqual([expect.objectContaining({ platform: 'misnamed', problems: ['slug "acme_shop" does not match folder "misnamed"'] })]);
  });

  it('is listed for the dashboard with its own labels and credentials, and in the API description', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/admin/channel-types', headers: t.adminHeaders });
    expect(res.statusCode, res.body).toBe(200);
    const acme = res.json().data.find((c: { platform: string }) => c.platform === 'acme_shop');
    expect(acme).toMatchObject({
      name: 'Acme Shop',
      store_ref: { label: 'Acme site address' },
      oauth: false,
      default_import_statuses: ['processing', 'on-hold'],
      import_statuses_hint: 'Acme order statuses, comma separated',
    });
    expect(acme.credentials).toEqual([
      { field: 'consumer_key', label: 'Consumer key (ck_…)', required: true, secret: true },
      { field: 'consumer_secret', label: 'Consumer secret (cs_…)', required: true, secret: true },
    ]);
    const spec = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(JSON.stringify(spec.components.schemas.Integration.properties.platform)).toContain('"acme_shop"');
  });

  it('connects, subscribes at our receiver, and imports an order the store announces', async () => {
    const scope = { workspace_id: t.workspaceId, environment: 'test' as const };
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/integrations',
      headers: t.adminHeaders,
      payload: { name: 'Acme', platform: 'acme_shop', base_url: store.url, ...store.connect },
    });
    expect(res.statusCode, res.body).toBe(201);
    const integration = res.json();
    expect(integration).toMatchObject({ platform: 'acme_shop', settings: { import_statuses: ['processing', 'on-hold'] } });
    expect(integration.credentials.consumer_secret).toMatch(/^••••/);
    await app.services.channelSync.activate({ ...scope, integration_id: integration.id });
    const url = `${app.deps.config.publicBaseUrl}/api/integrations/${integration.id}/webhooks`;
    expect(store.webhooks().every((s) => s.url === url && s.active)).toBe(true);

    const id = store.seedOrder();
    expect(await store.emit(id, 'created')).toEqual(expect.arrayContaining([200]));
    const pending = await app.deps.db.selectFrom('channel_deliveries').select('id').where('integration_id', '=', integration.id).execute();
    expect(pending).toHaveLength(1);
    for (const { id: delivery_id } of pending) await app.services.channelDeliveries.apply({ ...scope, delivery_id });
    const orders = (await app.inject({ method: 'GET', url: `/v1/orders?source=${integration.id}`, headers: t.headers })).json().data;
    expect(orders.map((o: { external_id: string }) => o.external_id)).toEqual([id]);
  });

  it('refuses an unknown platform, naming the ones it has', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/admin/integrations', headers: t.adminHeaders, payload: { name: 'X', platform: 'magento' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ field: 'platform', message: 'must be one of: acme_shop, bigcommerce, shopify, woocommerce, custom' }]);
  });
});
