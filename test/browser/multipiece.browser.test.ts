import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../helpers/app.js';
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
  visible,
} from './kit.js';

// A multi-piece shipment's page in Chromium against a real server: the Packages card lists each
// package (its number, "i of N", weight, dimensions and status), the master first; the order's
// page lists its parcels; no sideways scroll at 375 px.

let app: FastifyInstance;
let base: string;
let browser: Browser;
let t: Tenant;
const problems: string[] = [];

const shipFrom = { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const parcels = [
  { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 },
  { weight_oz: 80, length_in: 16, width_in: 12, height_in: 10 },
  { weight_oz: 40, length_in: 12, width_in: 12, height_in: 6 },
];

describe.skipIf(!haveChromium)('a multi-piece shipment in Chromium', () => {
  beforeAll(async () => {
    ({ app, base, browser } = await startDashboard());
    t = await createTenant(app);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('the shipment page lists its packages; no sideways scroll at 375 px', { timeout: TEST_BACKSTOP_MS }, async () => {
    const order = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: { ship_to: shipTo, ship_from: shipFrom, line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 3, weight_oz: 12 }], parcels },
    });
    expect(order.statusCode, order.body).toBe(201);
    const bought = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: { order_id: order.json().id, service_code: 'ups_ground' },
    });
    expect(bought.statusCode, bought.body).toBe(201);
    const shipment = bought.json() as { id: string; packages: { tracking_number: string }[] };
    const page = await openPage(browser, problems);
    await signIn(page, base, t.email, t.password);

    await step(page, 'multipiece-01-packages', async () => {
      await page.goto(`${base}/dashboard/shipments/${shipment.id}`);
      await settled(page);
      const card = page.getByTestId('packages');
      await visible(card);
      const rows = card.locator('tbody tr');
      expect(await rows.count()).toBe(3);
      for (const [i, p] of shipment.packages.entries()) {
        const row = rows.nth(i);
        expect(await row.textContent()).toContain(p.tracking_number);
        expect(await row.textContent()).toContain(`${i + 1} of 3`);
        expect(await row.textContent()).toContain(`${parcels[i]!.weight_oz} oz`);
      }
      expect(await rows.first().textContent()).toContain('(master)');
    });

    await step(page, 'multipiece-02-order', async () => {
      await page.goto(`${base}/dashboard/orders/${order.json().id}`);
      await settled(page);
      const pieces = page.getByTestId('order-parcels');
      await visible(pieces);
      expect(await pieces.textContent()).toContain('3 parcels');
    });

    await step(page, 'multipiece-03-phone', async () => {
      const phone = await openPage(browser, problems, { viewport: PHONE });
      await signIn(phone, base, t.email, t.password);
      await phone.goto(`${base}/dashboard/shipments/${shipment.id}`);
      await settled(phone);
      await visible(phone.getByTestId('packages'));
      expect(
        await horizontalOverflow(phone),
        `the shipment page is wider than the screen: ${(await overflowingElements(phone)).join('\n')}`,
      ).toBeLessThanOrEqual(0);
      await shoot(phone, 'page-shipment-packages-375');
      await phone.context().close();
    });

    expect(problems, problems.join('\n')).toEqual([]);
  });
});
