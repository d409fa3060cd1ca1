import type { FastifyInstance, InjectOptions } from 'fastify';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../app.js';
import { testConfig } from '../../config.js';
import { openDatabase } from '../../platform/db/database.js';
import type { InvalidationBus } from '../../platform/cache/invalidation-bus.js';
import { buildTestApp, createTenant, superAdminHeaders, type Tenant } from '../../../test/helpers/app.js';

// Suspending an account stops everything that acts on the workspaces it owns: its sessions
// (Bearer and cookie), the workspaces' API keys and integration ingest keys, and the sessions
// of other accounts that are members of those workspaces. Reactivation gives it all back
// (the owner's sessions excepted: they were ended, the owner signs in again).

let app: FastifyInstance;
let root: Record<string, string>;

beforeAll(async () => {
  app = await buildTestApp();
  root = await superAdminHeaders(app);
});

/**
 * Another account with a session, added as a plain member of the owner's workspace. No route
 * adds members yet (registration makes the owner), but the model has them (workspace_members
 * roles owner | admin | member) and the admin guard admits them, so the row is written here.
 */
async function memberOf(owner: Tenant, opts: { only?: boolean } = {}) {
  const member = await createTenant(app);
  const db = app.deps.db;
  // `only`: the member's one workspace is the owner's, so /api/admin needs no workspace header.
  if (opts.only) await db.deleteFrom('workspace_members').where('account_id', '=', member.accountId).execute();
  await db.insertInto('workspace_members').values({ workspace_id: owner.workspaceId, account_id: member.accountId, role: 'operator' }).execute();
  return {
    member,
    inOwners: { authorization: `Bearer ${member.sessionToken}`, 'x-service-workspace': owner.workspaceId, 'x-service-environment': 'test' },
    noHeader: { authorization: `Bearer ${member.sessionToken}`, 'x-service-environment': 'test' },
  };
}

async function ingestKeyOf(target: FastifyInstance, t: Tenant): Promise<string> {
  const res = await target.inject({ method: 'POST', url: '/api/admin/integrations', headers: t.adminHeaders, payload: { name: 'Store', platform: 'custom' } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().ingest_key;
}

async function cookieOf(t: Tenant): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/session', payload: { email: t.email, password: t.password } });
  expect(res.statusCode, res.body).toBe(200);
  const header = res.headers['set-cookie'];
  const raw = (Array.isArray(header) ? header : [header ?? '']).find((c) => c.startsWith('service_session='))!;
  return raw.split(';')[0];
}

/** The requests that act on the owner's workspace, each with what it answers when admitted. */
function probes(owner: Tenant, ingestKey: string, member: { inOwners: Record<string, string> }, cookie?: string) {
  const p: Record<string, InjectOptions & { admitted: number }> = {
    'test API key': { method: 'GET', url: '/v1/orders', headers: owner.headers, admitted: 200 },
    'live API key': { method: 'GET', url: '/v1/orders', headers: owner.liveHeaders, admitted: 200 },
    // An unknown order: 404 means the ingest key was admitted.
    'ingest key': {
      method: 'GET',
      url: '/api/integrations/orders/ord_00000000000000000000000000',
      headers: { authorization: `Bearer ${ingestKey}` },
      admitted: 404,
    },
    'owner session': { method: 'GET', url: '/api/admin/api-keys', headers: owner.adminHeaders, admitted: 200 },
    "member's session": { method: 'GET', url: '/api/admin/api-keys', headers: member.inOwners, admitted: 200 },
  };
  if (cookie)
    p['owner cookie session'] = { method: 'GET', url: '/api/admin/api-keys', headers: { cookie, 'x-service-workspace': owner.workspaceId }, admitted: 200 };
  return p;
}

/** The owner's own sessions end (401); everything else on the workspace is 403 account_suspended. */
function refusal(name: string): { status: number; code: string } {
  return name.startsWith('owner') ? { status: 401, code: 'unauthorized' } : { status: 403, code: 'account_suspended' };
}

async function expectAdmitted(target: FastifyInstance, all: ReturnType<typeof probes>) {
  for (const [name, { admitted, ...req }] of Object.entries(all)) {
    const res = await target.inject(req);
    expect.soft(res.statusCode, `${name}: ${res.body}`).toBe(admitted);
  }
}

async function expectRefused(target: FastifyInstance, all: ReturnType<typeof probes>) {
  for (const [name, { admitted: _a, ...req }] of Object.entries(all)) {
    const res = await target.inject(req);
    const want = refusal(name);
    expect.soft(res.statusCode, `${name}: ${res.body}`).toBe(want.status);
    expect.soft(res.json(), name).toMatchObject({ code: want.code, request_id: res.headers['x-request-id'] });
  }
}

describe('suspending the owner of a workspace', () => {
  it('stops its sessions, API keys and ingest keys and its members at once; reactivation restores all but the ended sessions', async () => {
    const owner = await createTenant(app);
    const ingestKey = await ingestKeyOf(app, owner);
    const member = await memberOf(owner);
    const sole = await memberOf(owner, { only: true });
    const all = probes(owner, ingestKey, member, await cookieOf(owner));
    await expectAdmitted(app, all); // and cached now
    expect((await app.inject({ method: 'GET', url: '/api/admin/api-keys', headers: sole.noHeader })).statusCode).toBe(200);

    const res = await app.inject({ method: 'POST', url: `/api/super-admin/accounts/${owner.accountId}/suspend`, headers: root });
    expect(res.statusCode, res.body).toBe(200);

    await expectRefused(app, all);
    const soleRes = await app.inject({ method: 'GET', url: '/api/admin/api-keys', headers: sole.noHeader });
    expect(soleRes.statusCode, soleRes.body).toBe(403);
    expect(soleRes.json().code).toBe('account_suspended');
    // The member keeps their own workspace and their session; only the suspended one is closed.
    expect((await app.inject({ method: 'GET', url: '/api/admin/api-keys', headers: member.member.adminHeaders })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/v1/orders', headers: member.member.headers })).statusCode).toBe(200);
    // A super-admin (not a member) can still act on the workspace, e.g. to look into it.
    const asRoot = await app.inject({ method: 'GET', url: '/api/admin/api-keys', headers: { ...root, 'x-service-workspace': owner.workspaceId } });
    expect(asRoot.statusCode, asRoot.body).toBe(200);

    const back = await app.inject({ method: 'POST', url: `/api/super-admin/accounts/${owner.accountId}/reactivate`, headers: root });
    expect(back.statusCode, back.body).toBe(200);
    const { 'owner session': _s, 'owner cookie session': _c, ...restored } = all;
    await expectAdmitted(app, restored);
    expect((await app.inject({ method: 'GET', url: '/api/admin/api-keys', headers: sole.noHeader })).statusCode).toBe(200);
    // The owner's sessions stay ended; signing in again works.
    expect((await app.inject(all['owner session'])).statusCode).toBe(401);
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: owner.email, password: owner.password } });
    expect(login.statusCode, login.body).toBe(200);
    const again = await app.inject({
      method: 'GET',
      url: '/api/admin/api-keys',
      headers: { ...owner.adminHeaders, authorization: `Bearer ${login.json().token}` },
    });
    expect(again.statusCode).toBe(200);
  });
});

