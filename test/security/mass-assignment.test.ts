import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, superAdminHeaders } from '../helpers/app.js';
import { makePrincipal, orderBody, resourceFactories, type Principal } from '../helpers/credentials.js';
import {
  collectionOf,
  dateFieldPaths,
  detailField,
  fillPath,
  loadOperations,
  pathParams,
  setPath,
  validArbitrary,
  type OpenApiDoc,
  type Operation,
} from '../helpers/openapi.js';

// OWASP API3 (mass assignment): fields the server owns are refused in every request body that
// does not declare them, and nothing a client sends changes them; re-reads prove it.

const READ_ONLY = {
  id: 'ord_injected0000000000000000000',
  workspace_id: 'ws_injected000000000000000000',
  status: 'delivered',
  price: { amount: 1, currency: 'USD' },
  role: 'super_admin',
  plan: 'enterprise',
  created_at: '2000-01-01T00:00:00.000Z',
  updated_at: '2000-01-01T00:00:00.000Z',
};

/**
 * The same server-owned times, and more, out of range or impossible (year 0000 was a 500 where a
 * date reached the database): sent with every declared date field of the body out of range too.
 */
const YEAR_ZERO = '0000-01-01T00:00:00Z';
const READ_ONLY_BAD_DATES = {
  ...READ_ONLY,
  created_at: YEAR_ZERO,
  updated_at: '2026-02-30T13:60:00+24:00',
  deleted_at: '+275760-09-13T00:00:00Z',
  cancelled_at: '-000001-01-01T00:00:00Z',
  completed_at: '10000-01-01T00:00:00Z',
};

let app: FastifyInstance;
let doc: OpenApiDoc;
let operations: Operation[];
let me: Principal;
const ids: Record<string, string> = {};

beforeAll(async () => {
  app = await buildTestApp({ config: { webhookAllowPrivateTargets: true, encryptionKey: randomBytes(32).toString('base64') } });
  ({ doc, operations } = await loadOperations(app));
  me = await makePrincipal(app, await superAdminHeaders(app));
  for (const [collection, factory] of Object.entries(resourceFactories)) ids[collection] = await factory.create(app, me, 'test');
}, 180_000);

