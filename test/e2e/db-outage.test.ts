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
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

// A PostgreSQL blip under load (skipped on the PGlite run): one API process (RUN_WORKERS=0) and
// one worker reach PostgreSQL through a TCP proxy. With client loops reading orders and quoting
// rates, a label batch and webhook deliveries in flight, the proxy drops every connection and
// resets each new one for 6 s, then lets them through again. Neither process may die; during the
// cut every answer is a 2xx or a 503 `service_unavailable` with Retry-After in the error shape
// (never a 500, never later than 10 s); /health says the database is down; afterwards reads
// succeed again without a restart, an API key revoked while the processes could not hear it is
// refused (the listener dropped what it may have missed), the listener hears invalidations
// again (it re-subscribed), and the batch and
// the deliveries finish exactly once.

const target = inject('testDb');
afterAll(() => killAllServiceProcesses());

const CUT_MS = 6_000;
const shipFrom = { name: 'Warehouse', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const shipTo = { name: 'Ada', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const order = (n: number) => ({
  external_id: `blip-${n}`,
  ship_to: shipTo,
  ship_from: shipFrom,
  line_items: [{ sku: 'MUG', name: 'Mug', quantity: 1, unit_price: { amount: 1200, currency: 'USD' }, weight_oz: 8 }],
});

interface Answer {
  at: number;
  ms: number;
  status: number;
  code?: string;
  retryAfter: string | null;
  shape: boolean;
}

/** One client loop: a request after another until `stop`, each answer (or failure) recorded. */
async function loop(
  base: string,
  next: () => { method: string; path: string; body?: unknown },
  headers: Record<string, string>,
  answers: Answer[],
  failures: string[],
  stop: () => boolean,
) {
  while (!stop()) {
    const { method, path, body } = next();
    const started = Date.now();
    try {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(20_000),
      });
      const text = await res.text();
      let json: { code?: string; message?: string; request_id?: string } = {};
      try {
        json = JSON.parse(text);
      } catch {
        /* recorded as not in shape below */
      }
      const shape = res.status < 400 || (typeof json.code === 'string' && typeof json.message === 'string' && typeof json.request_id === 'string');
      answers.push({ at: started, ms: Date.now() - started, status: res.status, code: json.code, retryAfter: res.headers.get('retry-after'), shape });
    } catch (err) {
      failures.push(`${method} ${path}: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe.runIf(target.engine === 'postgres')('a PostgreSQL blip under load', () => {
  it('kills no process, answers 503 with Retry-After meanwhile, and everything resumes without a restart', { timeout: 600_000 }, async () => {
    if (target.engine !== 'postgres') return;
    const directUrl = await emptyPostgresDatabase(target, 'blip');
    const proxy = await startTcpProxy({ host: new URL(directUrl).hostname, port: Number(new URL(directUrl).port || 5432) });
    const viaProxy = new URL(directUrl);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const receiver = await startReceiver();
    const env = {
      DATABASE_URL: viaProxy.toString(),
      NODE_ENV: 'development',
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      SUPER_ADMIN_EMAIL: 'root@blip.test',
      SUPER_ADMIN_PASSWORD: 'blip-test-password',
    };
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const api = startServiceProcess('server', { ...env, PORT: String(port), RUN_WORKERS: '0' });
    expect(await healthy(base, api), api.output()).toBe(true);
    // One item at a time: the batch is still running when the cut comes.
    const worker = startServiceProcess('worker', { ...env, LOG_LEVEL: 'info', BATCH_WORKERS: '1', BATCH_ITEM_CONCURRENCY: '1' });
    expect(await waitForLog(worker, 'worker started'), worker.output()).toBe(true);
    const logs = () => `--- api ---\n${api.output().slice(-3000)}\n--- worker ---\n${worker.output().slice(-3000)}`;
    const statuses: Array<{ api: string; method: string; path: string; status: number }> = [];
    const a: HttpApi = httpApi(base, 'api', statuses);

    const root = {
      authorization: `Bearer ${(await a.call('POST', '/api/auth/login', {}, { email: env.SUPER_ADMIN_EMAIL, password: env.SUPER_ADMIN_PASSWORD })).json.token}`,
    };
    const reg = await a.call('POST', '/api/auth/register', {}, { email: 'ops@blip.test', password: 'long enough pw', name: 'Ops', workspace_name: 'Blip' });
    const workspaceId: string = reg.json.workspace.id;
    expect((await a.call('POST', `/api/super-admin/accounts/${reg.json.account.id}/approve`, root)).status).toBe(200);
    const session = (await a.call('POST', '/api/auth/login', {}, { email: 'ops@blip.test', password: 'long enough pw' })).json.token;
    const admin = { authorization: `Bearer ${session}`, 'x-service-workspace': workspaceId, 'x-service-environment': 'test' };
    const v1 = {
      authorization: `Bearer ${(await a.call('POST', '/api/admin/api-keys', admin, { name: 'main', environment: 'test' })).json.secret}`,
      'x-service-workspace': workspaceId,
    };
    expect((await a.call('PATCH', `/api/super-admin/workspaces/${workspaceId}`, root, { plan: 'enterprise', burst_per_minute: 1_000_000 })).status).toBe(200);
    // A second key, used (so cached) now and revoked behind the processes' backs during the cut.
    const doomed = await a.call('POST', '/api/admin/api-keys', admin, { name: 'doomed', environment: 'test' });
    const doomedHeaders = { ...v1, authorization: `Bearer ${doomed.json.secret}` };
    expect((await a.call('GET', '/v1/api-keys', doomedHeaders)).status).toBe(200);

    const hook = await a.call('POST', '/v1/webhooks', v1, { url: receiver.url('/hooks'), events: ['shipment.label_purchased', 'batch.completed'] });
    expect(hook.status, JSON.stringify(hook.json)).toBe(201);
    const orderIds: string[] = [];
    for (let n = 0; n < 60; n++) orderIds.push((await a.call('POST', '/v1/orders', v1, order(n))).json.id);
    const batch = await a.call('POST', '/v1/batches', v1, { type: 'purchase_labels', order_ids: orderIds, service_code: 'usps_ground_advantage' });
    expect(batch.status, JSON.stringify(batch.json)).toBe(202);
    await until(
      async () => (await a.call('GET', `/v1/batches/${batch.json.id}`, v1)).json.counts.succeeded >= 3,
      'the batch to be under way',
      120_000,
      logs,
      50,
    );

    // ---- load, then the cut ----
    const answers: Answer[] = [];
    const failures: string[] = [];
    let stopLoops = false;
    let n = 0;
    const reads = () => ({ method: 'GET', path: `/v1/orders/${orderIds[n++ % orderIds.length]}` });
    const quotes = () => ({
      method: 'POST',
      path: '/v1/rates/query',
      body: {
        ship_from: { postal_code: '10001', country: 'US' },
        ship_to: shipTo,
        parcel: { weight_oz: 1 + (n++ % 200), length_in: 8, width_in: 6, height_in: 4 },
      },
    });
    const loops = Array.from({ length: 8 }, (_, i) => loop(base, i % 2 ? quotes : reads, v1, answers, failures, () => stopLoops));
    await new Promise((r) => setTimeout(r, 1_000));

    const cutAt = Date.now();
    proxy.cut();
    await new Promise((r) => setTimeout(r, 1_500));
    const health = await fetch(`${base}/health`, { signal: AbortSignal.timeout(15_000) });
    const healthBody = await health.json();
    // Revoked while neither process can hear it: no NOTIFY reaches them.
    const direct = new pg.Client({ connectionString: directUrl });
    await direct.connect();
    const { rows } = await direct.query<{ key_hash: string }>(`update api_keys set revoked_at = now() where id = $1 returning key_hash`, [doomed.json.id]);
    await direct.query(`select pg_notify('cache_invalidation', $1)`, [`api_key:${rows[0].key_hash}`]);
    await new Promise((r) => setTimeout(r, CUT_MS - (Date.now() - cutAt)));
    const duringCut = answers.filter((x) => x.at >= cutAt).length;
    proxy.restore();
    const restoredAt = Date.now();

    expect(health.status).toBe(503);
    expect(healthBody).toMatchObject({ status: 'unavailable', checks: { database: { status: 'failing' } } });
    expect(api.child.exitCode, logs()).toBeNull();
    expect(worker.child.exitCode, logs()).toBeNull();

    // Recovery: the first order read that succeeds after the restore.
    await until(async () => (await a.call('GET', `/v1/orders/${orderIds[0]}`, v1)).status === 200, 'an order read to succeed again', 30_000, logs, 50);
    const recoveryMs = Date.now() - restoredAt;
    await new Promise((r) => setTimeout(r, 2_000));
    stopLoops = true;
    await Promise.all(loops);

    // The key revoked behind its back is refused soon after the restore (its cache TTL is 60 s).
    await until(async () => (await a.call('GET', '/v1/api-keys', doomedHeaders)).status === 401, 'the revoked key to be refused', 5_000, logs, 100);
    expect((await fetch(`${base}/health`)).status).toBe(200);
    // The listener is back: a key cached after the restore and revoked by "another process"
    // (a NOTIFY on a direct connection) is refused within moments, not after the 60 s TTL.
    const later = await a.call('POST', '/api/admin/api-keys', admin, { name: 'later', environment: 'test' });
    const laterHeaders = { ...v1, authorization: `Bearer ${later.json.secret}` };
    expect((await a.call('GET', '/v1/api-keys', laterHeaders)).status).toBe(200);
    const revokedLater = await direct.query<{ key_hash: string }>(`update api_keys set revoked_at = now() where id = $1 returning key_hash`, [later.json.id]);
    await direct.query(`select pg_notify('cache_invalidation', $1)`, [`api_key:${revokedLater.rows[0].key_hash}`]);
    await until(
      async () => (await a.call('GET', '/v1/api-keys', laterHeaders)).status === 401,
      'a key revoked after the restore to be refused',
      5_000,
      logs,
      100,
    );

    const refused = answers.filter((x) => x.status >= 500);
    console.log(
      `cut ${CUT_MS} ms: ${answers.length} answers (${duringCut} after the cut), ${refused.length} of them 503, ${failures.length} transport failures, ` +
        `slowest ${Math.max(...answers.map((x) => x.ms))} ms; first successful order read ${recoveryMs} ms after the restore; ${proxy.dropped()} connections dropped by the proxy`,
    );
    expect(failures, logs()).toEqual([]);
    expect(
      answers.filter((x) => x.status >= 500 && !(x.status === 503 && x.code === 'service_unavailable' && x.retryAfter !== null && /^\d+$/.test(x.retryAfter))),
      logs(),
    ).toEqual([]);
    expect(answers.filter((x) => !x.shape)).toEqual([]);
    expect(answers.filter((x) => x.ms > 10_000)).toEqual([]);
    expect(refused.length).toBeGreaterThan(0); // the cut did reach requests
    expect(answers.filter((x) => x.at > restoredAt + recoveryMs + 500 && x.status !== 200)).toEqual([]);

    // ---- the batch and its webhooks finish exactly once ----
    const done = await until(
      async () => {
        const res = await a.call('GET', `/v1/batches/${batch.json.id}`, v1);
        return res.status === 200 && !['queued', 'running'].includes(res.json.status) ? res.json : undefined;
      },
      'the batch to finish',
      240_000,
      logs,
      500,
    );
    expect(done).toMatchObject({ status: 'completed', counts: { total: 60, succeeded: 60, failed: 0 } });
    const doubled = await direct.query(`select order_id from shipments where workspace_id = $1 and status <> 'voided' group by order_id having count(*) > 1`, [
      workspaceId,
    ]);
    expect(doubled.rows).toEqual([]);
    const events = (
      await direct.query<{ id: string }>(`select id from events where workspace_id = $1 and type in ('shipment.label_purchased', 'batch.completed')`, [
        workspaceId,
      ])
    ).rows;
    expect(events.length).toBe(61);
    const accepted = await until(
      async () => {
        const got = receiver.received.filter((r) => r.path === '/hooks');
        return new Set(got.map((r) => (JSON.parse(r.body) as { id: string }).id)).size === events.length ? got : undefined;
      },
      'every event delivered',
      240_000,
      logs,
      500,
    );
    await new Promise((r) => setTimeout(r, 2_000)); // a duplicate would arrive in this time
    const perEvent = new Map<string, number>();
    for (const r of receiver.received.filter((x) => x.path === '/hooks')) {
      const id = (JSON.parse(r.body) as { id: string }).id;
      perEvent.set(id, (perEvent.get(id) ?? 0) + 1);
    }
    expect([...perEvent.entries()].filter(([, c]) => c !== 1)).toEqual([]);
    expect(accepted.filter((r) => !signatureValid(String(r.headers['x-service-signature']), r.body, hook.json.secret))).toEqual([]);
    await direct.end();

    await Promise.all([api.stop(), worker.stop()]);
    await receiver.close();
    await proxy.close();
  });
});
