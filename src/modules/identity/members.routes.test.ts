import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { sha256Hex } from '../../platform/crypto.js';

let app: FastifyInstance;
let t: Tenant;

beforeAll(async () => {
  app = await buildTestApp();
  t = await createTenant(app);
});

const sessionHeaders = (token: string, workspaceId = t.workspaceId) => ({
  authorization: `Bearer ${token}`,
  'x-service-workspace': workspaceId,
  'x-service-environment': 'test',
});
const email = (who: string) => `${who}-${Math.random().toString(36).slice(2, 8)}@example.com`;

async function invite(headers: Record<string, string>, role: string, address = email(role)) {
  const res = await app.inject({ method: 'POST', url: '/api/admin/members', headers, payload: { email: address, role } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Invite and accept as a new account: the member's session headers and account id. */
async function join(role: string, inviter = t.adminHeaders) {
  const inv = await invite(inviter, role);
  const res = await app.inject({
    method: 'POST',
    url: `/api/auth/invitations/${inv.token}/accept`,
    payload: { name: `A ${role}`, password: 'correct horse battery' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { headers: sessionHeaders(res.json().session.token), id: res.json().account.id as string, email: inv.email as string };
}

const auditOf = (action: string, targetId: string) =>
  app.deps.db.selectFrom('audit_log').selectAll().where('action', '=', action).where('target_id', '=', targetId).execute();

describe('invitations', () => {
  it('answers 201 with the token and link once; keeps only the hash; records member.invited without the token', async () => {
    const address = email('grace');
    const inv = await invite(t.adminHeaders, 'operator', address);
    expect(inv).toMatchObject({ id: expect.stringMatching(/^inv_/), email: address, role: 'operator', status: 'pending' });
    expect(inv.url).toContain(inv.token);
    expect(Date.parse(inv.expires_at) - Date.parse(inv.created_at)).toBe(168 * 3600_000);

    const row = await app.deps.db.selectFrom('invitations').selectAll().where('id', '=', inv.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256Hex(inv.token));
    expect(JSON.stringify(row)).not.toContain(inv.token);

    const listed = await app.inject({ method: 'GET', url: '/api/admin/invitations', headers: t.adminHeaders });
    const entry = listed.json().data.find((i: { id: string }) => i.id === inv.id);
    expect(entry).toEqual({ id: inv.id, email: address, role: 'operator', status: 'pending', created_at: inv.created_at, expires_at: inv.expires_at });
    expect(listed.body).not.toContain(inv.token);

    const events = await app.deps.db.selectFrom('events').selectAll().where('workspace_id', '=', t.workspaceId).where('type', '=', 'member.invited').execute();
    const event = events.find((e) => (e.data as { id: string }).id === inv.id)!;
    expect(event.data).toMatchObject({ id: inv.id, email: address, role: 'operator' });
    expect(JSON.stringify(event.data)).not.toContain(inv.token);
    expect(await auditOf('member.invited', inv.id)).toHaveLength(1);
  });

  it('takes its TTL from the setting members.invitation_ttl_hours', async () => {
    await app.deps.db
      .insertInto('settings')
      .values({ key: 'members.invitation_ttl_hours', value: JSON.stringify(2) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(2) }))
      .execute();
    await app.deps.bus.publish('settings');
    try {
      const inv = await invite(t.adminHeaders, 'viewer');
      expect(Date.parse(inv.expires_at) - Date.parse(inv.created_at)).toBe(2 * 3600_000);
    } finally {
      await app.deps.db.deleteFrom('settings').where('key', '=', 'members.invitation_ttl_hours').execute();
      await app.deps.bus.publish('settings');
    }
  });

  it('a new account accepts with {name, password}: signed in, a member with the role; the link works once', async () => {
    const inv = await invite(t.adminHeaders, 'operator');
    const res = await app.inject({
      method: 'POST',
      url: `/api/auth/invitations/${inv.token}/accept`,
      payload: { name: 'Grace', password: 'correct horse battery' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.account).toMatchObject({ email: inv.email, name: 'Grace', status: 'active' });
    expect(body.workspace).toEqual({ id: t.workspaceId, name: expect.any(String), plan: expect.any(String), role: 'operator' });
    const headers = sessionHeaders(body.session.token);
    // An operator ships, but does not manage webhooks.
    expect((await app.inject({ method: 'GET', url: '/api/admin/orders', headers })).statusCode).toBe(200);
    const hook = await app.inject({
      method: 'POST',
      url: '/api/admin/webhooks',
      headers,
      payload: { url: 'https://example.com/h', events: ['tracking.updated'] },
    });
    expect(hook.statusCode).toBe(403);
    expect(hook.json().details).toEqual([{ field: 'role', message: 'must be admin or above', required_role: 'admin' }]);

    const members = await app.inject({ method: 'GET', url: '/api/admin/members?limit=100', headers: t.adminHeaders });
    expect(members.json().data).toEqual(
      expect.arrayContaining([{ id: body.account.id, email: inv.email, name: 'Grace', role: 'operator', created_at: expect.any(String) }]),
    );

    const again = await app.inject({
      method: 'POST',
      url: `/api/auth/invitations/${inv.token}/accept`,
      payload: { name: 'Grace', password: 'correct horse battery' },
    });
    expect(again.statusCode).toBe(410);
    expect(again.json().code).toBe('gone');
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/auth/invitations/invtok_nothing/accept',
      payload: { name: 'X', password: 'correct horse battery' },
    });
    expect(unknown.statusCode).toBe(404);
    const weak = await app.inject({
      method: 'POST',
      url: `/api/auth/invitations/${(await invite(t.adminHeaders, 'viewer')).token}/accept`,
      payload: { name: 'X', password: 'short' },
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().details.map((d: { field: string }) => d.field)).toEqual(['password']);
  });

  it('a signed-in account accepts with {} and its session; an expired or withdrawn link is 410', async () => {
    const other = await createTenant(app);
    const inv = await invite(t.adminHeaders, 'viewer', other.email);
    const res = await app.inject({
      method: 'POST',
      url: `/api/auth/invitations/${inv.token}/accept`,
      headers: { authorization: `Bearer ${other.sessionToken}` },
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ account: { id: other.accountId }, workspace: { id: t.workspaceId, role: 'viewer' }, session: null });
    const headers = sessionHeaders(other.sessionToken);
    expect((await app.inject({ method: 'GET', url: '/api/admin/members', headers })).statusCode).toBe(200);
    const refused = await app.inject({ method: 'POST', url: '/api/admin/members', headers, payload: { email: email('x'), role: 'viewer' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().details[0].required_role).toBe('admin');

    const stale = await invite(t.adminHeaders, 'viewer');
    await app.deps.db
      .updateTable('invitations')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', stale.id)
      .execute();
    expect(
      (await app.inject({ method: 'POST', url: `/api/auth/invitations/${stale.token}/accept`, payload: { name: 'L', password: 'correct horse battery' } }))
        .statusCode,
    ).toBe(410);

    const withdrawn = await invite(t.adminHeaders, 'viewer');
    expect((await app.inject({ method: 'DELETE', url: `/api/admin/invitations/${withdrawn.id}`, headers: t.adminHeaders })).statusCode).toBe(204);
    expect(
      (await app.inject({ method: 'POST', url: `/api/auth/invitations/${withdrawn.token}/accept`, payload: { name: 'L', password: 'correct horse battery' } }))
        .statusCode,
    ).toBe(410);

    // An email that has an account must sign in; a bad session is 401, never a new account.
    const taken = await invite(t.adminHeaders, 'viewer', (await createTenant(app)).email);
    const conflict = await app.inject({
      method: 'POST',
      url: `/api/auth/invitations/${taken.token}/accept`,
      payload: { name: 'L', password: 'correct horse battery' },
    });
    expect(conflict.statusCode).toBe(409);
    const badSession = await app.inject({
      method: 'POST',
      url: `/api/auth/invitations/${taken.token}/accept`,
      headers: { authorization: 'Bearer sst_nope' },
      payload: {},
    });
    expect(badSession.statusCode).toBe(401);
  });

  it('inviting an owner is the owner’s call; an existing member is 409', async () => {
    const admin = await join('admin');
    const res = await app.inject({ method: 'POST', url: '/api/admin/members', headers: admin.headers, payload: { email: email('o'), role: 'owner' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().details).toEqual([{ field: 'role', message: 'must be owner', required_role: 'owner' }]);
    expect(
      (await app.inject({ method: 'POST', url: '/api/admin/members', headers: admin.headers, payload: { email: email('a'), role: 'admin' } })).statusCode,
    ).toBe(201);
    const dup = await app.inject({
      method: 'POST',
      url: '/api/admin/members',
      headers: t.adminHeaders,
      payload: { email: admin.email.toUpperCase(), role: 'viewer' },
    });
    expect(dup.statusCode).toBe(409);
    const bad = await app.inject({ method: 'POST', url: '/api/admin/members', headers: t.adminHeaders, payload: { email: 'not-an-email', role: 'viewer' } });
    expect(bad.statusCode).toBe(400);
    expect(
      (await app.inject({ method: 'POST', url: '/api/admin/members', headers: t.adminHeaders, payload: { email: email('r'), role: 'root' } })).statusCode,
    ).toBe(400);
  });
});

describe('members', () => {
  it('changes roles (audited); ownership is the owner’s; the last owner stays', async () => {
    const admin = await join('admin');
    const op = await join('operator');
    const demoted = await app.inject({ method: 'PATCH', url: `/api/admin/members/${op.id}`, headers: admin.headers, payload: { role: 'viewer' } });
    expect(demoted.statusCode, demoted.body).toBe(200);
    expect(demoted.json()).toMatchObject({ id: op.id, role: 'viewer' });
    const audit = await auditOf('member.role_changed', op.id);
    expect(audit[0]).toMatchObject({ actor_id: admin.id, changes: { role: { from: 'operator', to: 'viewer' } } });
    // The viewer is refused writes at once.
    expect((await app.inject({ method: 'POST', url: `/api/admin/orders/ord_01jx0000000000000000000000/process`, headers: op.headers })).statusCode).toBe(403);

    const promote = await app.inject({ method: 'PATCH', url: `/api/admin/members/${op.id}`, headers: admin.headers, payload: { role: 'owner' } });
    expect(promote.statusCode).toBe(403);
    expect(promote.json().details[0]).toMatchObject({ field: 'role', required_role: 'owner' });
    const touchOwner = await app.inject({ method: 'PATCH', url: `/api/admin/members/${t.accountId}`, headers: admin.headers, payload: { role: 'viewer' } });
    expect(touchOwner.statusCode).toBe(403);

    const last = await app.inject({ method: 'PATCH', url: `/api/admin/members/${t.accountId}`, headers: t.adminHeaders, payload: { role: 'admin' } });
    expect(last.statusCode).toBe(409);
    expect(last.json()).toMatchObject({ code: 'conflict', details: [{ field: 'role' }] });
    const lastGone = await app.inject({ method: 'DELETE', url: `/api/admin/members/${t.accountId}`, headers: t.adminHeaders });
    expect(lastGone.statusCode).toBe(409);

    // With a second owner, the first may step down.
    expect(
      (await app.inject({ method: 'PATCH', url: `/api/admin/members/${admin.id}`, headers: t.adminHeaders, payload: { role: 'owner' } })).json().role,
    ).toBe('owner');
    expect(
      (await app.inject({ method: 'PATCH', url: `/api/admin/members/${t.accountId}`, headers: t.adminHeaders, payload: { role: 'admin' } })).json().role,
    ).toBe('admin');
    expect(
      (await app.inject({ method: 'PATCH', url: `/api/admin/members/${t.accountId}`, headers: admin.headers, payload: { role: 'owner' } })).json().role,
    ).toBe('owner');
  });

  it("removes a member (204): that member's sessions end at once; audited; another workspace's member is 404", async () => {
    const op = await join('operator');
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: op.headers.authorization } })).statusCode).toBe(200);
    const res = await app.inject({ method: 'DELETE', url: `/api/admin/members/${op.id}`, headers: t.adminHeaders });
    expect(res.statusCode, res.body).toBe(204);
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: op.headers.authorization } })).statusCode).toBe(401);
    expect((await auditOf('member.removed', op.id))[0]).toMatchObject({ actor_id: t.accountId, changes: { email: op.email, role: 'operator' } });
    expect((await app.inject({ method: 'DELETE', url: `/api/admin/members/${op.id}`, headers: t.adminHeaders })).statusCode).toBe(404);

    const stranger = await createTenant(app);
    for (const [method, payload] of [
      ['DELETE', undefined],
      ['PATCH', { role: 'viewer' }],
    ] as const) {
      const other = await app.inject({ method, url: `/api/admin/members/${stranger.accountId}`, headers: t.adminHeaders, payload });
      expect(other.statusCode).toBe(404);
    }
    const foreignInvite = await invite(stranger.adminHeaders, 'viewer');
    expect((await app.inject({ method: 'DELETE', url: `/api/admin/invitations/${foreignInvite.id}`, headers: t.adminHeaders })).statusCode).toBe(404);
  });
});
