import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerJobHandlers } from '../../src/bootstrap/jobs.js';
import { createTenant, type Tenant } from '../helpers/app.js';
import { haveChromium, openPage, settled, shoot, signIn, startDashboard, step, TEST_BACKSTOP_MS, until, visible } from './kit.js';

// Printing many labels at once, in Chromium against a real server: five orders bought in bulk
// from the queue, then printed from the queue as one file of five labels; two shipments picked
// on the shipments list printed as one ZPL file.

let app: FastifyInstance;
let base: string;
let browser: Browser;
let t: Tenant;
const problems: string[] = [];
const shipFrom = { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const NUMBERS = ['PR-1', 'PR-2', 'PR-3', 'PR-4', 'PR-5'];

// zbarimg reads each page's barcode like a scanner (apt-get install zbar-tools poppler-utils); CI may lack them.
const scanner = spawnSync('zbarimg', ['--version']).status === 0 && spawnSync('pdftoppm', ['-v']).status === 0;

describe.skipIf(!haveChromium)('printing labels in Chromium', () => {
  beforeAll(async () => {
    ({ app, base, browser } = await startDashboard());
    // The workers of `npm start`, in this process: the batch that buys the labels runs for real.
    await registerJobHandlers(app);
    await app.deps.jobs.start();
    t = await createTenant(app);
    for (const n of [...NUMBERS, 'PR-6']) {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/orders',
        headers: t.headers,
        payload: {
          external_id: n,
          ship_to: shipTo,
          ship_from: shipFrom,
          requested_service: 'usps_ground_advantage',
          line_items: [{ sku: 'MUG', name: 'Mug', quantity: 1, weight_oz: 12 }],
        },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('five orders: bulk-buy from the queue → Print labels → one PDF of five labels; two shipments → one ZPL', { timeout: TEST_BACKSTOP_MS }, async () => {
    const page = await openPage(browser, problems);
    await signIn(page, base, t.email, t.password);

    await step(page, 'print-01-bulk-buy', async () => {
      await settled(page);
      for (const n of NUMBERS) await page.getByRole('checkbox', { name: `Select ${n}` }).check();
      await visible(page.getByText('5 selected'));
      await page.getByRole('button', { name: 'Batch generate labels' }).click();
      await page.waitForURL(/\/dashboard\/batches\/bat_/);
      await page.getByRole('heading').locator('.badge-completed').waitFor();
    });

    await step(page, 'print-02-print-from-queue', async () => {
      await page.getByRole('link', { name: 'Orders', exact: true }).click();
      await page.getByTestId('status-tabs').getByRole('link', { name: 'Shipped (5)' }).click();
      await page.waitForURL(/status=shipped/);
      await until(async () => (await page.getByTestId('orders').locator('tbody tr').count()) === 5, 'the five shipped orders');
      await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
      await visible(page.getByText('5 selected'));
      await shoot(page, 'page-orders-print-labels');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Print labels' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^labels-5-\d{4}-\d{2}-\d{2}\.pdf$/);
      await visible(page.getByText('Printed 5 labels as one file.'));
      const file = readFileSync((await download.path())!);
      const pdf = await PDFDocument.load(file);
      // Five labels: five 4x6 pages.
      expect(pdf.getPageCount()).toBe(5);
      for (const p of pdf.getPages()) expect(p.getSize()).toEqual({ width: 288, height: 432 });

      if (scanner) {
        // And five different labels: each page's barcode is one of the five orders' tracking numbers.
        const shipments = (await app.inject({ method: 'GET', url: '/v1/shipments?limit=100', headers: t.headers })).json().data as {
          tracking_number: string;
        }[];
        expect(shipments).toHaveLength(5);
        const dir = mkdtempSync(path.join(tmpdir(), 'print-browser-'));
        try {
          writeFileSync(path.join(dir, 'labels.pdf'), file);
          execFileSync('pdftoppm', ['-r', '203', '-png', path.join(dir, 'labels.pdf'), path.join(dir, 'page')]);
          const read = readdirSync(dir)
            .filter((f) => f.startsWith('page'))
            .map((f) => execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Scode128.enable', path.join(dir, f)], { encoding: 'latin1' }).trim());
          // A USPS barcode leads with its routing (420 + ZIP) before the tracking number.
          const found = shipments.map((s) => read.filter((code) => code.endsWith(s.tracking_number)).length);
          expect(found).toEqual([1, 1, 1, 1, 1]);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
    });

    await step(page, 'print-03-shipments-list', async () => {
      await page.getByRole('link', { name: 'Shipments', exact: true }).click();
      const rows = page.getByTestId('shipments').locator('tbody tr');
      await until(async () => (await rows.count()) === 5, 'five shipments listed');
      const picked = [await rows.nth(3).getAttribute('data-shipment-id'), await rows.nth(0).getAttribute('data-shipment-id')];
      for (const i of [3, 0]) await rows.nth(i).getByRole('checkbox').check();
      await visible(page.getByText('2 selected'));
      await page.getByLabel('Print format').selectOption('zpl_4x6');
      await shoot(page, 'page-shipments-print-selected');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Print selected' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^labels-2-.*\.zpl$/);
      const zpl = readFileSync((await download.path())!, 'utf8');
      expect(zpl.match(/\^XA/g)).toHaveLength(2);
      // In the order picked.
      const tracking = await Promise.all(
        picked.map(async (id) => (await app.inject({ method: 'GET', url: `/v1/shipments/${id}`, headers: t.headers })).json().tracking_number as string),
      );
      expect(zpl.indexOf(tracking[0])).toBeGreaterThan(-1);
      expect(zpl.indexOf(tracking[0])).toBeLessThan(zpl.indexOf(tracking[1]));
      await visible(page.getByText('2 labels saved as one file.'));
    });

    expect(problems, problems.join('\n')).toEqual([]);
  });
});