// The race a cache must not lose: a process reads a credential (its snapshot predates the
// suspension's commit), the invalidation arrives while that read is in flight, then the read
// lands. Caching it would undo the invalidation for the cache's whole TTL. The invalidation is
// applied the way the bus's listener applies it, and the suspension is written afterwards
// without publishing (its invalidation was the one already heard), so the order is exact on
// both engines.
describe('an invalidation that arrives while a credential is being read', () => {
  it('is not undone when the older read lands in the cache', async () => {
    const owner = await createTenant(app);
    const ingestKey = await ingestKeyOf(app, owner);
    const { accounts, workspaces, cache } = app.identity;
    const ingest = app.services.integrations;
    // A session no request has used yet (the tenant's own was cached creating the integration).
    const { token } = await accounts.login({ email: owner.email, password: owner.password }, {});

    const reads = [workspaces.verifyApiKey(owner.apiKey), accounts.verifySession(token), ingest.verifyIngestKey(ingestKey)];
    for (const topic of [`account:${owner.accountId}`, `workspace:${owner.workspaceId}`]) {
      cache.apply(topic);
      ingest.invalidate(topic);
    }
    const [key, verified, ingested] = await Promise.all(reads);
    expect(key).toMatchObject({ suspended: false }); // the state before the suspension
    expect(verified).toMatchObject({ status: 'active' });
    expect(ingested).toMatchObject({ suspended: false });

    const db = app.deps.db;
    await db.updateTable('accounts').set({ status: 'suspended' }).where('id', '=', owner.accountId).execute();
    await db.updateTable('sessions').set({ revoked_at: new Date() }).where('account_id', '=', owner.accountId).execute();
    await db.updateTable('workspaces').set({ suspended_at: new Date() }).where('id', '=', owner.workspaceId).execute();

    const all = probes(owner, ingestKey, { inOwners: owner.adminHeaders });
    const session = { ...all['owner session'], headers: { ...owner.adminHeaders, authorization: `Bearer ${token}` } };
    await expectRefused(app, { 'test API key': all['test API key'], 'ingest key': all['ingest key'], 'owner session': session });
  });
});

/** Resolves once `bus` has delivered `topic` to its listeners (the caches subscribed first). */
function heard(bus: InvalidationBus, topic: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${topic} notification within 10 s`)), 10_000);
    bus.subscribe((t) => {
      if (t !== topic) return;
      clearTimeout(timer);
      resolve();
    });
  });
}

// Two API processes on one PostgreSQL database: B has every credential cached when A
// suspends; once B has heard A's invalidation, B's very next request is refused (no retry loop).
describe.runIf(inject('testDb').engine === 'postgres')('suspension across processes', () => {
  it('another process refuses cached sessions, API keys, ingest keys and members on its next request, and admits again after reactivation', async () => {
    const owner = await createTenant(app);
    const ingestKey = await ingestKeyOf(app, owner);
    const member = await memberOf(owner);
    const db2 = await openDatabase({ databaseUrl: app.deps.database.connectionString!, poolMax: 2 });
    const b = await buildApp({ config: testConfig(), database: db2, migrate: false, perIpPerMinute: 100_000 });
    try {
      const all = probes(owner, ingestKey, member);
      await expectAdmitted(b, all);

      let notified = heard(b.deps.bus, `workspace:${owner.workspaceId}`);
      expect((await app.inject({ method: 'POST', url: `/api/super-admin/accounts/${owner.accountId}/suspend`, headers: root })).statusCode).toBe(200);
      await notified;
      await expectRefused(b, all);

      notified = heard(b.deps.bus, `workspace:${owner.workspaceId}`);
      expect((await app.inject({ method: 'POST', url: `/api/super-admin/accounts/${owner.accountId}/reactivate`, headers: root })).statusCode).toBe(200);
      await notified;
      const { 'owner session': _s, ...restored } = all;
      await expectAdmitted(b, restored);
    } finally {
      await b.close();
      await db2.close();
    }
  });
});
