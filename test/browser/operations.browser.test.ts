import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerJobHandlers } from '../../src/bootstrap/jobs.js';
import { createTenant, superAdminHeaders, type Tenant } from '../helpers/app.js';
import { startFakeShopify } from '../helpers/fake-shopify/index.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import {
  DESKTOP,
  haveChromium,
  settled,
  TEST_BACKSTOP_MS,
  horizontalOverflow,
  openPage,
  overflowingElements,
  PHONE,
  shoot,
  signIn,
  startDashboard,
  step,
  SUPER,
  until,
  visible,
  type ExpectedFailure,
} from './kit.js';

// The dashboard's operations pages in Chromium against one real server with its job workers
// running (webhook deliveries, batch chunks): webhooks from the secret shown once to dead letters
// retried; a batch of labels from the orders page to the merged file; the schema-driven settings
// form; office-redeem PINs from the console to the public /redeem page; and a tour of every page
// at desktop and phone width. Screenshots land in test/artifacts/screenshots.

let app: FastifyInstance;
let base: string;
let browser: Browser;
let receiver: Receiver;
let t: Tenant;
let root: Record<string, string>;
const problems: string[] = [];

const shipFrom = { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };

async function setSetting(key: string, value: unknown) {
  const res = await app.inject({ method: 'PUT', url: `/api/super-admin/settings/${key}`, headers: root, payload: { value } });
  expect(res.statusCode, res.body).toBe(200);
}

async function createOrder(externalId: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers: t.headers,
    payload: {
      external_id: externalId,
      customer: { name: `Buyer ${externalId}` },
      ship_to: shipTo,
      ship_from: shipFrom,
      line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 1, weight_oz: 12 }],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

/** The tenant's user, signed in through the sign-in page. */
async function userPage(opts: { viewport?: typeof DESKTOP; expected?: ExpectedFailure[] } = {}): Promise<Page> {
  const page = await openPage(browser, problems, opts);
  await signIn(page, base, t.email, t.password);
  return page;
}

async function superPage(opts: { viewport?: typeof DESKTOP; expected?: ExpectedFailure[] } = {}): Promise<Page> {
  const page = await openPage(browser, problems, opts);
  await signIn(page, base, SUPER.email, SUPER.password);
  return page;
}

