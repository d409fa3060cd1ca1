import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';

// The dashboard's cookie session: httpOnly cookie in, token never out; the cookie works where
// the Bearer token does; cookie writes need this service's Origin (CSRF).
let app: FastifyInstance;
let tenant: Tenant;
const ORIGIN = 'http://localhost:80';

beforeAll(async () => {
  app = await buildTestApp();
  tenant = await createTenant(app);
});

function sessionCookie(res: LightMyRequestResponse): { value: string; raw: string } {
  const header = res.headers['set-cookie'];
  const raw = (Array.isArray(header) ? header : [header ?? '']).find((c) => c.startsWith('service_session='));
  expect(raw, 'a service_session cookie').toBeDefined();
  return { value: raw!.split(';')[0].slice('service_session='.length), raw: raw! };
}

async function signIn(email = tenant.email, password = tenant.password, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: '/api/auth/session', headers, payload: { email, password } });
}

const cookieHeaders = (value: string, extra: Record<string, string> = {}) => ({
  cookie: `service_session=${value}`,
  'x-service-workspace': tenant.workspaceId,
  'x-service-environment': 'test',
  ...extra,
});

describe('POST /api/auth/session', () => {
  it('sets an httpOnly, SameSite=Strict cookie scoped to /api and never returns the token', async () => {
    const res = await signIn();
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.account.email).toBe(tenant.email);
    expect(body.expires_at).toMatch(/Z$/);
    expect(body.token).toBeUndefined();
    const { value, raw } = sessionCookie(res);
    expect(res.body).not.toContain(value);
    expect(raw).toMatch(/HttpOnly/i);
    expect(raw).toMatch(/SameSite=Strict/i);
    expect(raw).toMatch(/Path=\/api(;|$)/);
    expect(raw).not.toMatch(/Secure/i); // plain http here
  });

  it('marks the cookie Secure when the request came over https', async () => {
    const https = await buildTestApp({ config: { trustProxy: true } });
    const t = await createTenant(https);
    const res = await https.inject({
      method: 'POST',
      url: '/api/auth/session',
      headers: { 'x-forwarded-proto': 'https' },
      payload: { email: t.email, password: t.password },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(sessionCookie(res).raw).toMatch(/Secure/i);
  });

  it('answers like /login for bad credentials and refuses a foreign Origin (login CSRF)', async () => {
    const bad = await signIn(tenant.email, 'wrong password!!');
    expect(bad.statusCode).toBe(401);
    expect(bad.json().code).toBe('invalid_credentials');
    expect(bad.headers['set-cookie']).toBeUndefined();
    const foreign = await signIn(tenant.email, tenant.password, { origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().code).toBe('forbidden');
    expect(foreign.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a pending account with account_pending', async () => {
    const reg = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: `pending-${Date.now()}@example.com`, password: 'long enough pw', name: 'P', workspace_name: 'P' },
    });
    expect(reg.statusCode).toBe(201);
    const res = await signIn(reg.json().account.email, 'long enough pw');
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('account_pending');
  });
});

