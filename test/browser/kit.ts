import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { buildTestApp, type TestAppOptions } from '../helpers/app.js';
// @ts-expect-error -- a plain .mjs build script without type declarations
import { buildWeb, webIsStale } from '../../scripts/build-web.mjs';

// What the browser test files share: Debian's Chromium through playwright-core, a real server on
// a free port (one per file), console-error capture and screenshots in test/artifacts/screenshots
// (gitignored): one of every main page always, and one named after the step that failed.
export const CHROMIUM = '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`[browser tests] skipped: ${CHROMIUM} is missing (apt-get install -y chromium). CI installs it.`);

export const SCREENSHOTS = path.resolve('test/artifacts/screenshots');
export const SUPER = { email: 'root@example.com', password: 'super secret password' };
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 375, height: 800 };

/**
 * How long any one wait may take before the test gives up. Not how long things should take:
 * every wait ends when its condition holds (an element shows, an answer arrives, a page has no
 * request in flight) or when the page shows an error, and this only bounds a real failure. A
 * tight guess here (10 s) failed the suite at load average 7–9.
 */
export const BACKSTOP_MS = 180_000;
/** A whole browser test's bound, likewise: a fixed amount of work whose pace is the machine's. */
export const TEST_BACKSTOP_MS = 900_000;

const inFlight = new WeakMap<Page, Set<unknown>>();

/** The page's fetches to the service that have not been answered yet. */
export const requestsInFlight = (page: Page): number => inFlight.get(page)?.size ?? 0;

/** Builds the dashboard when stale, starts the app on a free port, launches Chromium. */
export async function startDashboard(options: TestAppOptions = {}): Promise<{ app: FastifyInstance; base: string; browser: Browser }> {
  if (webIsStale()) await buildWeb();
  const app = await buildTestApp({ ...options, config: { superAdminEmail: SUPER.email, superAdminPassword: SUPER.password, ...options.config } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  return { app, base, browser };
}

/** An answer a flow expects to be a 4xx (Chromium logs each one as a console error). */
export type ExpectedFailure = [status: string, url: RegExp];

/**
 * A page whose errors end up in `problems`: uncaught exceptions and console errors, except the
 * 4xx answers the flow expects.
 */
export async function openPage(
  browser: Browser,
  problems: string[],
  opts: { viewport?: { width: number; height: number }; expected?: ExpectedFailure[] } = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport: opts.viewport ?? DESKTOP, acceptDownloads: true });
  const page = await context.newPage();
  page.setDefaultTimeout(BACKSTOP_MS);
  const pending = new Set<unknown>();
  inFlight.set(page, pending);
  page.on('request', (req) => {
    if (['fetch', 'xhr'].includes(req.resourceType())) pending.add(req);
  });
  page.on('requestfinished', (req) => pending.delete(req));
  page.on('requestfailed', (req) => pending.delete(req));
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const failed = /Failed to load resource: the server responded with a status of (\d+)/.exec(msg.text());
    if (failed && (opts.expected ?? []).some(([status, url]) => failed[1] === status && url.test(msg.location().url))) return;
    problems.push(`console.error: ${msg.text()} (${msg.location().url})`);
  });
  return page;
}

/** Waits until the locator is visible (playwright-core has no expect of its own). */
export const visible = (locator: Locator, timeout = BACKSTOP_MS) => locator.waitFor({ state: 'visible', timeout });

/** Run one step; on failure save `failed-<name>.png`, then fail. */
export async function step(page: Page, name: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    await shoot(page, `failed-${name}`).catch(() => {});
    throw err;
  }
}

/** A full-page screenshot in test/artifacts/screenshots/<name>.png. */
export async function shoot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

export async function signIn(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/dashboard/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/dashboard/orders');
}

/** How far the document is wider than the viewport (0 or less: no sideways scrolling). */
export const horizontalOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** The outermost elements that stick out to the right of the viewport, for a failure message. */
export const overflowingElements = (page: Page) =>
  page.evaluate(() => {
    const out = (el: Element | null) => !!el && el.getBoundingClientRect().right > window.innerWidth + 1;
    return [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => out(el) && !out(el.parentElement))
      .slice(0, 5)
      .map((el) => `${Math.round(el.getBoundingClientRect().right)}px: ${el.outerHTML.slice(0, 160)}`);
  });

/**
 * Polls a condition in the test process (the page polls the API on its own). A check that sees
 * a state the condition can no longer reach should throw, so the wait ends there.
 */
export async function until(check: () => Promise<boolean>, what: string, timeoutMs = BACKSTOP_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Waits until a page is done loading: its heading is drawn, no "Loading…" is left and none of
 * its fetches is unanswered. Ends at once, failing with the message, if the page shows an error.
 */
export async function settled(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  await until(async () => {
    const error = page.locator('main .alert-error');
    if (await error.count()) throw new Error(`the page shows an error: ${await error.first().innerText()}`);
    return requestsInFlight(page) === 0 && (await page.locator('main .loading').count()) === 0;
  }, 'the page to load');
}
