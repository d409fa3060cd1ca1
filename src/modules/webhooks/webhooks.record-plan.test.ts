import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { CompiledQuery } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant } from '../../../test/helpers/app.js';
import { RECORD_ROUND_SQL } from './webhooks.repo.js';

// A round's record finds its deliveries by primary key, however many are due: the embedded
// database never analyzes, and without statistics the planner had read the whole backlog of due
// deliveries (through their partial index) to update a round of 25 (docs/architecture.md, "Jobs").

const BACKLOG = 3_000;
let app: FastifyInstance;
let endpointId: string;

beforeAll(async () => {
  app = await buildTestApp({ config: { encryptionKey: randomBytes(32).toString('base64') } });
  const t = await createTenant(app);
  const created = await app.inject({
    method: 'POST',
    url: '/v1/webhooks',
    headers: t.headers,
    payload: { url: 'https://webhooks.example.com/plan', events: ['*'] },
  });
  expect(created.statusCode, created.body).toBe(201);
  endpointId = created.json().id;
  // A failing endpoint's backlog: every delivery due again later (status failed, one attempt made).
  await app.deps.db.executeQuery(
    CompiledQuery.raw(
      `insert into webhook_deliveries (id, workspace_id, environment, endpoint_id, event_id, event_type, status, attempt_count, next_attempt_at)
       select 'dlv_plan' || g, $1, 'test', $2, 'evt_plan' || g, 'order.created', 'failed', 1, now() + g * interval '1 second'
         from generate_series(1, ${BACKLOG}) g`,
      [t.workspaceId, endpointId],
    ),
  );
});

describe('recording a round', () => {
  it('looks its deliveries up by primary key, not through the backlog of due ones', async () => {
    const outcomes = Array.from({ length: 25 }, (_, i) => ({
      delivery_id: `dlv_plan${i * 100 + 1}`,
      number: 2,
      attempted_at: new Date().toISOString(),
      status_code: null,
      latency_ms: 0,
      response_body: null,
      error: 'refused',
      status: 'failed',
      retry_in_seconds: 60,
    }));
    const health = [{ endpoint_id: endpointId, succeeded: false, failed_at: new Date().toISOString(), gone: false }];
    const { rows } = await app.deps.db.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain ${RECORD_ROUND_SQL}`, [JSON.stringify(outcomes), JSON.stringify(health), 3 * 86_400]),
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toContain('webhook_deliveries_pkey');
    expect(plan).not.toContain('webhook_deliveries_due');
  });
});
