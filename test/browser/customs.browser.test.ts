import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../helpers/app.js';
import { haveChromium, openPage, settled, shoot, signIn, startDashboard, step, TEST_BACKSTOP_MS, visible } from './kit.js';

// The customs declaration on the order form and the order page, in Chromium
// against a real server: an order to London created with a declaration (a missing value shown
// under its field first), shown on the order page; then edited (incoterm, a second item) and
// finally removed, the page then saying it will be derived at purchase.

let app: FastifyInstance;
let base: string;
let browser: Browser;
let t: Tenant;
const problems: string[] = [];

const orderCustoms = async (id: string) => (await app.inject({ method: 'GET', url: `/api/admin/orders/${id}`, headers: t.adminHeaders })).json().customs;

describe.skipIf(!haveChromium)('customs on the order form and page in Chromium', () => {
  beforeAll(async () => {
    ({ app, base, browser } = await startDashboard());
    t = await createTenant(app);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('create with a declaration (a field error first) → shown → edit → remove', { timeout: TEST_BACKSTOP_MS }, async () => {
    const page = await openPage(browser, problems);
    await signIn(page, base, t.email, t.password);
    const item1 = page.getByRole('group', { name: 'Customs item 1' });
    const card = page.locator('.card[aria-label="Customs"]');
    let orderId = '';

    await step(page, 'customs-01-form', async () => {
      await page.getByRole('link', { name: 'New order' }).click();
      await settled(page);
      await page.locator('input[name="ship_to.name"]').fill('Ada Lovelace');
      await page.locator('input[name="ship_to.street1"]').fill('10 Downing St');
      await page.locator('input[name="ship_to.city"]').fill('London');
      await page.locator('input[name="ship_to.postal_code"]').fill('SW1A 2AA');
      await page.locator('input[name="ship_to.country"]').fill('GB');
      await page.locator('input[name="line_items.0.sku"]').fill('MUG-BLUE');
      await page.getByRole('checkbox', { name: /Declare customs/ }).check();
      await page.getByLabel('Contents type').selectOption('gift');
      await page.getByLabel('Signer').fill('Grace Hopper');
      await item1.getByLabel('Description').fill('Ceramic coffee mug');
      await item1.getByLabel('Unit weight (oz)').fill('12');
      await item1.getByLabel('HS code').fill('6912.00');
      // No value yet: refused beside its field before anything is sent.
      await page.getByRole('button', { name: 'Create order' }).click();
      await page.getByText('Please correct the').waitFor();
      await visible(item1.locator('.field-error'));
      await shoot(page, 'page-order-form-customs-invalid');
    });

    await step(page, 'customs-02-create', async () => {
      await item1.getByLabel('Unit value (USD)').fill('12.50');
      await page.getByRole('button', { name: 'Create order' }).click();
      await page.waitForURL(/\/dashboard\/orders\/ord_/);
      orderId = /ord_[0-9a-z]+/.exec(page.url())![0];
      await settled(page);
      await visible(card.getByRole('cell', { name: 'Ceramic coffee mug' }));
      await visible(card.getByRole('cell', { name: '6912.00' }));
      await visible(card.getByText('Grace Hopper'));
      await shoot(page, 'page-order-detail-customs');
      expect(await orderCustoms(orderId)).toMatchObject({
        contents_type: 'gift',
        incoterm: 'DDU',
        non_delivery: 'return',
        signer: 'Grace Hopper',
        items: [
          {
            description: 'Ceramic coffee mug',
            quantity: 1,
            unit_value: { amount: 1250, currency: 'USD' },
            weight_oz: 12,
            hs_tariff_number: '6912.00',
            origin_country: 'US',
          },
        ],
      });
    });

    await step(page, 'customs-03-edit', async () => {
      await page.getByRole('link', { name: 'Edit', exact: true }).click();
      await settled(page);
      await page.getByLabel('Incoterm').selectOption('DDP');
      await page.getByRole('button', { name: 'Add customs item' }).click();
      const item2 = page.getByRole('group', { name: 'Customs item 2' });
      await item2.getByLabel('Description').fill('Cotton tea towel');
      await item2.getByLabel('Unit value (USD)').fill('9');
      await item2.getByLabel('Unit weight (oz)').fill('3');
      await item2.getByLabel('Origin country').fill('pt');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.waitForURL(new RegExp(`/dashboard/orders/${orderId}$`));
      await settled(page);
      await visible(card.getByRole('cell', { name: 'Cotton tea towel' }));
      await visible(card.getByText('DDP'));
      const customs = await orderCustoms(orderId);
      expect(customs.incoterm).toBe('DDP');
      expect(customs.items[1]).toMatchObject({ description: 'Cotton tea towel', unit_value: { amount: 900, currency: 'USD' }, origin_country: 'PT' });
    });

    await step(page, 'customs-04-remove', async () => {
      await page.getByRole('link', { name: 'Edit', exact: true }).click();
      await settled(page);
      await page.getByRole('checkbox', { name: /Declare customs/ }).uncheck();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.waitForURL(new RegExp(`/dashboard/orders/${orderId}$`));
      await settled(page);
      await visible(card.getByText('No declaration given'));
      expect(await orderCustoms(orderId)).toBeNull();
    });

    expect(problems).toEqual([]);
  });
});
