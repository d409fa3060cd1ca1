import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../helpers/app.js';
import { settingsService } from '../../src/modules/settings/index.js';
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

// Returns and refunds in Chromium against a real server: on a shipment's page a
// return label is made through the small form (an out-of-range expiry shown under its field
// first) and listed with its billing status; the outbound label is voided and its refund shows
// submitted, then refunded once the simulated carrier decided; the Refunds page (nav entry)
// lists it and filters by status. No sideways scroll at 375 px.

let app: FastifyInstance;
let base: string;
let browser: Browser;
let t: Tenant;
const problems: string[] = [];

const shipFrom = { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };

async function buyLabel(): Promise<{ id: string; tracking_number: string }> {
  const order = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers: t.headers,
    payload: {
      customer: { name: 'Ada Lovelace' },
      ship_to: shipTo,
      ship_from: shipFrom,
      line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 1, weight_oz: 12 }],
      parcel: { weight_oz: 16, length_in: 10, width_in: 8, height_in: 4 },
    },
  });
  expect(order.statusCode, order.body).toBe(201);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/shipments',
    headers: t.headers,
    payload: { order_id: order.json().id, service_code: 'usps_ground_advantage' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe.skipIf(!haveChromium)('returns and refunds in Chromium', () => {
  beforeAll(async () => {
    ({ app, base, browser } = await startDashboard());
    t = await createTenant(app);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it(
    'create a return (a field error first) → void the outbound → refund submitted → refunded → Refunds page; no sideways scroll at 375 px',
    { timeout: TEST_BACKSTOP_MS },
    async () => {
      const shipment = await buyLabel();
      // The refused expiry's 400 is expected; nothing else may fail.
      const page = await openPage(browser, problems, { expected: [['400', /\/api\/admin\/shipments\/[^/]+\/return$/]] });
      await signIn(page, base, t.email, t.password);
      const form = page.getByRole('form', { name: 'Create a return label' });

      await step(page, 'returns-01-field-error', async () => {
        await page.goto(`${base}/dashboard/shipments/${shipment.id}`);
        await settled(page);
        await visible(page.getByText('No return labels yet.'));
        await form.getByLabel('RMA number').fill('RMA-77');
        await form.getByLabel('Expires in days').fill('120');
        await form.getByRole('button', { name: 'Create return label' }).click();
        await visible(form.locator('.field-error').first());
        expect(await form.getByLabel('Expires in days').getAttribute('aria-invalid')).toBe('true');
        expect((await app.deps.db.selectFrom('shipments').select('id').where('return_of', '=', shipment.id).execute()).length).toBe(0);
      });

      let returnId = '';
      await step(page, 'returns-02-created', async () => {
        await form.getByLabel('Expires in days').fill('');
        await form.getByLabel('Reason').fill('Too small');
        const [created] = await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'POST' && /\/return$/.test(r.url())),
          form.getByRole('button', { name: 'Create return label' }).click(),
        ]);
        expect(created.status()).toBe(201);
        returnId = (await created.json()).id;
        await visible(form.getByRole('status'));
        const row = page
          .getByTestId('returns')
          .getByRole('row')
          .filter({ hasText: (await created.json()).tracking_number });
        await visible(row);
        expect(await row.innerText()).toMatch(/label purchased.*pending/is);
        const stored = await app.deps.db
          .selectFrom('shipments')
          .select(['rma_number', 'return_reason', 'billing_status', 'return_charge'])
          .where('id', '=', returnId)
          .executeTakeFirstOrThrow();
        expect(stored).toEqual({ rma_number: 'RMA-77', return_reason: 'Too small', billing_status: 'pending', return_charge: 'on_scan' });
        await shoot(page, 'page-shipment-returns');
      });

      await step(page, 'returns-03-return-page', async () => {
        await page.getByTestId('returns').getByRole('link').first().click();
        await page.waitForURL(`**/dashboard/shipments/${returnId}`);
        await settled(page);
        expect(await page.getByTestId('return-facts').innerText()).toMatch(/RMA-77.*Too small/is);
        expect(await page.getByTestId('billing-status').innerText()).toMatch(/pending.*on scan/is);
        await page.getByRole('link', { name: 'the outbound shipment' }).click();
        await page.waitForURL(`**/dashboard/shipments/${shipment.id}`);
        await settled(page);
      });

      await step(page, 'returns-04-void-refund', async () => {
        await settingsService(app.deps).set('sandbox.refund_delay_seconds', 0, { type: 'system', id: null }, {});
        await page.getByRole('button', { name: 'Void label' }).click();
        await page.getByRole('button', { name: 'Void now' }).click();
        await visible(page.getByTestId('refund').getByText('submitted'));
        await until(
          async () => (await app.services.shipments.refunds.decideDue()) > 0 || (await page.getByTestId('refund').innerText()).includes('refunded'),
          'the refund to be decided',
        );
        await page.reload();
        await settled(page);
        await visible(page.getByTestId('refund').getByText('refunded', { exact: true }));
      });

      await step(page, 'returns-05-refunds-page', async () => {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Refunds', exact: true }).click();
        await page.waitForURL('**/dashboard/refunds');
        await settled(page);
        const row = page.getByTestId('refunds').getByRole('row').filter({ hasText: shipment.tracking_number });
        await visible(row);
        expect(await row.innerText()).toMatch(/usps.*refunded/is);
        await shoot(page, 'page-refunds');
        await page.getByLabel('Refund status').selectOption('rejected');
        await visible(page.getByText('No refunds.'));
      });

      await step(page, 'returns-06-phone', async () => {
        const phone = await openPage(browser, problems, { viewport: PHONE });
        await signIn(phone, base, t.email, t.password);
        await phone.goto(`${base}/dashboard/shipments/${shipment.id}`);
        await settled(phone);
        await visible(phone.getByTestId('returns'));
        expect(
          await horizontalOverflow(phone),
          `the shipment page is wider than the screen: ${(await overflowingElements(phone)).join('\n')}`,
        ).toBeLessThanOrEqual(0);
        await phone.goto(`${base}/dashboard/refunds`);
        await settled(phone);
        expect(
          await horizontalOverflow(phone),
          `the Refunds page is wider than the screen: ${(await overflowingElements(phone)).join('\n')}`,
        ).toBeLessThanOrEqual(0);
        await shoot(phone, 'page-refunds-375');
        await phone.context().close();
      });

      expect(problems, problems.join('\n')).toEqual([]);
    },
  );
});
