// Webhook deliveries per second to a local receiver (the target: ≥ 3,000/s on PostgreSQL,
// reported on PGlite). An endpoint is registered through the API; then SIZES.webhookEvents
// recorded events, each with its pending delivery (what the fan-out writes in the recording
// transaction), go into the database in one statement each, all due at once; the service's
// relay and dispatcher deliver them to a bare receiver in a process of its own, which times the
// first and the last arrival.
import { SIZES, judge, round, type Context } from '../lib/context.js';
import { seedDeliveriesSql, seededId } from '../lib/fixtures.js';
import { startAnchor } from '../lib/measure.js';
import { cpuMs, sleep, stop } from '../lib/proc.js';

/** A type the service emits only on integration health changes (none in this run), so only seeded deliveries reach the endpoint. */
const EVENT_TYPE = 'integration.health_changed';
let runs = 0;

export async function webhookRow(ctx: Context): Promise<void> {
  const { service, tenant, engine } = ctx;
  const count = SIZES.webhookEvents;
  const run = ++runs;
  const prefix = seededId('dlv', run * 1_000_000).slice(0, -6);
  const receiver = await startAnchor('receiver', String(count), prefix);
  try {
    const endpoint = await service.call('POST', '/v1/webhooks', { url: `${receiver.url}/hook`, events: [EVENT_TYPE] }, tenant.headers);
    const seeded = await service.sql(seedDeliveriesSql(tenant.workspaceId, endpoint.id, EVENT_TYPE, count, run));
    // PostgreSQL: due from the commit on; PGlite: from the restart that service.sql() did.
    const dueAt = Date.now();
    const cpu0 = cpuMs(service.pid);
    const timeoutMs = Math.max(120_000, count * 50);
    let done: { first: number; last: number; count: number } | undefined;
    for (const t0 = Date.now(); !done; await sleep(50)) {
      const line = /done (\{.*\})/.exec(receiver.output());
      if (line) done = JSON.parse(line[1]);
      else if (Date.now() - t0 > timeoutMs) throw new Error(`${count} deliveries not received within ${timeoutMs} ms: ${receiver.output().slice(-500)}`);
    }
    const cpu = cpuMs(service.pid) - cpu0;
    const span = (done.last - done.first) / 1000;
    const rate = span > 0 ? (done.count - 1) / span : NaN;
    ctx.add({
      key: 'webhooks',
      name: `Webhook deliveries to a local receiver, ${count.toLocaleString('en-US')} due at once`,
      value: Math.round(rate),
      unit: 'deliveries/s',
      detail: {
        first_to_last_s: round(span, 2),
        due_to_last_s: round((done.last - dueAt) / 1000, 2),
        service_cpu_ms_per_delivery: round(cpu / count, 3),
        seeded_in_ms: seeded.ms.reduce((a, b) => a + b, 0),
      },
      target: engine === 'postgres' ? '≥ 3,000 deliveries/s' : 'reported on PGlite (≥ 3,000/s is the PostgreSQL goal)',
      met: engine === 'postgres' ? judge(rate >= 3000) : null,
    });
  } finally {
    await stop(receiver.child);
  }
}
