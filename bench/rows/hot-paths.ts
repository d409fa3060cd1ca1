// Throughput rows, each beside its anchor: GET /health and the rate query beside bare node:http
// answering the same payload (and the rate query's floors beside the same); GET /v1/orders/:id
// beside node:http running the order read's point select through pg.Pool (max 10) / PGlite.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { judge, round, type Context } from '../lib/context.js';
import { READ_ORDER, RATE_BODY, RATE_BODY_WITH_OPTIONS } from '../lib/fixtures.js';
import { startAnchor, throughput, type Throughput } from '../lib/measure.js';
import { stop } from '../lib/proc.js';
import type { Row } from '../lib/report.js';

export interface HotPathFixtures {
  orderId: string;
  /** The service's own answers, served verbatim by the bare anchors. */
  payloads: { health: string; rates: string };
}

/** Made on the first start (the PGlite anchor reads a copy of the data dir taken after it). */
export async function hotPathFixtures(ctx: Context): Promise<HotPathFixtures> {
  const { service, tenant } = ctx;
  const order = await service.call('POST', '/v1/orders', READ_ORDER, tenant.headers);
  const rates = await (await fetch(`${service.base}/v1/rates/query`, { method: 'POST', headers: tenant.headers, body: JSON.stringify(RATE_BODY) })).text();
  const health = await (await fetch(`${service.base}/health`)).text();
  return { orderId: order.id, payloads: { health, rates } };
}

export function throughputRow(
  name: string,
  r: Throughput,
  anchor: { name: string; result: Throughput },
  goal?: { ratio: number; p99?: number },
): Omit<Row, 'engine' | 'key'> {
  // An anchor that answered nothing (or only errors) measures nothing: no ratio, no verdict.
  const anchorAnswered = anchor.result.rps > 0 && anchor.result.errors === 0 && anchor.result.non2xx === 0;
  const ratio = anchorAnswered ? r.rps / anchor.result.rps : NaN;
  return {
    name,
    value: r.rps,
    unit: 'req/s',
    detail: {
      p50_ms: r.p50,
      p99_ms: r.p99,
      cpu_us_per_req: r.cpuUsPerRequest,
      anchor_cpu_us_per_req: anchor.result.cpuUsPerRequest,
      'errors/non-2xx': `${r.errors}/${r.non2xx}`,
      ...(anchorAnswered ? {} : { 'anchor errors/non-2xx': `${anchor.result.errors}/${anchor.result.non2xx}` }),
    },
    anchor: { name: anchor.name, value: anchor.result.rps, unit: 'req/s' },
    ratio: anchorAnswered ? round(ratio) : undefined,
    target: goal ? `≥ ${goal.ratio.toFixed(2)} of ${anchor.name}${goal.p99 ? `, p99 < ${goal.p99} ms` : ''}` : 'none stated (reported)',
    met: goal && anchorAnswered ? judge(ratio >= goal.ratio && (goal.p99 === undefined || r.p99 < goal.p99)) : null,
  };
}

/** Writes a payload for a bare anchor and starts it; with the payload's file. */
async function bareAnchor(ctx: Context, name: string, payload: string) {
  const file = path.join(ctx.work, `${ctx.engine}-${name}.json`);
  writeFileSync(file, payload);
  return { ...(await startAnchor('bare', file)), file };
}

