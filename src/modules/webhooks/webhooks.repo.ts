import { CompiledQuery, sql } from 'kysely';
import type { Scope } from '../../platform/context.js';
import type { Executor } from '../../platform/db/types.js';
import { inScope } from '../../platform/db/scope.js';
import { nameStatement } from '../../platform/db/database.js';
import { paginate, type Page } from '../../platform/http/pagination.js';
import { newId } from '../../platform/ids.js';
import type { AttemptRow, DeliveryRow, DeliveryStatus, EndpointRow, WebhookEndpointsTable } from './webhooks.tables.js';
import type { Updateable } from 'kysely';
import './webhooks.tables.js';

// ── endpoints ────────────────────────────────────────────────────────────────────────────────

export async function insertEndpoint(
  executor: Executor,
  row: Omit<
    EndpointRow,
    | 'created_at'
    | 'updated_at'
    | 'enabled'
    | 'disabled_at'
    | 'disabled_reason'
    | 'failing_since'
    | 'previous_secret_sealed'
    | 'previous_secret_expires_at'
    | 'secret_rotated_at'
  >,
): Promise<EndpointRow> {
  return executor.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow();
}

export function findEndpointById(executor: Executor, scope: Scope, id: string): Promise<EndpointRow | undefined> {
  return executor.selectFrom('webhook_endpoints').selectAll().where(inScope(scope)).where('id', '=', id).executeTakeFirst();
}

export function listEndpoints(executor: Executor, scope: Scope, page: { limit?: number; cursor?: string }): Promise<Page<EndpointRow>> {
  return paginate(executor.selectFrom('webhook_endpoints').selectAll().where(inScope(scope)), page);
}

