import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, superAdminHeaders, type Tenant } from '../../../test/helpers/app.js';

// Password reset and invitation mail through a real SMTP server on loopback (smtp-server):
// the message is read as received and its link followed.

interface Received {
  to: string[];
  raw: string;
}
const inbox: Received[] = [];
let smtp: SMTPServer;
let app: FastifyInstance;
let t: Tenant;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  app = await buildTestApp({
    config: { smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: 'Ship <no-reply@example.com>', publicBaseUrl: 'https://ship.example.com' },
  });
  t = await createTenant(app);
});
afterAll(async () => new Promise<void>((resolve) => smtp.close(() => resolve())));

/** The first mail to `to` (waiting for it), its quoted-printable soft breaks undone. */
async function mailTo(to: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = inbox.find((m) => m.to.includes(to));
    if (found) return found.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    if (Date.now() > deadline) throw new Error(`no mail to ${to}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const linkIn = (mail: string, kind: string) => new RegExp(`https://ship\\.example\\.com/dashboard/${kind}/([A-Za-z0-9_]+)`).exec(mail)?.[1];

describe('password reset', () => {
  it('202 whatever the email; the mailed link sets the password once and ends every session', async () => {
    const known = await app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email: t.email.toUpperCase() } });
    const unknown = await app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email: 'nobody@example.com' } });
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);

    const mail = await mailTo(t.email);
    expect(mail).toContain('Subject: Reset your password');
    const token = linkIn(mail, 'reset-password');
    expect(token).toBeDefined();
    expect(inbox.some((m) => m.to.includes('nobody@example.com'))).toBe(false);

    const weak = await app.inject({ method: 'POST', url: `/api/auth/password-reset/${token}`, payload: { password: 'short' } });
    expect(weak.statusCode).toBe(400);
    const done = await app.inject({ method: 'POST', url: `/api/auth/password-reset/${token}`, payload: { password: 'a brand new passphrase' } });
    expect(done.statusCode, done.body).toBe(204);
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${t.sessionToken}` } })).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: t.email, password: t.password } })).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: t.email, password: 'a brand new passphrase' } })).statusCode).toBe(
      200,
    );

    const again = await app.inject({ method: 'POST', url: `/api/auth/password-reset/${token}`, payload: { password: 'yet another passphrase' } });
    expect(again.statusCode).toBe(410);
    expect(again.json().code).toBe('gone');
    expect(
      (await app.inject({ method: 'POST', url: '/api/auth/password-reset/pwrtok_unknown', payload: { password: 'yet another passphrase' } })).statusCode,
    ).toBe(404);
    const audit = await app.deps.db.selectFrom('audit_log').select('action').where('target_id', '=', t.accountId).execute();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['account.password_reset_issued', 'account.password_reset']));
  });

  it('a link is valid one hour and keeps only its hash', async () => {
    const u = await createTenant(app);
    await app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email: u.email } });
    const token = linkIn(await mailTo(u.email), 'reset-password')!;
    const row = await app.deps.db.selectFrom('password_resets').selectAll().where('account_id', '=', u.accountId).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(token);
    expect(new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()).toBe(3600_000);
    await app.deps.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1) })
      .where('id', '=', row.id)
      .execute();
    expect((await app.inject({ method: 'POST', url: `/api/auth/password-reset/${token}`, payload: { password: 'a brand new passphrase' } })).statusCode).toBe(
      410,
    );
  });

  it('a super-admin issues a link for an account (shown once, and mailed); a user may not', async () => {
    const u = await createTenant(app);
    const root = await superAdminHeaders(app);
    const res = await app.inject({ method: 'POST', url: `/api/super-admin/accounts/${u.accountId}/password-reset`, headers: root });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ id: expect.stringMatching(/^pwr_/), account_id: u.accountId, mailed: true });
    expect(res.json().url).toBe(`https://ship.example.com/dashboard/reset-password/${res.json().token}`);
    expect(
      (await app.inject({ method: 'POST', url: `/api/auth/password-reset/${res.json().token}`, payload: { password: 'chosen by support' } })).statusCode,
    ).toBe(204);
    const user = await app.inject({
      method: 'POST',
      url: `/api/super-admin/accounts/${u.accountId}/password-reset`,
      headers: { authorization: `Bearer ${t.sessionToken}` },
    });
    expect([401, 403]).toContain(user.statusCode);
    expect(
      (await app.inject({ method: 'POST', url: '/api/super-admin/accounts/acct_01jx0000000000000000000000/password-reset', headers: root })).statusCode,
    ).toBe(404);
  });
});

describe('invitation mail', () => {
  it('mails the invitation link, which joins the workspace', async () => {
    const owner = await createTenant(app);
    const address = `invitee-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const inv = await app.inject({ method: 'POST', url: '/api/admin/members', headers: owner.adminHeaders, payload: { email: address, role: 'viewer' } });
    expect(inv.statusCode).toBe(201);
    const token = linkIn(await mailTo(address), 'invitations');
    expect(token).toBe(inv.json().token);
    const accepted = await app.inject({
      method: 'POST',
      url: `/api/auth/invitations/${token}/accept`,
      payload: { name: 'Invitee', password: 'correct horse battery' },
    });
    expect(accepted.statusCode).toBe(201);
    expect(accepted.json().workspace).toMatchObject({ id: owner.workspaceId, role: 'viewer' });
  });
});
