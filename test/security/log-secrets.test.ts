import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, superAdminHeaders } from '../helpers/app.js';
import { orderBody } from '../helpers/credentials.js';

// No secret ever reaches a log line (DESIGN.md §2 logs): a full client flow at the most verbose
// level, then every secret that was sent or handed out is searched for in the captured lines.

const SECRET_FIELDS = new Set(['secret', 'token', 'ingest_key', 'password', 'pin', 'product_key', 'credentials']);
const lines: string[] = [];
let app: FastifyInstance;

beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  app = await buildTestApp({ config: { logLevel: 'trace' }, logStream: stream });
});

/** Every value under a secret-named field, at any depth, of a response or request body. */
function secretsIn(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) value.forEach((v) => secretsIn(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (SECRET_FIELDS.has(k) && typeof v === 'string' && v.length >= 8) out.add(v);
      else if (SECRET_FIELDS.has(k) && v && typeof v === 'object') for (const inner of Object.values(v)) if (typeof inner === 'string' && inner.length >= 8) out.add(inner);
      secretsIn(v, out);
    }
  }
}

describe('logs during a full flow', () => {
  it('hold none of the secrets created or sent', { timeout: 180_000 }, async () => {
    const secrets = new Set<string>();
    const send = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string>, payload?: unknown) => {
      secretsIn(payload, secrets);
      const res = await app.inject({ method, url, headers, payload: payload as never });
      if (res.headers['content-type']?.toString().includes('json') && res.body) secretsIn(res.json(), secrets);
      return res;
    };
    const root = await superAdminHeaders(app);
    secrets.add(root.authorization.slice(7));
    const email = `logs-${Date.now()}@example.com`;
    const password = 'a very secret pw 42';
    const reg = (await send('POST', '/api/auth/register', {}, { email, password, name: 'L', workspace_name: 'Logs' })).json();
    await send('POST', '/api/auth/login', {}, { email, password: 'wrong password 99' }); // pending + wrong
    await send('POST', `/api/super-admin/accounts/${reg.account.id}/approve`, root);
    const session = (await send('POST', '/api/auth/login', {}, { email, password })).json().token as string;
    const admin = { authorization: `Bearer ${session}`, 'x-service-workspace': reg.workspace.id, 'x-service-environment': 'test' };
    await send('PATCH', `/api/super-admin/workspaces/${reg.workspace.id}`, root, { plan: 'enterprise', burst_per_minute: 100_000 });
    const key = (await send('POST', '/api/admin/api-keys', admin, { name: 'server', environment: 'test' })).json().secret as string;
    const v1 = { authorization: `Bearer ${key}`, 'x-service-workspace': reg.workspace.id };
    const second = (await send('POST', '/v1/api-keys', v1, { name: 'rotation' })).json();
    await send('GET', '/v1/api-keys', v1);
    await send('POST', '/v1/orders', v1, orderBody());
    await send('POST', '/v1/orders', { ...v1, 'idempotency-key': 'log-test-1' }, { ...orderBody(), notes: 'x'.repeat(10) });
    await send('POST', '/v1/orders', v1, { bad: true }); // a validation failure is logged too
    const integration = (await send('POST', '/api/admin/integrations', admin, { name: 'shop', platform: 'shopify', credentials: { access_token: 'shpat_supersecretvalue123' } })).json();
    secrets.add('shpat_supersecretvalue123');
    await send('POST', '/api/integrations/orders', { authorization: `Bearer ${integration.ingest_key}` }, { ...orderBody(), external_id: 'ext-1' });
    await send('POST', '/api/integrations/orders', { authorization: `Bearer ${integration.ingest_key}` }, { nope: 1 });
    await send('PUT', `/api/admin/integrations/${integration.id}`, admin, { rotate_ingest_key: true });
    await send('DELETE', `/v1/api-keys/${second.id}`, v1);
    await send('GET', '/v1/api-keys', { ...v1, authorization: `Bearer ${second.secret}` }); // revoked: 401
    await send('POST', '/api/auth/logout', { authorization: `Bearer ${session}` });
    await send('GET', '/api/auth/me', { authorization: `Bearer ${session}` }); // ended: 401

    expect(secrets.size).toBeGreaterThanOrEqual(8);
    expect(lines.length).toBeGreaterThan(30); // the flow was logged, at trace level
    const leaks = [...secrets].flatMap((s) => lines.filter((l) => l.includes(s)).map((l) => `${s.slice(0, 6)}… in ${l.slice(0, 200)}`));
    expect(leaks).toEqual([]);
  });
});
