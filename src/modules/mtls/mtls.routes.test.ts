import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, superAdminHeaders, type Tenant } from '../../../test/helpers/app.js';
import { makeCertificates, type Pem } from '../../../test/helpers/certificates.js';

const certs = makeCertificates();
const hex = (f: string) => f.replaceAll(':', '').toLowerCase();

let app: FastifyInstance;
let root: Record<string, string>;
let port: number;

beforeAll(async () => {
  app = await buildTestApp({ config: { tls: { cert: certs.server.cert, key: certs.server.key, clientCa: certs.ca } } });
  root = await superAdminHeaders(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});

/** A real HTTPS request on a fresh connection, with a client certificate or none. */
function call(path: string, headers: Record<string, string>, client?: Pem): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: '127.0.0.1', port, path, method: 'GET', headers, ca: certs.ca, agent: false, ...(client ? { cert: client.cert, key: client.key } : {}) },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const register = (t: Tenant, payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/api/admin/mtls-certificates', headers: t.adminHeaders, payload });
const requireMtls = (t: Tenant, on: boolean) =>
  app.inject({ method: 'PATCH', url: `/api/super-admin/workspaces/${t.workspaceId}`, headers: root, payload: { mtls_required: on } });

describe('/api/admin/mtls-certificates', () => {
  it('registers by PEM or fingerprint, lists, refuses duplicates and foreign certificates, deletes', async () => {
    const t = await createTenant(app);
    const byPem = await register(t, { name: 'warehouse 1', pem: certs.client.cert });
    expect(byPem.statusCode, byPem.body).toBe(201);
    expect(byPem.json()).toMatchObject({ id: expect.stringMatching(/^mtc_/), name: 'warehouse 1', fingerprint_sha256: hex(certs.client.fingerprint) });
    expect(byPem.json().subject).toContain('CN=warehouse-1');
    expect(Date.parse(byPem.json().expires_at)).toBeGreaterThan(Date.now());

    const byFingerprint = await register(t, { name: 'warehouse 2', fingerprint_sha256: certs.other.fingerprint });
    expect(byFingerprint.statusCode).toBe(201);
    expect(byFingerprint.json().fingerprint_sha256).toBe(hex(certs.other.fingerprint));

    const dup = await register(t, { name: 'again', fingerprint_sha256: hex(certs.client.fingerprint) });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe('conflict');
    const rogue = await register(t, { name: 'rogue', pem: certs.rogue.cert });
    expect(rogue.statusCode).toBe(400);
    expect(rogue.json().details).toEqual([{ field: 'pem', message: 'is not issued by the configured client CA' }]);
    for (const payload of [
      { name: 'x', pem: 'not a cert' },
      { name: 'x', fingerprint_sha256: 'abc' },
      { name: 'x' },
      { name: 'x', pem: certs.client.cert, fingerprint_sha256: hex(certs.client.fingerprint) },
    ]) {
      const bad = await register(t, payload);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.json().code).toBe('validation_failed');
    }

    const list = await app.inject({ method: 'GET', url: '/api/admin/mtls-certificates', headers: t.adminHeaders });
    expect(list.json()).toMatchObject({ has_more: false, next_cursor: null });
    expect(list.json().data.map((c: { name: string }) => c.name)).toEqual(['warehouse 2', 'warehouse 1']);

    const stranger = await createTenant(app);
    const foreign = await app.inject({ method: 'DELETE', url: `/api/admin/mtls-certificates/${byPem.json().id}`, headers: stranger.adminHeaders });
    expect(foreign.statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/admin/mtls-certificates', headers: stranger.adminHeaders })).json().data).toEqual([]);
    const del = await app.inject({ method: 'DELETE', url: `/api/admin/mtls-certificates/${byPem.json().id}`, headers: t.adminHeaders });
    expect(del.statusCode).toBe(204);
  });

  it('mtls_required is set by a super-admin only', async () => {
    const t = await createTenant(app);
    const byUser = await app.inject({
      method: 'PATCH',
      url: `/api/super-admin/workspaces/${t.workspaceId}`,
      headers: { authorization: `Bearer ${t.sessionToken}` },
      payload: { mtls_required: true },
    });
    expect(byUser.statusCode).toBe(403);
    const on = await requireMtls(t, true);
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ id: t.workspaceId, mtls_required: true });
  });
});

