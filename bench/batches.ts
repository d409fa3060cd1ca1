/**
 * `node --import tsx bench/batches.ts` (after `npm run build`): one purchase_labels batch of
 * BENCH_ITEMS labels (default 10,000) on the built service: items/s, total time (goal < 60 s on
 * PostgreSQL), the service's peak memory (VmHWM), and the merged label file's time and size.
 * The orders come in first through an import_orders batch (timed too). BENCH_DATABASE_URL (an
 * empty database) runs the service on PostgreSQL, else on a fresh PGlite data dir.
 * BENCH_FORMAT (default pdf_4x6); BATCH_WORKERS / BATCH_ITEM_CONCURRENCY pass through.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const items = Number(process.env.BENCH_ITEMS ?? 10_000);
const format = process.env.BENCH_FORMAT ?? 'pdf_4x6';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Peak resident memory of a process so far (Linux), in MiB. */
function peakRssMiB(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-batches-'));
const children: ChildProcess[] = [];
try {
  const port = await freePort();
  let out = '';
  const service = spawn(process.execPath, ['dist/server.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      SEED_DEMO: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(service);
  service.stdout!.on('data', (d) => (out += d));
  service.stderr!.on('data', (d) => (out += d));
  for (let i = 0; i < 1200 && !/Test API key:\s+sk_test_\S+/.test(out); i++) {
    if (service.exitCode !== null) throw new Error(`service exited: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const key = /Test API key:\s+(sk_test_\S+)/.exec(out)![1];
  const workspace = /Workspace:\s+(ws_\S+)/.exec(out)![1];
  const base = `http://127.0.0.1:${port}`;
  const headers = { authorization: `Bearer ${key}`, 'x-service-workspace': workspace, 'content-type': 'application/json' };
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json()) as any;
    if (res.status >= 300) throw new Error(`${url} ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const run = async (body: unknown) => {
    const started = performance.now();
    const created = await call('POST', '/v1/batches', body);
    let batch = created;
    while (['queued', 'running'].includes(batch.status)) {
      await new Promise((r) => setTimeout(r, 500));
      batch = await call('GET', `/v1/batches/${created.id}`);
    }
    const seconds = (performance.now() - started) / 1000;
    return { batch, seconds };
  };

  const imported = await run({
    type: 'import_orders',
    items: Array.from({ length: items }, (_, i) => ({
      external_id: `bench-${i}`,
      ship_from: { name: 'Warehouse', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' },
      ship_to: { name: `Buyer ${i}`, street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' },
      line_items: [{ sku: 'MUG', quantity: 1, weight_oz: 20 }],
      parcel: { weight_oz: 20, length_in: 10, width_in: 8, height_in: 4 },
    })),
  });
  const orderIds: string[] = [];
  for (let cursor: string | null = null; ; ) {
    const page = await call('GET', `/v1/batches/${imported.batch.id}/items?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    orderIds.push(...page.data.filter((it: any) => it.status === 'succeeded').map((it: any) => it.result.order.id));
    cursor = page.next_cursor;
    if (!cursor) break;
  }

  const purchased = await run({ type: 'purchase_labels', order_ids: orderIds, service_code: 'usps_ground_advantage', label_format: format });
  const labelStarted = performance.now();
  const label = await fetch(`${base}/v1/batches/${purchased.batch.id}/label`, { headers });
  const labelBytes = (await label.arrayBuffer()).byteLength;
  const labelSeconds = (performance.now() - labelStarted) / 1000;

  console.log(
    JSON.stringify(
      {
        engine: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
        items,
        format,
        import_orders: { seconds: Math.round(imported.seconds * 10) / 10, items_per_s: Math.round(items / imported.seconds), counts: imported.batch.counts },
        purchase_labels: { status: purchased.batch.status, seconds: Math.round(purchased.seconds * 10) / 10, items_per_s: Math.round(orderIds.length / purchased.seconds), counts: purchased.batch.counts },
        merged_label: { status: label.status, seconds: Math.round(labelSeconds * 10) / 10, mib: Math.round((labelBytes / 1024 / 1024) * 10) / 10 },
        service_peak_rss_mib: peakRssMiB(service.pid!),
      },
      null,
      2,
    ),
  );
} finally {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 2000));
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
}