describe('the cookie in place of the Bearer token', () => {
  it('reads /api/auth/me and /api/admin without an Origin', async () => {
    const { value } = sessionCookie(await signIn());
    const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: `service_session=${value}` } });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().workspaces[0].id).toBe(tenant.workspaceId);
    const orders = await app.inject({ method: 'GET', url: '/api/admin/orders', headers: cookieHeaders(value) });
    expect(orders.statusCode, orders.body).toBe(200);
  });

  it("writes only with this service's Origin", async () => {
    const { value } = sessionCookie(await signIn());
    const order = {
      ship_to: { name: 'A', street1: '1 Main St', city: 'New York', state: 'NY', postal_code: '10001', country: 'US' },
      line_items: [{ sku: 'S', quantity: 1 }],
    };
    const missing = await app.inject({ method: 'POST', url: '/api/admin/orders', headers: cookieHeaders(value), payload: order });
    expect(missing.statusCode).toBe(403);
    expect(missing.json().code).toBe('forbidden');
    const foreign = await app.inject({
      method: 'POST',
      url: '/api/admin/orders',
      headers: cookieHeaders(value, { origin: 'http://evil.example' }),
      payload: order,
    });
    expect(foreign.statusCode).toBe(403);
    const same = await app.inject({ method: 'POST', url: '/api/admin/orders', headers: cookieHeaders(value, { origin: ORIGIN }), payload: order });
    expect(same.statusCode, same.body).toBe(201);
    // PUBLIC_BASE_URL's origin is accepted too (a proxy may rewrite Host).
    const viaBase = await app.inject({
      method: 'POST',
      url: `/api/admin/orders/${same.json().id}/process`,
      headers: cookieHeaders(value, { origin: app.deps.config.publicBaseUrl }),
    });
    expect(viaBase.statusCode, viaBase.body).toBe(200);
    expect(viaBase.json().status).toBe('processing');
  });

  it('still lets a Bearer client write without an Origin', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/admin/api-keys', headers: tenant.adminHeaders, payload: { name: 'ci', environment: 'test' } });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('opens /api/super-admin for a super-admin cookie and refuses a user cookie with 403', async () => {
    const email = `root-cookie-${Date.now()}@example.com`;
    await app.identity.accounts.ensureSuperAdmin(email, 'super secret password');
    const root = sessionCookie(await signIn(email, 'super secret password')).value;
    const ok = await app.inject({ method: 'GET', url: '/api/super-admin/accounts', headers: { cookie: `service_session=${root}` } });
    expect(ok.statusCode, ok.body).toBe(200);
    const user = sessionCookie(await signIn()).value;
    const no = await app.inject({ method: 'GET', url: '/api/super-admin/accounts', headers: { cookie: `service_session=${user}` } });
    expect(no.statusCode).toBe(403);
    expect(no.json().code).toBe('forbidden');
  });

  it('is 401 with a made-up cookie', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: 'service_session=sst_nope' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('unauthorized');
  });
});

describe('DELETE /api/auth/session', () => {
  it('revokes the session and clears the cookie; a foreign Origin cannot sign the user out', async () => {
    const { value } = sessionCookie(await signIn());
    const foreign = await app.inject({
      method: 'DELETE',
      url: '/api/auth/session',
      headers: { cookie: `service_session=${value}`, origin: 'http://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    const out = await app.inject({ method: 'DELETE', url: '/api/auth/session', headers: { cookie: `service_session=${value}`, origin: ORIGIN } });
    expect(out.statusCode).toBe(204);
    const cleared = sessionCookie(out);
    expect(cleared.value).toBe('');
    expect(cleared.raw).toMatch(/Expires=Thu, 01 Jan 1970/i);
    const after = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: `service_session=${value}` } });
    expect(after.statusCode).toBe(401);
  });

  it('is 204 without a session (signing out twice is harmless)', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/api/auth/session' });
    expect(res.statusCode).toBe(204);
  });

  it('POST /api/auth/logout with the cookie also clears it', async () => {
    const { value } = sessionCookie(await signIn());
    const res = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: `service_session=${value}`, origin: ORIGIN } });
    expect(res.statusCode, res.body).toBe(204);
    expect(sessionCookie(res).value).toBe('');
  });
});

describe('GET /api/auth/session', () => {
  it('answers 200 with account null when signed out, and the account and workspaces when signed in', async () => {
    const out = await app.inject({ method: 'GET', url: '/api/auth/session' });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ account: null, workspaces: [] });
    const bogus = await app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: 'service_session=sst_nope' } });
    expect(bogus.json().account).toBeNull();
    const { value } = sessionCookie(await signIn());
    const signedIn = await app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: `service_session=${value}` } });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().account.email).toBe(tenant.email);
    expect(signedIn.json().workspaces[0].id).toBe(tenant.workspaceId);
  });
});
