// Label purchase latency, one at a time as a packing station buys them, each request a different
// order (goal p99 < 25 ms); and tracking read throughput beside the order read's anchor, a
// point select per request (goal 0.70).
import { SIZES, judge, type Context } from '../lib/context.js';
import { shippableOrder } from '../lib/fixtures.js';
import { latency, throughput } from '../lib/measure.js';
import { stop } from '../lib/proc.js';
import { pointSelectAnchor, throughputRow } from './hot-paths.js';

/** Creates `count` shippable orders (`make`'s, default shippableOrder) through the API, a few at a time. */
export async function createOrders(
  ctx: Context,
  count: number,
  prefix: string,
  make: (i: number, prefix: string) => unknown = shippableOrder,
): Promise<string[]> {
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
    target: 'label purchase p99 < 25 ms',
    met: judge(r.p99 < 25),
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

/**
 * GET /v1/tracking/:n beside the same anchor as the order read (a point select per request):
 * the read is one narrow indexed read of the row's version, and the kept answer while it holds
 * (shipments.tracking-reads.ts).
 */
export async function trackingRow(ctx: Context, trackingNumber: string, anchorOf: () => ReturnType<typeof pointSelectAnchor>): Promise<void> {
  const { service, tenant } = ctx;
  const url = `${service.base}/v1/tracking/${trackingNumber}`;
  const headers = { authorization: tenant.headers.authorization, 'x-service-workspace': tenant.workspaceId };
  const db = await anchorOf();
  try {
    const anchor = { name: db.name, result: await throughput({ url: db.url }, db.child.pid!) };
    const r = await throughput({ url, headers }, service.pid);
    ctx.add({ key: 'tracking', ...throughputRow('GET /v1/tracking/:tracking_number', r, anchor, { ratio: 0.7 }) });
  } finally {
    await stop(db.child);
  }
}
