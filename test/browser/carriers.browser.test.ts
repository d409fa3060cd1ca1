import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../helpers/app.js';
import { startFakeUps, type FakeUps } from '../helpers/fake-ups.js';
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

// The Carriers page in Chromium against a real server whose UPS api driver talks to the fake UPS
// on loopback (test/helpers/fake-ups.ts checks every request against UPS's published
// description): the seeded simulated accounts; a UPS api account added through the form drawn
// from UPS's credentials schema (a missing secret shown next to its field first); masked
// credentials and health after save; test connection; the redacted exchange log; settings,
// credentials replaced whole; disable/enable, make default, delete. No secret typed into the page
// is ever in its HTML once saved. Screenshots land in test/artifacts/screenshots.

const SECRET = `ups-secret-${randomBytes(6).toString('hex')}`;
const WRONG = `wrong-secret-${randomBytes(6).toString('hex')}`;
const mask = (secret: string) => `••••${secret.slice(-4)}`;

let app: FastifyInstance;
let base: string;
let browser: Browser;
let ups: FakeUps;
let t: Tenant;
const problems: string[] = [];

/** Every place in the page a secret could hide: markup, attribute values and the live values of inputs. */
async function expectNoSecret(page: Page, ...secrets: string[]) {
  const html = await page.content();
  const inputs = await page.evaluate(() => [...document.querySelectorAll('input, textarea')].map((el) => (el as HTMLInputElement).value).join('\n'));
  for (const s of secrets) {
    expect(html, 'the page HTML holds a secret').not.toContain(s);
    expect(inputs, 'an input still holds a secret').not.toContain(s);
  }
}

/** The log's exchanges (an opened one adds a row of bodies beneath it). */
const exchangeRows = (page: Page) => page.getByTestId('exchanges').locator('tbody tr:not(.exchange-bodies)');

