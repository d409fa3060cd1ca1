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
  type ServiceProcess,
} from '../helpers/cluster.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

// Two worker processes share one batch on PostgreSQL (skipped on PGlite, which serves one
// process): one API process (RUN_WORKERS=0) and two `scripts/start.mjs worker` processes on one
// fresh database. Each chunk run logs how many items it finished ("batch chunk run ended"), so
// the test sees which process did what: both take part, and the shares add up to the batch
// exactly (an item finished twice would count twice). The batch completes once, its
// batch.completed event exists once and reaches the receiver once, and every order has exactly
// one label.

const target = inject('testDb');
const ITEMS = 300;
afterAll(() => killAllServiceProcesses());

const shipFrom = { name: 'Warehouse', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };

/** Items each worker finished for one batch, from its chunk-run log lines. */
function finishedBy(worker: ServiceProcess, batchId: string): number {
  return worker
    .logLines()
    .filter((l) => l.msg === 'batch chunk run ended' && l.batch_id === batchId)
    .reduce((n, l) => n + Number(l.finished), 0);
}

describe.runIf(target.engine === 'postgres')('two worker processes share one batch on PostgreSQL', () => {
  it(`${ITEMS} labels: both workers take part, each item once, one batch.completed, one label per order`, { timeout: 900_000 }, async () => {
    if (target.engine !== 'postgres') return;
    const databaseUrl = await emptyPostgresDatabase(target, 'two_workers');
    const receiver = await startReceiver();
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: '',
      NODE_ENV: 'development',
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      SUPER_ADMIN_EMAIL: 'root@two-workers.test',
      SUPER_ADMIN_PASSWORD: 'two-workers-password',
    };
    const port = await freePort();
    const apiProc = startServiceProcess('server', { ...env, PORT: String(port), RUN_WORKERS: '0' });
    const base = `http://127.0.0.1:${port}`;
    expect(await healthy(base, apiProc), apiProc.output()).toBe(true);
    // One chunk at a time per worker, two items at once: a worker alone cannot drain the batch
    // within the other's poll interval (1 s), so both must take chunks.
    const workerEnv = { ...env, LOG_LEVEL: 'info', BATCH_WORKERS: '1', BATCH_ITEM_CONCURRENCY: '2' };
    const workers = [startServiceProcess('worker', workerEnv), startServiceProcess('worker', workerEnv)];
    for (const w of workers) expect(await waitForLog(w, 'worker started'), w.output()).toBe(true);

    const statuses: Array<{ api: string; method: string; path: string; status: number }> = [];
    const api = httpApi(base, 'api', statuses);
    const root = {
      authorization: `Bearer ${(await api.call('POST', '/api/auth/login', {}, { email: env.SUPER_ADMIN_EMAIL, password: env.SUPER_ADMIN_PASSWORD })).json.token}`,
    };
    const reg = await api.call(
      'POST',
      '/api/auth/register',
      {},
      { email: 'ops@two-workers.test', password: 'long enough pw', name: 'Ops', workspace_name: 'Two workers' },
    );
    expect(reg.status).toBe(201);
    expect((await api.call('POST', `/api/super-admin/accounts/${reg.json.account.id}/approve`, root)).status).toBe(200);
    const session = (await api.call('POST', '/api/auth/login', {}, { email: 'ops@two-workers.test', password: 'long enough pw' })).json.token;
    const admin = { authorization: `Bearer ${session}`, 'x-service-workspace': reg.json.workspace.id, 'x-service-environment': 'test' };
    const key = await api.call('POST', '/api/admin/api-keys', admin, { name: 'server', environment: 'test' });
    const v1 = { authorization: `Bearer ${key.json.secret}`, 'x-service-workspace': reg.json.workspace.id };
    expect(
      (await api.call('PATCH', `/api/super-admin/workspaces/${reg.json.workspace.id}`, root, { plan: 'enterprise', burst_per_minute: 100_000 })).status,
    ).toBe(200);
    const hook = await api.call('POST', '/v1/webhooks', v1, { url: receiver.url('/two-workers'), events: ['batch.completed'] });
    expect(hook.status, JSON.stringify(hook.json)).toBe(201);

    const finished = async (id: string) =>
      until(
        async () => {
          const res = await api.call('GET', `/v1/batches/${id}`, v1);
          return res.status === 200 && !['queued', 'running'].includes(res.json.status) ? res.json : undefined;
        },
        `batch ${id} to finish`,
        600_000,
        () => workers.map((w) => w.output()).join('\n---\n'),
        500,
      );
    const itemsOf = async (id: string) => {
      const out = [];
      for (let cursor: string | null = null; ;) {
        const page = await api.call('GET', `/v1/batches/${id}/items?limit=100${cursor ? `&cursor=${cursor}` : ''}`, v1);
        out.push(...page.json.data);
        cursor = page.json.next_cursor;
        if (!cursor) return out;
      }
    };

    // The orders, through a batch of their own (shared by the two workers too).
    const orders = Array.from({ length: ITEMS }, (_, i) => ({
      ship_to: shipTo,
      ship_from: shipFrom,
      line_items: [{ sku: 'MUG', quantity: 1, weight_oz: 12 }],
      notes: `two-workers-${i}`,
    }));
    const imported = await api.call('POST', '/v1/batches', v1, { type: 'import_orders', items: orders });
    expect(imported.status, JSON.stringify(imported.json)).toBe(202);
    expect(await finished(imported.json.id)).toMatchObject({ status: 'completed', counts: { succeeded: ITEMS } });
    const orderIds: string[] = (await itemsOf(imported.json.id)).map((it: { result: { order: { id: string } } }) => it.result.order.id);
    expect(new Set(orderIds).size).toBe(ITEMS);

    const batch = await api.call('POST', '/v1/batches', v1, { type: 'purchase_labels', order_ids: orderIds, service_code: 'usps_ground_advantage' });
    expect(batch.status).toBe(202);
    const done = await finished(batch.json.id);
    // A failed item says why (it once failed once in a full run and passed alone).
    const failures = done.counts.failed > 0 ? (await itemsOf(batch.json.id)).filter((it: { status: string }) => it.status === 'failed') : [];
    expect(failures, JSON.stringify(failures.slice(0, 3))).toEqual([]);
    expect(done).toMatchObject({ status: 'completed', counts: { total: ITEMS, succeeded: ITEMS, failed: 0, pending: 0 } });

    // Both processes took part, and their shares add up to the batch exactly.
    // A chunk logs "run ended" after it has marked its items, so on a loaded machine the last
    // chunk's line may still be on its way when the batch already reads completed: wait for the
    // lines (the shares never exceed the batch, so a double-run still fails below).
    for (const id of [imported.json.id, batch.json.id]) {
      await until(
        async () => (workers.reduce((n, w) => n + finishedBy(w, id), 0) >= ITEMS ? true : undefined),
        `the workers' chunk logs of ${id}`,
        60_000,
        () => workers.map((w) => w.output()).join('\n---\n'),
        200,
      ).catch(() => undefined);
      const shares = workers.map((w) => finishedBy(w, id));
      console.log(`batch ${id}: items finished per worker ${shares.join(' + ')}`);
      expect(shares[0] + shares[1]).toBe(ITEMS);
      expect(Math.min(...shares), `both workers take items of ${id}`).toBeGreaterThan(0);
    }

    const items = await itemsOf(batch.json.id);
    expect(items.map((it: { result: { shipment: { order_id: string } } }) => it.result.shipment.order_id)).toEqual(orderIds);
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const labels = await db.query<{ order_id: string; n: string }>(
        `select order_id, count(*) as n from shipments where order_id = any($1) and status <> 'voided' group by order_id`,
        [orderIds],
      );
      expect(labels.rows).toHaveLength(ITEMS);
      expect(labels.rows.filter((r) => Number(r.n) !== 1)).toEqual([]);
      const completed = await db.query(`select id from events where type = 'batch.completed' and data->'batch'->>'id' = $1`, [batch.json.id]);
      expect(completed.rows).toHaveLength(1);
    } finally {
      await db.end();
    }

    // batch.completed reaches the receiver once per batch, signed.
    const completions = (batchId: string) =>
      receiver.at('/two-workers').filter((r) => (JSON.parse(r.body) as { data: { batch: { id: string } } }).data.batch.id === batchId);
    await until(async () => completions(batch.json.id).length > 0, 'batch.completed delivered', 60_000);
    await new Promise((r) => setTimeout(r, 3_000)); // a duplicate would come in this time
    for (const id of [imported.json.id, batch.json.id]) {
      const got = completions(id);
      expect(got, `batch.completed of ${id}`).toHaveLength(1);
      expect(signatureValid(String(got[0].headers['x-service-signature']), got[0].body, hook.json.secret)).toBe(true);
    }

    expect(statuses.filter((s) => s.status >= 500)).toEqual([]);
    for (const w of workers) expect(w.output()).not.toMatch(/"level":(50|60)/);
    await Promise.all([apiProc.stop(), ...workers.map((w) => w.stop())]);
    await receiver.close();
  });
});
