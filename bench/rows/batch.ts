// One purchase_labels batch of SIZES.batchItems labels (default 10,000; the targets: < 30 s on
// PostgreSQL and < 60 s on PGlite, on 2 cores): total time, items/s, the service's peak memory
// while it ran, and the merged label file. The orders come in first through an import_orders
// batch (reported too).
import { SIZES, judge, round, type Context } from '../lib/context.js';
import { shippableOrder } from '../lib/fixtures.js';
import { DURATION, QUICK, WARMUP, latency } from '../lib/measure.js';
import { memoryMiB, resetPeakMemory, sleep } from '../lib/proc.js';

export interface Batch {
  id: string;
  status: string;
  counts: { total: number; succeeded: number; failed: number };
  finished_at: string | null;
}

/** Posts a batch and waits for it to finish: the batch and the seconds from the POST to its finish stamp. */
export async function runBatch(ctx: Context, body: unknown): Promise<{ batch: Batch; seconds: number }> {
  const { service, tenant } = ctx;
  const postedAt = Date.now();
  const created: Batch = await service.call('POST', '/v1/batches', body, tenant.headers);
  let batch = created;
  while (['queued', 'running'].includes(batch.status)) {
    await sleep(QUICK ? 100 : 250);
    batch = await service.call('GET', `/v1/batches/${created.id}`, undefined, tenant.headers);
  }
  // From the client's POST to the server's finish stamp (one clock: the same machine); the poll interval does not count.
  const seconds = ((batch.finished_at ? Date.parse(batch.finished_at) : Date.now()) - postedAt) / 1000;
  return { batch, seconds };
}

/** An import_orders batch of `orders`; with the ids of the orders it created, in item order. */
export async function importOrders(ctx: Context, orders: unknown[]): Promise<{ batch: Batch; seconds: number; orderIds: string[] }> {
  const { service, tenant } = ctx;
  const imported = await runBatch(ctx, { type: 'import_orders', items: orders });
  const orderIds: string[] = [];
  for (let cursor: string | null = null; ;) {
    const page: { data: { status: string; result: { order: { id: string } } }[]; next_cursor: string | null } = await service.call(
      'GET',
      `/v1/batches/${imported.batch.id}/items?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      undefined,
      tenant.headers,
    );
    orderIds.push(...page.data.filter((it) => it.status === 'succeeded').map((it) => it.result.order.id));
    cursor = page.next_cursor;
    if (!cursor) break;
  }
  return { ...imported, orderIds };
}

export async function batchRows(ctx: Context): Promise<void> {
  const { service, tenant, engine } = ctx;
  const items = SIZES.batchItems;
  const imported = await importOrders(
    ctx,
    Array.from({ length: items }, (_, i) => shippableOrder(i, 'bench-batch')),
  );
  const { orderIds } = imported;
  ctx.add({
    key: 'batch-import',
    name: `import_orders batch, ${items.toLocaleString('en-US')} orders`,
    value: round(imported.seconds, 1),
    unit: 's',
    detail: { items_per_s: Math.round(items / imported.seconds), status: imported.batch.status, failed: imported.batch.counts.failed },
    target: 'none stated (reported)',
    met: null,
  });

  // Does the batch starve interactive requests? One order read at a time, on an idle service
  // and then while the labels are bought (the workers run in the service's process, as
  // `npm start` runs them).
  const read = [{ url: `${service.base}/v1/orders/${orderIds[0]}`, headers: tenant.headers }];
  const idleRead = await latency(read, { warmupFor: WARMUP, repeatFor: Math.max(1, DURATION / 2) }, service.pid);
  const peakReset = resetPeakMemory(service.pid);
  const purchasing = runBatch(ctx, { type: 'purchase_labels', order_ids: orderIds, service_code: 'usps_ground_advantage', label_format: SIZES.labelFormat });
  await sleep(QUICK ? 200 : 2000);
  const busyRead = await latency(read, { repeatFor: Math.max(1, DURATION) }, service.pid);
  const purchased = await purchasing;
  const mem = memoryMiB(service.pid);
  // The merged file's first download renders and stores it: its own peak, reported beside the batch's.
  const labelPeakReset = resetPeakMemory(service.pid);
  const labelStarted = performance.now();
  const label = await fetch(`${service.base}/v1/batches/${purchased.batch.id}/label`, { headers: tenant.headers });
  const labelBytes = (await label.arrayBuffer()).byteLength;
  const labelSeconds = (performance.now() - labelStarted) / 1000;
  const labelMem = labelPeakReset ? memoryMiB(service.pid) : null;
  const full = items === 10_000;
  // Both engines are judged (2 cores).
  const goalSeconds = engine === 'postgres' ? 30 : 60;
  ctx.add({
    key: 'batch',
    name: `purchase_labels batch, ${orderIds.length.toLocaleString('en-US')} ${SIZES.labelFormat} labels`,
    value: round(purchased.seconds, 1),
    unit: 's',
    detail: {
      items_per_s: Math.round(orderIds.length / purchased.seconds),
      service_peak_rss_mib: mem?.peak ?? null,
      peak_since: peakReset ? 'batch start' : 'process start',
      status: purchased.batch.status,
      failed: purchased.batch.counts.failed,
      merged_label: `${label.status}, ${round(labelSeconds, 1)} s, ${round(labelBytes / 2 ** 20, 1)} MiB`,
      merged_label_peak_rss_mib: labelMem?.peak ?? null,
    },
    target: `10,000 labels < ${goalSeconds} s on ${engine === 'postgres' ? 'PostgreSQL' : 'PGlite'}`,
    met: full ? judge(purchased.seconds < goalSeconds && purchased.batch.counts.failed === 0) : null,
  });
  if (idleRead.non2xx || busyRead.non2xx) throw new Error(`order reads failed: ${idleRead.firstError ?? busyRead.firstError}`);
  ctx.add({
    key: 'batch-interactive',
    name: 'GET /v1/orders/:id, one at a time, while the purchase_labels batch runs',
    value: round(busyRead.p99, 2),
    unit: 'ms p99',
    anchor: { name: 'same read, idle service', value: round(idleRead.p99, 2), unit: 'ms p99' },
    ratio: round(busyRead.p99 / idleRead.p99, 2),
    detail: { p50_ms: round(busyRead.p50, 2), idle_p50_ms: round(idleRead.p50, 2), max_ms: round(busyRead.max, 2), reads: busyRead.n },
    target: 'none stated (reported: the batch must not starve interactive requests)',
    met: null,
  });
}