describe.skipIf(!haveChromium)('carrier accounts in Chromium', () => {
  beforeAll(async () => {
    ups = await startFakeUps({ clientSecret: SECRET });
    if (!ups.specChecked) console.warn('[carriers browser test] /work/shared/carrier-specs/ups is absent: the fake UPS skipped the schema check of requests');
    ({ app, base, browser } = await startDashboard({ config: { encryptionKey: randomBytes(32).toString('base64'), carrierAllowBaseUrlOverride: true } }));
    t = await createTenant(app);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await ups?.close();
  });

  it(
    'add a UPS api account from its schema → field error → masked credentials, health ok → test → log → settings, credentials → disable/enable → delete',
    { timeout: TEST_BACKSTOP_MS },
    async () => {
      // The bad submission's 400 and the refused credentials' answers are expected; nothing else may fail.
      const page = await openPage(browser, problems, { expected: [['400', /\/api\/admin\/carrier-accounts$/]] });
      await signIn(page, base, t.email, t.password);
      const table = page.getByTestId('carrier-accounts');
      const form = page.getByRole('form', { name: 'New carrier account' });

      await step(page, 'carriers-01-seeded', async () => {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Carriers', exact: true }).click();
        await settled(page);
        // One enabled simulated default per carrier, each healthy.
        const rows = table.locator('tbody tr');
        expect(await rows.count()).toBe(4);
        for (const name of ['UPS', 'USPS', 'FedEx', 'DHL Express']) {
          const text = await table
            .getByRole('row')
            .filter({ has: page.getByRole('link', { name, exact: true }) })
            .innerText();
          expect(text).toMatch(/simulated/i);
          expect(text).toMatch(/default/i);
          expect(text).toMatch(/enabled/i);
          expect(text).toMatch(/\bok\b/i);
        }
        await shoot(page, 'page-carriers');
      });

      await step(page, 'carriers-02-form-from-schema', async () => {
        await page.getByRole('button', { name: 'Add account' }).click();
        await form.getByLabel('Carrier', { exact: true }).selectOption({ label: 'UPS' });
        await form.getByLabel('Driver').selectOption('api');
        // The credentials schema's title, description and each property's title, the secret as a password input.
        const creds = form.getByTestId('credentials-fields');
        await visible(creds.getByText('UPS OAuth client credentials'));
        await visible(creds.getByText(/developer\.ups\.com/));
        expect(await creds.getByLabel('Client ID').getAttribute('type')).toBe('text');
        expect(await creds.getByLabel('Client secret').getAttribute('type')).toBe('password');
        await visible(creds.getByText('Secret: stored sealed, never shown again.'));
        // The simulated driver has no credentials to draw.
        await form.getByLabel('Carrier', { exact: true }).selectOption({ label: 'USPS' });
        expect(await form.getByLabel('Driver').locator('option').allInnerTexts()).toEqual(['simulated (no credentials)', 'api (real API)']);
        await form.getByLabel('Driver').selectOption('simulated');
        expect(await form.getByTestId('credentials-fields').count()).toBe(0);
        await form.getByLabel('Carrier', { exact: true }).selectOption({ label: 'UPS' });
        await form.getByLabel('Driver').selectOption('api');
        expect(await form.getByLabel('Driver').inputValue()).toBe('api');
      });

      await step(page, 'carriers-03-field-error', async () => {
        await form.getByLabel('Description (optional)').fill('Our UPS contract');
        await form.getByLabel('Account number (optional)').fill('A1B2C3');
        await form.getByLabel('Client ID').fill('fake-client-id');
        await form.getByText('Advanced').click();
        await form.getByLabel('Base URL override (optional)').fill(ups.url);
        await form.getByLabel(/Make it the default UPS account/).check();
        // No secret: the service's "is required" lands under the secret's field.
        await form.getByRole('button', { name: 'Add account' }).click();
        const secretField = form.locator('.field').filter({ has: page.getByLabel('Client secret') });
        await visible(secretField.locator('.field-error').getByText('is required'));
        expect(await form.getByLabel('Client secret').getAttribute('aria-invalid')).toBe('true');
        expect(await form.locator('.alert-error').count(), 'every detail sits next to its field').toBe(0);
        await shoot(page, 'page-carriers-add-invalid');
      });

      let accountId = '';
      let createRequestId = '';
      await step(page, 'carriers-04-saved-masked-healthy', async () => {
        await form.getByLabel('Client secret').fill(SECRET);
        const [created] = await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/admin/carrier-accounts')),
          form.getByRole('button', { name: 'Add account' }).click(),
        ]);
        expect(created.status()).toBe(201);
        createRequestId = created.headers()['x-request-id'];
        await page.waitForURL(/\/dashboard\/carriers\/ca_/);
        accountId = page.url().split('/').pop()!;
        await settled(page);
        const heading = page.getByRole('heading', { name: /UPS account/ });
        await visible(heading.locator('.badge-default'));
        await visible(heading.locator('.badge-enabled'));
        await visible(page.getByTestId('health').locator('.badge-health-ok'));
        expect(await page.getByTestId('health').innerText()).toMatch(/checked .+ · \d+ ms/);
        const masked = await page.getByTestId('masked-credentials').innerText();
        expect(masked).toContain('fake-client-id');
        expect(masked).toContain(mask(SECRET));
        await visible(page.getByText('Our UPS contract'));
        await expectNoSecret(page, SECRET);
        // The test reached the fake UPS, whose description agreed with every request.
        expect(ups.count('token')).toBeGreaterThan(0);
        expect(ups.violations).toEqual([]);
      });

      await step(page, 'carriers-05-log', async () => {
        // The create's connection test shows in the log (written after the answer: the page looks again).
        await until(async () => (await exchangeRows(page).count()) >= 1, 'the create’s exchange in the log');
        const first = exchangeRows(page).first();
        const text = await first.innerText();
        expect(text).toMatch(/POST \/security\/v1\/oauth\/token/);
        expect(text).toMatch(/200/);
        expect(text).toMatch(/\d+ ms/);
        expect(text).toContain(createRequestId); // our request that caused it
        await first.getByRole('button', { name: 'Bodies' }).click();
        const bodies = page.getByTestId('exchanges').locator('tr.exchange-bodies');
        const request = await bodies.getByTestId('exchange-request').innerText();
        const response = await bodies.getByTestId('exchange-response').innerText();
        expect(request).toMatch(/grant_type|client_credentials/);
        expect(response).toMatch(/token_type|expires_in/);
        await expectNoSecret(page, SECRET);
        await shoot(page, 'page-carrier-account');
      });

      await step(page, 'carriers-06-test-connection', async () => {
        const before = await exchangeRows(page).count();
        const tokens = ups.count('token');
        const [tested] = await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/api/admin/carrier-accounts/${accountId}/test`)),
          page.getByRole('button', { name: 'Test connection' }).click(),
        ]);
        await page.getByText('Connection test passed.').waitFor();
        expect(ups.count('token')).toBe(tokens + 1);
        await until(async () => (await exchangeRows(page).count()) === before + 1, 'the test’s exchange in the log');
        const newest = await exchangeRows(page).first().innerText();
        expect(newest).toMatch(/POST \/security\/v1\/oauth\/token[\s\S]*200/);
        expect(newest).toContain(tested.headers()['x-request-id']);
      });

      await step(page, 'carriers-07-settings-and-credentials', async () => {
        const settings = page.getByRole('form', { name: 'Account settings' });
        await settings.getByLabel('Description').fill('UPS, main contract');
        await settings.getByRole('button', { name: 'Save changes' }).click();
        await settings.getByText('Saved.').waitFor();
        await visible(page.getByText('UPS, main contract').first());

        // Replaced whole: the client id is offered again, the secret is not.
        const replace = page.getByRole('form', { name: 'Replace credentials' });
        expect(await replace.getByLabel('Client ID').inputValue()).toBe('fake-client-id');
        expect(await replace.getByLabel('Client secret').inputValue()).toBe('');
        await replace.getByLabel('Client secret').fill(WRONG);
        await replace.getByRole('button', { name: 'Replace credentials' }).click();
        await visible(page.getByTestId('health').locator('.badge-health-invalid_credentials'));
        expect(await page.getByTestId('masked-credentials').innerText()).toContain(mask(WRONG));
        await visible(replace.getByText('health is invalid credentials'));
        expect(await page.getByText('Connection test passed.').count(), 'a notice of an earlier test is gone').toBe(0);
        await expectNoSecret(page, SECRET, WRONG);
        await shoot(page, 'page-carrier-account-invalid');

        await replace.getByLabel('Client secret').fill(SECRET);
        await replace.getByRole('button', { name: 'Replace credentials' }).click();
        await visible(page.getByTestId('health').locator('.badge-health-ok'));
        expect(await page.getByTestId('masked-credentials').innerText()).toContain(mask(SECRET));
        await expectNoSecret(page, SECRET, WRONG);
        // The refused token request is in the log as such.
        await until(
          async () => (await page.getByTestId('exchanges').locator('.badge-outcome-invalid_credentials').count()) >= 1,
          'the refused exchange in the log',
        );
      });

      await step(page, 'carriers-08-disable-enable', async () => {
        const heading = page.getByRole('heading', { name: /UPS account/ });
        await page.getByRole('button', { name: 'Disable' }).click();
        await visible(heading.locator('.badge-disabled'));
        await visible(page.getByText('This account is disabled'));
        await page.getByRole('link', { name: '← Carrier accounts' }).click();
        await settled(page);
        const row = table.locator(`tr[data-account="${accountId}"]`);
        expect(await row.innerText()).toMatch(/disabled/i);
        await row.getByRole('link', { name: 'UPS' }).click();
        await settled(page);
        await page.getByRole('button', { name: 'Enable' }).click();
        await visible(heading.locator('.badge-enabled'));
        expect(await page.getByText('This account is disabled').count()).toBe(0);
      });

      await step(page, 'carriers-09-list', async () => {
        await page.getByRole('link', { name: '← Carrier accounts' }).click();
        await settled(page);
        const row = table.locator(`tr[data-account="${accountId}"]`);
        const text = await row.innerText();
        expect(text).toContain('UPS, main contract');
        expect(text).toContain('#A1B2C3');
        expect(text).toMatch(/\bapi\b/i);
        expect(text).toMatch(/sandbox/);
        expect(text).toContain(mask(SECRET));
        expect(text).toMatch(/default/i);
        expect(text).toMatch(/\bok\b/i);
        // The seeded simulated UPS account gave the default up.
        const seeded = table
          .getByRole('row')
          .filter({ has: page.getByRole('link', { name: 'UPS', exact: true }) })
          .filter({ hasText: 'simulated' });
        expect(await seeded.innerText()).not.toMatch(/default/i);
        await expectNoSecret(page, SECRET, WRONG);
        await shoot(page, 'page-carriers-with-api');
        // Make the simulated one the default again, from its page.
        await seeded.getByRole('link', { name: 'UPS' }).click();
        await settled(page);
        await page.getByRole('button', { name: 'Make default' }).click();
        await visible(page.getByRole('heading', { name: /UPS account/ }).locator('.badge-default'));
        expect(await page.getByRole('button', { name: 'Make default' }).count()).toBe(0);
        await page.goto(`${base}/dashboard/carriers/${accountId}`);
        await settled(page);
        expect(
          await page
            .getByRole('heading', { name: /UPS account/ })
            .locator('.badge-default')
            .count(),
        ).toBe(0);
      });

      await step(page, 'carriers-10-phone', async () => {
        const phone = await openPage(browser, problems, { viewport: PHONE });
        await signIn(phone, base, t.email, t.password);
        for (const url of ['/dashboard/carriers', `/dashboard/carriers/${accountId}`]) {
          await phone.goto(`${base}${url}`);
          await settled(phone);
          expect(await horizontalOverflow(phone), `${url} is wider than the screen: ${(await overflowingElements(phone)).join('\n')}`).toBeLessThanOrEqual(0);
        }
        await shoot(phone, 'page-carrier-account-375');
        await phone.context().close();
      });

      await step(page, 'carriers-11-delete', async () => {
        await page.getByRole('button', { name: 'Delete' }).click();
        await page.getByRole('button', { name: 'Delete account' }).click();
        await page.waitForURL(/\/dashboard\/carriers$/);
        await settled(page);
        expect(await table.locator(`tr[data-account="${accountId}"]`).count()).toBe(0);
        expect(await table.locator('tbody tr').count()).toBe(4);
        const gone = await app.inject({ method: 'GET', url: `/api/admin/carrier-accounts/${accountId}`, headers: t.adminHeaders });
        expect(gone.statusCode).toBe(404);
      });

      expect(ups.violations).toEqual([]);
      expect(problems, problems.join('\n')).toEqual([]);
    },
  );
});
