import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { recordEvent } from '../events/index.js';

// The fan-out of a recorded event (one statement for the first few endpoints, the rest after):
// one pending delivery per enabled endpoint subscribed to the event's type, no other.

let app: FastifyInstance;
let t: Tenant;

beforeAll(async () => {
  app = await buildTestApp({ config: { encryptionKey: randomBytes(32).toString('base64') } });
  t = await createTenant(app);
});

async function createEndpoint(events: string[], enabled = true): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/v1/webhooks', headers: t.headers, payload: { url: 'https://example.com/hook', events } });
  expect(res.statusCode, res.body).toBe(201);
  const id: string = res.json().id;
  if (!enabled) {
    const off = await app.inject({ method: 'PATCH', url: `/v1/webhooks/${id}`, headers: t.headers, payload: { enabled: false } });
    expect(off.statusCode, off.body).toBe(200);
  }
  return id;
}

describe('webhook fan-out', () => {
  it('queues one delivery per enabled subscribed endpoint, also beyond the ids minted up front', async () => {
    const subscribed: string[] = [];
    for (let i = 0; i < 6; i++) subscribed.push(await createEndpoint(i % 2 ? ['*'] : ['order.imported', 'batch.completed']));
    await createEndpoint(['order.imported']);
    await createEndpoint(['batch.completed'], false);

    const scope = { workspaceId: t.workspaceId, environment: 'test' as const };
    const event = await app.deps.db.transaction().execute((trx) => recordEvent(trx, scope, 'batch.completed', { n: 1 }));
    const rows = await app.deps.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', event.id).execute();
    expect(rows.map((r) => r.endpoint_id).sort()).toEqual([...subscribed].sort());
    expect(new Set(rows.map((r) => r.id)).size).toBe(6);
    for (const r of rows) {
      expect(r.id).toMatch(/^dlv_/);
      expect(r).toMatchObject({ workspace_id: t.workspaceId, environment: 'test', event_type: 'batch.completed', status: 'pending' });
      expect(r.next_attempt_at).toBeInstanceOf(Date);
    }

    // A type only `*` takes: those endpoints alone.
    const other = await app.deps.db.transaction().execute((trx) => recordEvent(trx, scope, 'tracking.updated', { n: 2 }));
    const some = await app.deps.db.selectFrom('webhook_deliveries').select('endpoint_id').where('event_id', '=', other.id).execute();
    expect(some.map((r) => r.endpoint_id).sort()).toEqual(subscribed.filter((_, i) => i % 2).sort());
  });
});