export async function hotPathRows(ctx: Context, fx: HotPathFixtures, want: (key: string) => boolean, anchorDataDir?: string): Promise<void> {
  const { service, tenant, engine } = ctx;
  const pid = service.pid;

  if (want('health')) {
    const bare = await bareAnchor(ctx, 'health', fx.payloads.health);
    try {
      const anchor = { name: 'bare', result: await throughput({ url: bare.url }, bare.child.pid!) };
      ctx.add({ key: 'health', ...throughputRow('GET /health', await throughput({ url: `${service.base}/health` }, pid), anchor) });
    } finally {
      await stop(bare.child);
    }
  }

  if (want('rates-options')) {
    // Options beside none, back to back on the same lane: what pricing and filtering options cost.
    const rateJob = { url: `${service.base}/v1/rates/query`, method: 'POST', headers: tenant.headers };
    const plain = await throughput({ ...rateJob, body: JSON.stringify(RATE_BODY) }, pid);
    const withOptions = await throughput({ ...rateJob, body: JSON.stringify(RATE_BODY_WITH_OPTIONS) }, pid);
    ctx.add({
      key: 'rates-options',
      ...throughputRow(
        'POST /v1/rates/query with options (adult signature, insurance, a reference) beside none',
        withOptions,
        { name: 'no options', result: plain },
        { ratio: 0.9 },
      ),
    });
  }

  if (want('rates') || want('rates-new') || want('rates-floor')) {
    const bare = await bareAnchor(ctx, 'rates', fx.payloads.rates);
    try {
      const anchor = { name: 'bare', result: await throughput({ url: bare.url }, bare.child.pid!) };
      const rateJob = { url: `${service.base}/v1/rates/query`, method: 'POST', headers: tenant.headers };
      if (want('rates')) {
        const r = await throughput({ ...rateJob, body: JSON.stringify(RATE_BODY) }, pid);
        ctx.add({ key: 'rates', ...throughputRow('POST /v1/rates/query, one lane repeated', r, anchor, { ratio: 0.5, p99: 15 }) });
      }
      if (want('rates-new')) {
        const r = await throughput({ ...rateJob, newLanes: true }, pid);
        ctx.add({ key: 'rates-new', ...throughputRow('POST /v1/rates/query, every request a new lane', r, anchor, { ratio: 0.35 }) });
      }
      if (want('rates-floor')) await rateFloorRows(ctx, bare.file, anchor);
    } finally {
      await stop(bare.child);
    }
  }

  if (want('order')) {
    const db = await pointSelectAnchor(ctx, fx.orderId, anchorDataDir);
    try {
      const anchor = { name: db.name, result: await throughput({ url: db.url }, db.child.pid!) };
      const headers = { authorization: tenant.headers.authorization, 'x-service-workspace': tenant.workspaceId };
      const r = await throughput({ url: `${service.base}/v1/orders/${fx.orderId}`, headers }, pid);
      ctx.add({ key: 'order', ...throughputRow('GET /v1/orders/:id', r, anchor, { ratio: 0.85, p99: engine === 'postgres' ? 15 : undefined }) });
    } finally {
      await stop(db.child);
    }
  }
}

/**
 * The rate query's floors beside the same bare anchor, serving its `payload` file: what the stack
 * costs before a service's own work (bench/anchors.mjs, floor-fastify and floor-node), so the
 * ceiling of the rates ratios.
 */
async function rateFloorRows(ctx: Context, payload: string, anchor: { name: string; result: Throughput }): Promise<void> {
  const floors = [
    ['fastify', 'Fastify answering the rate query with its answer verbatim, one access line a request (no auth, validation or quoting)'],
    ['node', 'node:http reading and parsing the rate query, answering it verbatim, one access line a request (no framework)'],
  ] as const;
  for (const [kind, name] of floors) {
    const floor = await startAnchor(`floor-${kind}`, payload);
    try {
      const job = { url: `${floor.url}/v1/rates/query`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(RATE_BODY) };
      ctx.add({ key: `rates-floor-${kind}`, ...throughputRow(name, await throughput(job, floor.child.pid!), anchor) });
    } finally {
      await stop(floor.child);
    }
  }
}

/**
 * node:http running the order read's point select per request through pg.Pool (max 10) or
 * PGlite (on a copy of the data dir): the anchor of the service's reads (order, tracking).
 */
export async function pointSelectAnchor(ctx: Context, orderId: string, anchorDataDir?: string) {
  const { engine, service, tenant } = ctx;
  const anchor =
    engine === 'postgres'
      ? await startAnchor('pg', service.dbUrl!, orderId, tenant.workspaceId, 'test')
      : await startAnchor('pglite', anchorDataDir!, orderId, tenant.workspaceId, 'test');
  return { ...anchor, name: engine === 'postgres' ? 'bare + pg' : 'bare + PGlite' };
}
