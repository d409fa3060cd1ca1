import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../helpers/app.js';
import { haveChromium, openPage, settled, shoot, signIn, startDashboard, step, TEST_BACKSTOP_MS, visible } from './kit.js';

// The Team page in Chromium against a real server: the owner invites someone (the link shown
// once, the invitation listed as pending); a viewer, signed in, sees the team without the forms,
// no navigation to the admin pages (API keys, webhooks, carriers, integrations, rules) and no
// "New order" on the orders page.

let app: FastifyInstance;
let base: string;
let browser: Browser;
let t: Tenant;
const problems: string[] = [];
const viewer = { email: `viewer-${Date.now()}@example.com`, password: 'correct horse battery' };

describe.skipIf(!haveChromium)('the team in Chromium', () => {
  beforeAll(async () => {
    ({ app, base, browser } = await startDashboard());
    t = await createTenant(app);
    const inv = await app.inject({ method: 'POST', url: '/api/admin/members', headers: t.adminHeaders, payload: { email: viewer.email, role: 'viewer' } });
    const accepted = await app.inject({
      method: 'POST',
      url: `/api/auth/invitations/${inv.json().token}/accept`,
      payload: { name: 'Vera Viewer', password: viewer.password },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('the owner invites; a viewer sees the team read-only and no admin pages', { timeout: TEST_BACKSTOP_MS }, async () => {
    const page = await openPage(browser, problems);
    let link = '';
    await signIn(page, base, t.email, t.password);
    await step(page, 'team-01-owner', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team', exact: true }).click();
      await page.waitForURL('**/dashboard/team');
      await settled(page);
      await visible(page.getByTestId('members').getByText(viewer.email));
      const form = page.getByRole('form', { name: 'Invite a member' });
      await form.getByLabel('Email').fill('grace@example.com');
      await form.getByLabel('Role').selectOption('operator');
      await form.getByRole('button', { name: 'Invite' }).click();
      await visible(page.getByTestId('secret-once').getByText(/\/dashboard\/invitations\//));
      await visible(page.getByTestId('invitations').getByText('grace@example.com'));
      await shoot(page, 'page-team-owner');
      link = (await page.getByTestId('secret-once').innerText()).match(/https?:\/\/\S+\/dashboard\/invitations\/\S+/)![0];
    });
    await page.close();

    // Grace follows the link signed out: a new account, then she signs in as an operator.
    const grace = await openPage(browser, problems);
    await step(grace, 'team-01b-accept', async () => {
      await grace.goto(`${base}${new URL(link).pathname}`); // the link names PUBLIC_BASE_URL; the test server has its own port
      await grace.getByLabel('Your name').fill('Grace');
      await grace.getByLabel('Password').fill('grace long password');
      await grace.getByRole('button', { name: 'Create account and join' }).click();
      await visible(grace.getByRole('heading', { name: 'You have joined the workspace' }));
    });
    await signIn(grace, base, 'grace@example.com', 'grace long password');
    await settled(grace);
    await visible(grace.getByRole('link', { name: 'New order' }));
    // An operator buys and ships; running the workspace is an admin's: no admin pages in the
    // navigation, and packages (an admin's) read-only with the note.
    const graceNav = grace.getByRole('navigation', { name: 'Main' });
    for (const hidden of ['API keys', 'Webhooks', 'Carriers', 'Integrations', 'Rules'])
      expect(await graceNav.getByRole('link', { name: hidden, exact: true }).count(), hidden).toBe(0);
    await grace.goto(`${base}/dashboard/packages`);
    await settled(grace);
    expect(await grace.getByTestId('role-note').first().innerText()).toMatch(/Your role \(operator\) cannot add or delete packages/);
    expect(await grace.getByRole('form', { name: 'New package' }).count()).toBe(0);
    await grace.goto(`${base}/dashboard/trackers`);
    await settled(grace);
    await visible(grace.getByRole('form', { name: 'New tracker' }));
    await grace.close();

    const asViewer = await openPage(browser, problems);
    await signIn(asViewer, base, viewer.email, viewer.password);
    await step(asViewer, 'team-02-viewer', async () => {
      await settled(asViewer);
      expect(await asViewer.getByRole('link', { name: 'New order' }).count()).toBe(0);
      const nav = asViewer.getByRole('navigation', { name: 'Main' });
      for (const hidden of ['API keys', 'Webhooks', 'Carriers', 'Integrations', 'Rules'])
        expect(await nav.getByRole('link', { name: hidden, exact: true }).count(), hidden).toBe(0);
      await nav.getByRole('link', { name: 'Team', exact: true }).click();
      await asViewer.waitForURL('**/dashboard/team');
      await settled(asViewer);
      await visible(asViewer.getByTestId('my-role').getByText('viewer'));
      await visible(asViewer.getByTestId('members').getByText(t.email));
      expect(await asViewer.getByRole('form', { name: 'Invite a member' }).count()).toBe(0);
      expect(await asViewer.getByRole('button', { name: 'Remove' }).count()).toBe(0);
      await shoot(asViewer, 'page-team-viewer');
      // Every page a viewer reaches shows what its role cannot do as a note, not as a form that answers 403.
      for (const [path, form] of [
        ['packages', 'New package'],
        ['locations', 'New location'],
        ['trackers', 'New tracker'],
        ['end-of-day', 'New manifest'],
        ['rates', 'Rate query'],
      ]) {
        await asViewer.goto(`${base}/dashboard/${path}`);
        await settled(asViewer);
        await visible(asViewer.getByTestId('role-note').first());
        expect(await asViewer.getByTestId('role-note').first().innerText()).toMatch(/Your role \(viewer\) cannot/);
        expect(await asViewer.getByRole('form', { name: form }).count(), path).toBe(0);
      }
    });
    // Signed in, the viewer opens an invitation to another workspace and joins it with this account.
    const other = await createTenant(app);
    const invite = await app.inject({
      method: 'POST',
      url: '/api/admin/members',
      headers: other.adminHeaders,
      payload: { email: viewer.email, role: 'operator' },
    });
    expect(invite.statusCode, invite.body).toBe(201);
    await step(asViewer, 'team-03-join-signed-in', async () => {
      await asViewer.goto(`${base}/dashboard/invitations/${invite.json().token}`);
      await visible(asViewer.getByText(`You are signed in as`));
      await visible(asViewer.getByText(viewer.email));
      await asViewer.getByRole('button', { name: 'Join with this account' }).click();
      await asViewer.waitForURL('**/dashboard/orders');
      await settled(asViewer);
      // The new workspace is the current one, with the operator's work on it.
      await visible(asViewer.getByRole('link', { name: 'New order' }));
    });
    const joined = await app.inject({ method: 'GET', url: '/api/admin/members', headers: other.adminHeaders });
    expect(joined.json().data.map((m: { email: string; role: string }) => `${m.role}:${m.email}`)).toContain(`operator:${viewer.email}`);
    expect(problems).toEqual([]);
  });
});