describe('/v1 over HTTPS with mutual TLS', () => {
  it('serves a workspace without the flag with or without a client certificate', async () => {
    const t = await createTenant(app);
    expect((await call('/v1/api-keys', t.headers)).status).toBe(200);
    expect((await call('/v1/api-keys', t.headers, certs.rogue)).status).toBe(200);
  });

  it('a flagged workspace needs a CA-issued certificate registered for it', async () => {
    const t = await createTenant(app);
    await register(t, { name: 'warehouse 1', pem: certs.client.cert });
    const on = await requireMtls(t, true);
    expect(on.statusCode).toBe(200);

    const none = await call('/v1/api-keys', t.headers);
    expect(none.status).toBe(403);
    expect(none.body).toMatchObject({ code: 'forbidden', request_id: expect.any(String) });
    // Self-signed with the same subject: the handshake does not verify it against the CA.
    expect((await call('/v1/api-keys', t.headers, certs.rogue)).status).toBe(403);
    // Issued by the CA but registered for no one.
    expect((await call('/v1/api-keys', t.headers, certs.other)).status).toBe(403);
    expect((await call('/v1/api-keys', t.headers, certs.client)).status).toBe(200);

    // Registered for another workspace only: still refused here.
    const stranger = await createTenant(app);
    await register(stranger, { name: 'theirs', pem: certs.other.cert });
    expect((await call('/v1/api-keys', t.headers, certs.other)).status).toBe(403);

    // Deleting the certificate refuses it on the next request; clearing the flag serves again.
    const id = (await app.inject({ method: 'GET', url: '/api/admin/mtls-certificates', headers: t.adminHeaders })).json().data[0].id;
    await app.inject({ method: 'DELETE', url: `/api/admin/mtls-certificates/${id}`, headers: t.adminHeaders });
    expect((await call('/v1/api-keys', t.headers, certs.client)).status).toBe(403);
    await requireMtls(t, false);
    expect((await call('/v1/api-keys', t.headers)).status).toBe(200);
  });

  it('the admin API does not need a client certificate (only /v1 does)', async () => {
    const t = await createTenant(app);
    await requireMtls(t, true);
    const res = await call('/api/admin/mtls-certificates', t.adminHeaders);
    expect(res.status).toBe(200);
  });
});

describe('behind a proxy that terminates mutual TLS', () => {
  it('honours the configured fingerprint header, and no header when none is configured', async () => {
    const proxied = await buildTestApp({ config: { mtlsFingerprintHeader: 'x-client-cert-sha256' } });
    const plain = app; // no header configured: the same header is only text
    for (const [target, honoured] of [
      [proxied, true],
      [plain, false],
    ] as const) {
      const rootHeaders = target === app ? root : await superAdminHeaders(target);
      const t = await createTenant(target);
      await target.inject({
        method: 'POST',
        url: '/api/admin/mtls-certificates',
        headers: t.adminHeaders,
        payload: { name: 'lb', fingerprint_sha256: certs.client.fingerprint },
      });
      await target.inject({ method: 'PATCH', url: `/api/super-admin/workspaces/${t.workspaceId}`, headers: rootHeaders, payload: { mtls_required: true } });
      const withHeader = await target.inject({
        method: 'GET',
        url: '/v1/api-keys',
        headers: { ...t.headers, 'x-client-cert-sha256': certs.client.fingerprint },
      });
      expect(withHeader.statusCode).toBe(honoured ? 200 : 403);
      const wrong = await target.inject({ method: 'GET', url: '/v1/api-keys', headers: { ...t.headers, 'x-client-cert-sha256': certs.other.fingerprint } });
      expect(wrong.statusCode).toBe(403);
      const without = await target.inject({ method: 'GET', url: '/v1/api-keys', headers: t.headers });
      expect(without.statusCode).toBe(403);
    }
  });
});
