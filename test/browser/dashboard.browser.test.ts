import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, haveChromium, horizontalOverflow, openPage, PHONE, shoot, startDashboard, step, SUPER, TEST_BACKSTOP_MS, visible } from './kit.js';

// The dashboard in a real browser (Debian's Chromium through playwright-core) against a real
// server on a free port: register → approve → sign in → create an order → process it → buy its
// label → the shipment → the public tracking timeline; the rate calculator; an API key shown
// once; the public tracking page's not-found message; phone width. Screenshots (every main page
// of this flow, and the failed step) land in test/artifacts/screenshots.

// Chromium reports every 4xx answer to fetch() as a console error. Two are this flow's expected
// answers: the pending account's refused sign-in, the unknown tracking number.
const EXPECTED_FAILURES: [string, RegExp][] = [
  ['403', /\/api\/auth\/session$/],
  ['404', /\/api\/public\/track\//],
  // The ship-from onboarding is first submitted empty, to see its field errors.
  ['400', /\/api\/admin\/workspace$/],
  // The buy-label card first asks for rates with the order's weightless parcel.
  ['400', /\/api\/admin\/rates\/query$/],
];

let base: string;
let browser: Browser;
const problems: string[] = [];
const newPage = (viewport = DESKTOP) => openPage(browser, problems, { viewport, expected: EXPECTED_FAILURES });

describe.skipIf(!haveChromium)('dashboard in Chromium', () => {
  beforeAll(async () => {
    ({ base, browser } = await startDashboard());
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it(
    'register → approve → sign in → order → process → label → shipment → public timeline, rates, API key once, tracking 404, phone width',
    { timeout: TEST_BACKSTOP_MS },
    async () => {
      const email = `buyer-${Date.now()}@example.com`;
      const password = 'correct horse battery';
      const page = await newPage();
      const user = page.context();

      await step(page, '01-register', async () => {
        await page.goto(`${base}/dashboard`);
        await page.waitForURL('**/dashboard/login');
        await page.getByRole('link', { name: 'Create one' }).click();
        await shoot(page, 'page-register');
        await page.getByLabel('Your name').fill('Ada Buyer');
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password').fill('short');
        await visible(page.getByText('must be at least 10 characters'));
        await page.getByLabel('Password').fill(password);
        await page.getByLabel('Workspace name').fill('Ada Store');
        await page.getByRole('button', { name: 'Create account' }).click();
        await page.getByText('waiting for approval').waitFor();
      });

      await step(page, '02-pending-login-refused', async () => {
        await page.getByRole('link', { name: 'Back to sign in' }).click();
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password').fill(password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByText('Your account is waiting for approval').waitFor();
        await shoot(page, 'page-sign-in');
      });

      const adminPage = await newPage();
      await step(adminPage, '03-super-admin-approves', async () => {
        await adminPage.goto(`${base}/dashboard/login`);
        await adminPage.getByLabel('Email').fill(SUPER.email);
        await adminPage.getByLabel('Password').fill(SUPER.password);
        await adminPage.getByRole('button', { name: 'Sign in' }).click();
        await adminPage.getByRole('link', { name: 'Accounts' }).click();
        await adminPage.getByPlaceholder('Email').fill(email);
        await adminPage.getByRole('button', { name: 'Search' }).click();
        await adminPage.getByRole('button', { name: `approve ${email}` }).click();
        await adminPage.getByRole('button', { name: `suspend ${email}` }).waitFor();
        await shoot(adminPage, 'page-admin-accounts');
        await adminPage.getByRole('link', { name: 'Workspaces' }).click();
        await adminPage.getByText('Ada Store').waitFor();
        // Who is in it, read when opened: the new account, as its owner.
        const row = adminPage.getByRole('row', { name: /Ada Store/ });
        await row.getByTestId('workspace-members').locator('summary').click();
        await visible(row.getByTestId('workspace-members').getByText(email));
        await visible(row.getByTestId('workspace-members').getByText('owner'));
        await shoot(adminPage, 'page-admin-workspaces');
      });

      await step(page, '04-sign-in-keyboard', async () => {
        // Keyboard only: the email field has focus, Tab to the password, Enter submits.
        await page.getByLabel('Email').fill('');
        await page.getByLabel('Email').focus();
        await page.keyboard.type(email);
        await page.keyboard.press('Tab');
        await page.keyboard.type(password);
        await page.keyboard.press('Enter');
        await page.waitForURL('**/dashboard/orders');
        await page.getByText('No orders yet in this environment').waitFor();
        await visible(page.getByRole('button', { name: 'Test', pressed: true }));
        await shoot(page, 'page-orders-empty');
      });

      await step(page, '05-order-validation', async () => {
        await page.getByRole('link', { name: 'New order' }).click();
        await page.getByRole('button', { name: 'Create order' }).click();
        await page.getByText('Please correct the').waitFor();
        expect(await page.locator('.field-error').count()).toBeGreaterThanOrEqual(3);
        await shoot(page, 'page-order-form-invalid');
      });

      await step(page, '06-order-create', async () => {
        await page.getByLabel('Name', { exact: true }).first().fill('Ada Buyer');
        await page.locator('input[name="ship_to.name"]').fill('Ada Buyer');
        await page.locator('input[name="ship_to.street1"]').fill('1 Main St');
        await page.locator('input[name="ship_to.city"]').fill('Beverly Hills');
        await page.locator('input[name="ship_to.state"]').fill('CA');
        await page.locator('input[name="ship_to.postal_code"]').fill('90210');
        await page.locator('input[name="line_items.0.sku"]').fill('MUG-1');
        await page.locator('input[name="line_items.0.quantity"]').fill('2');
        await page.getByRole('button', { name: 'Create order' }).click();
        await page.waitForURL(/\/dashboard\/orders\/ord_/);
        await page.getByRole('heading', { name: /Order/ }).getByText('awaiting fulfillment').waitFor();
        await page.getByText('MUG-1').waitFor();
        await shoot(page, 'page-order-detail');
      });

      await step(page, '07-order-process', async () => {
        await page.getByRole('button', { name: 'Process' }).click();
        await page.getByRole('heading', { name: /Order/ }).getByText('processing').waitFor();
        await page.getByRole('link', { name: '← Orders' }).click();
        const row = page.getByRole('row', { name: /Ada Buyer/ });
        await row.waitFor();
        await visible(row.getByText('processing'));
      });

      let tracking = '';
      await step(page, '07b-generate-label', async () => {
        // A label needs a ship-from: the order queue asks for it first (onboarding), field errors beside the fields.
        const onboarding = page.getByTestId('ship-from-onboarding');
        await onboarding.waitFor();
        await onboarding.getByRole('button', { name: 'Save ship-from address' }).click();
        await visible(onboarding.getByRole('alert'));
        await onboarding.getByLabel('Name').fill('Ada Store');
        await onboarding.getByLabel('Street *').fill('350 5th Ave');
        await onboarding.getByLabel('City *').fill('New York');
        await onboarding.getByLabel('State / region').fill('NY');
        await onboarding.getByLabel('Postal code *').fill('10118');
        await onboarding.getByLabel('Country (2 letters) *').fill('US');
        await onboarding.getByRole('button', { name: 'Save ship-from address' }).click();
        await onboarding.waitFor({ state: 'detached' });
        await page
          .getByRole('row', { name: /Ada Buyer/ })
          .getByRole('link')
          .first()
          .click();
        // Buying shows the rates first: price with its breakdown, delivery date, the rules' choice.
        expect(await page.getByRole('button', { name: 'Generate label' }).count()).toBe(0);
        const buy = page.getByTestId('buy-label');
        // The order's lines carry no weight: rating it as it is names the field.
        await buy.getByRole('button', { name: 'Get rates' }).click();
        await visible(buy.getByText('must be > 0').first());
        await buy.getByLabel('Weight (oz)').fill('24');
        await buy.getByRole('button', { name: 'Get rates' }).click();
        const rates = buy.getByTestId('buy-rates');
        await rates.waitFor();
        expect(await rates.locator('tbody tr').count()).toBeGreaterThan(3);
        const first = rates.locator('tbody tr').first();
        await visible(first.getByText("rules' choice")); // no rule: the cheapest, chosen by default
        expect(await first.getByRole('radio').isChecked()).toBe(true);
        expect(await first.innerText()).toMatch(/postage \$\d+\.\d\d/);
        expect(await first.innerText()).toMatch(/business day/);
        await visible(buy.getByTestId('rules-choice').getByText(/No shipping rule matches/));
        await shoot(page, 'page-buy-label-rates');
        // An edit after the rates were shown: nothing can be bought until they are asked again.
        await buy.getByLabel('Weight (oz)').fill('40');
        await visible(buy.getByText(/get the rates again/));
        expect(await buy.getByTestId('buy-chosen').count()).toBe(0);
        await buy.getByRole('button', { name: 'Get rates again' }).click();
        await rates.waitFor();
        // Keyboard: the second rate chosen with the arrow key, Enter asks to confirm; nothing bought yet.
        const second = rates.locator('tbody tr').nth(1);
        const secondPrice = (await second.locator('td.num').innerText()).trim();
        await rates.locator('tbody tr').first().getByRole('radio').focus();
        await page.keyboard.press('ArrowDown');
        expect(await second.getByRole('radio').isChecked()).toBe(true);
        await page.keyboard.press('Enter');
        const confirm = buy.getByTestId('confirm-buy');
        await visible(confirm);
        expect(await confirm.innerText()).toContain(secondPrice);
        await visible(page.getByRole('heading', { name: /Order/ }).getByText('processing'));
        await shoot(page, 'page-buy-label-confirm');
        await confirm.getByRole('button', { name: 'Confirm purchase' }).click();
        await visible(page.getByTestId('label-bought'));
        await page.getByRole('heading', { name: /Order/ }).getByText('shipped').waitFor();
        await visible(page.getByText(/Parcel: 40 oz/));
        // P prints the label just bought (a packing station's keyboard), as its button does.
        await visible(page.getByTestId('print-bought-label'));
        const [labelTab] = await Promise.all([page.context().waitForEvent('page'), page.keyboard.press('p')]);
        expect(labelTab.url()).toMatch(/^blob:/);
        await labelTab.close();
        await page.getByRole('link', { name: 'Shipments' }).click();
        const row = page.getByTestId('shipments').locator('tbody tr').first();
        await visible(row.getByText('label purchased'));
        tracking = (await row.locator('td.mono').first().innerText()).trim();
        await shoot(page, 'page-shipments');
        expect(tracking.length).toBeGreaterThan(9);
        await row.getByRole('link').click();
        await page.getByRole('heading', { name: /Shipment/ }).waitFor();
        await visible(page.getByTestId('label-preview'));
        expect(await page.getByTestId('label-preview').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 100)).toBe(true);
        await visible(page.getByText('Label created', { exact: true }));
        // The destination check before purchase: the default mode and its verdict.
        await visible(page.getByTestId('address-check').getByText(/Address check: validate/));
        await visible(page.getByTestId('address-check').getByText('built-in validator', { exact: false }));
        await shoot(page, 'page-shipment-detail');
        // A simulated carrier's label cannot be mistaken for a real one: badged, and printable in one click.
        await visible(page.getByRole('heading', { name: /Shipment/ }).getByText('sample - do not mail'));
        for (const button of ['print-label', 'print-packing-slip']) {
          const [tab] = await Promise.all([page.context().waitForEvent('page'), page.getByTestId(button).click()]);
          expect(tab.url()).toMatch(/^blob:/);
          await tab.close();
        }
        expect(await page.getByRole('alert').count()).toBe(0);
        // Live with only simulated carriers: every page warns until a real carrier account is connected.
        await page.getByRole('link', { name: 'Orders' }).first().click();
        await page.getByRole('group', { name: 'Environment' }).getByRole('button', { name: 'Live' }).click();
        await visible(page.getByTestId('live-carrier-warning'));
        await page.getByRole('group', { name: 'Environment' }).getByRole('button', { name: 'Test' }).click();
        await page.getByTestId('live-carrier-warning').waitFor({ state: 'detached' });
      });

      await step(page, '08-rates', async () => {
        await page.getByRole('link', { name: 'Rates' }).click();
        await page.getByRole('button', { name: 'Get rates' }).click();
        const table = page.getByTestId('rates');
        await table.waitFor();
        expect(await table.locator('tbody tr').count()).toBeGreaterThan(3);
        const firstRow = await table.locator('tbody tr').first().innerText();
        expect(firstRow).toMatch(/\d+ oz/); // billable weight
        expect(firstRow).toMatch(/business day/);
        await visible(table.getByText('fuel').first());
        await shoot(page, 'page-rates');
      });

      let secret = '';
      await step(page, '09-api-key-once', async () => {
        await page.getByRole('link', { name: 'API keys' }).click();
        await page.getByLabel('Name').fill('ERP sync');
        await page.getByRole('button', { name: 'Create key' }).click();
        secret = (await page.getByTestId('secret-once').locator('code').innerText()).trim();
        expect(secret).toMatch(/^sk_test_[0-9A-Za-z]{40,}$/);
        await shoot(page, 'page-api-keys');
        await page.getByRole('button', { name: /I have stored it/ }).click();
        await page.reload();
        await page.getByTestId('api-keys').getByText('ERP sync').waitFor();
        expect(await page.content()).not.toContain(secret);
        await visible(page.getByTestId('api-keys').getByText(`…${secret.slice(-4)}`));
      });

      await step(page, '10-no-token-in-page-storage', async () => {
        const stored = await page.evaluate(() => ({ cookie: document.cookie, local: JSON.stringify(localStorage), session: JSON.stringify(sessionStorage) }));
        expect(stored.cookie).not.toContain('service_session');
        expect(stored.local).toBe('{}');
        expect(stored.session).toBe('{}');
        const cookies = await user.cookies(`${base}/api/auth/session`);
        const session = cookies.find((c) => c.name === 'service_session');
        expect(session?.httpOnly).toBe(true);
        expect(session?.sameSite).toBe('Strict');
      });

      await step(page, '11-phone-width', async () => {
        await page.setViewportSize({ width: 375, height: 800 });
        await page.getByRole('link', { name: 'Orders' }).click();
        await page.getByRole('row', { name: /Ada Buyer/ }).waitFor();
        expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
        await shoot(page, 'page-orders-375');
      });

      await step(page, '12-sign-out', async () => {
        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.waitForURL('**/dashboard/login');
        const again = await page.goto(`${base}/dashboard/orders`);
        expect(again?.status()).toBe(200);
        await page.waitForURL('**/dashboard/login');
      });

      const visitor = await newPage(PHONE);
      await step(visitor, '13-public-track-404', async () => {
        const res = await visitor.goto(`${base}/track/1Z999AA10123456784`);
        expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
        await visitor.getByTestId('track-not-found').waitFor();
        await visible(visitor.getByText('We could not find a parcel with tracking number 1Z999AA10123456784.'));
        await shoot(visitor, 'page-track-not-found-375');
      });

      await step(visitor, '14-public-track-timeline', async () => {
        await visitor.goto(`${base}/track/${tracking}`);
        await visitor.locator('.timeline li.reached').first().waitFor();
        await visible(visitor.getByText('Label created', { exact: true }));
        expect(await horizontalOverflow(visitor)).toBeLessThanOrEqual(0);
        await shoot(visitor, 'page-track-375');
      });

      expect(problems, problems.join('\n')).toEqual([]);
    },
  );
});