describe('read-only fields in request bodies', () => {
  it('every body that does not declare them refuses them (or, where extra fields pass, ignores them)', { timeout: 180_000 }, async () => {
    const problems: string[] = [];
    const bodies = operations.filter((o) => o.body && o.auth !== 'none' && o.auth !== 'superAdmin');
    expect(bodies.length).toBeGreaterThan(8);
    for (const [op, badDates] of bodies.flatMap((o) => [[o, false] as const, [o, true] as const])) {
      const declared = Object.keys((op.body!.properties ?? {}) as object);
      const injected = Object.fromEntries(Object.entries(badDates ? READ_ONLY_BAD_DATES : READ_ONLY).filter(([k]) => !declared.includes(k)));
      const sample = fc.sample(validArbitrary(op.body!, doc), { numRuns: 1, seed: 3 })[0] as Record<string, unknown>;
      // Every date field the body declares (optional ones too) holds year 0000, the attack run's value.
      const datePaths = badDates ? dateFieldPaths(op.body!, doc) : [];
      const base = datePaths.reduce<unknown>((body, path) => setPath(body, path, YEAR_ZERO), sample) as Record<string, unknown>;
      const param = pathParams(op.path)[0];
      const url = fillPath(op.path, param ? { [param]: ids[collectionOf(op.path) ?? ''] ?? 'x' } : {});
      const res = await app.inject({ method: op.method, url, headers: await me.headers(op.auth, 'test'), payload: { ...base, ...injected } });
      if (res.statusCode >= 500) {
        problems.push(`${op.method} ${op.path}${badDates ? ' (dates out of range)' : ''}: ${res.statusCode}`);
        continue;
      }
      // The body's own date fields, out of range, are refused by name.
      const sent = datePaths.map(detailField);
      if (sent.length) {
        const fields = res.statusCode === 400 ? (res.json().details ?? []).map((d: { field: string }) => d.field) : [];
        const unnamed = sent.filter((f) => !fields.includes(f));
        if (res.statusCode !== 400 || unnamed.length)
          problems.push(`${op.method} ${op.path}: ${res.statusCode}, dates out of range not refused: ${unnamed.join(',')}`);
      }
      if (op.body!.additionalProperties === false) {
        const fields = res.statusCode === 400 ? (res.json().details ?? []).map((d: { field: string }) => d.field) : [];
        const missing = Object.keys(injected).filter((k) => !fields.includes(k));
        if (res.statusCode !== 400 || missing.length) problems.push(`${op.method} ${op.path}: ${res.statusCode}, not refused: ${missing.join(',')}`);
      } else if (res.statusCode < 300) {
        for (const [k, v] of Object.entries(injected)) {
          if (JSON.stringify(res.json()).includes(JSON.stringify(v).slice(1, -1)) && typeof v === 'string')
            problems.push(`${op.method} ${op.path}: echoed ${k}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('an order cannot be created or edited into another status, id or workspace (re-read)', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: me.tenant.headers,
      payload: { ...orderBody(), status: 'shipped', id: READ_ONLY.id },
    });
    expect(created.statusCode).toBe(400);
    const list = await app.inject({ method: 'GET', url: `/v1/orders?limit=100`, headers: me.tenant.headers });
    expect(list.json().data.some((o: { id: string }) => o.id === READ_ONLY.id)).toBe(false);
    expect((await app.inject({ method: 'GET', url: `/v1/orders/${READ_ONLY.id}`, headers: me.tenant.headers })).statusCode).toBe(404);

    const id = ids.orders;
    const before = (await app.inject({ method: 'GET', url: `/v1/orders/${id}`, headers: me.tenant.headers })).json();
    const patch = await app.inject({
      method: 'PATCH',
      url: `/api/admin/orders/${id}`,
      headers: me.tenant.adminHeaders,
      payload: { status: 'delivered', workspace_id: READ_ONLY.workspace_id, created_at: READ_ONLY.created_at },
    });
    expect(patch.statusCode).toBe(400);
    const after = (await app.inject({ method: 'GET', url: `/v1/orders/${id}`, headers: me.tenant.headers })).json();
    expect(after).toEqual(before);
  });

  it('a workspace cannot change its own plan or burst, and an account not its role (re-read)', async () => {
    const res = await app.inject({
      method: 'PATCH',
      url: '/api/admin/workspace',
      headers: me.tenant.adminHeaders,
      payload: { plan: 'enterprise', burst_per_minute: 10_000_000, mtls_required: false },
    });
    expect(res.statusCode).toBe(400);
    const ws = (await app.inject({ method: 'GET', url: '/api/admin/workspace', headers: me.tenant.adminHeaders })).json();
    expect(ws).toMatchObject({ plan: 'enterprise', burst_per_minute: 1_000_000 }); // as createTenant set them

    const email = `mass-${Date.now()}@example.com`;
    const reg = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email, password: 'long enough pw', name: 'M', workspace_name: 'M', role: 'super_admin', status: 'active', plan: 'enterprise' },
    });
    expect(reg.statusCode).toBe(400);
    expect(
      reg
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['plan', 'role', 'status']);
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'long enough pw' } });
    expect(login.statusCode).toBe(401); // no account was made
  });
});

describe('carrier accounts', () => {
  /** What the server owns on an account: its identity, tenancy, health, sealed secrets, seed origin, deletion. */
  const SERVER_OWNED = {
    id: 'ca_injected00000000000000000000',
    workspace_id: 'ws_injected000000000000000000',
    environment: 'live',
    health: { status: 'ok', checked_at: '2000-01-01T00:00:00.000Z', latency_ms: 1, message: null },
    health_status: 'ok',
    credentials_sealed: 'sealed-by-the-client',
    credentials_masked: { client_secret: '••••' },
    origin: 'seed',
    deleted_at: '2000-01-01T00:00:00.000Z',
    created_at: '2000-01-01T00:00:00.000Z',
    updated_at: '2000-01-01T00:00:00.000Z',
  };
  const refusedFields = (res: { statusCode: number; json(): { code: string; details?: Array<{ field: string }> } }) => {
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    return (res.json().details ?? []).map((d) => d.field).sort();
  };

  it('create refuses every server-owned field, naming each, on /v1 and the admin surface; nothing is made', async () => {
    const listIds = async () =>
      (await app.inject({ method: 'GET', url: '/v1/carrier-accounts?limit=100', headers: me.tenant.headers }))
        .json()
        .data.map((a: { id: string }) => a.id)
        .sort();
    const before = await listIds();
    for (const [url, headers] of [
      ['/v1/carrier-accounts', me.tenant.headers],
      ['/api/admin/carrier-accounts', me.tenant.adminHeaders],
    ] as const) {
      const res = await app.inject({ method: 'POST', url, headers, payload: { carrier: 'ups', driver: 'simulated', ...SERVER_OWNED } });
      expect(refusedFields(res)).toEqual(Object.keys(SERVER_OWNED).sort());
    }
    expect(await listIds()).toEqual(before);
    expect((await app.inject({ method: 'GET', url: `/v1/carrier-accounts/${SERVER_OWNED.id}`, headers: me.tenant.headers })).statusCode).toBe(404);
  });

  it('patch refuses them too, and what cannot change after create (carrier, driver, base_url, account_number); a re-read is unchanged', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/v1/carrier-accounts',
      headers: me.tenant.headers,
      payload: { carrier: 'ups', driver: 'simulated', description: 'mass' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const read = async () => (await app.inject({ method: 'GET', url: `/v1/carrier-accounts/${id}`, headers: me.tenant.headers })).json();
    const before = await read();
    const immutable = { carrier: 'fedex', driver: 'api', base_url: 'https://127.0.0.1:9', account_number: 'X1' };
    for (const [url, headers] of [
      [`/v1/carrier-accounts/${id}`, me.tenant.headers],
      [`/api/admin/carrier-accounts/${id}`, me.tenant.adminHeaders],
    ] as const) {
      const res = await app.inject({ method: 'PATCH', url, headers, payload: { description: 'changed', ...SERVER_OWNED, ...immutable } });
      expect(refusedFields(res)).toEqual([...Object.keys(SERVER_OWNED), ...Object.keys(immutable)].sort());
    }
    expect(await read()).toEqual(before);
    // Still in this workspace and environment, not deleted.
    expect((await app.inject({ method: 'GET', url: `/v1/carrier-accounts/${id}`, headers: me.tenant.liveHeaders })).statusCode).toBe(404);
  });

  it("credentials take only the fields of the carrier's credentials_schema: a smuggled key is refused by name", async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/carrier-accounts',
      headers: me.tenant.headers,
      payload: { carrier: 'ups', driver: 'api', credentials: { client_id: 'id', client_secret: 'secret-value-123', health: 'ok', credentials_sealed: 'x' } },
    });
    expect(refusedFields(res)).toEqual(['credentials.credentials_sealed', 'credentials.health']);
    expect(res.body).not.toContain('secret-value-123');
  });
});
