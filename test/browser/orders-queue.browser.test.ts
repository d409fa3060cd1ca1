import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../helpers/app.js';
import { haveChromium, openPage, settled, shoot, signIn, startDashboard, step, TEST_BACKSTOP_MS, until, visible } from './kit.js';

// The orders page as a packing team's work queue, in Chromium against a real server: status
// tabs with their counts, a filter kept in the URL across pages, reload and Back, the keyboard
// (arrows, Space, Enter) and the CSV export of what the filters match.

let app: FastifyInstance;
let base: string;
let browser: Browser;
let t: Tenant;
let stranger: Tenant;
const problems: string[] = [];
const US = { name: 'Ada Buyer', street1: '1 Main St', city: 'Beverly Hills', state: 'CA', postal_code: '90210', country: 'US' };
const GB = { name: 'Grace Hopper', street1: '10 Downing St', city: 'London', postal_code: 'SW1A 2AA', country: 'GB' };

async function createOrder(tenant: Tenant, externalId: string, over: Record<string, unknown>) {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers: tenant.headers,
    payload: {
      external_id: externalId,
      ship_to: US,
      line_items: [{ sku: 'MUG', name: 'Mug', quantity: 1, weight_oz: 12, unit_price: { amount: 1500, currency: 'USD' } }],
      ...over,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

const rowNumbers = (page: Page) => page.getByTestId('orders').locator('tbody tr td:nth-child(2) a').allInnerTexts();

describe.skipIf(!haveChromium)('the order queue in Chromium', () => {
  beforeAll(async () => {
    ({ app, base, browser } = await startDashboard());
    t = await createTenant(app);
    stranger = await createTenant(app);
    // 28 UPS orders (two pages of 25), 3 USPS ones to London; two UPS ones processed.
    for (let i = 1; i <= 28; i++) await createOrder(t, `UPS-${String(i).padStart(2, '0')}`, { requested_service: 'ups_ground' });
    for (let i = 1; i <= 3; i++) await createOrder(t, `GB-${i}`, { ship_to: GB, requested_service: 'usps_priority_mail_international' });
    for (const n of ['UPS-01', 'UPS-02']) {
      const list = await app.inject({ method: 'GET', url: `/v1/orders?external_id=${n}`, headers: t.headers });
      const processed = await app.inject({ method: 'POST', url: `/v1/orders/${list.json().data[0].id}/process`, headers: t.headers });
      expect(processed.statusCode).toBe(200);
    }
    // Another workspace's orders never show in the tabs' counts.
    for (let i = 1; i <= 4; i++) await createOrder(stranger, `X-${i}`, { requested_service: 'ups_ground' });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('tabs with counts → a filter kept across pages, reload and Back → keyboard → CSV export', { timeout: TEST_BACKSTOP_MS }, async () => {
    const page = await openPage(browser, problems);
    await signIn(page, base, t.email, t.password);
    const tabs = page.getByTestId('status-tabs');

    await step(page, 'queue-01-tabs', async () => {
      await settled(page);
      await visible(tabs.getByRole('link', { name: 'All (31)' }));
      await visible(tabs.getByRole('link', { name: 'Awaiting fulfillment (29)' }));
      await visible(tabs.getByRole('link', { name: 'Processing (2)' }));
      await visible(tabs.getByRole('link', { name: 'Shipped (0)' }));
      await tabs.getByRole('link', { name: 'Processing (2)' }).click();
      await page.waitForURL(/status=processing/);
      await until(async () => (await rowNumbers(page)).sort().join() === 'UPS-01,UPS-02', 'the two processing orders');
      await shoot(page, 'page-orders-queue-processing');
      await tabs.getByRole('link', { name: /^All/ }).click();
      await page.waitForURL((url) => !url.search.includes('status='));
    });

    await step(page, 'queue-02-filter-pages', async () => {
      await page.getByLabel('Carrier').selectOption('ups');
      await page.waitForURL(/carrier=ups/);
      await page.getByLabel('Sort').selectOption('order_number');
      await page.waitForURL(/sort=order_number/);
      await until(async () => (await rowNumbers(page))[0] === 'UPS-01', 'sorted by number');
      await visible(tabs.getByRole('link', { name: 'All (28)' }));
      expect(await rowNumbers(page)).toHaveLength(25);
      await page.getByRole('button', { name: 'Next →' }).click();
      await page.waitForURL(/cursor=/);
      await until(async () => (await rowNumbers(page)).join() === 'UPS-26,UPS-27,UPS-28', 'the second page');
      expect(page.url()).toMatch(/carrier=ups/);
      await page.reload();
      await settled(page);
      await until(async () => (await rowNumbers(page)).join() === 'UPS-26,UPS-27,UPS-28', 'the second page after reload');
      expect(await page.getByLabel('Carrier').inputValue()).toBe('ups');
      await visible(page.getByText('Page 2'));
      await page.getByRole('button', { name: '← Previous' }).click();
      await until(async () => (await rowNumbers(page))[0] === 'UPS-01', 'the first page');
      await page.getByRole('button', { name: 'Next →' }).click();
      await until(async () => (await rowNumbers(page))[0] === 'UPS-26', 'the second page again');
      await page.goBack();
      await until(async () => (await rowNumbers(page))[0] === 'UPS-01', 'Back: the first page, still filtered');
      expect(page.url()).toMatch(/carrier=ups/);
      await shoot(page, 'page-orders-queue-filtered');
    });

    await step(page, 'queue-03-keyboard', async () => {
      const rows = page.getByTestId('orders').locator('tbody tr');
      await rows.first().focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press(' ');
      await visible(page.getByText('1 selected'));
      expect(await page.getByRole('checkbox', { name: 'Select UPS-02' }).isChecked()).toBe(true);
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press(' ');
      await visible(page.getByText('2 selected'));
      await page.getByRole('button', { name: 'Clear', exact: true }).click();
      await rows.nth(2).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/dashboard\/orders\/ord_/);
      await page.goBack();
      await until(async () => (await rowNumbers(page))[0] === 'UPS-01', 'Back from the order: the queue as it was');
      expect(page.url()).toMatch(/carrier=ups/);
    });

    await step(page, 'queue-04-csv', async () => {
      await page.getByLabel('Destination country').fill('us');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/country=US/);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^orders-test-\d{4}-\d{2}-\d{2}\.csv$/);
      const text = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
      const lines = text.trimEnd().split('\r\n');
      expect(lines[0]).toBe('"Order number","Date","Recipient","Destination","Items","Weight (oz)","Requested service","Total","Currency","Status"');
      // The filters and the sort of the page: 28 UPS orders to the US, by number.
      expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(Array.from({ length: 28 }, (_, i) => `"UPS-${String(i + 1).padStart(2, '0')}"`));
      expect(lines[1]).toContain('"Ada Buyer","Beverly Hills, CA 90210, US","1","12","ups_ground","15.00","USD","processing"');
    });

    expect(problems, problems.join('\n')).toEqual([]);
  });
});
