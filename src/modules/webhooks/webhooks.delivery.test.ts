import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { startReceiver, type Receiver } from '../../../test/helpers/webhook-receiver.js';
import type { Db } from '../../platform/db/types.js';
import { WebhooksService, webhookDispatcher } from './index.js';

// The dispatcher called directly (no job workers), on a clock the test moves (Deps.now):
// the 3-day auto-disable of an endpoint that keeps failing, and what a reader sees of a
// delivery while its attempt is being recorded.

const DAY = 86_400_000;
const clock = { ms: Date.now() };
let app: FastifyInstance;
let t: Tenant;
let receiver: Receiver;

beforeAll(async () => {
  app = await buildTestApp({ now: () => new Date(clock.ms), config: { encryptionKey: randomBytes(32).toString('base64'), webhookAllowPrivateTargets: true } });
  t = await createTenant(app);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

async function createEndpoint(path: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/v1/webhooks', headers: t.headers, payload: { url: receiver.url(path), events: ['*'] } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** A test event to the endpoint, then one dispatcher round: that delivery's first attempt. */
async function deliverOnce(endpointId: string): Promise<{ id: string; status: string }> {
  const queued = await app.inject({ method: 'POST', url: `/v1/webhooks/${endpointId}/test`, headers: t.headers });
  expect(queued.statusCode, queued.body).toBe(202);
  await webhookDispatcher(app.deps).runBatch();
  return (await app.inject({ method: 'GET', url: `/v1/webhook-deliveries/${queued.json().id}`, headers: t.headers })).json();
}

const endpoint = async (id: string) => (await app.inject({ method: 'GET', url: `/v1/webhooks/${id}`, headers: t.headers })).json();

describe('auto-disable after 3 days of failures (fake clock)', () => {
  it('disables an endpoint whose every delivery failed for 3 days, not a second earlier; a test event is then refused', async () => {
    let answer = 500;
    receiver.on('/down', () => ({ status: answer }));
    const id = await createEndpoint('/down');
    const t0 = clock.ms;

    expect((await deliverOnce(id)).status).toBe('failed');
    expect(await endpoint(id)).toMatchObject({ enabled: true, disabled_reason: null });

    clock.ms = t0 + 3 * DAY - 60_000;
    expect((await deliverOnce(id)).status).toBe('failed');
    expect((await endpoint(id)).enabled).toBe(true);

    clock.ms = t0 + 3 * DAY + 1_000;
    expect((await deliverOnce(id)).status).toBe('failed');
    expect(await endpoint(id)).toMatchObject({ enabled: false, disabled_reason: 'Every delivery failed for 3 days.' });
    const refused = await app.inject({ method: 'POST', url: `/v1/webhooks/${id}/test`, headers: t.headers });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('invalid_state');

    // Re-enabled by its owner, it starts a fresh 3-day count.
    answer = 200;
    const enabled = await app.inject({ method: 'PATCH', url: `/v1/webhooks/${id}`, headers: t.headers, payload: { enabled: true } });
    expect(enabled.json()).toMatchObject({ enabled: true, disabled_reason: null });
    expect((await deliverOnce(id)).status).toBe('delivered');
  });

  it('a success in between starts the count again', async () => {
    let answer = 500;
    receiver.on('/flaky', () => ({ status: answer }));
    const id = await createEndpoint('/flaky');
    const t0 = clock.ms;
    expect((await deliverOnce(id)).status).toBe('failed');
    clock.ms = t0 + 2 * DAY;
    answer = 200;
    expect((await deliverOnce(id)).status).toBe('delivered');
    answer = 500;
    clock.ms = t0 + 2 * DAY + 1_000;
    expect((await deliverOnce(id)).status).toBe('failed');
    // 3 days after the first failure, but only just over 1 after the last success.
    clock.ms = t0 + 3 * DAY + 1_000;
    expect((await deliverOnce(id)).status).toBe('failed');
    expect((await endpoint(id)).enabled).toBe(true);
    clock.ms = t0 + 5 * DAY + 2_000;
    expect((await deliverOnce(id)).status).toBe('failed');
    expect((await endpoint(id)).enabled).toBe(false);
  });
});

/**
 * A db whose reads of webhook_delivery_attempts first run `between` once: the moment a reader
 * has read the delivery row and not yet its attempts (two statements, two snapshots on
 * PostgreSQL; two turns of the one connection on PGlite), a dispatcher records an attempt.
 */
function dbRecordingBetweenReads(db: Db, between: () => Promise<unknown>): Db {
  let done = false;
  const wrap = (builder: object): object =>
    new Proxy(builder, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function') return value;
        if (prop === 'execute' || prop === 'executeTakeFirst') {
          return async (...args: unknown[]) => {
            if (!done) {
              done = true;
              await between();
            }
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return (...args: unknown[]) => {
          const out = (value as (...a: unknown[]) => unknown).apply(target, args);
          return out && typeof out === 'object' && 'execute' in out ? wrap(out) : out;
        };
      },
    });
  return new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop === 'selectFrom') {
        return (table: string) => {
          const builder = (target.selectFrom as (t: string) => object)(table);
          return table === 'webhook_delivery_attempts' ? wrap(builder) : builder;
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('a delivery and its attempts are read as of one moment', () => {
  it('never shows an attempt beside a delivery that still reads pending (the read and the list)', async () => {
    receiver.on('/ok', () => ({ status: 200 }));
    const id = await createEndpoint('/ok');
    const scope = { workspaceId: t.workspaceId, environment: 'test' as const };
    for (const read of ['get', 'list'] as const) {
      const queued = (await app.inject({ method: 'POST', url: `/v1/webhooks/${id}/test`, headers: t.headers })).json();
      const delivered = () => webhookDispatcher(app.deps).runBatch();
      const service = new WebhooksService({ ...app.deps, db: dbRecordingBetweenReads(app.deps.db, delivered) });
      const seen =
        read === 'get'
          ? await service.getDelivery(scope, queued.id)
          : (await service.listEndpointDeliveries(scope, id, { limit: 100 })).data.find((d) => d.id === queued.id)!;
      // The recording happened between the two reads (the delivery is delivered now)…
      const now = (await app.inject({ method: 'GET', url: `/v1/webhook-deliveries/${queued.id}`, headers: t.headers })).json();
      expect(now).toMatchObject({ status: 'delivered', attempt_count: 1 });
      expect(now.attempts).toHaveLength(1);
      // …and the reader saw the delivery as it was before it: pending, with no attempt.
      expect({ read, status: seen.status, attempts: seen.attempts.length, attempt_count: seen.attempt_count }).toEqual({
        read,
        status: 'pending',
        attempts: 0,
        attempt_count: 0,
      });
    }
  });
});
