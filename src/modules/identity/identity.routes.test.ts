import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, expectV1AuthMatrix, superAdminHeaders, type Tenant } from '../../../test/helpers/app.js';

let app: FastifyInstance;
let root: Record<string, string>;

beforeAll(async () => {
  app = await buildTestApp();
  root = await superAdminHeaders(app);
});

const uniqueEmail = () => `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@shop.test`;

describe('the first minutes of a client', () => {
  it('registers, is approved, logs in, creates a key and calls /v1', async () => {
    const email = uniqueEmail();
    const reg = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email, password: 'long enough pw', name: 'Ada', workspace_name: 'Ada Store' },
    });
    expect(reg.statusCode).toBe(201);
    const body = reg.json();
    expect(body.account).toMatchObject({ email, name: 'Ada', role: 'user', status: 'pending' });
    expect(body.account.id).toMatch(/^acct_/);
    expect(body.account.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(body.workspace).toEqual({ id: expect.stringMatching(/^ws_/), name: 'Ada Store', plan: 'starter' });

    const pending = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'long enough pw' } });
    expect(pending.statusCode).toBe(403);
    expect(pending.json().code).toBe('account_pending');

    const approved = await app.inject({ method: 'POST', url: `/api/super-admin/accounts/${body.account.id}/approve`, headers: root });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ id: body.account.id, status: 'active' });

    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'long enough pw' } });
    expect(login.statusCode).toBe(200);
    const session = login.json();
    expect(session).toMatchObject({ token_type: 'Bearer', account: { id: body.account.id, status: 'active' } });
    expect(Date.parse(session.expires_at)).toBeGreaterThan(Date.now());

    const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${session.token}` } });
    expect(me.json()).toEqual({
      account: expect.objectContaining({ id: body.account.id }),
      workspaces: [{ id: body.workspace.id, name: 'Ada Store', plan: 'starter', role: 'owner' }],
    });

    const adminHeaders = { authorization: `Bearer ${session.token}`, 'x-service-workspace': body.workspace.id };
    const created = await app.inject({ method: 'POST', url: '/api/admin/api-keys', headers: adminHeaders, payload: { name: 'server', environment: 'test' } });
    expect(created.statusCode).toBe(201);
    const key = created.json();
    expect(key).toMatchObject({ name: 'server', environment: 'test', expires_at: null });
    expect(key.secret).toMatch(/^sk_test_[0-9A-Za-z]{43}$/);
    expect(key.last4).toBe(key.secret.slice(-4));
    expect(key.secret.startsWith(key.prefix)).toBe(true);

    const list = await app.inject({ method: 'GET', url: '/api/admin/api-keys', headers: adminHeaders });
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toHaveLength(1);
    expect(list.json().data[0]).not.toHaveProperty('secret');
    expect(JSON.stringify(list.json())).not.toContain(key.secret);

    const v1 = await app.inject({
      method: 'GET',
      url: '/v1/api-keys',
      headers: { authorization: `Bearer ${key.secret}`, 'x-service-workspace': body.workspace.id },
    });
    expect(v1.statusCode).toBe(200);
    expect(v1.headers['ratelimit-limit']).toBe('60');
    expect(v1.headers['ratelimit-policy']).toBe('60;w=60');

    const revoke = await app.inject({ method: 'DELETE', url: `/api/admin/api-keys/${key.id}`, headers: adminHeaders });
    expect(revoke.statusCode).toBe(204);
    const after = await app.inject({
      method: 'GET',
      url: '/v1/api-keys',
      headers: { authorization: `Bearer ${key.secret}`, 'x-service-workspace': body.workspace.id },
    });
    expect(after.statusCode).toBe(401);
  });

  it('refuses a duplicate email (409) and a weak password (400 with details)', async () => {
    const email = uniqueEmail();
    const payload = { email, password: 'long enough pw', name: 'A', workspace_name: 'W' };
    expect((await app.inject({ method: 'POST', url: '/api/auth/register', payload })).statusCode).toBe(201);
    const dup = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { ...payload, email: email.toUpperCase() } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe('conflict');
    const weak = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { ...payload, email: uniqueEmail(), password: 'short' } });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ code: 'validation_failed', details: [{ field: 'password', message: expect.any(String) }] });
    const missing = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: uniqueEmail() } });
    expect(missing.statusCode).toBe(400);
    expect(
      missing
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['name', 'password', 'workspace_name']);
  });
});

describe('login', () => {
  it('answers the same 401 for an unknown email and a wrong password', async () => {
    const t = await createTenant(app);
    const unknown = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'nobody@nowhere.test', password: 'whatever123' } });
    const wrong = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: t.email, password: 'wrong password' } });
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect({ ...unknown.json(), request_id: '' }).toEqual({ ...wrong.json(), request_id: '' });
    expect(wrong.json().code).toBe('invalid_credentials');
  });

  it('throttles repeated failures for one account', async () => {
    const t = await createTenant(app);
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) {
      codes.push((await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: t.email, password: `nope-${i}-xxxxx` } })).statusCode);
    }
    expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
    expect(codes[10]).toBe(429);
    // Even the right password is refused while throttled.
    const right = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: t.email, password: t.password } });
    expect(right.statusCode).toBe(429);
    expect(right.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('logout revokes the token at once', async () => {
    const t = await createTenant(app);
    const auth = { authorization: `Bearer ${t.sessionToken}` };
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: auth })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/api/auth/logout', headers: auth })).statusCode).toBe(204);
    const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: auth });
    expect(me.statusCode).toBe(401);
    expect(me.json().code).toBe('unauthorized');
  });
});

describe('super-admin accounts', () => {
  it('suspension ends sessions at once; reactivation allows login again', async () => {
    const t = await createTenant(app);
    const auth = { authorization: `Bearer ${t.sessionToken}` };
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: auth })).statusCode).toBe(200);
    const s = await app.inject({ method: 'POST', url: `/api/super-admin/accounts/${t.accountId}/suspend`, headers: root });
    expect(s.json().status).toBe('suspended');
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: auth })).statusCode).toBe(401);
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: t.email, password: t.password } });
    expect(login.json().code).toBe('account_suspended');
    const again = await app.inject({ method: 'POST', url: `/api/super-admin/accounts/${t.accountId}/suspend`, headers: root });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'invalid_state', details: [{ field: 'status', current_state: 'suspended', allowed_moves: ['reactivate'] }] });
    const r = await app.inject({ method: 'POST', url: `/api/super-admin/accounts/${t.accountId}/reactivate`, headers: root });
    expect(r.json().status).toBe('active');
    expect((await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: t.email, password: t.password } })).statusCode).toBe(200);
  });

  it('guards: 401 without a session, 403 for a user, 404 for an unknown account', async () => {
    const t = await createTenant(app);
    const none = await app.inject({ method: 'GET', url: '/api/super-admin/accounts' });
    expect(none.statusCode).toBe(401);
    const user = await app.inject({ method: 'GET', url: '/api/super-admin/accounts', headers: { authorization: `Bearer ${t.sessionToken}` } });
    expect(user.statusCode).toBe(403);
    expect(user.json().code).toBe('forbidden');
    const missing = await app.inject({ method: 'POST', url: '/api/super-admin/accounts/acct_nope/approve', headers: root });
    expect(missing.statusCode).toBe(404);
  });

  it('lists accounts filtered by status and searched by email, paginated', async () => {
    const tag = `srch${Math.random().toString(36).slice(2, 8)}`;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email: `${tag}.${i}@x.test`, password: 'long enough pw', name: 'N', workspace_name: 'W' },
      });
      ids.push(r.json().account.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: Array<{ id: string; status: string }>; next_cursor: string | null } = (
        await app.inject({ method: 'GET', url: `/api/super-admin/accounts?status=pending&q=${tag}&limit=2${cursor ? `&cursor=${cursor}` : ''}`, headers: root })
      ).json();
      expect(page.data.length).toBeLessThanOrEqual(2);
      for (const a of page.data) expect(a.status).toBe('pending');
      seen.push(...page.data.map((a) => a.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen.sort()).toEqual([...ids].sort());
    const bad = await app.inject({ method: 'GET', url: '/api/super-admin/accounts?status=weird', headers: root });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe('status');
    const badCursor = await app.inject({ method: 'GET', url: '/api/super-admin/accounts?cursor=garbage', headers: root });
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.json().details[0].field).toBe('cursor');
  });

  it('changes a workspace plan and its burst applies at once', async () => {
    const t = await createTenant(app, { plan: 'starter' });
    const first = await app.inject({ method: 'GET', url: '/v1/api-keys', headers: t.headers });
    expect(first.headers['ratelimit-limit']).toBe('60');
    const bad = await app.inject({
      method: 'PATCH',
      url: `/api/super-admin/workspaces/${t.workspaceId}`,
      headers: root,
      payload: { plan: 'professional', burst_per_minute: 5000 },
    });
    expect(bad.statusCode).toBe(400);
    const up = await app.inject({
      method: 'PATCH',
      url: `/api/super-admin/workspaces/${t.workspaceId}`,
      headers: root,
      payload: { plan: 'enterprise', burst_per_minute: 5000 },
    });
    expect(up.statusCode).toBe(200);
    expect(up.json()).toMatchObject({ plan: 'enterprise', burst_per_minute: 5000 });
    const after = await app.inject({ method: 'GET', url: '/v1/api-keys', headers: t.headers });
    expect(after.headers['ratelimit-limit']).toBe('5000');
  });
});

describe('/v1 API keys and the guard', () => {
  it('rotates without downtime: two live keys at once, then the old one revoked', async () => {
    const t = await createTenant(app);
    const second = await app.inject({ method: 'POST', url: '/v1/api-keys', headers: t.headers, payload: { name: 'rotation' } });
    expect(second.statusCode).toBe(201);
    expect(second.json().environment).toBe('test');
    const newHeaders = { authorization: `Bearer ${second.json().secret}`, 'x-service-workspace': t.workspaceId };
    expect((await app.inject({ method: 'GET', url: '/v1/api-keys', headers: t.headers })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/v1/api-keys', headers: newHeaders })).statusCode).toBe(200);
    const del = await app.inject({ method: 'DELETE', url: `/v1/api-keys/${t.apiKeyId}`, headers: newHeaders });
    expect(del.statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url: '/v1/api-keys', headers: t.headers })).statusCode).toBe(401);
    const list = await app.inject({ method: 'GET', url: '/v1/api-keys', headers: newHeaders });
    expect(list.json().data.map((k: { id: string }) => k.id)).toEqual([second.json().id]);
  });

  it('keeps test and live apart', async () => {
    const t = await createTenant(app);
    const liveList = await app.inject({ method: 'GET', url: '/v1/api-keys', headers: t.liveHeaders });
    expect(liveList.json().data.every((k: { environment: string }) => k.environment === 'live')).toBe(true);
    // A test key cannot revoke a live key.
    const live = liveList.json().data[0];
    const del = await app.inject({ method: 'DELETE', url: `/v1/api-keys/${live.id}`, headers: t.headers });
    expect(del.statusCode).toBe(404);
  });

  it('passes the auth matrix', async () => {
    const t = await createTenant(app);
    await expectV1AuthMatrix(app, { method: 'GET', url: '/v1/api-keys' }, { owner: t });
    await expectV1AuthMatrix(app, { method: 'DELETE', url: `/v1/api-keys/${t.apiKeyId}` }, { owner: t, otherWorkspaceResource: true });
  });

  it('needs the X-Service-Workspace header', async () => {
    const t = await createTenant(app);
    const res = await app.inject({ method: 'GET', url: '/v1/api-keys', headers: { authorization: `Bearer ${t.apiKey}` } });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toContain('X-Service-Workspace');
  });

  it('validates key creation', async () => {
    const t = await createTenant(app);
    const past = await app.inject({ method: 'POST', url: '/v1/api-keys', headers: t.headers, payload: { name: 'x', expires_at: '2001-01-01T00:00:00Z' } });
    expect(past.statusCode).toBe(400);
    expect(past.json().details).toEqual([{ field: 'expires_at', message: 'must be in the future' }]);
    const env = await app.inject({ method: 'POST', url: '/v1/api-keys', headers: t.headers, payload: { name: 'x', environment: 'prod' } });
    expect(env.statusCode).toBe(400);
    expect(env.json().details[0].field).toBe('environment');
  });

  it('rate limits a starter workspace at 60 per minute with Retry-After', async () => {
    const t = await createTenant(app, { plan: 'starter' });
    // The bucket refills one token a second: on a slow machine 61 requests span several refills,
    // so ask until refused, and check the first 60 all passed.
    let last;
    let allowed = 0;
    for (let i = 0; i < 200; i++) {
      last = await app.inject({ method: 'GET', url: '/v1/api-keys', headers: t.headers });
      if (last.statusCode !== 200) break;
      allowed++;
    }
    expect(allowed).toBeGreaterThanOrEqual(60);
    expect(last!.statusCode).toBe(429);
    expect(last!.json().code).toBe('rate_limited');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(last!.headers['ratelimit-remaining']).toBe('0');
  });
});

describe('admin workspace', () => {
  it('sets the origin address and refuses other workspaces with 404', async () => {
    const t = await createTenant(app);
    const other = await createTenant(app);
    const origin = { name: 'Warehouse', street1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' };
    const res = await app.inject({ method: 'PATCH', url: '/api/admin/workspace', headers: t.adminHeaders, payload: { origin_address: origin } });
    expect(res.statusCode).toBe(200);
    expect(res.json().origin_address).toEqual(origin);
    const cross = await app.inject({ method: 'GET', url: '/api/admin/workspace', headers: { ...t.adminHeaders, 'x-service-workspace': other.workspaceId } });
    expect(cross.statusCode).toBe(404);
    const bad = await app.inject({
      method: 'PATCH',
      url: '/api/admin/workspace',
      headers: t.adminHeaders,
      payload: { origin_address: { street1: '1 Main St', country: 'US', postal_code: '7870' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((d: { field: string }) => d.field)).toEqual(expect.arrayContaining(['origin_address.city', 'origin_address.postal_code']));
    const badEnv = await app.inject({ method: 'GET', url: '/api/admin/workspace', headers: { ...t.adminHeaders, 'x-service-environment': 'staging' } });
    expect(badEnv.statusCode).toBe(400);
  });
});

describe('a key creates keys only within its own bounds', () => {
  type AuditEntry = {
    actor: { type: string; id: string | null; email: string | null };
    target_id: string;
    environment: string;
    changes: Record<string, unknown>;
  };
  const createdEntries = async (filter: string) =>
    (await app.inject({ method: 'GET', url: `/api/super-admin/audit-log?action=api_key.created&${filter}&limit=100`, headers: root })).json()
      .data as AuditEntry[];
  const keysOf = async (t: Tenant) => ({
    test: (await app.inject({ method: 'GET', url: '/v1/api-keys', headers: t.headers })).json().data as Array<{ id: string }>,
    live: (await app.inject({ method: 'GET', url: '/v1/api-keys', headers: t.liveHeaders })).json().data as Array<{ id: string }>,
  });

  it('refuses a live key to a test key (403 forbidden on environment), and a test key to a live key; nothing is created', async () => {
    const t = await createTenant(app);
    const before = await keysOf(t);
    const auditBefore = (await createdEntries(`workspace_id=${t.workspaceId}`)).length;
    for (const [headers, environment] of [
      [t.headers, 'live'],
      [t.liveHeaders, 'test'],
    ] as const) {
      const res = await app.inject({ method: 'POST', url: '/v1/api-keys', headers, payload: { name: 'escalate', environment } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        code: 'forbidden',
        message: expect.any(String),
        details: [{ field: 'environment', message: expect.stringContaining('dashboard') }],
        request_id: res.headers['x-request-id'],
      });
      expect(res.body).not.toMatch(/sk_(test|live)_/);
    }
    expect(await keysOf(t)).toEqual(before);
    expect((await createdEntries(`workspace_id=${t.workspaceId}`)).length).toBe(auditBefore);
  });

  it('still lets a key create a key in its own environment, named or by default, and the dashboard create either', async () => {
    const t = await createTenant(app);
    for (const [headers, environment] of [
      [t.headers, 'test'],
      [t.liveHeaders, 'live'],
    ] as const) {
      const named = await app.inject({ method: 'POST', url: '/v1/api-keys', headers, payload: { name: 'same env', environment } });
      expect(named.statusCode).toBe(201);
      expect(named.json().secret).toMatch(new RegExp(`^sk_${environment}_`));
      const implied = await app.inject({ method: 'POST', url: '/v1/api-keys', headers, payload: { name: 'default env' } });
      expect(implied.statusCode).toBe(201);
      expect(implied.json().environment).toBe(environment);
    }
    const live = await app.inject({
      method: 'POST',
      url: '/api/admin/api-keys',
      headers: t.adminHeaders,
      payload: { name: 'from the dashboard', environment: 'live' },
    });
    expect(live.statusCode).toBe(201);
    expect(live.json().secret).toMatch(/^sk_live_/);
  });

  it('keeps listing and revoking in the key’s own environment', async () => {
    const t = await createTenant(app);
    const otherEnv = await app.inject({ method: 'GET', url: '/v1/api-keys?environment=live', headers: t.headers });
    expect(otherEnv.statusCode).toBe(403);
    expect(otherEnv.json()).toMatchObject({ code: 'forbidden', details: [{ field: 'environment' }] });
    const ownEnv = await app.inject({ method: 'GET', url: '/v1/api-keys?environment=test', headers: t.headers });
    expect(ownEnv.statusCode).toBe(200);
    expect(ownEnv.json().data.map((k: { id: string }) => k.id)).toEqual([t.apiKeyId]);
    // A live key cannot revoke a test key (the reverse is checked above).
    const del = await app.inject({ method: 'DELETE', url: `/v1/api-keys/${t.apiKeyId}`, headers: t.liveHeaders });
    expect(del.statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/v1/api-keys', headers: t.headers })).statusCode).toBe(200);
  });

  it('bounds a key by what is stored now, not by the verified key its process still caches', async () => {
    const t = await createTenant(app);
    expect((await app.inject({ method: 'GET', url: '/v1/api-keys', headers: t.headers })).statusCode).toBe(200); // now cached
    // Revoked by another process whose invalidation has not arrived yet.
    await app.deps.db.updateTable('api_keys').set({ revoked_at: new Date() }).where('id', '=', t.apiKeyId).execute();
    expect((await app.inject({ method: 'GET', url: '/v1/api-keys', headers: t.headers })).statusCode).toBe(200);
    const mint = await app.inject({ method: 'POST', url: '/v1/api-keys', headers: t.headers, payload: { name: 'late' } });
    expect(mint.statusCode).toBe(401);
    expect(mint.json().code).toBe('unauthorized');
  });

  it('audits every creation with its creator (a key by id and prefix, a session by account), never the secret', async () => {
    const t = await createTenant(app);
    const byKey = (await app.inject({ method: 'POST', url: '/v1/api-keys', headers: t.headers, payload: { name: 'by key' } })).json();
    const bySession = (
      await app.inject({ method: 'POST', url: '/api/admin/api-keys', headers: t.adminHeaders, payload: { name: 'by session', environment: 'live' } })
    ).json();
    const creator = (await keysOf(t)).test.find((k) => k.id === t.apiKeyId) as unknown as { prefix: string };

    const [keyEntry] = await createdEntries(`target_id=${byKey.id}`);
    expect(keyEntry).toMatchObject({ actor: { type: 'api_key', id: t.apiKeyId }, environment: 'test' });
    expect(keyEntry.changes).toMatchObject({
      name: 'by key',
      environment: 'test',
      prefix: byKey.prefix,
      last4: byKey.last4,
      created_by: { type: 'api_key', id: t.apiKeyId, prefix: creator.prefix },
    });
    const [sessionEntry] = await createdEntries(`target_id=${bySession.id}`);
    expect(sessionEntry).toMatchObject({ actor: { type: 'account', id: t.accountId, email: t.email }, environment: 'live' });
    expect(sessionEntry.changes).toMatchObject({ environment: 'live', created_by: { type: 'account', id: t.accountId, email: t.email } });

    const all = JSON.stringify(await createdEntries(`workspace_id=${t.workspaceId}`));
    expect(all).toContain(byKey.id);
    for (const secret of [byKey.secret, bySession.secret, t.apiKey, t.liveApiKey]) expect(all).not.toContain(secret.slice(12));
  });
});

describe('a key with an expiry creates keys that expire no later', () => {
  const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

  async function expiringKey(t: Tenant, expiresAt: string) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/api-keys',
      headers: t.adminHeaders,
      payload: { name: 'expiring', environment: 'test', expires_at: expiresAt },
    });
    expect(res.statusCode).toBe(201);
    return { id: res.json().id as string, headers: { authorization: `Bearer ${res.json().secret}`, 'x-service-workspace': t.workspaceId } };
  }

  it('refuses a key without an expiry or with a later one (403 forbidden on expires_at)', async () => {
    const t = await createTenant(app);
    const creatorExpiry = inHours(1);
    const creator = await expiringKey(t, creatorExpiry);
    for (const payload of [{ name: 'forever' }, { name: 'forever', expires_at: null }, { name: 'later', expires_at: inHours(2) }]) {
      const res = await app.inject({ method: 'POST', url: '/v1/api-keys', headers: creator.headers, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden', details: [{ field: 'expires_at', message: expect.stringContaining(creatorExpiry) }] });
    }
    const keys = (await app.inject({ method: 'GET', url: '/v1/api-keys', headers: t.headers })).json().data;
    expect(keys.map((k: { id: string }) => k.id).sort()).toEqual([t.apiKeyId, creator.id].sort());
  });

  it('accepts an expiry up to the creator’s own; a key without an expiry creates any', async () => {
    const t = await createTenant(app);
    const creatorExpiry = inHours(1);
    const creator = await expiringKey(t, creatorExpiry);
    for (const expiresAt of [creatorExpiry, inHours(0.5)]) {
      const res = await app.inject({ method: 'POST', url: '/v1/api-keys', headers: creator.headers, payload: { name: 'bounded', expires_at: expiresAt } });
      expect(res.statusCode).toBe(201);
      expect(Date.parse(res.json().expires_at)).toBeLessThanOrEqual(Date.parse(creatorExpiry));
    }
    const unbounded = await app.inject({ method: 'POST', url: '/v1/api-keys', headers: t.headers, payload: { name: 'unbounded' } });
    expect(unbounded.statusCode).toBe(201);
    expect(unbounded.json().expires_at).toBeNull();
  });
});