type Analytics = { webhooks: { success_rate: number | null }; api_requests: { by_workspace: { workspace_id: string; name: string | null }[] } };
async function analytics(): Promise<Analytics> {
  const res = await app.inject({ method: 'GET', url: '/api/super-admin/analytics', headers: root });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/**
 * The analytics page drew what the API answers: recharts' SVG with bars of some height in each
 * chart, the webhook success rate as a percentage, the tenant's workspace among the requesters.
 */
async function analyticsDrawn(page: Page) {
  for (const card of ['analytics-orders', 'analytics-labels', 'analytics-requests']) {
    const surface = page.getByTestId(card).locator('.time-chart > svg.recharts-surface');
    await visible(surface);
    const bars = await surface.locator('.recharts-bar-rectangle path').evaluateAll((paths) => paths.filter((p) => p.getBoundingClientRect().height > 1).length);
    expect(bars, `${card}: bars drawn`).toBeGreaterThan(0);
    expect(await surface.locator('.recharts-xAxis .recharts-cartesian-axis-tick').count(), `${card}: date ticks`).toBeGreaterThan(0);
  }
  const expected = await analytics();
  const rate = /success rate\s*([\d.]+)\s*%/i.exec(await page.getByTestId('analytics-webhooks').innerText());
  expect(rate, 'webhook success rate shown as a percentage').not.toBeNull();
  expect(Number(rate![1])).toBeCloseTo(expected.webhooks.success_rate! * 100, 0);
  const mine = expected.api_requests.by_workspace.find((w) => w.workspace_id === t.workspaceId);
  expect(mine?.name).toBeTruthy();
  const row = page.getByTestId('analytics-requests-by-workspace').getByRole('row', { name: new RegExp(t.workspaceId) });
  await visible(row);
  expect(await row.innerText()).toMatch(new RegExp(`${mine!.name}[\\s\\S]*${t.workspaceId}\\s+[1-9]`));
}

describe.skipIf(!haveChromium)('dashboard operations in Chromium', () => {
  beforeAll(async () => {
    ({ app, base, browser } = await startDashboard({ config: { webhookAllowPrivateTargets: true, channelAllowBaseUrlOverride: true } }));
    // The workers of `npm start`, in this process: webhook deliveries and batch chunks run for real.
    await registerJobHandlers(app);
    await app.deps.jobs.start();
    receiver = await startReceiver();
    t = await createTenant(app);
    root = await superAdminHeaders(app);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
  });

  it('webhooks: secret once → test events fail → dead letters → retry one and all → delivered', { timeout: TEST_BACKSTOP_MS }, async () => {
    // Few, fast attempts so that a failing delivery is dead within seconds.
    await setSetting('webhooks.max_attempts', 2);
    await setSetting('webhooks.retry_schedule_seconds', [1]);
    let healthy = false;
    receiver.on('/hook', () => (healthy ? { status: 200, body: 'ok' } : { status: 500, body: 'receiver down' }));
    const url = receiver.url('/hook');
    const page = await userPage();

    let secret = '';
    await step(page, 'webhooks-01-create-secret-once', async () => {
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByText('No webhook endpoints in this environment yet').waitFor();
      await shoot(page, 'page-webhooks-empty');
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.getByLabel('URL', { exact: true }).fill(url);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const once = page.getByTestId('secret-once');
      secret = (await once.locator('code').innerText()).trim();
      expect(secret).toMatch(/^whsec_[0-9A-Za-z]{20,}$/);
      await visible(once.getByText('shown only this once'));
      await visible(once.getByRole('button', { name: 'Copy' }));
      await shoot(page, 'page-webhooks-secret-once');
      await once.getByRole('button', { name: /I have stored it/ }).click();
      await page.reload();
      await page.getByTestId('webhooks').getByRole('link', { name: url }).waitFor();
      expect(await page.content()).not.toContain(secret);
      await shoot(page, 'page-webhooks');
    });

    await step(page, 'webhooks-02-edit-rotate-disable', async () => {
      await page.getByTestId('webhooks').getByRole('link', { name: url }).click();
      await page.getByRole('heading', { name: /Endpoint/ }).waitFor();
      await page.getByLabel('Description').fill('ERP receiver');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Saved.').waitFor();
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      const rotated = (await page.getByTestId('secret-once').locator('code').innerText()).trim();
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      await visible(page.getByText('The previous secret keeps signing'));
      await page.getByRole('button', { name: /I have stored it/ }).click();
      await page.getByRole('button', { name: 'Disable' }).click();
      await page
        .getByRole('heading', { name: /Endpoint/ })
        .locator('.badge-disabled')
        .waitFor();
      expect(await page.getByRole('button', { name: 'Send test event' }).isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Enable' }).click();
      await page
        .getByRole('heading', { name: /Endpoint/ })
        .locator('.badge-enabled')
        .waitFor();
    });

    await step(page, 'webhooks-03-test-events-go-dead', async () => {
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page.getByText('Test event queued').waitFor();
      await page.getByRole('button', { name: 'Send test event' }).click();
      // The page refreshes itself while deliveries are on their way: two attempts each, then dead.
      const dead = page.getByTestId('deliveries').locator('.badge-dead');
      await until(async () => (await dead.count()) === 2, 'two dead deliveries on the endpoint page');
      await shoot(page, 'page-webhook-endpoint');
    });

    await step(page, 'webhooks-04-delivery-attempts', async () => {
      await page.getByTestId('deliveries').locator('tbody tr').first().getByRole('link').first().click();
      await page.waitForURL(/\/dashboard\/webhooks\/deliveries\/dlv_/);
      const attempts = page.getByTestId('attempts').locator('tbody tr');
      await until(async () => (await attempts.count()) === 2, 'two attempts');
      const first = await attempts.first().innerText();
      expect(first).toMatch(/500/);
      expect(first).toMatch(/\d+ ms/);
      await visible(page.getByRole('button', { name: 'Retry now' }));
      await shoot(page, 'page-webhook-delivery');
    });

    healthy = true;
    await step(page, 'webhooks-05-dead-letters-retry-one-and-all', async () => {
      await page.getByRole('link', { name: 'Dead letters' }).click();
      const rows = page.getByTestId('dead-letters').locator('tbody tr');
      await until(async () => (await rows.count()) === 2, 'two dead letters');
      await shoot(page, 'page-webhook-dead-letters');
      const firstId = (await rows.first().locator('td').first().innerText()).trim();
      await page.getByRole('button', { name: `Retry ${firstId}` }).click();
      await until(async () => (await rows.count()) === 1, 'one dead letter left');
      await page.getByRole('button', { name: 'Retry all' }).click();
      await page.getByRole('button', { name: /Retry every dead letter/ }).click();
      await page.getByTestId('retry-progress').getByText('Retried 1 of 1').waitFor();
      await page.getByText('No dead letters').waitFor();
    });

    await step(page, 'webhooks-06-delivered', async () => {
      await page.getByRole('link', { name: 'Deliveries', exact: true }).click();
      const delivered = page.getByTestId('deliveries').locator('.badge-delivered');
      await until(async () => (await delivered.count()) === 2, 'both deliveries delivered');
      await shoot(page, 'page-webhook-deliveries');
      // Each delivery reached the receiver three times under one delivery id: two failures, one retry.
      const ids = receiver.at('/hook').map((r) => String(r.headers['x-service-delivery-id']));
      expect(ids).toHaveLength(6);
      expect(new Set(ids).size).toBe(2);
    });

    await setSetting('webhooks.max_attempts', 8);
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it(
    'batches: bulk select 3 orders → batch generate → live progress to completed → merged label; failed items; batch process',
    { timeout: TEST_BACKSTOP_MS },
    async () => {
      for (const n of ['BAT-1', 'BAT-2', 'BAT-3']) await createOrder(n);
      const page = await userPage();

      await step(page, 'batches-01-bulk-select', async () => {
        await page.getByRole('link', { name: 'Orders', exact: true }).click();
        for (const n of ['BAT-1', 'BAT-2', 'BAT-3']) await page.getByRole('checkbox', { name: `Select ${n}` }).check();
        await page.getByText('3 selected').waitFor();
        await shoot(page, 'page-orders-bulk-select');
        await page.getByRole('button', { name: 'Batch generate labels' }).click();
        await page.waitForURL(/\/dashboard\/batches\/bat_/);
      });

      await step(page, 'batches-02-progress-completed', async () => {
        await page.getByRole('heading').locator('.badge-completed').waitFor();
        const bar = page.getByLabel('Batch progress');
        expect(await bar.evaluate((p: HTMLProgressElement) => [p.value, p.max])).toEqual([3, 3]);
        await visible(page.getByText('3 of 3 items finished'));
        await visible(page.getByText('No failed items.'));
        await shoot(page, 'page-batch-detail');
      });

      await step(page, 'batches-03-merged-label', async () => {
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download merged label' }).click()]);
        expect(download.suggestedFilename()).toMatch(/^labels-bat_\w+\.pdf$/);
        const pdf = readFileSync((await download.path())!).toString('latin1');
        expect(pdf.startsWith('%PDF')).toBe(true);
        // One page per label.
        expect(pdf.match(/\/Type\s*\/Page\b/g)).toHaveLength(3);
      });

      await step(page, 'batches-04-failed-items', async () => {
        // BAT-1 is shipped now: a second label for it is refused, item by item.
        await page.getByRole('link', { name: 'Orders', exact: true }).click();
        await page.getByRole('checkbox', { name: 'Select BAT-1' }).check();
        await page.getByRole('button', { name: 'Batch generate labels' }).click();
        await page.waitForURL(/\/dashboard\/batches\/bat_/);
        await page.getByRole('heading').locator('.badge-failed, .badge-completed_with_errors').waitFor();
        const failed = page.getByTestId('batch-items');
        await visible(failed.getByText('invalid_state'));
        await shoot(page, 'page-batch-detail-failed');
      });

      await step(page, 'batches-05-batch-process', async () => {
        await createOrder('BAT-4');
        await page.getByRole('link', { name: 'Orders', exact: true }).click();
        await page.getByRole('checkbox', { name: 'Select BAT-4' }).check();
        await page.getByRole('button', { name: 'Batch process' }).click();
        await page.waitForURL(/\/dashboard\/batches\/bat_/);
        await page
          .getByRole('heading', { name: /Process orders/ })
          .locator('.badge-completed')
          .waitFor();
        await page.getByLabel('Show').selectOption('succeeded');
        await page.getByTestId('batch-items').getByRole('link', { name: 'BAT-4' }).click();
        await page.getByRole('heading', { name: /Order/ }).getByText('processing').waitFor();
        await page.getByRole('link', { name: 'Batches', exact: true }).click();
        await until(async () => (await page.getByTestId('batches').locator('tbody tr').count()) === 3, 'three batches listed');
        await shoot(page, 'page-batches');
      });

      expect(problems, problems.join('\n')).toEqual([]);
    },
  );

  it('settings: the schema-driven form saves, survives a reload, and shows validation messages', { timeout: TEST_BACKSTOP_MS }, async () => {
    const page = await superPage({ expected: [['400', /\/api\/super-admin\/settings\//]] });
    const burst = page.getByTestId('setting-plans-starter-burst-per-minute');
    const skus = page.getByTestId('setting-office-redeem-sku-map');

    await step(page, 'settings-01-save-reload', async () => {
      await page.getByRole('link', { name: 'Settings' }).click();
      await visible(burst.getByText('Whole number, at least 1, at most 10,000,000'));
      await burst.getByLabel('Value').fill('75');
      await burst.getByRole('button', { name: 'Save' }).click();
      await burst.getByText('Saved.').waitFor();
      await page.reload();
      await burst.waitFor();
      expect(await burst.getByLabel('Value').inputValue()).toBe('75');
      await shoot(page, 'page-admin-settings');
    });

    await step(page, 'settings-02-invalid-values', async () => {
      // The schema's bounds, checked in the page before sending.
      await burst.getByLabel('Value').fill('0');
      await burst.getByRole('button', { name: 'Save' }).click();
      await visible(burst.getByText('Must be at least 1.'));
      expect(await burst.getByLabel('Value').getAttribute('aria-invalid')).toBe('true');
      // The service's validation: a product the map does not know.
      await skus.getByLabel('Value (JSON)').fill('{"OFFICE-24": "office_2030"}');
      await skus.getByRole('button', { name: 'Save' }).click();
      await visible(skus.getByRole('alert').getByText('validation_failed'));
      await shoot(page, 'page-admin-settings-invalid');
      await skus.getByLabel('Value (JSON)').fill('{"OFFICE-24": "office_2024"}');
      await skus.getByRole('button', { name: 'Save' }).click();
      await skus.getByText('Saved.').waitFor();
      await page.reload();
      await burst.waitFor();
      expect(await burst.getByLabel('Value').inputValue()).toBe('75');
      expect(await skus.getByLabel('Value (JSON)').inputValue()).toContain('"OFFICE-24": "office_2024"');
    });

    expect(problems, problems.join('\n')).toEqual([]);
  });

  it(
    'office-redeem: a test PIN → /redeem shows the product key; unknown, revoked and expired PINs explain themselves',
    { timeout: TEST_BACKSTOP_MS },
    async () => {
      const productKey = 'VK7JG-NPHTM-C97JM-9MPGT-3V66T';
      const admin = await superPage();
      const visitor = await openPage(browser, problems, {
        viewport: PHONE,
        expected: [
          ['404', /office-redeem\/lookup$/],
          ['410', /office-redeem\/lookup$/],
        ],
      });
      const lookup = async (pin: string) => {
        await visitor.getByLabel('PIN (16 digits)').fill(pin);
        await visitor.getByRole('button', { name: 'Show my product' }).click();
      };

      let pin = '';
      await step(admin, 'redeem-01-create-pin', async () => {
        await admin.getByRole('link', { name: 'Office redeem' }).click();
        await admin.getByLabel('Master product key').fill(productKey);
        await admin.getByLabel('Slip title').fill('Office Home 2024');
        await admin.getByRole('button', { name: 'Save 2024 configuration' }).click();
        await admin.getByText('Saved.').waitFor();
        await admin.getByRole('button', { name: 'Test PIN (2024)' }).click();
        pin = (await admin.getByTestId('test-pin').innerText()).trim();
        expect(pin).toMatch(/^\d{16}$/);
        await admin.getByTestId('pins').getByText(pin).waitFor();
        await shoot(admin, 'page-admin-office-redeem');
      });

      await step(visitor, 'redeem-02-product-key', async () => {
        await visitor.goto(`${base}/redeem`);
        await lookup(`${pin.slice(0, 4)} ${pin.slice(4, 8)} ${pin.slice(8, 12)} ${pin.slice(12)}`);
        const card = visitor.getByTestId('redeem-2024');
        await visible(card.getByText(productKey));
        await visible(card.getByText('Office Home 2024'));
        expect(await horizontalOverflow(visitor)).toBeLessThanOrEqual(0);
        await shoot(visitor, 'page-redeem-375');
      });

      await step(visitor, 'redeem-03-unknown', async () => {
        await lookup(pin === '1234567890123456' ? '6543210987654321' : '1234567890123456');
        await visible(visitor.getByTestId('redeem-problem').getByText('PIN not found'));
        await shoot(visitor, 'page-redeem-unknown-375');
      });

      await step(admin, 'redeem-04-revoked', async () => {
        await admin
          .getByTestId('pins')
          .getByRole('row', { name: new RegExp(pin) })
          .getByRole('button', { name: 'Expire' })
          .click();
        await admin
          .getByTestId('pins')
          .getByRole('row', { name: new RegExp(pin) })
          .locator('.badge-revoked')
          .waitFor();
        await lookup(pin);
        await visible(visitor.getByTestId('redeem-problem').getByText('This PIN was revoked'));
      });

      await step(visitor, 'redeem-05-expired', async () => {
        // A PIN past its 30 days: moved there in the database (no clock to wait for).
        const created = await app.inject({
          method: 'POST',
          url: '/api/super-admin/office-redeem/create-test-pin',
          headers: root,
          payload: { product: 'office_2024' },
        });
        expect(created.statusCode, created.body).toBe(201);
        const old = created.json().pin as string;
        await app.deps.db
          .updateTable('office_pins')
          .set({ expires_at: new Date(Date.now() - 86_400_000) })
          .where('pin', '=', old)
          .execute();
        await lookup(old);
        await visible(visitor.getByTestId('redeem-problem').getByText('This PIN has expired'));
        await shoot(visitor, 'page-redeem-expired-375');
      });

      expect(problems, problems.join('\n')).toEqual([]);
    },
  );

  it('every page loads without errors, is keyboard reachable and fits 375 px', { timeout: TEST_BACKSTOP_MS }, async () => {
    // Its own rows on every list (the file's other tests may have been filtered out with -t): an
    // order whose label a batch bought, and a webhook endpoint with a delivery.
    const order = await createOrder(`TOUR-${Date.now()}`);
    const batch = await app.inject({ method: 'POST', url: '/v1/batches', headers: t.headers, payload: { type: 'purchase_labels', order_ids: [order.id] } });
    expect(batch.statusCode, batch.body).toBe(202);
    const endpoint = await app.inject({ method: 'POST', url: '/v1/webhooks', headers: t.headers, payload: { url: receiver.url('/tour'), events: ['*'] } });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    expect((await app.inject({ method: 'POST', url: `/v1/webhooks/${endpoint.json().id}/test`, headers: t.headers })).statusCode).toBe(202);
    await until(async () => {
      const { status } = (await app.inject({ method: 'GET', url: `/v1/batches/${batch.json().id}`, headers: t.headers })).json();
      if (['failed', 'completed_with_errors', 'cancelled'].includes(status)) throw new Error(`the tour batch ended ${status}`);
      return status === 'completed';
    }, 'the tour batch');
    // A finished delivery, so that analytics has a webhook success rate to show.
    await until(async () => (await analytics()).webhooks.success_rate !== null, 'a finished webhook delivery');

    // Each stop: a name, how to get there from the page before (a main navigation entry by
    // default), and what it must show beyond loading cleanly.
    type Stop = { name: string; go?: (page: Page) => Promise<void>; check?: (page: Page) => Promise<void> };
    const nav = (name: string) => (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
    const firstRowLink = (testId: string) => (page: Page) => page.getByTestId(testId).locator('tbody tr').first().getByRole('link').first().click();
    const userStops: Stop[] = [
      { name: 'Orders' },
      { name: 'Order detail', go: firstRowLink('orders') },
      { name: 'Shipments' },
      { name: 'Shipment detail', go: firstRowLink('shipments') },
      { name: 'Batches' },
      { name: 'Batch detail', go: firstRowLink('batches') },
      { name: 'Rates' },
      { name: 'Integrations' },
      { name: 'Webhooks' },
      { name: 'Webhook endpoint', go: firstRowLink('webhooks') },
      { name: 'Webhook deliveries', go: (page) => page.getByRole('navigation', { name: 'Webhooks' }).getByRole('link', { name: 'Deliveries' }).click() },
      { name: 'Webhook delivery', go: firstRowLink('deliveries') },
      { name: 'Dead letters', go: (page) => page.getByRole('navigation', { name: 'Webhooks' }).getByRole('link', { name: 'Dead letters' }).click() },
      { name: 'API keys' },
    ];
    const superStops: Stop[] = [
      ...['Accounts', 'Workspaces', 'Settings', 'Audit log'].map((name) => ({ name })),
      { name: 'Analytics', check: analyticsDrawn },
      { name: 'Office redeem' },
    ];
    const slug = (name: string) => name.toLowerCase().replaceAll(' ', '-');
    const tour = async (page: Page, stops: Stop[], suffix: string) => {
      for (const { name, go, check } of stops) {
        await step(page, `tour-${slug(name)}${suffix}`, async () => {
          await (go ?? nav(name))(page);
          await settled(page);
          await check?.(page);
          expect(await horizontalOverflow(page), `${name} is wider than the screen: ${(await overflowingElements(page)).join('\n')}`).toBeLessThanOrEqual(0);
          // Nothing clickable is kept out of the Tab order.
          const unreachable = await page.evaluate(() =>
            [...document.querySelectorAll<HTMLElement>('main a[href], main button, main input, main select, main textarea, main summary')]
              .filter((el) => el.offsetParent !== null && el.tabIndex < 0)
              .map((el) => el.outerHTML.slice(0, 80)),
          );
          expect(unreachable, `${name}: not reachable with Tab`).toEqual([]);
          await shoot(page, `tour-${slug(name)}${suffix}`);
        });
      }
    };
    for (const [viewport, suffix] of [
      [DESKTOP, ''],
      [PHONE, '-375'],
    ] as const) {
      const user = await userPage({ viewport });
      await tour(user, userStops, suffix);
      const admin = await superPage({ viewport });
      await tour(admin, superStops, suffix);
      await user.context().close();
      await admin.context().close();
    }

    // A range with nothing in it: each chart says so instead of drawing, the rate is "—".
    const admin = await superPage();
    await step(admin, 'tour-analytics-empty-range', async () => {
      await nav('Analytics')(admin);
      await settled(admin);
      await admin.getByLabel('From', { exact: true }).fill('2020-01-01');
      await admin.getByLabel('To', { exact: true }).fill('2020-01-31');
      await admin.getByRole('button', { name: 'Show' }).click();
      await visible(admin.getByText('No orders created in this range.'));
      await visible(admin.getByText('No labels bought in this range.'));
      await visible(admin.getByText('No API requests in this range.'));
      expect(await admin.locator('.time-chart').count()).toBe(0);
      expect(await admin.getByTestId('analytics-requests-by-workspace').count()).toBe(0);
      expect(await admin.getByTestId('analytics-webhooks').innerText()).toMatch(/success rate\s*—/i);
      await shoot(admin, 'tour-analytics-empty-range');
    });

    // Keyboard only: after a navigation the focus is on the page's content; Tab reaches its
    // actions and Enter presses them.
    const page = await userPage();
    await step(page, 'tour-keyboard', async () => {
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await settled(page);
      const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim());
      for (let i = 0; i < 40 && (await focused()) !== 'Add endpoint'; i++) await page.keyboard.press('Tab');
      expect(await focused()).toBe('Add endpoint');
      await page.keyboard.press('Enter');
      await visible(page.getByRole('form', { name: 'New webhook endpoint' }));
    });

    expect(problems, problems.join('\n')).toEqual([]);
  });
  it('a Shopify store: health, sync runs, Test connection and Sync now; the imported order shows its store sync', { timeout: TEST_BACKSTOP_MS }, async () => {
    // A fake Shopify on loopback; the job workers activate the connection and backfill for real.
    const fake = await startFakeShopify({ shopDomain: 'browser-goods.myshopify.com' });
    const admin = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
      app.inject({ method, url, headers: t.adminHeaders, payload: payload as never });
    type Run = { kind: string; status: string };
    const runsOf = async (id: string) => (await admin('GET', `/api/admin/integrations/${id}/sync-runs`)).json().data as Run[];
    const settledRun = (kind: string) => async (id: string) => {
      const run = (await runsOf(id)).find((r) => r.kind === kind);
      if (run && ['failed', 'completed_with_errors'].includes(run.status)) throw new Error(`the ${kind} run ended ${run.status}`);
      return run?.status === 'completed';
    };
    let id = '';
    try {
      const seeded = fake.shop.seedOrder();
      const created = await admin('POST', '/api/admin/integrations', {
        name: 'Browser Goods',
        platform: 'shopify',
        store_ref: 'browser-goods.myshopify.com',
        base_url: fake.url,
        credentials: { access_token: fake.accessToken, client_secret: fake.clientSecret },
      });
      expect(created.statusCode, created.body).toBe(201);
      id = created.json().id;
      await until(() => settledRun('backfill')(id), 'the backfill');
      const orders = (await app.inject({ method: 'GET', url: `/v1/orders?source=${id}`, headers: t.headers })).json().data as {
        id: string;
        external_number: string;
      }[];
      expect(orders.map((o) => o.external_number)).toEqual([seeded.name]);

      const page = await userPage();
      await step(page, 'store-01-integration-page', async () => {
        await page.goto(`${base}/dashboard/integrations/${id}`);
        await settled(page);
        await visible(page.getByRole('heading', { name: /Browser Goods/ }));
        expect(await page.getByTestId('integration-health').locator('.badge').first().innerText()).toMatch(/healthy/i);
        expect(await page.getByTestId('connection-state').innerText()).toMatch(/active/i);
        expect(await page.getByTestId('scopes').innerText()).toContain('read_orders');
        expect(await page.getByTestId('masked-credentials').innerText()).toMatch(/access_token\s+••••/);
        expect(await page.getByTestId('masked-credentials').innerText()).not.toContain(fake.accessToken);
        const backfill = page.getByTestId('sync-runs').getByRole('row', { name: /backfill/ });
        await visible(backfill.locator('.badge-completed'));
        // Seen: the one paid order (a scheduled reconciliation may have created it first).
        expect((await backfill.locator('td.num').allInnerTexts())[0]).toBe('1');
        await visible(page.getByText('No write-back is dead or retrying.'));
        await shoot(page, 'page-integration-store');
      });

      await step(page, 'store-02-test-connection', async () => {
        await page.getByRole('button', { name: 'Test connection' }).click();
        await visible(page.getByRole('status').filter({ hasText: 'Connection test passed.' }));
      });

      await step(page, 'store-03-sync-now', async () => {
        await page.getByRole('button', { name: 'Sync now' }).click();
        await visible(page.getByRole('status').filter({ hasText: 'Sync queued' }));
        // The page re-reads the runs while one is queued or running, until it completes.
        await visible(
          page
            .getByTestId('sync-runs')
            .getByRole('row', { name: /manual/ })
            .locator('.badge-completed'),
        );
      });

      await step(page, 'store-04-settings', async () => {
        const form = page.getByRole('form', { name: 'Store settings' });
        await form.getByLabel('Reconcile every (minutes)').fill('15');
        await form.getByRole('button', { name: 'Save settings' }).click();
        await visible(form.getByRole('status').filter({ hasText: 'Saved.' }));
        expect((await admin('GET', `/api/admin/integrations/${id}`)).json().settings.reconcile_interval_minutes).toBe(15);
      });

      await step(page, 'store-05-order-store-sync', async () => {
        await page.goto(`${base}/dashboard/orders/${orders[0].id}`);
        await settled(page);
        expect(await page.getByTestId('external-number').innerText()).toContain(seeded.name);
        const history = page.getByTestId('sync-history');
        await visible(history.getByRole('row', { name: /Reconciliation/ }).locator('.badge-decision-created'));
        await visible(page.getByTestId('store-sync').getByText('No write-back for this order.'));
        await shoot(page, 'page-order-store-sync');
      });
      await step(page, 'store-06-dead-write-back-retried', async () => {
        // A label for the store order whose fulfilment the store refuses: the job makes it dead.
        const origin = await admin('PATCH', '/api/admin/workspace', { origin_address: shipFrom });
        expect(origin.statusCode, origin.body).toBe(200);
        // Refused however many fulfillmentCreate calls the job makes before it gives up (left-over
        // refusals are cleared below, so that the Retry reaches a store that accepts).
        const refusal = { kind: 'user_errors' as const, errors: [{ field: ['fulfillment'], message: 'Fulfillment order is not open' }] };
        fake.fail('fulfillmentCreate', refusal, refusal);
        const buy = await app.inject({
          method: 'POST',
          url: '/v1/shipments',
          headers: t.headers,
          payload: { order_id: orders[0].id, service_code: 'ups_ground' },
        });
        expect(buy.statusCode, buy.body).toBe(201);
        await until(async () => {
          const [wb] = (await admin('GET', `/api/admin/write-backs?shipment_id=${buy.json().id}`)).json().data as { status: string }[];
          if (wb?.status === 'succeeded')
            throw new Error(`the refused write-back succeeded: ${JSON.stringify(wb)}; calls ${JSON.stringify(fake.requests.map((r) => r.fields))}`);
          return wb?.status === 'dead';
        }, 'the write-back to go dead');
        await page.goto(`${base}/dashboard/integrations/${id}`);
        await settled(page);
        const row = page.getByTestId('write-backs').getByRole('row', { name: /not open/ });
        await visible(row.locator('.badge-wb-dead'));
        await shoot(page, 'page-integration-store-dead-write-back');
        expect(fake.violations).toEqual([]);
        fake.reset();
        await row.getByRole('button', { name: 'Retry' }).click();
        await visible(page.getByText('No write-back is dead or retrying.'));
        await page.goto(`${base}/dashboard/shipments/${buy.json().id}`);
        await settled(page);
        await visible(page.getByTestId('write-backs').locator('.badge-wb-succeeded'));
        await shoot(page, 'page-shipment-write-back');
      });
      await page.context().close();

      const phone = await userPage({ viewport: PHONE });
      await step(phone, 'store-06-integration-375', async () => {
        await phone.goto(`${base}/dashboard/integrations/${id}`);
        await settled(phone);
        expect(
          await horizontalOverflow(phone),
          `the integration page is wider than the screen: ${(await overflowingElements(phone)).join('\n')}`,
        ).toBeLessThanOrEqual(0);
        await shoot(phone, 'page-integration-store-375');
      });
      await phone.context().close();
      expect(fake.violations).toEqual([]);
    } finally {
      // Unregisters the webhooks on the fake before it stops, and ends the reconciliation.
      if (id) await admin('DELETE', `/api/admin/integrations/${id}`);
      await fake.close();
    }

    expect(problems, problems.join('\n')).toEqual([]);
  });
});
