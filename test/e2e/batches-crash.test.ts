import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';

// The crash test of batches: the built service (scripts/start.mjs) SIGKILLed in the middle of a
// 500-label batch, restarted on the same data dir, must finish the batch with every item done
// exactly once and exactly one live label per order.
const dataDir = mkdtempSync(path.join(tmpdir(), 'ship-batch-crash-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

function start(port: number) {
  let output = '';
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      SEED_DEMO: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, exited, output: () => output };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function healthy(port: number, child: ChildProcess): Promise<boolean> {
  const until = Date.now() + 240_000;
  while (Date.now() < until && child.exitCode == null) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return true;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

const shipFrom = { name: 'Warehouse', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };

describe.runIf(inject('testDb').engine === 'pglite')('a batch survives SIGKILL', () => {
  it('resumes on restart: 500 items, each exactly once, one live label per order', { timeout: 600_000 }, async () => {
    let port = await freePort();
    const first = start(port);
    expect(await healthy(port, first.child), first.output()).toBe(true);
    for (let i = 0; i < 100 && !first.output().includes('Test API key'); i++) await new Promise((r) => setTimeout(r, 100));
    const [, workspace] = /Workspace:\s+(ws_\S+)/.exec(first.output())!;
    const [, key] = /Test API key:\s+(sk_test_\S+)/.exec(first.output())!;
    const headers = { authorization: `Bearer ${key}`, 'x-service-workspace': workspace, 'content-type': 'application/json' };
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`http://127.0.0.1:${port}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: await res.json() };
    };
    const waitFor = async (id: string, done: (b: { status: string; counts: { succeeded: number } }) => boolean, pollMs = 250) => {
      for (let i = 0; i < 2000; i++) {
        const res = await call('GET', `/v1/batches/${id}`);
        if (res.status === 200 && done(res.body)) return res.body;
        await new Promise((r) => setTimeout(r, pollMs));
      }
      throw new Error('batch did not get there');
    };

    // 500 orders through a batch of their own.
    const orders = Array.from({ length: 500 }, (_, i) => ({
      external_id: `crash-${i}`,
      ship_to: shipTo,
      ship_from: shipFrom,
      line_items: [{ sku: 'MUG', quantity: 1, weight_oz: 12 }],
      parcel: { weight_oz: 16, length_in: 10, width_in: 8, height_in: 4 },
    }));
    const imported = await call('POST', '/v1/batches', { type: 'import_orders', items: orders });
    expect(imported.status, JSON.stringify(imported.body)).toBe(202);
    await waitFor(imported.body.id, (b) => b.status === 'completed');
    const orderIds: string[] = [];
    for (let cursor: string | null = null; ;) {
      const page = await call('GET', `/v1/batches/${imported.body.id}/items?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      orderIds.push(...page.body.data.map((it: { result: { order: { id: string } } }) => it.result.order.id));
      cursor = page.body.next_cursor;
      if (!cursor) break;
    }
    expect(new Set(orderIds).size).toBe(500);

    const batch = await call('POST', '/v1/batches', { type: 'purchase_labels', order_ids: orderIds, service_code: 'usps_ground_advantage' });
    expect(batch.status).toBe(202);
    const midway = await waitFor(batch.body.id, (b) => b.counts.succeeded >= 40, 50);
    expect(midway.status).toBe('running');
    first.child.kill('SIGKILL');
    await first.exited;

    port = await freePort();
    const second = start(port);
    expect(await healthy(port, second.child), second.output()).toBe(true);
    const beforeRestart = (await call('GET', `/v1/batches/${batch.body.id}`)).body;
    expect(beforeRestart.counts.succeeded).toBeLessThan(500); // the kill did land mid-way
    const final = await waitFor(batch.body.id, (b) => !['queued', 'running'].includes(b.status));
    expect(final, second.output()).toMatchObject({ status: 'completed', counts: { total: 500, succeeded: 500, failed: 0, pending: 0 } });

    const itemOrders: string[] = [];
    for (let cursor: string | null = null; ;) {
      const page = await call('GET', `/v1/batches/${batch.body.id}/items?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      for (const it of page.body.data) {
        expect(it.status).toBe('succeeded');
        itemOrders.push(it.result.shipment.order_id);
      }
      cursor = page.body.next_cursor;
      if (!cursor) break;
    }
    expect(itemOrders).toEqual(orderIds);

    const perOrder = new Map<string, number>();
    for (let cursor: string | null = null; ;) {
      const page = await call('GET', `/v1/shipments?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      for (const s of page.body.data) if (s.status !== 'voided') perOrder.set(s.order_id, (perOrder.get(s.order_id) ?? 0) + 1);
      cursor = page.body.next_cursor;
      if (!cursor) break;
    }
    for (const id of orderIds) expect(perOrder.get(id), id).toBe(1);

    second.child.kill('SIGTERM');
    await second.exited;
  });
});
