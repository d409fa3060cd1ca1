import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, expectV1AuthMatrix, superAdminHeaders, type Tenant } from '../../../test/helpers/app.js';
import { eventually, startReceiver, type Receiver } from '../../../test/helpers/webhook-receiver.js';
import { recordEvent } from '../events/index.js';
import { registerWebhookJobs } from './index.js';

// An independent verifier of the signature format (Stripe's), fed our header as theirs.
const stripe = new Stripe('sk_test_unused');
const verify = (body: string, header: string, secret: string) => stripe.webhooks.constructEvent(body, header, secret);

let app: FastifyInstance;
let t: Tenant;
let root: Record<string, string>;
let receiver: Receiver;

beforeAll(async () => {
  app = await buildTestApp({ config: { encryptionKey: randomBytes(32).toString('base64'), webhookAllowPrivateTargets: true } });
  await registerWebhookJobs(app.deps);
  await app.deps.jobs.start();
  t = await createTenant(app);
  root = await superAdminHeaders(app);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

const setSetting = async (key: string, value: unknown) => {
  const res = await app.inject({ method: 'PUT', url: `/api/super-admin/settings/${key}`, headers: root, payload: { value } });
  expect(res.statusCode, res.body).toBe(200);
};

async function createEndpoint(headers: Record<string, string>, body: Record<string, unknown>) {
  const res = await app.inject({ method: 'POST', url: '/v1/webhooks', headers, payload: { events: ['*'], ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret: string; url: string; events: string[]; enabled: boolean };
}

const getDelivery = async (id: string, headers = t.headers) => (await app.inject({ method: 'GET', url: `/v1/webhook-deliveries/${id}`, headers })).json();
const sendTest = async (id: string, headers = t.headers) => {
  const res = await app.inject({ method: 'POST', url: `/v1/webhooks/${id}/test`, headers });
  expect(res.statusCode, res.body).toBe(202);
  return res.json() as { id: string; status: string };
};
const waitStatus = (deliveryId: string, status: string, timeoutMs = 20_000) =>
  eventually(
    async () => {
      const d = await getDelivery(deliveryId);
      return d.status === status ? d : undefined;
    },
    `delivery ${deliveryId} ${status}`,
    timeoutMs,
  );

describe('endpoint registry', () => {
  it('creates an endpoint with a whsec_ secret shown once, lists, reads, patches and deletes it', async () => {
    const created = await createEndpoint(t.headers, {
      url: receiver.url('/crud'),
      events: ['shipment.label_purchased', 'tracking.updated'],
      description: 'main',
    });
    expect(created.id).toMatch(/^whk_/);
    expect(created.secret).toMatch(/^whsec_[0-9A-Za-z]{43}$/);
    expect(created.enabled).toBe(true);

    const got = await app.inject({ method: 'GET', url: `/v1/webhooks/${created.id}`, headers: t.headers });
    expect(got.statusCode).toBe(200);
    expect(got.json()).not.toHaveProperty('secret');
    expect(JSON.stringify(got.json())).not.toContain(created.secret);

    const list = await app.inject({ method: 'GET', url: '/v1/webhooks?limit=100', headers: t.headers });
    expect(list.json().data.map((e: { id: string }) => e.id)).toContain(created.id);
    expect(JSON.stringify(list.json())).not.toContain('whsec_');

    // The secret is encrypted at rest.
    const row = await app.deps.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain(created.secret);

    const patched = await app.inject({
      method: 'PATCH',
      url: `/v1/webhooks/${created.id}`,
      headers: t.headers,
      payload: { events: ['batch.completed'], enabled: false },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ events: ['batch.completed'], enabled: false });
    const enabled = await app.inject({ method: 'PATCH', url: `/v1/webhooks/${created.id}`, headers: t.headers, payload: { enabled: true } });
    expect(enabled.json()).toMatchObject({ enabled: true, disabled_reason: null });

    const del = await app.inject({ method: 'DELETE', url: `/v1/webhooks/${created.id}`, headers: t.headers });
    expect(del.statusCode).toBe(204);
    expect((await app.inject({ method: 'GET', url: `/v1/webhooks/${created.id}`, headers: t.headers })).statusCode).toBe(404);
  });

  it('refuses bad input with 400 validation_failed: http in live, unknown events, NUL, bad URLs', async () => {
    const cases: Array<[Record<string, string>, Record<string, unknown>, string]> = [
      [t.liveHeaders, { url: 'http://example.com/hook', events: ['*'] }, 'url'],
      [t.headers, { url: 'https://example.com/hook', events: ['order.exploded'] }, 'events[0]'],
      [t.headers, { url: 'https://example.com/hook', events: [] }, 'events'],
      [t.headers, { url: 'ftp://example.com/hook', events: ['*'] }, 'url'],
      [t.headers, { url: 'https://user:pw@example.com/hook', events: ['*'] }, 'url'],
      [t.headers, { url: 'https://example.com/\u0000', events: ['*'] }, 'url'],
      [t.headers, { url: 'https://example.com/hook', events: ['*'], description: 'a\u0000b' }, 'description'],
      [t.headers, { url: 'not a url', events: ['*'] }, 'url'],
    ];
    for (const [headers, payload, field] of cases) {
      const res = await app.inject({ method: 'POST', url: '/v1/webhooks', headers, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const live = await app.inject({ method: 'POST', url: '/v1/webhooks', headers: t.liveHeaders, payload: { url: 'https://example.com/hook', events: ['*'] } });
    expect(live.statusCode, live.body).toBe(201);
    const patch = await app.inject({
      method: 'PATCH',
      url: `/v1/webhooks/${live.json().id}`,
      headers: t.liveHeaders,
      payload: { url: 'http://example.com/hook' },
    });
    expect(patch.statusCode).toBe(400);
  });

  it('passes the /v1 auth and tenant matrix', { timeout: 180_000 }, async () => {
    const endpoint = await createEndpoint(t.headers, { url: receiver.url('/matrix') });
    await expectV1AuthMatrix(app, { method: 'GET', url: `/v1/webhooks/${endpoint.id}` }, { owner: t, otherWorkspaceResource: true });
    await expectV1AuthMatrix(app, { method: 'POST', url: `/v1/webhooks/${endpoint.id}/test` }, { owner: t, otherWorkspaceResource: true });
    await expectV1AuthMatrix(app, { method: 'GET', url: `/v1/webhooks/${endpoint.id}/deliveries` }, { owner: t, otherWorkspaceResource: true });
    await expectV1AuthMatrix(app, { method: 'GET', url: '/v1/webhooks' }, { owner: t });
  });

  it('serves the dashboard under /api/admin with a session', async () => {
    const endpoint = await createEndpoint(t.headers, { url: receiver.url('/admin') });
    const list = await app.inject({ method: 'GET', url: '/api/admin/webhooks', headers: t.adminHeaders });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((e: { id: string }) => e.id)).toContain(endpoint.id);
    expect((await app.inject({ method: 'GET', url: '/api/admin/webhooks' })).statusCode).toBe(401);
    const other = await createTenant(app);
    expect((await app.inject({ method: 'GET', url: `/api/admin/webhooks/${endpoint.id}`, headers: other.adminHeaders })).statusCode).toBe(404);
  });
});

describe('deliveries', () => {
  it('delivers a test event, signed in a format Stripe’s verifier accepts, with the contract headers', async () => {
    const endpoint = await createEndpoint(t.headers, { url: receiver.url('/signed') });
    const queued = await sendTest(endpoint.id);
    expect(queued.id).toMatch(/^dlv_/);
    const delivered = await waitStatus(queued.id, 'delivered');
    expect(delivered.attempts).toHaveLength(1);
    expect(delivered.attempts[0]).toMatchObject({ number: 1, status_code: 200, response_body: 'ok', error: null });

    const [req] = receiver.at('/signed');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['user-agent']).toMatch(/^shipping-service-webhooks\/\d+\.\d+\.\d+$/);
    expect(req.headers['x-service-delivery-id']).toBe(queued.id);
    expect(req.headers['x-service-event-type']).toBe('webhook.test');
    const event = verify(req.body, String(req.headers['x-service-signature']), endpoint.secret) as unknown as Record<string, unknown>;
    expect(event).toMatchObject({ type: 'webhook.test', workspace_id: t.workspaceId, environment: 'test' });
    expect(event.id).toMatch(/^evt_/);
    expect(() => verify(req.body, String(req.headers['x-service-signature']), 'whsec_wrong')).toThrow();
    expect(() => verify(`${req.body} `, String(req.headers['x-service-signature']), endpoint.secret)).toThrow();
  });

  it('fans recorded events out in the recording transaction, to subscribed endpoints of that workspace only', async () => {
    const a = await createTenant(app);
    const b = await createTenant(app);
    const epA = await createEndpoint(a.headers, { url: receiver.url('/fan-a'), events: ['tracking.updated'] });
    await createEndpoint(a.headers, { url: receiver.url('/fan-a-other'), events: ['batch.completed'] });
    await createEndpoint(b.headers, { url: receiver.url('/fan-b'), events: ['*'] });

    // Rolled back: neither the event nor its delivery exists.
    await app.deps.db
      .transaction()
      .execute(async (trx) => {
        await recordEvent(trx, { workspaceId: a.workspaceId, environment: 'test' }, 'tracking.updated', { n: 0 });
        throw new Error('rollback');
      })
      .catch(() => {});
    const event = await app.deps.db
      .transaction()
      .execute((trx) => recordEvent(trx, { workspaceId: a.workspaceId, environment: 'test' }, 'tracking.updated', { n: 1 }));

    const req = await eventually(async () => receiver.at('/fan-a')[0], 'delivery to A');
    expect(JSON.parse(req.body)).toMatchObject({ id: event.id, type: 'tracking.updated', data: { n: 1 } });
    const list = await app.inject({ method: 'GET', url: `/v1/webhooks/${epA.id}/deliveries`, headers: a.headers });
    expect(list.json().data).toHaveLength(1);
    expect(receiver.at('/fan-a')).toHaveLength(1);
    expect(receiver.at('/fan-a-other')).toHaveLength(0);
    expect(receiver.at('/fan-b')).toHaveLength(0);
  });

  it('retries a failing delivery with growing gaps, the same delivery id and a fresh signature, until it succeeds', async () => {
    await setSetting('webhooks.retry_schedule_seconds', [1, 4]);
    receiver.on('/flaky', (_req, n) => (n <= 2 ? { status: 500, body: 'boom' } : { status: 204 }));
    const endpoint = await createEndpoint(t.headers, { url: receiver.url('/flaky') });
    const queued = await sendTest(endpoint.id);
    const delivered = await waitStatus(queued.id, 'delivered', 30_000);
    expect(delivered.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500, 204]);
    expect(delivered.attempts[0].response_body).toBe('boom');

    const reqs = receiver.at('/flaky');
    expect(reqs).toHaveLength(3);
    expect(new Set(reqs.map((r) => r.headers['x-service-delivery-id']))).toEqual(new Set([queued.id]));
    expect(new Set(reqs.map((r) => r.headers['x-service-signature'])).size).toBe(3);
    for (const r of reqs) verify(r.body, String(r.headers['x-service-signature']), endpoint.secret);
    const gap1 = reqs[1].at - reqs[0].at;
    const gap2 = reqs[2].at - reqs[1].at;
    expect(gap1).toBeGreaterThanOrEqual(1000);
    expect(gap2).toBeGreaterThan(gap1);
  });

  it('an always failing delivery goes dead, is listed as a dead letter, and the retry endpoint redelivers it', async () => {
    await setSetting('webhooks.max_attempts', 2);
    await setSetting('webhooks.retry_schedule_seconds', [1]);
    let healthy = false;
    receiver.on('/down', () => (healthy ? { status: 200 } : { status: 503, body: 'x'.repeat(5000) }));
    const endpoint = await createEndpoint(t.headers, { url: receiver.url('/down') });
    const queued = await sendTest(endpoint.id);
    const dead = await waitStatus(queued.id, 'dead', 30_000);
    expect(dead.attempts).toHaveLength(2);
    expect(dead.attempts[1].response_body).toHaveLength(1024);
    const letters = await app.inject({ method: 'GET', url: `/v1/webhooks/${endpoint.id}/deliveries?status=dead`, headers: t.headers });
    expect(letters.json().data.map((d: { id: string }) => d.id)).toEqual([queued.id]);
    const none = await app.inject({ method: 'GET', url: `/v1/webhooks/${endpoint.id}/deliveries?status=delivered`, headers: t.headers });
    expect(none.json().data).toEqual([]);

    healthy = true;
    const retried = await app.inject({ method: 'POST', url: `/v1/webhook-deliveries/${queued.id}/retry`, headers: t.headers });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().status).toBe('pending');
    const delivered = await waitStatus(queued.id, 'delivered');
    expect(delivered.attempts).toHaveLength(3);
    expect(receiver.at('/down').map((r) => r.headers['x-service-delivery-id'])).toEqual([queued.id, queued.id, queued.id]);

    // Delivered is final.
    const again = await app.inject({ method: 'POST', url: `/v1/webhook-deliveries/${queued.id}/retry`, headers: t.headers });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('invalid_state');
    await setSetting('webhooks.max_attempts', 8);
  });

  it('counts a redirect as a failure and never follows it', async () => {
    await setSetting('webhooks.max_attempts', 1);
    receiver.on('/moved', () => ({ status: 302, headers: { location: receiver.url('/target') } }));
    const endpoint = await createEndpoint(t.headers, { url: receiver.url('/moved') });
    const queued = await sendTest(endpoint.id);
    const dead = await waitStatus(queued.id, 'dead');
    expect(dead.attempts[0].status_code).toBe(302);
    expect(dead.attempts[0].error).toMatch(/redirect/);
    expect(receiver.at('/target')).toHaveLength(0);
    await setSetting('webhooks.max_attempts', 8);
  });

  it('a 410 from the receiver disables the endpoint with a reason; PATCH enabled:true re-enables it', async () => {
    receiver.on('/gone', () => ({ status: 410 }));
    const endpoint = await createEndpoint(t.headers, { url: receiver.url('/gone') });
    const queued = await sendTest(endpoint.id);
    await waitStatus(queued.id, 'dead');
    const got = (await app.inject({ method: 'GET', url: `/v1/webhooks/${endpoint.id}`, headers: t.headers })).json();
    expect(got.enabled).toBe(false);
    expect(got.disabled_reason).toMatch(/410/);
    const test = await app.inject({ method: 'POST', url: `/v1/webhooks/${endpoint.id}/test`, headers: t.headers });
    expect(test.statusCode).toBe(409);
    const enabled = await app.inject({ method: 'PATCH', url: `/v1/webhooks/${endpoint.id}`, headers: t.headers, payload: { enabled: true } });
    expect(enabled.json()).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it('signs with both secrets during a rotation overlap, then with the new one only', async () => {
    const endpoint = await createEndpoint(t.headers, { url: receiver.url('/rotate') });
    await setSetting('webhooks.secret_overlap_hours', 24);
    const rotated = await app.inject({ method: 'POST', url: `/v1/webhooks/${endpoint.id}/rotate-secret`, headers: t.headers });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const newSecret = rotated.json().secret as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(endpoint.secret);
    expect(rotated.json().previous_secret_expires_at).not.toBeNull();

    await waitStatus((await sendTest(endpoint.id)).id, 'delivered');
    const during = receiver.at('/rotate')[0];
    const header = String(during.headers['x-service-signature']);
    expect(header.match(/v1=/g)).toHaveLength(2);
    verify(during.body, header, newSecret);
    verify(during.body, header, endpoint.secret);

    // A rotation without overlap: from now on only the newest secret signs.
    await setSetting('webhooks.secret_overlap_hours', 0);
    const again = await app.inject({ method: 'POST', url: `/v1/webhooks/${endpoint.id}/rotate-secret`, headers: t.headers });
    const newest = again.json().secret as string;
    await waitStatus((await sendTest(endpoint.id)).id, 'delivered');
    const after = receiver.at('/rotate')[1];
    const afterHeader = String(after.headers['x-service-signature']);
    expect(afterHeader.match(/v1=/g)).toHaveLength(1);
    verify(after.body, afterHeader, newest);
    expect(() => verify(after.body, afterHeader, newSecret)).toThrow();
    await setSetting('webhooks.secret_overlap_hours', 24);
  });
});
