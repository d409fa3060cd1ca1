import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../helpers/app.js';
import { haveChromium, openPage, shoot, startDashboard, step, TEST_BACKSTOP_MS, until, visible } from './kit.js';

// The public tracking page (/track/:number) in Chromium against a real server, for the numbers
// that are not a shipment's own: a tracker's (a label bought elsewhere) and a later package's
// of a multi-piece shipment, which names and links its shipment's master number.

let app: FastifyInstance;
let base: string;
let browser: Browser;
let t: Tenant;
const problems: string[] = [];
const shipFrom = { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
/** UPS's own published sample number (its check digit is right). */
const UPS_NUMBER = '1Z999AA10123456784';
let packages: string[] = [];

describe.skipIf(!haveChromium)('public tracking of trackers and packages in Chromium', () => {
  beforeAll(async () => {
    ({ app, base, browser } = await startDashboard());
    t = await createTenant(app);
    const tracker = await app.inject({ method: 'POST', url: '/v1/trackers', headers: t.headers, payload: { carrier: 'ups', tracking_number: UPS_NUMBER } });
    expect(tracker.statusCode, tracker.body).toBe(201);
    const order = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: {
        ship_to: shipTo,
        ship_from: shipFrom,
        line_items: [{ sku: 'MUG', quantity: 3, weight_oz: 12 }],
        parcels: [
          { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 },
          { weight_oz: 40, length_in: 12, width_in: 12, height_in: 6 },
        ],
      },
    });
    expect(order.statusCode, order.body).toBe(201);
    const bought = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: { order_id: order.json().id, service_code: 'ups_ground' },
    });
    expect(bought.statusCode, bought.body).toBe(201);
    packages = bought.json().packages.map((p: { tracking_number: string }) => p.tracking_number);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
  });

  it("a tracker's number shows its journey; a package's names its shipment, whose link opens the master", { timeout: TEST_BACKSTOP_MS }, async () => {
    const visitor = await openPage(browser, problems);
    await step(visitor, 'track-01-tracker', async () => {
      await visitor.goto(`${base}/track/${encodeURIComponent(UPS_NUMBER)}`);
      await visible(visitor.locator('.timeline'));
      expect(await visitor.locator('.card').first().innerText()).toContain(UPS_NUMBER);
      expect(await visitor.locator('.timeline li.reached').allInnerTexts()).toEqual([expect.stringContaining('Label created')]);
      expect(await visitor.getByTestId('track-package').count()).toBe(0);
      expect(await visitor.getByTestId('track-not-found').count()).toBe(0);
    });

    await step(visitor, 'track-02-package', async () => {
      const [master, second] = packages as [string, string];
      await visitor.goto(`${base}/track/${encodeURIComponent(second)}`);
      const line = visitor.getByTestId('track-package');
      await visible(line);
      expect(await line.innerText()).toBe(`Package 2 of 2 of shipment ${master}`);
      expect(await visitor.locator('.card').first().innerText()).toContain(second);
      await shoot(visitor, 'page-track-package');
      await line.getByRole('link', { name: master }).click();
      await visitor.waitForURL(`**/track/${master}`);
      await until(async () => (await line.innerText()) === 'A shipment of 2 packages: delivered when every package is', 'the master read as the shipment');
      expect(await visitor.getByPlaceholder('Tracking number').inputValue()).toBe(master);
    });
    expect(problems).toEqual([]);
  });
});
