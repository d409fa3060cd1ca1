import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../helpers/app.js';
import { registerManifestJobs } from '../../src/modules/manifests/index.js';
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

// The End of day page in Chromium against a real server: two labels bought, a USPS manifest
// created from the page (pending, then ready with its SCAN form downloaded), a second one for the
// same day refused with the reason shown; a pickup booked (a Sunday refused first, the reason
// under its field), then cancelled. No sideways scroll at 375 px.

let app: FastifyInstance;
let base: string;
let browser: Browser;
let t: Tenant;
const problems: string[] = [];

const origin = { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };

async function buy(): Promise<string> {
  const order = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers: t.headers,
    payload: {
      customer: { name: 'Ada' },
      ship_to: shipTo,
      ship_from: origin,
      line_items: [{ sku: 'A', name: 'A', quantity: 1, weight_oz: 8 }],
      parcel: { weight_oz: 16, length_in: 8, width_in: 6, height_in: 4 },
    },
  });
  const res = await app.inject({
    method: 'POST',
    url: '/v1/shipments',
    headers: t.headers,
    payload: { order_id: order.json().id, service_code: 'usps_ground_advantage' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** YYYY-MM-DD of the first day at least `ahead` days from now (UTC) whose weekday passes `ok`. */
function dayAhead(ahead: number, ok: (weekday: number) => boolean): string {
  const d = new Date(Date.now() + ahead * 86_400_000);
  while (!ok(d.getUTCDay())) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

describe.skipIf(!haveChromium)('end of day in Chromium', () => {
  beforeAll(async () => {
    ({ app, base, browser } = await startDashboard());
    await registerManifestJobs(app.deps, app.services.manifests);
    await app.deps.jobs.start();
    t = await createTenant(app);
    expect((await app.inject({ method: 'PATCH', url: '/api/admin/workspace', headers: t.adminHeaders, payload: { origin_address: origin } })).statusCode).toBe(
      200,
    );
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it(
    'manifest the day (ready, SCAN form downloaded; a second refused) → book a pickup (a Sunday refused) → cancel it; no sideways scroll at 375 px',
    { timeout: TEST_BACKSTOP_MS },
    async () => {
      const labels = [await buy(), await buy()];
      const page = await openPage(browser, problems, { expected: [['422', /\/api\/admin\/(manifests|pickups)$/]] });
      await signIn(page, base, t.email, t.password);
      const manifests = page.getByTestId('manifests-section');
      const pickups = page.getByTestId('pickups-section');

      await step(page, 'eod-01-empty', async () => {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'End of day', exact: true }).click();
        await page.waitForURL('**/dashboard/end-of-day');
        await settled(page);
        await visible(page.getByText('No manifests yet'));
        await visible(page.getByText('No pickups yet'));
      });

      await step(page, 'eod-02-manifest-ready', async () => {
        await manifests.getByLabel('Carrier').selectOption('usps');
        await manifests.getByRole('button', { name: 'Create manifest' }).click();
        const row = manifests.getByTestId('manifests').locator('tbody tr').first();
        await visible(row);
        await visible(row.getByRole('button', { name: 'SCAN form' }));
        expect(await row.locator('td.num').innerText()).toBe(String(labels.length));
        const download = page.waitForEvent('download');
        await row.getByRole('button', { name: 'SCAN form' }).click();
        const file = await download;
        expect(file.suggestedFilename()).toMatch(/^scan_form-man_.+\.pdf$/);
        await shoot(page, 'eod-02-manifest-ready');
        const listed = (await app.inject({ method: 'GET', url: '/api/admin/manifests', headers: t.adminHeaders })).json().data;
        expect(listed).toHaveLength(1);
        expect(new Set(listed[0].shipment_ids)).toEqual(new Set(labels));
      });

      await step(page, 'eod-03-manifest-refused', async () => {
        await manifests.getByRole('button', { name: 'Create manifest' }).click();
        await visible(manifests.locator('.alert-error').filter({ hasText: 'no_eligible_shipments' }));
        expect(await manifests.getByTestId('manifests').locator('tbody tr').count()).toBe(1);
      });

      await step(page, 'eod-04-pickup-sunday', async () => {
        const sunday = dayAhead(1, (w) => w === 0);
        await pickups.getByLabel('Window start').fill(`${sunday}T14:00`);
        await pickups.getByLabel('Window end').fill(`${sunday}T18:00`);
        await pickups.getByRole('button', { name: 'Book pickup' }).click();
        await visible(pickups.locator('.field-error').filter({ hasText: 'Sunday' }));
        await visible(pickups.locator('.alert-error').filter({ hasText: 'pickup_unavailable' }));
      });

      await step(page, 'eod-05-pickup-booked', async () => {
        const weekday = dayAhead(2, (w) => w >= 1 && w <= 5);
        await pickups.getByLabel('Window start').fill(`${weekday}T14:00`);
        await pickups.getByLabel('Window end').fill(`${weekday}T18:00`);
        await pickups.getByLabel('Packages').fill('3');
        await pickups.getByRole('button', { name: 'Book pickup' }).click();
        const row = pickups.getByTestId('pickups').locator('tbody tr').first();
        await visible(row.getByText('scheduled'));
        expect(await row.locator('td.mono').innerText()).toMatch(/^USP\d{10}$/);
      });

      await step(page, 'eod-06-pickup-cancelled', async () => {
        const row = pickups.getByTestId('pickups').locator('tbody tr').first();
        await row.getByRole('button', { name: 'Cancel', exact: true }).click();
        await row.getByRole('button', { name: 'Cancel pickup' }).click();
        await visible(row.getByText('cancelled'));
        await until(
          async () => (await app.inject({ method: 'GET', url: '/api/admin/pickups', headers: t.adminHeaders })).json().data[0]?.status === 'cancelled',
          'pickup cancelled',
        );
      });

      await step(page, 'eod-07-phone', async () => {
        await page.setViewportSize(PHONE);
        // A fresh load: the refusals' messages above are gone, the lists remain.
        await page.reload();
        await settled(page);
        await visible(page.getByTestId('pickups').getByText('cancelled'));
        const overflow = await horizontalOverflow(page);
        expect(overflow, (await overflowingElements(page)).join('\n')).toBeLessThanOrEqual(0);
        await shoot(page, 'eod-07-phone');
      });
      expect(problems).toEqual([]);
    },
  );

  it('a second location: the page chooses it; its manifest lists its own label only', { timeout: TEST_BACKSTOP_MS }, async () => {
    const reno = { company: 'Acme', street1: '1 Logistics Way', city: 'Reno', state: 'NV', postal_code: '89502', country: 'US' };
    const west = await app.inject({
      method: 'POST',
      url: '/v1/locations',
      headers: t.headers,
      payload: { name: 'West', address: reno, timezone: 'America/Los_Angeles' },
    });
    expect(west.statusCode, west.body).toBe(201);
    const westId = west.json().id as string;
    const order = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: { ship_to: shipTo, location_id: westId, line_items: [{ sku: 'A', quantity: 1, weight_oz: 8 }] },
    });
    const bought = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: { order_id: order.json().id, service_code: 'usps_ground_advantage' },
    });
    expect(bought.statusCode, bought.body).toBe(201);
    await buy(); // the default location's (an order with its own ship_from), not West's

    const page = await openPage(browser, problems);
    await signIn(page, base, t.email, t.password);
    await page.goto(`${base}/dashboard/end-of-day`);
    await settled(page);
    const manifests = page.getByTestId('manifests-section');
    await page.getByTestId('location-select').selectOption(westId);
    await visible(manifests.getByText('No manifests yet'));
    await manifests.getByRole('button', { name: 'Create manifest' }).click();
    const row = manifests.getByTestId('manifests').locator('tbody tr').first();
    await visible(row.getByRole('button', { name: 'SCAN form' }));
    expect(await row.locator('td.num').innerText()).toBe('1');
    const listed = (await app.inject({ method: 'GET', url: `/api/admin/manifests?location_id=${westId}`, headers: t.adminHeaders })).json().data;
    expect(listed.map((m: { location_id: string; shipment_ids: string[] }) => [m.location_id, m.shipment_ids])).toEqual([[westId, [bought.json().id]]]);
    expect(problems).toEqual([]);
  });
});
