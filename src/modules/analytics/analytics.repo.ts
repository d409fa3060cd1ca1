import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../platform/db/types.js';
import './analytics.tables.js';

// Aggregates across every workspace, in SQL. Tables other modules own are read directly (a
// read-only console view); those that may not exist yet are checked first (to_regclass).

export type Interval = 'day' | 'week';

interface Range {
  from: Date;
  to: Date;
  interval: Interval;
}

const period = (column: string, interval: Interval): RawBuilder<string> =>
  sql<string>`to_char(date_trunc(${interval}, ${sql.ref(column)} at time zone 'UTC'), 'YYYY-MM-DD')`;

export async function tableExists(db: Executor, table: string): Promise<boolean> {
  const { rows } = await sql<{ ok: boolean }>`select to_regclass(${`public.${table}`}) is not null as ok`.execute(db);
  return rows[0]?.ok === true;
}

export async function countBy(db: Executor, table: 'accounts' | 'workspaces', column: 'status' | 'plan') {
  const { rows } = await sql<{ key: string; n: string }>`select ${sql.ref(column)} as key, count(*) as n from ${sql.table(table)} group by 1`.execute(db);
  return rows;
}

/** Orders created in the range, per bucket and current status (index-only scan on created_at, status). */
export async function ordersByPeriodAndStatus(db: Executor, r: Range) {
  const { rows } = await sql<{ period: string; status: string; n: string }>`
    select ${period('created_at', r.interval)} as period, status, count(*) as n
    from orders where created_at >= ${r.from} and created_at < ${r.to}
    group by 1, 2`.execute(db);
  return rows;
}

/**
 * Labels bought in the range per bucket and carrier, with spend net of refunds:
 * a label counts when it was charged (an on_scan return only after its first scan) and not
 * refunded: a voided label costs nothing once refunded (or voided before refunds existed), and
 * still costs its price while its refund is submitted or after it was rejected.
 */
export async function labelsByPeriodAndCarrier(db: Executor, r: Range) {
  const { rows } = await sql<{ period: string; carrier: string; n: string; spend: string | null; voided: string }>`
    select ${period('created_at', r.interval)} as period, carrier, count(*) as n,
           sum(price_amount) filter (where billing_status = 'charged' and (status <> 'voided' or refund_status in ('submitted', 'rejected'))) as spend,
           count(*) filter (where status = 'voided') as voided
    from shipments where created_at >= ${r.from} and created_at < ${r.to}
    group by 1, 2`.execute(db);
  return rows;
}

export async function webhookDeliveriesByStatus(db: Executor, r: Range) {
  const { rows } = await sql<{ status: string; n: string }>`
    select status, count(*) as n from webhook_deliveries
    where created_at >= ${r.from} and created_at < ${r.to} group by 1`.execute(db);
  return rows;
}

export async function batchesByStatus(db: Executor, r: Range) {
  const { rows } = await sql<{ status: string; n: string }>`
    select status, count(*) as n from batches
    where created_at >= ${r.from} and created_at < ${r.to} group by 1`.execute(db);
  return rows;
}

export async function apiRequestsByPeriod(db: Executor, r: Range) {
  const { rows } = await sql<{ period: string; n: string }>`
    select ${period('minute', r.interval)} as period, sum(count) as n from api_request_counts
    where minute >= ${r.from} and minute < ${r.to} group by 1`.execute(db);
  return rows;
}

/** The busiest workspaces in the range (top 100). */
export async function apiRequestsByWorkspace(db: Executor, r: Range) {
  const { rows } = await sql<{ workspace_id: string; name: string | null; n: string }>`
    select c.workspace_id, w.name, sum(c.count) as n
    from api_request_counts c left join workspaces w on w.id = c.workspace_id
    where c.minute >= ${r.from} and c.minute < ${r.to}
    group by c.workspace_id, w.name order by n desc, c.workspace_id limit 100`.execute(db);
  return rows;
}