export function updateEndpoint(executor: Executor, scope: Scope, id: string, changes: Updateable<WebhookEndpointsTable>): Promise<EndpointRow | undefined> {
  return executor
    .updateTable('webhook_endpoints')
    .set({ ...changes, updated_at: sql`now()` })
    .where(inScope(scope))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteEndpoint(executor: Executor, scope: Scope, id: string): Promise<boolean> {
  const res = await executor.deleteFrom('webhook_endpoints').where(inScope(scope)).where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

// ── deliveries ───────────────────────────────────────────────────────────────────────────────

/**
 * The fan-out of one event (every event recorded asks this): a pending delivery, due now
 * (database clock), for each enabled endpoint of the workspace and environment subscribed to
 * its type (or to `*`), in one statement, not a read of the endpoints and then an insert. The
 * caller mints the ids (FAN_OUT_IDS of them); endpoints beyond those come back, for
 * insertDeliveries. A named prepared statement (see nameStatement).
 */
const FAN_OUT_SQL = `with subscribed as (
  select id, row_number() over (order by id) as n from webhook_endpoints
  where workspace_id = $1::text and environment = $2::text and enabled and ($3::text = any(events) or '*' = any(events))
), inserted as (
  insert into webhook_deliveries (id, workspace_id, environment, endpoint_id, event_id, event_type, status, next_attempt_at)
  select ($5::text[])[s.n], $1::text, $2::text, s.id, $4::text, $3::text, 'pending', now() from subscribed s where s.n <= cardinality($5::text[])
  returning id
)
select id from subscribed where n > cardinality($5::text[]) order by n`;
nameStatement(FAN_OUT_SQL, 'webhooks.fan_out');
/** Ids minted for each event's fan-out: a workspace rarely has more endpoints subscribed to one type. */
const FAN_OUT_IDS = 4;

/** Pending deliveries of an event to every endpoint subscribed to it (see FAN_OUT_SQL). */
export async function insertSubscribedDeliveries(executor: Executor, scope: Scope, event: { id: string; type: string }): Promise<void> {
  const ids = Array.from({ length: FAN_OUT_IDS }, () => newId('delivery'));
  const { rows } = await executor.executeQuery<{ id: string }>(
    CompiledQuery.raw(FAN_OUT_SQL, [scope.workspaceId, scope.environment, event.type, event.id, ids]) as CompiledQuery<{ id: string }>,
  );
  if (rows.length > 0)
    await insertDeliveries(
      executor,
      scope,
      event,
      rows.map((r) => r.id),
    );
}

/** New deliveries, due now (database clock). */
export async function insertDeliveries(executor: Executor, scope: Scope, event: { id: string; type: string }, endpointIds: string[]): Promise<string[]> {
  if (endpointIds.length === 0) return [];
  const rows = endpointIds.map((endpointId) => ({
    id: newId('delivery'),
    workspace_id: scope.workspaceId,
    environment: scope.environment,
    endpoint_id: endpointId,
    event_id: event.id,
    event_type: event.type,
    status: 'pending' as const,
    next_attempt_at: sql<Date>`now()`,
  }));
  await executor
    .insertInto('webhook_deliveries')
    .values(rows as never)
    .execute();
  return rows.map((r) => r.id);
}

export function findDeliveryById(executor: Executor, scope: Scope, id: string): Promise<DeliveryRow | undefined> {
  return executor.selectFrom('webhook_deliveries').selectAll().where(inScope(scope)).where('id', '=', id).executeTakeFirst();
}

export function listDeliveries(
  executor: Executor,
  scope: Scope,
  filter: { endpointId?: string; status?: DeliveryStatus; limit?: number; cursor?: string },
): Promise<Page<DeliveryRow>> {
  let q = executor.selectFrom('webhook_deliveries').selectAll().where(inScope(scope));
  if (filter.endpointId) q = q.where('endpoint_id', '=', filter.endpointId);
  if (filter.status) q = q.where('status', '=', filter.status);
  return paginate(q, filter);
}

/** Attempts of these deliveries, oldest first, grouped by delivery. */
export async function attemptsByDelivery(executor: Executor, deliveryIds: string[]): Promise<Map<string, AttemptRow[]>> {
  const out = new Map<string, AttemptRow[]>();
  if (deliveryIds.length === 0) return out;
  const rows = await executor
    .selectFrom('webhook_delivery_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('delivery_id')
    .orderBy('number')
    .execute();
  for (const row of rows) {
    const list = out.get(row.delivery_id) ?? [];
    list.push(row);
    out.set(row.delivery_id, list);
  }
  return out;
}

/**
 * A manual retry: due now, with one more attempt allowed. Only a dead or failed delivery of
 * an enabled endpoint moves; returns the row, or undefined when it did not.
 */
export function requeueDelivery(executor: Executor, scope: Scope, id: string): Promise<DeliveryRow | undefined> {
  return executor
    .updateTable('webhook_deliveries')
    .set({
      status: 'pending',
      next_attempt_at: sql`now()`,
      attempt_limit: sql`attempt_count + 1`,
      locked_until: null,
      updated_at: sql`now()`,
    })
    .where(inScope(scope))
    .where('id', '=', id)
    .where('status', 'in', ['dead', 'failed'])
    .returningAll()
    .executeTakeFirst();
}

// ── dispatch ─────────────────────────────────────────────────────────────────────────────────

/** Whether any delivery is due and unclaimed (for an enabled endpoint): the relay's one cheap question. */
export async function hasDueDeliveries(executor: Executor): Promise<boolean> {
  const { rows } = await sql<{ one: number }>`
    select 1 as one from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
     where d.status in ('pending', 'failed') and d.next_attempt_at <= now()
       and (d.locked_until is null or d.locked_until < now()) and e.enabled
     limit 1`.execute(executor);
  return rows.length > 0;
}

/** A claimed delivery with what it takes to send it. */
export interface ClaimedDelivery {
  id: string;
  workspace_id: string;
  environment: string;
  endpoint_id: string;
  attempt_count: number;
  attempt_limit: number | null;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_valid: boolean;
  event_id: string;
  event_type: string;
  event_data: unknown;
  event_created_at: Date | string;
}

/**
 * Claim up to `limit` due deliveries of enabled endpoints for `leaseSeconds`: others skip them
 * (SKIP LOCKED now, the lease after commit), and a crashed dispatcher's claim runs out. One
 * statement returns each with its endpoint's URL and secrets and its event's envelope.
 */
const CLAIM_SQL = `with due as (
  select d.id from webhook_deliveries d
    join webhook_endpoints e on e.id = d.endpoint_id
   where d.status in ('pending', 'failed') and d.next_attempt_at <= now()
     and (d.locked_until is null or d.locked_until < now()) and e.enabled
   order by d.next_attempt_at
   limit $1::int
   for update of d skip locked
), claimed as (
  update webhook_deliveries d set locked_until = now() + make_interval(secs => $2::double precision)
    from due where d.id = due.id
  returning d.id, d.workspace_id, d.environment, d.endpoint_id, d.attempt_count, d.attempt_limit, d.event_id
)
select c.id, c.workspace_id, c.environment, c.endpoint_id, c.attempt_count, c.attempt_limit,
       e.url, e.secret_sealed, e.previous_secret_sealed,
       coalesce(e.previous_secret_expires_at > now(), false) as previous_secret_valid,
       ev.id as event_id, ev.type as event_type, ev.data as event_data, ev.created_at as event_created_at
  from claimed c
  join webhook_endpoints e on e.id = c.endpoint_id
  join events ev on ev.id = c.event_id`;
// Every dispatcher round runs it: a named prepared statement (see nameStatement).
nameStatement(CLAIM_SQL, 'webhooks.claim');

export async function claimDueDeliveries(executor: Executor, limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]> {
  const { rows } = await executor.executeQuery(CompiledQuery.raw(CLAIM_SQL, [limit, leaseSeconds]) as CompiledQuery<ClaimedDelivery>);
  return rows;
}

/** One attempt's outcome, to record. */
export interface AttemptOutcome {
  delivery_id: string;
  endpoint_id: string;
  number: number;
  attempted_at: string;
  status_code: number | null;
  latency_ms: number;
  response_body: string | null;
  error: string | null;
  /** What the delivery becomes. */
  status: 'delivered' | 'failed' | 'dead';
  /** For `failed`: seconds until the next attempt. */
  retry_in_seconds: number | null;
  /** The receiver answered 410 Gone: disable the endpoint. */
  gone: boolean;
}

/** An endpoint's health after a round: whether any delivery succeeded, when the first failed, a 410. */
export interface EndpointHealth {
  endpoint_id: string;
  succeeded: boolean;
  failed_at: string | null;
  gone: boolean;
}

/**
 * A round's outcomes, recorded in one statement (atomic by itself, so no transaction around it):
 *
 * - the attempt rows, and each delivery's new state. A delivery moves only from the attempt
 *   count it was claimed at, so an outcome arriving twice (a job run twice) changes nothing the
 *   second time;
 * - each endpoint's health: a success clears `failing_since`; a failure starts it; an endpoint
 *   failing for `disableAfterSeconds` without a success, or answered 410, is disabled with its
 *   reason (PATCH enabled:true re-enables it). Time is the attempts' own (the dispatcher's clock,
 *   Deps.now), so the rule runs on a test's clock as on the wall's.
 *
 * A named prepared statement (see nameStatement): on the embedded database a round's record had
 * been a transaction of two statements, each planned anew (docs/architecture.md, "Jobs").
 *
 * The deliveries are found by primary key whatever the planner knows: the embedded database
 * never analyzes, and without statistics a plain join to the outcomes had read every due
 * delivery (through the due index, whose predicate `status in ('pending', 'failed')` matched)
 * to update a round's 25, a cost that grew with a failing endpoint's backlog. Hence the id list
 * beside the join, and "not delivered nor dead", which is "pending or failed" by the column's
 * check but does not match that index's predicate.
 */
export const RECORD_ROUND_SQL = `with r as (
  select * from jsonb_to_recordset($1::jsonb) as r(
    delivery_id text, number int, attempted_at timestamptz, status_code int, latency_ms int,
    response_body text, error text, status text, retry_in_seconds double precision)
), moved as (
  update webhook_deliveries d set
    status = r.status,
    attempt_count = r.number,
    next_attempt_at = case when r.status = 'failed' then now() + make_interval(secs => r.retry_in_seconds) else null end,
    locked_until = null,
    last_attempt_at = r.attempted_at,
    last_status_code = r.status_code,
    last_error = r.error,
    delivered_at = case when r.status = 'delivered' then now() else d.delivered_at end,
    updated_at = now()
  from r
  where d.id = any(array(select delivery_id from r)) and d.id = r.delivery_id
    and d.attempt_count = r.number - 1 and d.status not in ('delivered', 'dead')
  returning d.id
), attempts as (
  insert into webhook_delivery_attempts (delivery_id, number, attempted_at, status_code, latency_ms, response_body, error)
  select r.delivery_id, r.number, r.attempted_at, r.status_code, r.latency_ms, r.response_body, r.error
    from r join moved on moved.id = r.delivery_id
), h as (
  select h.*, h.failed_at - make_interval(secs => $3::double precision) as disable_before
    from jsonb_to_recordset($2::jsonb) as h(endpoint_id text, succeeded boolean, failed_at timestamptz, gone boolean)
)
update webhook_endpoints e set
  failing_since = case when h.succeeded then null else coalesce(e.failing_since, h.failed_at) end,
  enabled = case
    when h.gone then false
    when not h.succeeded and coalesce(e.failing_since, h.failed_at) <= h.disable_before then false
    else e.enabled end,
  disabled_reason = case
    when h.gone and e.enabled then 'The receiver answered 410 Gone.'
    when e.enabled and not h.succeeded and coalesce(e.failing_since, h.failed_at) <= h.disable_before
      then 'Every delivery failed for 3 days.'
    else e.disabled_reason end,
  disabled_at = case
    when e.enabled and (h.gone or (not h.succeeded and coalesce(e.failing_since, h.failed_at) <= h.disable_before))
      then now()
    else e.disabled_at end,
  updated_at = now()
from h where e.id = h.endpoint_id`;
nameStatement(RECORD_ROUND_SQL, 'webhooks.record_round');

export async function recordRound(executor: Executor, outcomes: AttemptOutcome[], health: EndpointHealth[], disableAfterSeconds: number): Promise<void> {
  if (outcomes.length === 0 && health.length === 0) return;
  await executor.executeQuery(CompiledQuery.raw(RECORD_ROUND_SQL, [JSON.stringify(outcomes), JSON.stringify(health), disableAfterSeconds]));
}
