import type { FastifyInstance, InjectOptions } from 'fastify';
import { expect } from 'vitest';
import { buildApp, type BuildAppOptions } from '../../src/app.js';
import { testConfig, type Config } from '../../src/config.js';
import { afterFile } from './cleanup.js';
import { openTestDatabase } from './db.js';

export interface TestAppOptions extends Partial<Omit<BuildAppOptions, 'config' | 'database'>> {
  config?: Partial<Config>;
}

/**
 * A fully built app on a fresh migrated database of its own (closed after the file's tests).
 * Per-IP limits are raised so a test file's many logins from 127.0.0.1 are not throttled.
 */
export async function buildTestApp(options: TestAppOptions = {}): Promise<FastifyInstance> {
  const database = await openTestDatabase();
  const { config, ...rest } = options;
  const app = await buildApp({ config: testConfig(config), database, migrate: false, perIpPerMinute: 100_000, ...rest });
  afterFile(async () => {
    await app.close();
    await database.close();
  });
  return app;
}

export interface Tenant {
  accountId: string;
  email: string;
  password: string;
  workspaceId: string;
  /** A test-environment key and headers for /v1. */
  apiKey: string;
  apiKeyId: string;
  headers: Record<string, string>;
  /** A live-environment key and headers for /v1. */
  liveApiKey: string;
  liveHeaders: Record<string, string>;
  /** Session token and headers for /api/admin (acting on this workspace, test environment). */
  sessionToken: string;
  adminHeaders: Record<string, string>;
}

let counter = 0;

/**
 * A tenant of its own for one test: an approved account, its workspace (enterprise plan with a
 * high burst so tests are not rate limited unless they ask), a test and a live key, a session.
 */
export async function createTenant(app: FastifyInstance, opts: { plan?: 'starter' | 'professional' | 'enterprise' } = {}): Promise<Tenant> {
  const n = ++counter;
  const email = `user${n}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'correct horse battery';
  const meta = { requestId: 'test' };
  const system = { type: 'system' as const, id: null };
  const { accounts, workspaces } = app.identity;
  const reg = await accounts.register({ email, password, name: `User ${n}`, workspace_name: `Workspace ${n}` }, meta);
  await accounts.transition(reg.account.id, 'approve', system, meta);
  const plan = opts.plan ?? 'enterprise';
  await workspaces.setPlan(reg.workspace.id, { plan, burst_per_minute: plan === 'enterprise' ? 1_000_000 : null }, system, meta);
  const test = await workspaces.createApiKey(reg.workspace.id, { name: 'test key', environment: 'test' }, system, meta);
  const live = await workspaces.createApiKey(reg.workspace.id, { name: 'live key', environment: 'live' }, system, meta);
  const login = await accounts.login({ email, password }, meta);
  return {
    accountId: reg.account.id,
    email,
    password,
    workspaceId: reg.workspace.id,
    apiKey: test.secret,
    apiKeyId: test.id,
    headers: { authorization: `Bearer ${test.secret}`, 'x-service-workspace': reg.workspace.id },
    liveApiKey: live.secret,
    liveHeaders: { authorization: `Bearer ${live.secret}`, 'x-service-workspace': reg.workspace.id },
    sessionToken: login.token,
    adminHeaders: { authorization: `Bearer ${login.token}`, 'x-service-workspace': reg.workspace.id, 'x-service-environment': 'test' },
  };
}

/** A logged-in super-admin (created through the same path as SUPER_ADMIN_EMAIL at start). */
export async function superAdminHeaders(app: FastifyInstance): Promise<Record<string, string>> {
  const email = `root${++counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'super secret password';
  await app.identity.accounts.ensureSuperAdmin(email, password);
  const login = await app.identity.accounts.login({ email, password }, {});
  return { authorization: `Bearer ${login.token}` };
}

/**
 * The auth matrix every /v1 route must pass (Unkey's shared harness): no key → 401, a key of
 * another workspace named with this workspace → 403, a revoked key → 401, and — when the route
 * reads a resource — another workspace's resource → 404.
 */
export async function expectV1AuthMatrix(
  app: FastifyInstance,
  request: Omit<InjectOptions, 'headers'> & { url: string },
  opts: { owner: Tenant; otherWorkspaceResource?: boolean },
): Promise<void> {
  const { owner } = opts;
  const noKey = await app.inject({ ...request, headers: { 'x-service-workspace': owner.workspaceId } });
  expect(noKey.statusCode, 'no key').toBe(401);
  expect(noKey.json().code).toBe('unauthorized');

  const stranger = await createTenant(app);
  const wrongWorkspace = await app.inject({ ...request, headers: { authorization: `Bearer ${stranger.apiKey}`, 'x-service-workspace': owner.workspaceId } });
  expect(wrongWorkspace.statusCode, 'key of another workspace').toBe(403);

  const revoked = await createTenant(app);
  await app.identity.workspaces.revokeApiKey(revoked.workspaceId, revoked.apiKeyId, { type: 'system', id: null }, {});
  const revokedRes = await app.inject({ ...request, headers: revoked.headers });
  expect(revokedRes.statusCode, 'revoked key').toBe(401);

  if (opts.otherWorkspaceResource) {
    const other = await app.inject({ ...request, headers: stranger.headers });
    expect(other.statusCode, "another workspace's resource").toBe(404);
    expect(other.json().code).toBe('not_found');
  }
}
