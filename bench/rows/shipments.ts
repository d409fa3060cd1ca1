// Label purchase latency, one at a time as a packing station buys them, each request a different
// order (goal p99 < 50 ms); and tracking read throughput beside bare node:http answering the
// same tracking body.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { SIZES, judge, round, type Context } from '../lib/context.js';
import { shippableOrder } from '../lib/fixtures.js';
import { latency, startAnchor, throughput } from '../lib/measure.js';
import { stop } from '../lib/proc.js';

/** Creates `count` shippable orders (`make`'s, default shippableOrder) through the API, a few at a time. */
export async function createOrders(ctx: Context, count: number, prefix: string, make: (i: number, prefix: string) => unknown = shippableOrder): Promise<string[]> {
  const ids: string[] = new Array(count);
  const next = { i: 0 };
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let i = next.i++; i < count; i = next.i++) ids[i] = (await ctx.service.call('POST', '/v1/orders', make(i, prefix), ctx.tenant.headers)).id;
    }),
  );
  return ids;
}

/** Returns the last tracking number bought (for the tracking row). */
export async function purchaseRow(ctx: Context): Promise<string> {
  const { service, tenant } = ctx;
  const orderIds = await createOrders(ctx, SIZES.purchases + SIZES.purchaseWarmup, 'bench-purchase');
  const sequence = orderIds.map((order_id) => ({
    method: 'POST',
    url: `${service.base}/v1/shipments`,
    headers: tenant.headers,
    body: JSON.stringify({ order_id, service_code: 'usps_ground_advantage', label_format: SIZES.labelFormat }),
  }));
  // The first purchases warm the render workers and the JIT; they are not counted.
  const r = await latency(sequence, { warmupCount: SIZES.purchaseWarmup }, service.pid);
  if (r.non2xx) throw new Error(`label purchases failed (${r.non2xx}): ${r.firstError}`);
  ctx.add({
    key: 'purchase',
    name: `POST /v1/shipments (${SIZES.labelFormat} label), one at a time, each a new order`,
    value: r.p99,
    unit: 'ms p99',
    detail: { p50_ms: r.p50, mean_ms: r.mean, max_ms: r.max, purchases: r.n },
    target: 'label purchase p99 < 50 ms',
    met: judge(r.p99 < 50),
  });
  const page = await service.call('GET', '/v1/shipments?limit=1', undefined, tenant.headers);
  return page.data[0].tracking_number;
}

/** One label to read tracking for, when the purchase row did not run. */
export async function buyOneLabel(ctx: Context): Promise<string> {
  const [orderId] = await createOrders(ctx, 1, 'bench-tracking');
  const shipment = await ctx.service.call('POST', '/v1/shipments', { order_id: orderId, service_code: 'usps_ground_advantage' }, ctx.tenant.headers);
  return shipment.tracking_number;
}

export async function trackingRow(ctx: Context, trackingNumber: string): Promise<void> {
  const { service, tenant } = ctx;
  const url = `${service.base}/v1/tracking/${trackingNumber}`;
  const headers = { authorization: tenant.headers.authorization, 'x-service-workspace': tenant.workspaceId };
  const file = path.join(ctx.work, `${ctx.engine}-tracking.json`);
  writeFileSync(file, await (await fetch(url, { headers })).text());
  const bare = await startAnchor('bare', file);
  try {
    const anchor = await throughput({ url: bare.url }, bare.child.pid!);
    const r = await throughput({ url, headers }, service.pid);
    ctx.add({
      key: 'tracking',
      name: 'GET /v1/tracking/:tracking_number',
      value: r.rps,
      unit: 'req/s',
      detail: { p50_ms: r.p50, p99_ms: r.p99, cpu_us_per_req: r.cpuUsPerRequest, anchor_cpu_us_per_req: anchor.cpuUsPerRequest, 'errors/non-2xx': `${r.errors}/${r.non2xx}` },
      anchor: { name: 'bare', value: anchor.rps, unit: 'req/s' },
      ratio: round(r.rps / anchor.rps),
      target: 'none stated (reported)',
      met: null,
    });
  } finally {
    await stop(bare.child);
  }
}
