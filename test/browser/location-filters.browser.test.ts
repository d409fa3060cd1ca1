import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../helpers/app.js';
import { haveChromium, openPage, settled, shoot, signIn, startDashboard, step, TEST_BACKSTOP_MS, until, visible } from './kit.js';

// Where orders and labels ship from, on the dashboard, in Chromium against a real server: the
// order queue and the shipments list filter by location (the queue keeps it in the URL, across a
// reload), the filter shows only for a workspace of two or more locations, and an order's
// "Ship from" names its location.

let app: FastifyInstance;
let base: string;
let browser: Browser;
let t: Tenant;
let single: Tenant;
const problems: string[] = [];
const newYork = { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const reno = { name: 'Warehouse West', company: 'Acme', street1: '1 E 1st St', city: 'Reno', state: 'NV', postal_code: '89501', country: 'US' };
const shipTo = { name: 'Ada Buyer', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
let eastId: string;
let westId: string;

async function location(tenant: Tenant, name: string, address: typeof newYork, timezone: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/v1/locations', headers: tenant.headers, payload: { name, address, timezone } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** An order shipping from a location, with a label bought for it when `buy`. */
async function order(tenant: Tenant, externalId: string, locationId: string, buy: boolean): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers: tenant.headers,
    payload: {
      external_id: externalId,
      ship_to: shipTo,
      location_id: locationId,
      line_items: [{ sku: 'MUG', name: 'Mug', quantity: 1, weight_oz: 12 }],
      parcel: { weight_oz: 16, length_in: 8, width_in: 6, height_in: 4 },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  if (buy) {
    const bought = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: tenant.headers,
      payload: { order_id: res.json().id, service_code: 'usps_ground_advantage' },
    });
    expect(bought.statusCode, bought.body).toBe(201);
    expect(bought.json().location_id).toBe(locationId);
  }
  return res.json().id;
}

const orderNumbers = (page: Page) => page.getByTestId('orders').locator('tbody tr td:nth-child(2) a').allInnerTexts();
const trackingNumbers = (page: Page) => page.getByTestId('shipments').locator('tbody tr td.mono a').allInnerTexts();

describe.skipIf(!haveChromium)('location filters in Chromium', () => {
  const labels: Record<string, string> = {};

  beforeAll(async () => {
    ({ app, base, browser } = await startDashboard());
    t = await createTenant(app);
    eastId = await location(t, 'East Coast DC', newYork, 'America/New_York');
    westId = await location(t, 'Reno Warehouse', reno, 'America/Los_Angeles');
    await order(t, 'EAST-1', eastId, true);
    await order(t, 'EAST-2', eastId, false);
    await order(t, 'WEST-1', westId, true);
    const list = (await app.inject({ method: 'GET', url: '/v1/shipments', headers: t.headers })).json().data as {
      tracking_number: string;
      location_id: string;
    }[];
    for (const s of list) labels[s.location_id] = s.tracking_number;
    // A workspace of one location has nothing to filter by.
    single = await createTenant(app);
    const only = await location(single, 'Only Warehouse', newYork, 'America/New_York');
    await order(single, 'ONLY-1', only, true);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('orders and shipments filter by location (the queue keeps it in the URL); an order names its location', { timeout: TEST_BACKSTOP_MS }, async () => {
    const page = await openPage(browser, problems);
    await signIn(page, base, t.email, t.password);
    const filter = page.getByTestId('location-filter');

    await step(page, 'locations-01-orders', async () => {
      await settled(page);
      await until(async () => (await orderNumbers(page)).sort().join() === 'EAST-1,EAST-2,WEST-1', 'every order');
      await visible(filter);
      // Locations made through the API ship the labels: no ship-from onboarding on the queue.
      expect(await page.getByTestId('ship-from-onboarding').count()).toBe(0);
      expect(await filter.locator('option').allInnerTexts()).toEqual(expect.arrayContaining(['Any', 'East Coast DC', 'Reno Warehouse']));
      await filter.selectOption(westId);
      await page.waitForURL(new RegExp(`location=${westId}`));
      await until(async () => (await orderNumbers(page)).join() === 'WEST-1', 'the west orders only');
      await visible(page.getByTestId('status-tabs').getByRole('link', { name: 'All (1)' }));
      await page.reload();
      await settled(page);
      expect(await filter.inputValue()).toBe(westId);
      await until(async () => (await orderNumbers(page)).join() === 'WEST-1', 'the filter kept across a reload');
      await shoot(page, 'page-orders-location-filter');
      await filter.selectOption(eastId);
      await until(async () => (await orderNumbers(page)).sort().join() === 'EAST-1,EAST-2', 'the east orders only');
    });

    await step(page, 'locations-02-order-ship-from', async () => {
      await page.getByTestId('orders').getByRole('link', { name: 'EAST-2' }).click();
      await settled(page);
      const shipFrom = page.locator('.card', { has: page.getByRole('heading', { name: 'Ship from' }) });
      await until(async () => (await shipFrom.getByTestId('location-name').innerText()) === 'East Coast DC', 'the location named');
      expect(await shipFrom.innerText()).not.toContain(eastId);
    });

    await step(page, 'locations-03-shipments', async () => {
      await page.goto(`${base}/dashboard/shipments`);
      await settled(page);
      await until(async () => (await trackingNumbers(page)).length === 2, 'both labels');
      await filter.selectOption(westId);
      await until(async () => (await trackingNumbers(page)).join() === labels[westId], 'the west label only');
      await filter.selectOption(eastId);
      await until(async () => (await trackingNumbers(page)).join() === labels[eastId], 'the east label only');
      await shoot(page, 'page-shipments-location-filter');
      await filter.selectOption('');
      await until(async () => (await trackingNumbers(page)).length === 2, 'both labels again');
    });
    expect(problems).toEqual([]);
  });

  it('one location: no filter on the order queue or the shipments list', { timeout: TEST_BACKSTOP_MS }, async () => {
    const page = await openPage(browser, problems);
    await signIn(page, base, single.email, single.password);
    await settled(page);
    await until(async () => (await orderNumbers(page)).join() === 'ONLY-1', 'the order');
    expect(await page.getByTestId('location-filter').count()).toBe(0);
    await page.goto(`${base}/dashboard/shipments`);
    await settled(page);
    await until(async () => (await trackingNumbers(page)).length === 1, 'the label');
    expect(await page.getByTestId('location-filter').count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
