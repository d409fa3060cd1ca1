import { validationError } from '../../platform/errors.js';
import type { Deps } from '../../platform/deps.js';
import { parseInstant } from '../../platform/http/wire.js';
import { EARLIEST_INSTANT } from '../../platform/http/dates.js';
import * as repo from './analytics.repo.js';
import { ORDER_STATUS_KEYS, type AnalyticsFilter, type AnalyticsWire } from './analytics.schemas.js';
import { apiRequestCounter } from './request-counter.js';

const DAY_MS = 86_400_000;
/** Longest range per bucket size, so one call never builds an unbounded series. */
const MAX_RANGE_DAYS = { day: 366, week: 5 * 366 } as const;

const toCount = (n: string | number | null | undefined) => Number(n ?? 0);

/** The UTC start (YYYY-MM-DD) of every bucket from `from` to `to` (weeks start on Monday, as date_trunc). */
export function periods(from: Date, to: Date, interval: repo.Interval): string[] {
  const start = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  if (interval === 'week') start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7));
  const step = interval === 'day' ? DAY_MS : 7 * DAY_MS;
  const out: string[] = [];
  for (let t = start.getTime(); t < to.getTime(); t += step) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

export class AnalyticsService {
  constructor(private readonly deps: Deps) {}

  async report(filter: AnalyticsFilter): Promise<AnalyticsWire> {
    const interval = filter.interval ?? 'day';
    const to = filter.to ? parseInstant(filter.to, 'to') : this.deps.now();
    // The default start never goes before the first instant the database compares with (`to` may be in year 0001).
    const from = filter.from ? parseInstant(filter.from, 'from') : new Date(Math.max(to.getTime() - 30 * DAY_MS, EARLIEST_INSTANT.getTime()));
    if (from.getTime() >= to.getTime()) throw validationError([{ field: 'from', message: 'must be before to' }]);
    if (to.getTime() - from.getTime() > MAX_RANGE_DAYS[interval] * DAY_MS) {
      throw validationError([{ field: 'from', message: `a range of at most ${MAX_RANGE_DAYS[interval]} days with interval=${interval}` }]);
    }
    const range = { from, to, interval };
    const db = this.deps.db;
    // This process's requests of the last minute count too.
    await apiRequestCounter(this.deps)
      .flush()
      .catch((err: unknown) => this.deps.log.warn({ err }, 'API request counts not flushed'));

    const [hasShipments, hasDeliveries, hasBatches] = await Promise.all(['shipments', 'webhook_deliveries', 'batches'].map((t) => repo.tableExists(db, t)));
    const [accounts, plans, orders, labels, deliveries, batches, requestsPerPeriod, requestsByWorkspace] = await Promise.all([
      repo.countBy(db, 'accounts', 'status'),
      repo.countBy(db, 'workspaces', 'plan'),
      repo.ordersByPeriodAndStatus(db, range),
      hasShipments ? repo.labelsByPeriodAndCarrier(db, range) : [],
      hasDeliveries ? repo.webhookDeliveriesByStatus(db, range) : [],
      hasBatches ? repo.batchesByStatus(db, range) : [],
      repo.apiRequestsByPeriod(db, range),
      repo.apiRequestsByWorkspace(db, range),
    ]);

    const buckets = periods(from, to, interval);
    const keyed = <T extends string>(keys: readonly T[], rows: Array<{ key: string; n: string }>) => {
      const out = Object.fromEntries(keys.map((k) => [k, 0])) as Record<T, number>;
      for (const r of rows) if (r.key in out) out[r.key as T] = toCount(r.n);
      return out;
    };

    const ordersPerPeriod = new Map<string, number>();
    const ordersByStatus: Record<string, number> = Object.fromEntries(ORDER_STATUS_KEYS.map((s) => [s, 0]));
    for (const r of orders) {
      ordersPerPeriod.set(r.period, (ordersPerPeriod.get(r.period) ?? 0) + toCount(r.n));
      ordersByStatus[r.status] = (ordersByStatus[r.status] ?? 0) + toCount(r.n);
    }

    const labelPeriods = new Map<string, { purchased: number; spend: number; by_carrier: Record<string, number> }>();
    const carriers = new Map<string, { purchased: number; voided: number; spend: number }>();
    for (const r of labels) {
      const p = labelPeriods.get(r.period) ?? { purchased: 0, spend: 0, by_carrier: {} };
      p.purchased += toCount(r.n);
      p.spend += toCount(r.spend);
      p.by_carrier[r.carrier] = (p.by_carrier[r.carrier] ?? 0) + toCount(r.n);
      labelPeriods.set(r.period, p);
      const c = carriers.get(r.carrier) ?? { purchased: 0, voided: 0, spend: 0 };
      c.purchased += toCount(r.n);
      c.voided += toCount(r.voided);
      c.spend += toCount(r.spend);
      carriers.set(r.carrier, c);
    }
    const usd = (amount: number) => ({ amount, currency: 'USD' });
    const byCarrier = [...carriers]
      .map(([carrier, c]) => ({ carrier, purchased: c.purchased, voided: c.voided, spend: usd(c.spend) }))
      .sort((a, b) => a.carrier.localeCompare(b.carrier));

    const delivery = keyed(
      ['delivered', 'failed', 'dead', 'pending'] as const,
      deliveries.map((r) => ({ key: r.status, n: r.n })),
    );
    const finished = delivery.delivered + delivery.dead;
    const requests = new Map(requestsPerPeriod.map((r) => [r.period, toCount(r.n)]));
    const batchStatus = Object.fromEntries(batches.map((r) => [r.status, toCount(r.n)]));

    return {
      from: from.toISOString(),
      to: to.toISOString(),
      interval,
      accounts_by_status: keyed(['pending', 'active', 'suspended'] as const, accounts),
      workspaces_by_plan: keyed(['starter', 'professional', 'enterprise'] as const, plans),
      orders: {
        created: [...ordersPerPeriod.values()].reduce((a, b) => a + b, 0),
        by_status: ordersByStatus,
        per_period: buckets.map((period) => ({ period, created: ordersPerPeriod.get(period) ?? 0 })),
      },
      labels: {
        purchased: byCarrier.reduce((a, c) => a + c.purchased, 0),
        voided: byCarrier.reduce((a, c) => a + c.voided, 0),
        spend: usd(byCarrier.reduce((a, c) => a + c.spend.amount, 0)),
        per_period: buckets.map((period) => {
          const p = labelPeriods.get(period);
          return { period, purchased: p?.purchased ?? 0, spend: usd(p?.spend ?? 0), by_carrier: p?.by_carrier ?? {} };
        }),
        by_carrier: byCarrier,
      },
      webhooks: { ...delivery, success_rate: finished === 0 ? null : Math.round((delivery.delivered / finished) * 10_000) / 10_000 },
      batches: { created: Object.values(batchStatus).reduce((a, b) => a + b, 0), by_status: batchStatus },
      api_requests: {
        total: [...requests.values()].reduce((a, b) => a + b, 0),
        per_period: buckets.map((period) => ({ period, requests: requests.get(period) ?? 0 })),
        by_workspace: requestsByWorkspace.map((r) => ({ workspace_id: r.workspace_id, name: r.name, requests: toCount(r.n) })),
      },
    };
  }
}
