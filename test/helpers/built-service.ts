import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject } from 'vitest';

/**
 * The service as users run it: `node scripts/start.mjs` (what `npm start` runs: the bundled
 * dist/, rebuilt first when the sources are newer) as a child process on a free port, with a
 * data dir of its own (PGlite) or a database of its own copied from the run's template
 * (PostgreSQL runs). Tests reach it over real HTTP only.
 *
 * One process per test file: call `useBuiltService()` at the top of the file, then
 * `onboardClient()` in a `beforeAll` for a ready workspace, and add `it` blocks per route group.
 */
export interface BuiltService {
  baseUrl: string;
  engine: 'pglite' | 'postgres';
  superAdmin: { email: string; password: string };
  /** Everything the process printed (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGTERM, wait for the exit (SIGKILL after 15 s), remove its data; resolves to the exit code. */
  stop(): Promise<number | null>;
  request(method: string, url: string, options?: { headers?: Record<string, string>; json?: unknown; body?: string }): Promise<HttpResult>;
  /** Every `METHOD /path` requested through `request()` (query strings dropped), for coverage checks. */
  readonly calls: string[];
}

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  body: any; // tests read arbitrary response shapes
}

export interface StartOptions {
  /** Extra environment (e.g. feature flags of a route group). */
  env?: Record<string, string>;
  /** How long to wait for /health: a stale dist/ is rebuilt first (~15 s idle, minutes on a loaded machine). */
  healthyWithinMs?: number;
  /** Run on this PGlite data dir, and keep it on stop (a restart, a backup and restore). */
  dataDir?: string;
  /** Listen on this port (from `freePort()`): for an env that must name the service's own URL before it starts (PUBLIC_BASE_URL, where a store delivers webhooks). */
  port?: number;
}

const OUTPUT_LIMIT = 200_000;

