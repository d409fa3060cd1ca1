import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerJobHandlers } from '../../src/bootstrap/jobs.js';
import { createTenant, type Tenant } from '../helpers/app.js';
import { startFakeShopify } from '../helpers/fake-shopify/index.js';
import {
  haveChromium,
  horizontalOverflow,
  openPage,
  overflowingElements,
  PHONE,
  settled,
  shoot,
  signIn,
  startDashboard,
  step,
  TEST_BACKSTOP_MS,
  until,
  visible,
} from './kit.js';

// The integration page's exchange log (GET /api/admin/integrations/:id/logs, docs/channels.md) in
// Chromium: a Shopify store (a fake on loopback) connected with the job workers running, its log
// emptied to see the empty state, then Test connection: the page waits for the exchange to be
// written and shows its time, method and path, status, outcome and duration; its redacted bodies
// open beneath it, and no credential of the store is anywhere on the page. And the connect form,
// drawn from GET /api/admin/channel-types: each platform's own fields, the service's errors
// placed under them.

let app: FastifyInstance;
let base: string;
let browser: Browser;
let t: Tenant;
const problems: string[] = [];

describe.skipIf(!haveChromium)('the integration exchange log in Chromium', () => {
  beforeAll(async () => {
    ({ app, base, browser } = await startDashboard({ config: { channelAllowBaseUrlOverride: true } }));
    await registerJobHandlers(app);
    await app.deps.jobs.start();
    t = await createTenant(app);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('shows the empty state, then each exchange with the store and its redacted bodies', { timeout: TEST_BACKSTOP_MS }, async () => {
    const fake = await startFakeShopify({ shopDomain: 'exchange-goods.myshopify.com' });
    const admin = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
      app.inject({ method, url, headers: t.adminHeaders, payload: payload as never });
    const logs = async (id: string) => (await admin('GET', `/api/admin/integrations/${id}/logs`)).json().data as { operation: string }[];
    let id = '';
    try {
      const created = await admin('POST', '/api/admin/integrations', {
        name: 'Exchange Goods',
        platform: 'shopify',
        store_ref: 'exchange-goods.myshopify.com',
        base_url: fake.url,
        credentials: { access_token: fake.accessToken, client_secret: fake.clientSecret },
      });
      expect(created.statusCode, created.body).toBe(201);
      id = created.json().id;
      // Activation and backfill run in the workers; their exchanges are written a moment later.
      await until(
        async () => ((await admin('GET', `/api/admin/integrations/${id}/sync-runs`)).json().data as { status: string }[]).some((r) => r.status === 'completed'),
        'the backfill',
      );
      await until(async () => (await logs(id)).some((l) => l.operation === 'orders_list'), 'the backfill’s exchanges written');
      await new Promise((r) => setTimeout(r, 500));
      await app.deps.db.deleteFrom('channel_exchanges').where('integration_id', '=', id).execute();

      const page = await openPage(browser, problems);
      await signIn(page, base, t.email, t.password);
      await step(page, 'exchanges-01-empty', async () => {
        await page.goto(`${base}/dashboard/integrations/${id}`);
        await settled(page);
        await visible(page.getByRole('heading', { name: 'Exchange log' }));
        await visible(page.getByText('No exchanges with the store yet.'));
      });

      await step(page, 'exchanges-02-after-test', async () => {
        await page.getByRole('button', { name: 'Test connection' }).click();
        await visible(page.getByRole('status').filter({ hasText: 'Connection test passed.' }));
        // The page asks the log again until the test's exchange shows (no reload here).
        const table = page.getByTestId('store-exchanges');
        const row = table.getByRole('row', { name: /connection test/ }).first();
        await visible(row);
        const text = await row.innerText();
        expect(text).toMatch(/POST \/admin\/api\/[0-9-]+\/graphql\.json/);
        expect(text).toMatch(/\b200\b/);
        expect(text).toMatch(/success/i);
        expect(text).toMatch(/\d+ ms/);
        // The time column: the exchange's moment as the dashboard writes times.
        expect((await row.locator('td').first().innerText()).trim()).not.toBe('—');
        await shoot(page, 'page-integration-exchanges');
      });

      await step(page, 'exchanges-03-bodies', async () => {
        const row = page
          .getByTestId('store-exchanges')
          .getByRole('row', { name: /connection test/ })
          .first();
        await row.getByRole('button', { name: 'Bodies' }).click();
        const request = page.getByTestId('store-exchange-request').first();
        const response = page.getByTestId('store-exchange-response').first();
        await visible(request);
        expect(await request.innerText()).toMatch(/shop|query|operation/i);
        expect((await response.innerText()).trim()).not.toBe('—');
        await shoot(page, 'page-integration-exchange-bodies');
        const all = await page.locator('main').innerText();
        expect(all).not.toContain(fake.accessToken);
        expect(all).not.toContain(fake.clientSecret);
        await row.getByRole('button', { name: 'Hide bodies' }).click();
        expect(await page.getByTestId('store-exchange-request').count()).toBe(0);
      });
      await page.context().close();

      const phone = await openPage(browser, problems, { viewport: PHONE });
      await signIn(phone, base, t.email, t.password);
      await step(phone, 'exchanges-04-375', async () => {
        await phone.goto(`${base}/dashboard/integrations/${id}`);
        await settled(phone);
        await visible(phone.getByTestId('store-exchanges'));
        expect(
          await horizontalOverflow(phone),
          `the integration page is wider than the screen: ${(await overflowingElements(phone)).join('\n')}`,
        ).toBeLessThanOrEqual(0);
      });
      await phone.context().close();
      expect(fake.violations).toEqual([]);
    } finally {
      if (id) await admin('DELETE', `/api/admin/integrations/${id}`);
      await fake.close();
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('draws the connect form from the platforms the service lists', { timeout: TEST_BACKSTOP_MS }, async () => {
    const types = (await app.inject({ method: 'GET', url: '/api/admin/channel-types', headers: t.adminHeaders })).json().data as {
      platform: string;
      name: string;
      store_ref: { label: string };
      credentials: { label: string }[];
    }[];
    const page = await openPage(browser, problems, { expected: [['400', /\/api\/admin\/integrations$/]] });
    await signIn(page, base, t.email, t.password);
    await step(page, 'connect-01-platforms', async () => {
      await page.goto(`${base}/dashboard/integrations`);
      await settled(page);
      await page.getByRole('button', { name: 'Connect a store' }).click();
      const select = page.getByLabel('Platform');
      await visible(select);
      expect(await select.locator('option').allInnerTexts()).toEqual([...types.map((c) => c.name), 'Custom (push with the ingest key)']);
      // Each platform's store reference and credentials, as the service lists them.
      for (const type of types) {
        await select.selectOption(type.platform);
        for (const label of [type.store_ref.label, ...type.credentials.map((c) => c.label)]) await visible(page.getByLabel(label, { exact: true }));
      }
    });
    await step(page, 'connect-02-errors', async () => {
      const woo = types.find((c) => c.platform === 'woocommerce')!;
      await page.getByLabel('Platform').selectOption('woocommerce');
      await page.getByLabel('Name', { exact: true }).fill('Mistyped Goods');
      await page.getByLabel(woo.store_ref.label, { exact: true }).fill('ftp://goods.example');
      await page.getByLabel(woo.credentials[0].label, { exact: true }).fill('ck_only_the_key');
      await page.getByRole('button', { name: 'Connect', exact: true }).click();
      // Each error under its own field (aria-invalid, described by it).
      const fieldError = (label: string) => page.getByLabel(label, { exact: true }).locator('xpath=following-sibling::span[@class="field-error"]');
      await visible(fieldError(woo.store_ref.label));
      expect(await fieldError(woo.store_ref.label).innerText()).toMatch(/must be the site URL/);
      expect(await fieldError(woo.credentials[1].label).innerText()).toBe('is required');
      expect(await page.getByLabel(woo.credentials[0].label, { exact: true }).getAttribute('aria-invalid')).toBeNull();
      await shoot(page, 'page-integrations-connect-errors');
    });
    await page.context().close();
    expect((await app.inject({ method: 'GET', url: '/api/admin/integrations', headers: t.adminHeaders })).json().data).toEqual([]);
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
