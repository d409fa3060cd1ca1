import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../helpers/built-service.js';
import {
  emptyPostgresDatabase,
  healthy,
  httpApi,
  killAllServiceProcesses,
  signatureValid,
  startServiceProcess,
  until,
  waitForLog,
  type HttpApi,
} from '../helpers/cluster.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

// Scale-out proof on PostgreSQL + Redis (skipped on the PGlite run): two API processes
// (RUN_WORKERS=0, through scripts/start.mjs) and one worker process on one fresh database and
// one Redis. A mixed flow goes through both APIs (orders, rates, API keys, labels, batches, with
// webhooks to a local receiver); the rate limit is one budget across them; a setting changed on
// one is in force on the other. Then the worker is killed with -9 in the middle of a batch and
// of webhook retries, a new one is started, and nothing is lost or doubled: each event reaches
// the receiver with a 2xx exactly once (signature checked with node:crypto, not our signer),
// each batch item is done once, each order has one label, each batch completes once.
// New flows are one more entry in `flows` below.

const target = inject('testDb');
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
afterAll(() => killAllServiceProcesses());

const statuses: Array<{ api: string; method: string; path: string; status: number }> = [];
const shipFrom = { name: 'Warehouse', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const shipTo = { name: 'Ada', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const order = (n: number) => ({
  external_id: `scale-${n}`,
  ship_to: shipTo,
  ship_from: shipFrom,
  line_items: [{ sku: 'MUG', name: 'Mug', quantity: 1, unit_price: { amount: 1200, currency: 'USD' }, weight_oz: 8 }],
});

/** What the flows made, for the accounting at the end (every label and batch has its one event). */
const made = { shipments: new Set<string>(), batches: new Set<string>() };

async function batchFinished(api: HttpApi, v1: Record<string, string>, id: string, timeoutMs: number, context: () => string = () => '') {
  return until(
    async () => {
      const res = await api.call('GET', `/v1/batches/${id}`, v1);
      return res.status === 200 && !['queued', 'running'].includes(res.json.status) ? res.json : undefined;
    },
    `batch ${id} to finish`,
    timeoutMs,
    context,
  );
}

async function batchItems(api: HttpApi, v1: Record<string, string>, id: string) {
  const out = [];
  for (let cursor: string | null = null; ;) {
    const page = await api.call('GET', `/v1/batches/${id}/items?limit=100${cursor ? `&cursor=${cursor}` : ''}`, v1);
    expect(page.status).toBe(200);
    out.push(...page.json.data);
    cursor = page.json.next_cursor;
    if (!cursor) return out;
  }
}

/** One step of the mixed flow, run against the two APIs in turn. Later modules add theirs. */
type Flow = (ctx: { a: HttpApi; b: HttpApi; v1: Record<string, string>; admin: Record<string, string>; n: number }) => Promise<void>;
const revocationLagMs: number[] = [];
const flows: Record<string, Flow> = {
  orders: async ({ a, b, v1, n }) => {
    const created = await (n % 2 ? a : b).call('POST', '/v1/orders', v1, order(n));
    expect(created.status).toBe(201);
    const read = await (n % 2 ? b : a).call('GET', `/v1/orders/${created.json.id}`, v1);
    expect(read.json.id).toBe(created.json.id);
  },
  rates: async ({ a, b, v1, n }) => {
    const res = await (n % 2 ? b : a).call('POST', '/v1/rates/query', v1, {
      ship_from: { postal_code: '10001', country: 'US' },
      ship_to: shipTo,
      parcel: { weight_oz: 10 + n, length_in: 8, width_in: 6, height_in: 4 },
    });
    expect(res.status).toBe(200);
    expect(res.json.data.length).toBeGreaterThan(0);
  },
  apiKeys: async ({ a, b, v1, admin }) => {
    // Made on one process, used on the other, revoked there: refused on the first at once.
    const key = await a.call('POST', '/api/admin/api-keys', admin, { name: 'rotating', environment: 'test' });
    const headers = { ...v1, authorization: `Bearer ${key.json.secret}` };
    expect((await b.call('GET', '/v1/api-keys', headers)).status).toBe(200);
    expect((await a.call('GET', '/v1/api-keys', headers)).status).toBe(200);
    expect((await b.call('DELETE', `/api/admin/api-keys/${key.json.id}`, admin)).status).toBe(204);
    expect((await b.call('GET', '/v1/api-keys', headers)).status).toBe(401);
    // The other process hears it through LISTEN/NOTIFY after the commit: milliseconds, not a TTL.
    let status = 0;
    const revokedAt = Date.now();
    while (Date.now() - revokedAt < 2_000 && (status = (await a.call('GET', '/v1/api-keys', headers)).status) !== 401)
      await new Promise((r) => setTimeout(r, 20));
    expect(status).toBe(401);
    revocationLagMs.push(Date.now() - revokedAt);
  },
  labels: async ({ a, b, v1, n }) => {
    // Ordered on one process, bought on the other, read back on the first.
    const [first, second] = n % 2 ? [a, b] : [b, a];
    const created = await first.call('POST', '/v1/orders', v1, order(100 + n));
    expect(created.status).toBe(201);
    const bought = await second.call('POST', '/v1/shipments', v1, { order_id: created.json.id, service_code: 'usps_ground_advantage' });
    expect(bought.status, JSON.stringify(bought.json)).toBe(201);
    made.shipments.add(bought.json.id);
    const read = await first.call('GET', `/v1/shipments/${bought.json.id}`, v1);
    expect(read.json.tracking_number).toBe(bought.json.tracking_number);
    expect((await first.call('GET', `/v1/orders/${created.json.id}`, v1)).json.status).toBe('shipped');
  },
  batch: async ({ a, b, v1, n }) => {
    // Orders made on B, the batch created on A, followed on B until the worker finished it.
    const orderIds = [];
    for (let i = 0; i < 3; i++) orderIds.push((await b.call('POST', '/v1/orders', v1, order(1000 + n * 10 + i))).json.id);
    const created = await a.call('POST', '/v1/batches', v1, { type: 'purchase_labels', order_ids: orderIds, service_code: 'usps_ground_advantage' });
    expect(created.status, JSON.stringify(created.json)).toBe(202);
    made.batches.add(created.json.id);
    const done = await batchFinished(b, v1, created.json.id, 120_000);
    expect(done).toMatchObject({ status: 'completed', counts: { total: 3, succeeded: 3, failed: 0, pending: 0 } });
    for (const item of await batchItems(a, v1, created.json.id)) made.shipments.add(item.result.shipment.id);
  },
};

describe.runIf(target.engine === 'postgres')('two API processes and one worker on PostgreSQL + Redis', () => {
  it('serve one flow, share one rate limit, and survive a worker killed with -9 mid-batch and mid-retry', { timeout: 900_000 }, async () => {
    if (target.engine !== 'postgres') return;
    const databaseUrl = await emptyPostgresDatabase(target, 'scale');
    const receiver = await startReceiver();
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      NODE_ENV: 'development',
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      SUPER_ADMIN_EMAIL: 'root@scale.test',
      SUPER_ADMIN_PASSWORD: 'scale-out-password',
    };
    // The worker takes one chunk and one item at a time: a batch lasts long enough to be
    // killed in the middle of it.
    const workerEnv = { ...env, LOG_LEVEL: 'info', BATCH_WORKERS: '1', BATCH_ITEM_CONCURRENCY: '1' };
    const [portA, portB] = [await freePort(), await freePort()];
    // The first process migrates (and rebuilds dist/ if stale); the others start on its schema.
    const procA = startServiceProcess('server', { ...env, PORT: String(portA), RUN_WORKERS: '0' });
    expect(await healthy(`http://127.0.0.1:${portA}`, procA), procA.output()).toBe(true);
    const procB = startServiceProcess('server', { ...env, PORT: String(portB), RUN_WORKERS: '0' });
    let worker = startServiceProcess('worker', workerEnv);
    expect(await healthy(`http://127.0.0.1:${portB}`, procB), procB.output()).toBe(true);
    expect(await waitForLog(worker, 'worker started'), worker.output()).toBe(true);
    const a = httpApi(`http://127.0.0.1:${portA}`, 'A', statuses);
    const b = httpApi(`http://127.0.0.1:${portB}`, 'B', statuses);

    // A client's first minutes, alternating processes.
    const root = {
      authorization: `Bearer ${(await a.call('POST', '/api/auth/login', {}, { email: env.SUPER_ADMIN_EMAIL, password: env.SUPER_ADMIN_PASSWORD })).json.token}`,
    };
    const reg = await b.call('POST', '/api/auth/register', {}, { email: 'ops@scale.test', password: 'long enough pw', name: 'Ops', workspace_name: 'Scale' });
    expect(reg.status).toBe(201);
    const workspaceId: string = reg.json.workspace.id;
    expect((await a.call('POST', `/api/super-admin/accounts/${reg.json.account.id}/approve`, root)).status).toBe(200);
    const session = (await b.call('POST', '/api/auth/login', {}, { email: 'ops@scale.test', password: 'long enough pw' })).json.token;
    const adminHeaders = { authorization: `Bearer ${session}`, 'x-service-workspace': workspaceId, 'x-service-environment': 'test' };
    const key = await a.call('POST', '/api/admin/api-keys', adminHeaders, { name: 'server', environment: 'test' });
    const v1 = { authorization: `Bearer ${key.json.secret}`, 'x-service-workspace': workspaceId };
    // The flows poll batches: a high burst keeps them clear of the limit tested further down.
    expect((await b.call('PATCH', `/api/super-admin/workspaces/${workspaceId}`, root, { plan: 'enterprise', burst_per_minute: 100_000 })).status).toBe(200);

    // Webhooks: retries after ~1 s, many attempts (the kill below keeps the receiver refusing a while).
    expect((await a.call('PUT', '/api/super-admin/settings/webhooks.retry_schedule_seconds', root, { value: [1] })).status).toBe(200);
    expect((await b.call('PUT', '/api/super-admin/settings/webhooks.max_attempts', root, { value: 50 })).status).toBe(200);
    const hook = await a.call('POST', '/v1/webhooks', v1, { url: receiver.url('/hooks'), events: ['shipment.label_purchased', 'batch.completed'] });
    expect(hook.status, JSON.stringify(hook.json)).toBe(201);
    const secret: string = hook.json.secret;
    // The receiver refuses (500) every event's first attempt, so every delivery goes through a
    // retry; while `refusing`, it refuses everything.
    let refusing = false;
    const attempts = new Map<string, number>();
    const answers: Array<{ eventId: string; deliveryId: string; status: number; signed: boolean }> = [];
    receiver.on('/hooks', (req) => {
      const eventId = (JSON.parse(req.body) as { id: string }).id;
      const n = (attempts.get(eventId) ?? 0) + 1;
      attempts.set(eventId, n);
      const status = refusing || n === 1 ? 500 : 200;
      answers.push({
        eventId,
        deliveryId: String(req.headers['x-service-delivery-id']),
        status,
        signed: signatureValid(String(req.headers['x-service-signature']), req.body, secret),
      });
      return { status };
    });

    for (let n = 0; n < 6; n++) for (const flow of Object.values(flows)) await flow({ a, b, v1, admin: adminHeaders, n });

    // A tier burst changed on A is in force on B (settings invalidated across processes).
    await b.call('PATCH', `/api/super-admin/workspaces/${workspaceId}`, root, { plan: 'starter' });
    expect((await a.call('PUT', '/api/super-admin/settings/plans.starter.burst_per_minute', root, { value: 10 })).status).toBe(200);
    let limitOnB = '';
    for (let i = 0; i < 20 && limitOnB !== '10'; i++) {
      limitOnB = (await b.call('GET', '/v1/api-keys', v1)).headers.get('ratelimit-limit') ?? '';
      if (limitOnB !== '10') await new Promise((r) => setTimeout(r, 100));
    }
    expect(limitOnB).toBe('10');
    // One budget across both processes: 20 requests alternating → about 10 pass, not 20.
    const results = [];
    for (let i = 0; i < 20; i++) results.push((await (i % 2 ? a : b).call('GET', '/v1/api-keys', v1)).status);
    const passed = results.filter((s) => s === 200).length;
    expect(passed).toBeLessThanOrEqual(11); // the one above was spent; refill is 1 per 6 s
    expect(results.filter((s) => s === 429).length).toBeGreaterThanOrEqual(9);
    await a.call('PUT', '/api/super-admin/settings/plans.starter.burst_per_minute', root, { value: 100_000 });
    await until(async () => (await b.call('GET', '/v1/api-keys', v1)).headers.get('ratelimit-limit') === '100000', 'the raised burst on B', 10_000);

    // ---- kill -9 of the worker in the middle of a batch and of webhook retries ----
    refusing = true;
    const workerLogs = () => worker.output();
    const imported = await b.call('POST', '/v1/batches', v1, {
      type: 'import_orders',
      items: Array.from({ length: 300 }, (_, i) => ({
        ship_to: shipTo,
        ship_from: shipFrom,
        line_items: [{ sku: 'MUG', quantity: 1, weight_oz: 8 }],
        notes: `kill-${i}`,
      })),
    });
    expect(imported.status, JSON.stringify(imported.json)).toBe(202);
    made.batches.add(imported.json.id);
    expect(await batchFinished(a, v1, imported.json.id, 300_000, workerLogs)).toMatchObject({ status: 'completed', counts: { succeeded: 300 } });
    const orderIds: string[] = (await batchItems(b, v1, imported.json.id)).map((it: { result: { order: { id: string } } }) => it.result.order.id);
    // Mid-retry: the import's batch.completed has been refused at least twice (a retry happened).
    const retried = () => [...attempts.entries()].some(([eventId, n]) => n >= 2 && answers.some((x) => x.eventId === eventId && x.status === 500));
    await until(async () => retried(), 'a refused delivery to be retried', 60_000, workerLogs);

    const big = await a.call('POST', '/v1/batches', v1, { type: 'purchase_labels', order_ids: orderIds, service_code: 'usps_ground_advantage' });
    expect(big.status).toBe(202);
    made.batches.add(big.json.id);
    await until(
      async () => {
        const res = await b.call('GET', `/v1/batches/${big.json.id}`, v1);
        return res.json.counts.succeeded >= 20;
      },
      'the batch to be under way',
      300_000,
      workerLogs,
      50,
    );
    await worker.kill9();
    const atKill = (await a.call('GET', `/v1/batches/${big.json.id}`, v1)).json;
    expect(atKill.status).toBe('running');
    expect(atKill.counts.succeeded).toBeLessThan(300); // the kill did land mid-way
    const undelivered = (await a.call('GET', `/v1/webhook-deliveries?webhook_id=${hook.json.id}&status=failed&limit=100`, v1)).json.data;
    expect(undelivered.length).toBeGreaterThan(0); // and mid-retry: deliveries wait for their next attempt
    console.log(`killed the worker at ${atKill.counts.succeeded}/300 items, ${undelivered.length}+ deliveries waiting to retry`);

    // A new worker takes over: the untouched chunks at once, the killed one when its lease ends
    // (CHUNK_EXPIRE_SECONDS + the queue's maintenance interval), the deliveries when due.
    worker = startServiceProcess('worker', workerEnv);
    expect(await waitForLog(worker, 'worker started'), worker.output()).toBe(true);
    refusing = false;
    const done = await batchFinished(b, v1, big.json.id, 400_000, workerLogs);
    expect(done).toMatchObject({ status: 'completed', counts: { total: 300, succeeded: 300, failed: 0, pending: 0 } });
    const items = await batchItems(a, v1, big.json.id);
    expect(items.map((it: { result: { shipment: { order_id: string } } }) => it.result.shipment.order_id)).toEqual(orderIds);
    for (const it of items) made.shipments.add(it.result.shipment.id);

    // ---- accounting: nothing lost, nothing doubled ----
    const deliveries = async () => {
      const out = [];
      for (let cursor: string | null = null; ;) {
        const page = await b.call('GET', `/v1/webhook-deliveries?webhook_id=${hook.json.id}&limit=100${cursor ? `&cursor=${cursor}` : ''}`, v1);
        out.push(...page.json.data);
        cursor = page.json.next_cursor;
        if (!cursor) return out as Array<{ event_id: string; status: string; id: string }>;
      }
    };
    const all = await until(
      async () => {
        const list = await deliveries();
        return list.length === made.shipments.size + made.batches.size && list.every((d) => d.status === 'delivered') ? list : undefined;
      },
      'every delivery delivered',
      300_000,
      workerLogs,
      1_000,
    );
    await new Promise((r) => setTimeout(r, 3_000)); // a duplicate would arrive in this time

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const events = (
        await db.query<{ id: string; type: string; subject: string }>(
          `select id, type, coalesce(data->'shipment'->>'id', data->'batch'->>'id') as subject from events where workspace_id = $1 and type in ('shipment.label_purchased', 'batch.completed')`,
          [workspaceId],
        )
      ).rows;
      // One event per label and per batch: the batches completed once each.
      expect(
        events
          .filter((e) => e.type === 'shipment.label_purchased')
          .map((e) => e.subject)
          .sort(),
      ).toEqual([...made.shipments].sort());
      expect(
        events
          .filter((e) => e.type === 'batch.completed')
          .map((e) => e.subject)
          .sort(),
      ).toEqual([...made.batches].sort());
      // One label per order, whatever the kill interrupted.
      const doubled = await db.query(`select order_id from shipments where workspace_id = $1 and status <> 'voided' group by order_id having count(*) > 1`, [
        workspaceId,
      ]);
      expect(doubled.rows).toEqual([]);

      // Every event reached the receiver with a 2xx exactly once, under one delivery id, signed.
      expect(all.map((d) => d.event_id).sort()).toEqual(events.map((e) => e.id).sort());
      const accepted = new Map<string, number>();
      for (const x of answers) if (x.status === 200) accepted.set(x.eventId, (accepted.get(x.eventId) ?? 0) + 1);
      expect([...accepted.keys()].sort()).toEqual(events.map((e) => e.id).sort());
      expect([...accepted.entries()].filter(([, n]) => n !== 1)).toEqual([]);
      const deliveryIds = new Map<string, Set<string>>();
      for (const x of answers) deliveryIds.set(x.eventId, (deliveryIds.get(x.eventId) ?? new Set()).add(x.deliveryId));
      expect([...deliveryIds.values()].filter((s) => s.size !== 1)).toEqual([]);
      expect(answers.filter((x) => !x.signed)).toEqual([]);
      console.log(
        `${events.length} events, ${answers.length} webhook requests (${answers.filter((x) => x.status !== 200).length} refused), each event accepted once`,
      );
    } finally {
      await db.end();
    }

    console.log(`revocation seen by the other process after ${revocationLagMs.join(', ')} ms; ${statuses.length} requests`);
    expect(statuses.filter((s) => s.status >= 500)).toEqual([]);
    await Promise.all([procA.stop(), procB.stop(), worker.stop()]);
    await receiver.close();
  });
});
