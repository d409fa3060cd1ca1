import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, superAdminHeaders } from '../helpers/app.js';
import { makePrincipal, resourceFactories, type Principal } from '../helpers/credentials.js';
import {
  collectionOf,
  errorShapeProblem,
  fillPath,
  loadOperations,
  pathParams,
  validArbitrary,
  type AuthKind,
  type OpenApiDoc,
  type Operation,
} from '../helpers/openapi.js';
import { businessRowCounts, changedTables } from '../helpers/rows.js';
import { requiredRole } from '../../src/route-roles.js';
import { roleAtLeast, WORKSPACE_ROLES, type WorkspaceRole } from '../../src/modules/identity/roles.js';

// OWASP API1/API2/API5, black-box: every operation in /openapi.json is called without
// credentials, with the wrong kind of credential, with another workspace's ids and with a test
// key on live data. Each must be refused with the right status and the common error body.
// Routes that merge later are walked as soon as they are in the document.

let app: FastifyInstance;
let doc: OpenApiDoc;
let operations: Operation[];
let root: Record<string, string>;
let owner: Principal;
let stranger: Principal;
/** Per role: a member's session and an API key of that role, both in `owner`'s workspace (test). */
const asRole = new Map<WorkspaceRole, { admin: Record<string, string>; apiKey: Record<string, string> }>();

beforeAll(async () => {
  app = await buildTestApp({ config: { webhookAllowPrivateTargets: true, encryptionKey: randomBytes(32).toString('base64') } });
  ({ doc, operations } = await loadOperations(app));
  root = await superAdminHeaders(app);
  owner = await makePrincipal(app, root);
  stranger = await makePrincipal(app, root);
  const system = { type: 'system' as const, id: null };
  for (const role of WORKSPACE_ROLES) {
    const email = `${role}-${randomBytes(4).toString('hex')}@example.com`;
    const reg = await app.identity.accounts.register({ email, password: 'correct horse battery', name: role, workspace_name: `${role}'s own` }, {});
    await app.identity.accounts.transition(reg.account.id, 'approve', system, {});
    await app.deps.db.insertInto('workspace_members').values({ workspace_id: owner.tenant.workspaceId, account_id: reg.account.id, role }).execute();
    const login = await app.identity.accounts.login({ email, password: 'correct horse battery' }, {});
    const key = await app.identity.workspaces.createApiKey(owner.tenant.workspaceId, { name: role, environment: 'test', role }, system, {});
    asRole.set(role, {
      admin: { authorization: `Bearer ${login.token}`, 'x-service-workspace': owner.tenant.workspaceId, 'x-service-environment': 'test' },
      apiKey: { authorization: `Bearer ${key.secret}`, 'x-service-workspace': owner.tenant.workspaceId },
    });
  }
});

const placeholder = (name: string) => `${name.replace(/Id$/, '')}_00000000000000000000000000`;

/**
 * A body the schema accepts (so the answer is about access, not about the body): only the
 * required fields, so business rules on optional ones do not answer first.
 */
function bodyFor(op: Operation): unknown {
  if (!op.body) return undefined;
  const value = fc.sample(validArbitrary(op.body, doc), { numRuns: 1, seed: 7 })[0];
  const required = new Set((op.body.required ?? []) as string[]);
  return value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).filter(([k]) => required.has(k))) : value;
}

