import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../test/helpers/app.js';
import { orderBody } from '../test/helpers/credentials.js';
import { requiredRole, WRITE_ROLES } from './route-roles.js';
import type { WorkspaceRole } from './modules/identity/roles.js';

// The role table read as the contract writes it (docs/architecture.md, "Roles"), and keys
// carrying roles. test/security/auth-matrix.test.ts walks every operation against the table.

let app: FastifyInstance;
let t: Tenant;
const system = { type: 'system' as const, id: null };

beforeAll(async () => {
  app = await buildTestApp();
  t = await createTenant(app);
});
afterAll(async () => app.close());

async function keyOf(role: WorkspaceRole) {
  const key = await app.identity.workspaces.createApiKey(t.workspaceId, { name: role, environment: 'test', role }, system, {});
  return { authorization: `Bearer ${key.secret}`, 'x-service-workspace': t.workspaceId };
}

describe('the table', () => {
  it('gives reads to every role and writes to the roles the contract names', () => {
    expect(requiredRole('GET', '/webhooks')).toBe('viewer');
    expect(requiredRole('GET', '/orders/:orderId')).toBe('viewer');
    for (const r of ['orders', 'rates', 'shipments', 'refunds', 'batches', 'labels', 'manifests', 'pickups', 'tracking'])
      expect(WRITE_ROLES[r], r).toBe('operator');
    for (const r of ['api-keys', 'webhooks', 'carrier-accounts', 'integrations', 'shipping-rules', 'members', 'workspace'])
      expect(WRITE_ROLES[r], r).toBe('admin');
    expect(requiredRole('POST', '/orders/:id/process')).toBe('operator');
    expect(requiredRole('POST', '/shipments/:id/force-delivery')).toBe('admin');
    expect(requiredRole('POST', '/shipping-rules/evaluate')).toBe('operator');
    expect(requiredRole('POST', '/shipping-rules')).toBe('admin');
    expect(requiredRole('POST', '/unheard-of')).toBeUndefined();
  });
});

describe('keys with roles', () => {
  it('a viewer key reads and writes nothing: 403 forbidden naming operator', async () => {
    const viewer = await keyOf('viewer');
    expect((await app.inject({ method: 'GET', url: '/v1/orders', headers: viewer })).statusCode).toBe(200);
    const res = await app.inject({ method: 'POST', url: '/v1/orders', headers: viewer, payload: orderBody() });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'forbidden', details: [{ field: 'role', required_role: 'operator' }] });
    expect(res.json().request_id).toBe(res.headers['x-request-id']);
  });

  it('an operator key ships but does not manage webhooks or keys', async () => {
    const operator = await keyOf('operator');
    expect((await app.inject({ method: 'POST', url: '/v1/orders', headers: operator, payload: orderBody() })).statusCode).toBe(201);
    const hook = await app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: operator,
      payload: { url: 'https://example.com/h', events: ['tracking.updated'] },
    });
    expect(hook.statusCode).toBe(403);
    expect(hook.json().details).toEqual([{ field: 'role', message: 'must be admin or above', required_role: 'admin' }]);
    expect((await app.inject({ method: 'POST', url: '/v1/api-keys', headers: operator, payload: { name: 'x' } })).statusCode).toBe(403);
  });

  it('creates keys with a role (admin by default), never above the creator', async () => {
    const byDefault = await app.inject({ method: 'POST', url: '/api/admin/api-keys', headers: t.adminHeaders, payload: { name: 'erp' } });
    expect(byDefault.statusCode).toBe(201);
    expect(byDefault.json().role).toBe('admin');
    const op = await app.inject({ method: 'POST', url: '/api/admin/api-keys', headers: t.adminHeaders, payload: { name: 'erp', role: 'operator' } });
    expect(op.json().role).toBe('operator');
    const listed = await app.inject({ method: 'GET', url: '/api/admin/api-keys', headers: t.adminHeaders });
    expect(listed.json().data.find((k: { id: string }) => k.id === op.json().id).role).toBe('operator');

    // The owner's session may mint an owner key; an admin key may not.
    expect((await app.inject({ method: 'POST', url: '/api/admin/api-keys', headers: t.adminHeaders, payload: { name: 'o', role: 'owner' } })).json().role).toBe(
      'owner',
    );
    const admin = await keyOf('admin');
    const above = await app.inject({ method: 'POST', url: '/v1/api-keys', headers: admin, payload: { name: 'o', role: 'owner' } });
    expect(above.statusCode).toBe(403);
    expect(above.json().details).toEqual([{ field: 'role', message: 'must be owner', required_role: 'owner' }]);
    const same = await app.inject({ method: 'POST', url: '/v1/api-keys', headers: admin, payload: { name: 'o', role: 'viewer' } });
    expect(same.statusCode).toBe(201);
    expect(same.json().role).toBe('viewer');
    const bad = await app.inject({ method: 'POST', url: '/v1/api-keys', headers: admin, payload: { name: 'o', role: 'root' } });
    expect(bad.statusCode).toBe(400);
  });

  it('a viewer member session may read but not write in the dashboard API', async () => {
    const other = await createTenant(app);
    await app.deps.db.insertInto('workspace_members').values({ workspace_id: t.workspaceId, account_id: other.accountId, role: 'viewer' }).execute();
    const headers = { authorization: `Bearer ${other.sessionToken}`, 'x-service-workspace': t.workspaceId, 'x-service-environment': 'test' };
    expect((await app.inject({ method: 'GET', url: '/api/admin/orders', headers })).statusCode).toBe(200);
    const res = await app.inject({ method: 'PATCH', url: '/api/admin/workspace', headers, payload: { name: 'mine' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().details[0]).toMatchObject({ field: 'role', required_role: 'admin' });
  });
});
