import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { CLAIM_BATCH, EMBEDDED_CLAIM_BATCH } from './webhooks.dispatcher.js';
import { webhookDispatcher } from './index.js';

// The dispatcher's rounds, called directly (no job workers): on the embedded database, which
// runs in the service's own thread, small rounds with the event loop turning between them, so
// requests are served while a backlog is delivered (docs/architecture.md, "Jobs").

const DUE = 60;
let app: FastifyInstance;
let t: Tenant;

beforeAll(async () => {
  app = await buildTestApp({ config: { encryptionKey: randomBytes(32).toString('base64'), webhookAllowPrivateTargets: false } });
  t = await createTenant(app);
});

describe('delivery rounds', () => {
  it('delivers a backlog in rounds of the engine’s size, letting the event loop turn between them', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: t.headers,
      payload: { url: 'https://webhooks.example.com/rounds', events: ['*'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const endpointId: string = created.json().id;
    // A receiver the transport refuses before any connection (a private address): every attempt
    // fails without I/O, so only the dispatcher itself can let the event loop turn.
    await app.deps.db.updateTable('webhook_endpoints').set({ url: 'http://127.0.0.1:9/rounds' }).where('id', '=', endpointId).execute();
    for (let i = 0; i < DUE; i++) {
      const queued = await app.inject({ method: 'POST', url: `/v1/webhooks/${endpointId}/test`, headers: t.headers });
      expect(queued.statusCode, queued.body).toBe(202);
    }

    const dispatcher = webhookDispatcher(app.deps);
    // Counts turns of the event loop: one each time its check phase runs (an immediate that
    // re-arms itself is always queued ahead of one the dispatcher queues between rounds).
    let turns = 0;
    let ticker = setImmediate(function tick() {
      turns++;
      ticker = setImmediate(tick);
    });
    const rounds: { claimed: number; turns: number }[] = [];
    const runBatch = dispatcher.runBatch.bind(dispatcher);
    const spy = vi.spyOn(dispatcher, 'runBatch').mockImplementation(async (limit) => {
      const at = turns;
      const claimed = await runBatch(limit);
      rounds.push({ claimed, turns: at });
      return claimed;
    });
    try {
      expect(await dispatcher.runDue()).toBe(DUE);
    } finally {
      spy.mockRestore();
      clearImmediate(ticker);
    }

    const size = app.deps.database.engine === 'pglite' ? EMBEDDED_CLAIM_BATCH : CLAIM_BATCH;
    expect(rounds.map((r) => r.claimed)).toEqual(Array.from({ length: Math.ceil((DUE + 1) / size) }, (_, i) => Math.min(size, DUE - i * size)));
    // Each round after the first starts after at least one turn of the event loop.
    for (let i = 1; i < rounds.length; i++) expect(rounds[i].turns, `round ${i + 1}`).toBeGreaterThan(rounds[i - 1].turns);

    const deliveries = await app.inject({ method: 'GET', url: `/v1/webhook-deliveries?endpoint_id=${endpointId}&limit=100`, headers: t.headers });
    expect(deliveries.json().data).toHaveLength(DUE);
    for (const d of deliveries.json().data) expect(d).toMatchObject({ status: 'failed', attempt_count: 1 });
  });
});