async function call(op: Operation, headers: Record<string, string>, params: Record<string, string> = {}) {
  const payload = bodyFor(op);
  return app.inject({
    method: op.method,
    url: fillPath(op.path, Object.fromEntries(pathParams(op.path).map((p) => [p, params[p] ?? placeholder(p)]))),
    headers: { ...headers, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
    payload: payload === undefined ? undefined : JSON.stringify(payload),
  });
}

/** Credentials of the wrong kind for each guard, and the answer each must get. */
function wrongKinds(kind: AuthKind): Array<{ label: string; as: AuthKind; status: number; code: string }> {
  const all: Array<{ label: string; as: AuthKind }> = [
    { label: 'API key', as: 'apiKey' },
    { label: 'user session', as: 'session' },
    { label: 'ingest key', as: 'ingestKey' },
    { label: 'super-admin session', as: 'superAdmin' },
  ];
  const answers: Partial<Record<AuthKind, Partial<Record<AuthKind, [number, string]>>>> = {
    apiKey: { session: [401, 'unauthorized'], ingestKey: [401, 'unauthorized'], superAdmin: [401, 'unauthorized'] },
    admin: { apiKey: [401, 'unauthorized'], ingestKey: [401, 'unauthorized'] },
    session: { apiKey: [401, 'unauthorized'], ingestKey: [401, 'unauthorized'] },
    superAdmin: { apiKey: [401, 'unauthorized'], ingestKey: [401, 'unauthorized'], session: [403, 'forbidden'] },
    ingestKey: { apiKey: [401, 'unauthorized'], session: [401, 'unauthorized'], superAdmin: [401, 'unauthorized'] },
  };
  return all.flatMap((c) => {
    const a = answers[kind]?.[c.as];
    return a ? [{ ...c, status: a[0], code: a[1] }] : [];
  });
}

describe('every operation in /openapi.json', () => {
  it('is documented with an operationId, and the guarded ones are classified', () => {
    expect(operations.length).toBeGreaterThan(30);
    expect(new Set(operations.map((o) => o.operationId)).size).toBe(operations.length);
    const guarded = operations.filter((o) => o.auth !== 'none');
    expect(guarded.length).toBeGreaterThan(20);
    // Open routes are open on purpose: system, public, register/login.
    for (const o of operations.filter((o) => o.auth === 'none')) {
      expect(o.path, `${o.method} ${o.path} has no security`).toMatch(
        /^\/($|api$|health$|metrics$|api\/public\/|api\/auth\/(login|register|session|invitations\/\{code\}\/accept|password-reset|password-reset\/\{code\})$|api\/integrations\/oauth\/shopify\/callback$)/,
      );
    }
  });

  it('refuses a request without credentials: 401 unauthorized in the common shape', async () => {
    const problems: string[] = [];
    for (const op of operations.filter((o) => o.auth !== 'none')) {
      const headers: Record<string, string> = op.auth === 'apiKey' ? { 'x-service-workspace': owner.tenant.workspaceId } : {};
      const res = await call(op, headers);
      const shape = errorShapeProblem(res);
      const code = op.auth === 'signature' ? 'invalid_signature' : 'unauthorized';
      if (res.statusCode !== 401 || res.json().code !== code || shape)
        problems.push(`${op.method} ${op.path}: ${res.statusCode} ${shape ?? res.body.slice(0, 100)}`);
    }
    expect(problems).toEqual([]);
  });

  it('refuses the wrong kind of credential (session for a key, key for a session, user on super-admin, ingest key elsewhere)', async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const op of operations.filter((o) => o.auth !== 'none')) {
      if (op.path === '/api/auth/logout') continue; // a super-admin session would be ended; the guard is the same as /me
      for (const wrong of wrongKinds(op.auth)) {
        const headers = await owner.headers(wrong.as);
        // /v1 also gets the workspace header, so the refusal is about the credential's kind.
        const res = await call(op, op.auth === 'apiKey' ? { ...headers, 'x-service-workspace': owner.tenant.workspaceId } : headers);
        checked++;
        const shape = errorShapeProblem(res);
        if (res.statusCode !== wrong.status || res.json().code !== wrong.code || shape) {
          problems.push(
            `${op.method} ${op.path} with ${wrong.label}: ${res.statusCode} ${shape ?? res.body.slice(0, 100)} (want ${wrong.status} ${wrong.code})`,
          );
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(problems).toEqual([]);
  });

  it("an API key names its own workspace only: another workspace's id in X-Service-Workspace is 403", async () => {
    const problems: string[] = [];
    for (const op of operations.filter((o) => o.auth === 'apiKey')) {
      const res = await call(op, { ...(await stranger.headers('apiKey')), 'x-service-workspace': owner.tenant.workspaceId });
      if (res.statusCode !== 403 || errorShapeProblem(res)) problems.push(`${op.method} ${op.path}: ${res.statusCode}`);
    }
    expect(problems).toEqual([]);
  });

  const templated = () =>
    operations.filter(
      (o) => ['apiKey', 'admin', 'ingestKey'].includes(o.auth) && pathParams(o.path).length === 1 && resourceFactories[collectionOf(o.path) ?? ''],
    );

  it("another workspace's ids are 404 (never 403, never data) and nothing changes", async () => {
    const ops = templated();
    expect(ops.length).toBeGreaterThan(8);
    const problems: string[] = [];
    for (const op of ops) {
      const factory = resourceFactories[collectionOf(op.path)!];
      const id = await factory.create(app, owner, 'test');
      const headers = await stranger.headers(op.auth, 'test');
      const before = await businessRowCounts(app);
      const res = await call(op, headers, { [pathParams(op.path)[0]]: id });
      const changed = changedTables(before, await businessRowCounts(app));
      if (
        res.statusCode !== 404 ||
        res.json().code !== 'not_found' ||
        errorShapeProblem(res) ||
        res.body.includes(owner.tenant.workspaceId) ||
        changed.length
      ) {
        problems.push(`${op.method} ${op.path}: ${res.statusCode} ${res.body.slice(0, 100)} changed=${changed.join(',')}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('a test key (or the test environment) does not reach live data, and the reverse', async () => {
    const ops = templated().filter((o) => resourceFactories[collectionOf(o.path)!].environmentScoped(o.path));
    expect(ops.length).toBeGreaterThan(5);
    const problems: string[] = [];
    for (const op of ops) {
      for (const [made, asEnv] of [
        ['live', 'test'],
        ['test', 'live'],
      ] as const) {
        const id = await resourceFactories[collectionOf(op.path)!].create(app, owner, made);
        const headers = await owner.headers(op.auth, asEnv);
        const before = await businessRowCounts(app);
        const res = await call(op, headers, { [pathParams(op.path)[0]]: id });
        const changed = changedTables(before, await businessRowCounts(app));
        if (res.statusCode !== 404 || errorShapeProblem(res) || changed.length) {
          problems.push(
            `${op.method} ${op.path} (${made} resource, ${asEnv} credential): ${res.statusCode} ${res.body.slice(0, 100)} changed=${changed.join(',')}`,
          );
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('every role × every operation of /v1 and /api/admin', () => {
  const surfaceOf = (op: Operation) => (op.auth === 'apiKey' ? '/v1' : '/api/admin');
  const roleOf = (op: Operation) => requiredRole(op.method, op.path.slice(surfaceOf(op).length).replace(/\{([^}]+)\}/g, ':$1'));

  it('every operation has a role in the one table, and its 403 names it in the document', () => {
    const ops = operations.filter((o) => o.auth === 'apiKey' || o.auth === 'admin');
    expect(ops.length).toBeGreaterThan(100);
    const problems: string[] = [];
    for (const op of ops) {
      const role = roleOf(op);
      const forbidden = (doc.paths[op.path][op.method.toLowerCase()] as { responses?: Record<string, { description?: string }> }).responses?.['403'];
      if (!role) problems.push(`${op.method} ${op.path}: not in the role table`);
      else if (!forbidden?.description?.includes(`Needs the ${role} role`)) problems.push(`${op.method} ${op.path}: 403 does not name ${role}`);
    }
    expect(problems).toEqual([]);
  });

  it('a role below the one the table names is 403 forbidden naming it; a role that reaches it is let through', async () => {
    const problems: string[] = [];
    let refused = 0;
    let allowed = 0;
    for (const op of operations.filter((o) => o.auth === 'apiKey' || o.auth === 'admin')) {
      const required = roleOf(op)!;
      for (const role of WORKSPACE_ROLES) {
        const res = await call(op, asRole.get(role)![op.auth === 'apiKey' ? 'apiKey' : 'admin']);
        // A file an operation answers (a CSV export) is no error body: nothing to read in it.
        const json = String(res.headers['content-type'] ?? '').startsWith('application/json');
        const body = (json ? res.json() : {}) as { code?: string; details?: Array<{ field?: string; required_role?: string }> };
        const roleRefusal = res.statusCode === 403 && body.details?.some((d) => d.field === 'role');
        if (!roleAtLeast(role, required)) {
          refused++;
          if (
            res.statusCode !== 403 ||
            body.code !== 'forbidden' ||
            errorShapeProblem(res) ||
            body.details?.[0]?.field !== 'role' ||
            body.details?.[0]?.required_role !== required
          ) {
            problems.push(`${op.method} ${op.path} as ${role}: ${res.statusCode} ${res.body.slice(0, 120)} (want 403 naming ${required})`);
          }
        } else {
          allowed++;
          if (roleRefusal || res.statusCode === 401)
            problems.push(`${op.method} ${op.path} as ${role}: ${res.statusCode} ${res.body.slice(0, 120)} (${required} is enough)`);
        }
      }
    }
    expect(refused).toBeGreaterThan(100);
    expect(allowed).toBeGreaterThan(300);
    expect(problems).toEqual([]);
  });
});
