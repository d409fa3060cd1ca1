import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../helpers/app.js';
import { DECLARATION } from '../helpers/customs.js';
import { haveChromium, horizontalOverflow, openPage, PHONE, settled, shoot, signIn, startDashboard, step, TEST_BACKSTOP_MS, visible } from './kit.js';

// The shipment page in Chromium against a real server: an international shipment lists its
// customs document (a CN 22) with Open and Download, the download is the PDF; a domestic
// shipment shows no documents section. No sideways scroll at 375 px.

let app: FastifyInstance;
let base: string;
let browser: Browser;
let t: Tenant;
const problems: string[] = [];

const shipFrom = { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const london = { name: '山田 太郎', street1: '221B Baker Street', city: 'London', postal_code: 'NW1 6XE', country: 'GB' };
const domestic = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };

async function bought(shipTo: Record<string, unknown>, serviceCode: string, international: boolean): Promise<{ id: string; tracking_number: string }> {
  const order = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers: t.headers,
    payload: {
      customer: { name: 'Taro Yamada', email: 'taro@example.com' },
      ship_to: shipTo,
      ship_from: shipFrom,
      line_items: [
        { sku: 'TS-1', name: 'Cotton T-shirt', quantity: 2, weight_oz: 6, unit_price: { amount: 1250, currency: 'USD' }, hs_tariff_number: '6109.10' },
      ],
      parcel: { weight_oz: 30, length_in: 10, width_in: 8, height_in: 4 },
    },
  });
  expect(order.statusCode, order.body).toBe(201);
  const res = await app.inject({ method: 'POST', url: '/v1/shipments', headers: t.headers, payload: { order_id: order.json().id, service_code: serviceCode } });
  expect(res.statusCode, res.body).toBe(201);
  const s = res.json();
  // The declaration as the purchase keeps it (written directly: its derivation is not this test's subject).
  await app.deps.db
    .updateTable('shipments')
    .set({ customs: international ? JSON.stringify(DECLARATION) : null })
    .where('id', '=', s.id)
    .execute();
  return s;
}

describe.skipIf(!haveChromium)('customs documents on the shipment page in Chromium', () => {
  beforeAll(async () => {
    ({ app, base, browser } = await startDashboard());
    t = await createTenant(app);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it(
    'lists the CN 22 with Open and Download (the PDF); a domestic shipment has no documents; no sideways scroll on a phone',
    { timeout: TEST_BACKSTOP_MS },
    async () => {
      const abroad = await bought(london, 'usps_first_class_international', true);
      const home = await bought(domestic, 'usps_ground_advantage', false);
      const page = await openPage(browser, problems);
      await signIn(page, base, t.email, t.password);

      await step(page, 'documents-01-listed', async () => {
        await page.goto(`${base}/dashboard/shipments/${abroad.id}`);
        const docs = page.getByTestId('documents');
        await visible(docs.getByText('CN 22 customs declaration'));
        await visible(docs.getByRole('button', { name: 'Open' }));
        await shoot(page, 'page-shipment-documents');
      });

      await step(page, 'documents-02-download', async () => {
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByTestId('documents').getByRole('button', { name: 'Download PDF' }).click(),
        ]);
        expect(download.suggestedFilename()).toBe(`cn22-${abroad.tracking_number}.pdf`);
        const body = readFileSync((await download.path())!);
        expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
        expect(body.length).toBeGreaterThan(2000);
      });

      await step(page, 'documents-03-domestic-none', async () => {
        await page.goto(`${base}/dashboard/shipments/${home.id}`);
        await visible(page.getByTestId('label-preview'));
        await settled(page);
        expect(await page.getByTestId('documents').count()).toBe(0);
      });

      const phone = await openPage(browser, problems, { viewport: PHONE });
      await step(phone, 'documents-04-phone', async () => {
        await signIn(phone, base, t.email, t.password);
        await phone.goto(`${base}/dashboard/shipments/${abroad.id}`);
        await visible(phone.getByTestId('documents').getByText('CN 22 customs declaration'));
        expect(await horizontalOverflow(phone)).toBeLessThanOrEqual(0);
      });
      expect(problems, problems.join('\n')).toEqual([]);
    },
  );
});