/** A port nobody listens on now (fixed ranges collide with local services). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A database of its own for a PostgreSQL run (dropped by the run's global teardown). */
async function postgresDatabaseUrl(): Promise<string | undefined> {
  const target = inject('testDb');
  if (target.engine !== 'postgres') return undefined;
  const name = `${target.prefix}_built_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: target.adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}" template "${target.templateName}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(target.adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A PGlite data dir holding the run's migrated template (test/global-setup.ts), as the service
 * lays it out (DATA_DIR/pgdata): creating and migrating one from nothing takes ~4 s idle and
 * much longer on a loaded machine. The service still runs its migrator at start (a no-op here);
 * a start on an empty data dir is covered by test/e2e/process.test.ts.
 */
export function dataDirFromTemplate(): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ship-built-'));
  const target = inject('testDb');
  if (target.engine === 'pglite') {
    mkdirSync(path.join(dataDir, 'pgdata'));
    execFileSync('tar', ['-xf', target.templatePath, '-C', path.join(dataDir, 'pgdata')], { stdio: 'ignore' });
  }
  return dataDir;
}

export async function startBuiltService(options: StartOptions = {}): Promise<BuiltService> {
  const dataDir = options.dataDir ?? dataDirFromTemplate();
  const port = options.port ?? (await freePort());
  const databaseUrl = await postgresDatabaseUrl();
  const superAdmin = { email: `root-${randomBytes(3).toString('hex')}@example.com`, password: `root-${randomBytes(9).toString('hex')}` };
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      REDIS_URL: '',
      NODE_ENV: 'development',
      // Errors (a 500's stack) land in output(), quoted by failing assertions.
      LOG_LEVEL: 'warn',
      SEED_DEMO: '0',
      SUPER_ADMIN_EMAIL: superAdmin.email,
      SUPER_ADMIN_PASSWORD: superAdmin.password,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const append = (d: Buffer) => {
    if (output.length < OUTPUT_LIMIT) output += d.toString();
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  let stopped: Promise<number | null> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(killer);
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      return child.exitCode;
    })();
    return stopped;
  };

  const calls: string[] = [];
  const request: BuiltService['request'] = async (method, url, opts = {}) => {
    calls.push(`${method.toUpperCase()} ${url.split('?')[0]}`);
    const headers: Record<string, string> = { ...opts.headers };
    let body = opts.body;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(baseUrl + url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown;
    if ((res.headers.get('content-type') ?? '').includes('json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    return { status: res.status, headers: res.headers, text, body: parsed };
  };

  const until = Date.now() + (options.healthyWithinMs ?? 300_000);
  let healthy = false;
  while (!healthy && Date.now() < until && child.exitCode === null) {
    try {
      healthy = (await fetch(`${baseUrl}/health`)).ok;
    } catch {
      /* not listening yet */
    }
    if (!healthy) await new Promise((r) => setTimeout(r, 100));
  }
  if (!healthy) {
    await stop();
    throw new Error(`the built service did not become healthy:\n${output.slice(-4000)}`);
  }
  return { baseUrl, engine: databaseUrl ? 'postgres' : 'pglite', superAdmin, output: () => output, stop, request, calls };
}

/**
 * One built service for the calling test file: started in beforeAll, stopped in afterAll.
 * Returns a getter (the service exists only once beforeAll ran).
 */
export function useBuiltService(options: StartOptions = {}): () => BuiltService {
  let service: BuiltService | undefined;
  beforeAll(
    async () => {
      service = await startBuiltService(options);
    },
    (options.healthyWithinMs ?? 300_000) + 20_000,
  );
  afterAll(async () => {
    await service?.stop();
  }, 30_000);
  return () => {
    if (!service) throw new Error('useBuiltService(): the service is not started (call it at the top level of the test file)');
    return service;
  };
}

/** Assert a status, quoting the body and the tail of the service's log when it differs. */
export function expectStatus(service: BuiltService, res: HttpResult, status: number, what: string): void {
  expect(res.status, `${what}: ${res.text.slice(0, 500)}\n--- service output ---\n${service.output().slice(-3000)}`).toBe(status);
}

export interface BuiltClient {
  accountId: string;
  email: string;
  password: string;
  workspaceId: string;
  apiKey: string;
  apiKeyId: string;
  /** /v1 headers: the new test key and the workspace. */
  v1: Record<string, string>;
  /** /api/admin headers: the client's session, its workspace, the test environment. */
  admin: Record<string, string>;
  /** /api/super-admin headers: the super-admin's session. */
  root: Record<string, string>;
}

/**
 * The first minutes of a client exactly as the README describes them, over HTTP: the
 * super-admin logs in, a user registers (pending), is approved, logs in and creates a test API
 * key. Then the super-admin moves the workspace to enterprise with a high burst, so a test
 * file's many /v1 calls are not throttled by the starter plan's 60/min.
 */
export async function onboardClient(service: BuiltService, opts: { name?: string } = {}): Promise<BuiltClient> {
  const rootLogin = await service.request('POST', '/api/auth/login', { json: service.superAdmin });
  expectStatus(service, rootLogin, 200, 'super-admin login');
  const root = { authorization: `Bearer ${rootLogin.body.token}` };

  const email = `client-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'correct horse battery staple';
  const name = opts.name ?? 'Built Tree Client';
  const reg = await service.request('POST', '/api/auth/register', { json: { email, password, name, workspace_name: `${name} Store` } });
  expectStatus(service, reg, 201, 'register');
  expect(reg.body.account.status).toBe('pending');
  const accountId: string = reg.body.account.id;
  const workspaceId: string = reg.body.workspace.id;

  const approve = await service.request('POST', `/api/super-admin/accounts/${accountId}/approve`, { headers: root });
  expectStatus(service, approve, 200, 'approve');
  expect(approve.body.status).toBe('active');

  const login = await service.request('POST', '/api/auth/login', { json: { email, password } });
  expectStatus(service, login, 200, 'client login');
  expect(login.body.token_type).toBe('Bearer');
  const session = { authorization: `Bearer ${login.body.token}`, 'x-service-workspace': workspaceId };

  const key = await service.request('POST', '/api/admin/api-keys', { headers: session, json: { name: 'built-tree key', environment: 'test' } });
  expectStatus(service, key, 201, 'create API key');
  expect(key.body.secret).toMatch(/^sk_test_/);

  const plan = await service.request('PATCH', `/api/super-admin/workspaces/${workspaceId}`, {
    headers: root,
    json: { plan: 'enterprise', burst_per_minute: 100_000 },
  });
  expectStatus(service, plan, 200, 'raise the plan');

  return {
    accountId,
    email,
    password,
    workspaceId,
    apiKey: key.body.secret,
    apiKeyId: key.body.id,
    v1: { authorization: `Bearer ${key.body.secret}`, 'x-service-workspace': workspaceId },
    admin: { ...session, 'x-service-environment': 'test' },
    root,
  };
}

/**
 * The route group of a path: `/v1/<resource>`, `/api/<area>/<resource>`, or the path itself
 * for the system routes (`/`, `/health`). `/v1/orders/{id}` and `/v1/orders/ord_…/x` are both
 * `/v1/orders`.
 */
export function routeGroup(path: string): string {
  // An id in the group's own segment (/api/integrations/int_…/webhooks) is the template's {id}.
  const parts = path
    .split('/')
    .filter(Boolean)
    .map((p) => (/^[a-z]+_[0-9a-z]{26}$/.test(p) ? '{id}' : p));
  if (parts[0] === 'v1') return `/${parts.slice(0, 2).join('/')}`;
  if (parts[0] === 'api' && parts.length > 1) return `/${parts.slice(0, 3).join('/')}`;
  return `/${parts.join('/')}`;
}

/** The route groups of the service's /openapi.json that `service.calls` never reached. */
export async function uncalledRouteGroups(service: BuiltService): Promise<string[]> {
  const doc = (await service.request('GET', '/openapi.json')).body as { paths: Record<string, unknown> };
  const called = new Set(service.calls.map((c) => routeGroup(c.slice(c.indexOf(' ') + 1))));
  return [...new Set(Object.keys(doc.paths).map(routeGroup))].filter((g) => !called.has(g)).sort();
}
