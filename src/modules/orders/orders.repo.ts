import { sql, type AliasableExpression, type ExpressionBuilder, type SelectQueryBuilder, type Updateable } from 'kysely';
import type { Executor, Tables } from '../../platform/db/types.js';
import { inScope } from '../../platform/db/scope.js';
import { precompiled } from '../../platform/db/precompiled.js';
import type { Scope } from '../../platform/context.js';
import type { OrderStatus } from './orders.states.js';
import type { NewOrderRow, OrderRow, OrdersTable } from './orders.tables.js';
import './orders.tables.js';

// Every function takes the scope (workspace + environment) first and filters on it, so another
// tenant's order and a missing one are the same "not found".

export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function insertOrder(db: Executor, row: NewOrderRow): Promise<OrderRow> {
  return db.insertInto('orders').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Many orders in one statement (imports, seeds, tests). */
export async function insertOrders(db: Executor, rows: NewOrderRow[]): Promise<void> {
  if (rows.length) await db.insertInto('orders').values(rows).execute();
}

/**
 * Insert unless the (workspace, environment, external_id, source) already exists: undefined
 * then, so a concurrent creator of the same external id turns this call into an update.
 */
export async function insertOrderUnlessExternalIdExists(db: Executor, row: NewOrderRow): Promise<OrderRow | undefined> {
  return db
    .insertInto('orders')
    .values(row)
    .onConflict((oc) => oc.columns(['workspace_id', 'environment', 'external_id', 'source']).where('external_id', 'is not', null).doNothing())
    .returningAll()
    .executeTakeFirst();
}

// The plain read (GET /v1/orders/:id) is the hottest query of the service: compiled once, and
// a named prepared statement on PostgreSQL.
const selectOrderById = precompiled(
  ['workspaceId', 'environment', 'id'],
  (db, v) =>
    db
      .selectFrom('orders')
      .selectAll()
      .where(inScope({ workspaceId: v.workspaceId as string, environment: v.environment as Scope['environment'] }))
      .where('id', '=', v.id as string),
  { statement: 'orders.find_by_id' },
);

/** What another module adds to the order read (see AttachmentsProvider in orders.service.ts). */
interface AttachmentColumns {
  /** Its summaries of the order, as one JSON array. */
  json(eb: ExpressionBuilder<Tables, 'orders'>): AliasableExpression<unknown>;
  /** The version of the rows those summaries are read from (text that every change of them moves). */
  version(eb: ExpressionBuilder<Tables, 'orders'>): AliasableExpression<string | null>;
}

/**
 * The order read with other modules' summaries as JSON array columns beside it, one statement,
 * and its version: the order row's `xmin` (every update moves it) and each provider's version,
 * one narrow indexed read (the kept order reads, orders.service.ts). Both compiled at their first
 * call (precompiled), with the providers registered by then (all of them: modules register while
 * the app is built).
 */
export function orderWithAttachments(providers: () => readonly AttachmentColumns[]) {
  let compiledWith: readonly AttachmentColumns[] | undefined;
  const scopeOf = (v: Record<string, unknown>) => ({ workspaceId: v.workspaceId as string, environment: v.environment as Scope['environment'] });
  function registered(): readonly AttachmentColumns[] {
    const list = providers();
    compiledWith ??= [...list];
    if (list.length !== compiledWith.length) throw new Error('an order attachments provider registered after the first order read');
    return compiledWith;
  }
  const read = precompiled(
    ['workspaceId', 'environment', 'id'],
    (db, v) =>
      db
        .selectFrom('orders')
        .selectAll('orders')
        .select((eb) => registered().map((p, i) => p.json(eb).as(`attachments_${i}`)))
        .where(inScope(scopeOf(v)))
        .where('id', '=', v.id as string),
    { statement: 'orders.find_by_id_with_attachments' },
  );
  const versionRead = precompiled(
    ['workspaceId', 'environment', 'id'],
    (db, v) =>
      db
        .selectFrom('orders')
        .select((eb) => [sql<string>`orders.xmin::text`.as('version_0'), ...registered().map((p, i) => p.version(eb).as(`version_${i + 1}`))])
        .where(inScope(scopeOf(v)))
        .where('id', '=', v.id as string),
    { statement: 'orders.version_by_id' },
  );
  return {
    async find(db: Executor, scope: Scope, id: string): Promise<{ row: OrderRow; attachments: unknown[][] } | undefined> {
      const list = registered();
      const [found] = (await read(db, { workspaceId: scope.workspaceId, environment: scope.environment, id })) as Record<string, unknown>[];
      if (!found) return undefined;
      const attachments = list.map((_, i) => {
        const value = found[`attachments_${i}`];
        delete found[`attachments_${i}`];
        return value as unknown[];
      });
      return { row: found as unknown as OrderRow, attachments };
    },
    /** The order's version with its attachments' (text), or undefined when the scope has no such order. */
    async version(db: Executor, scope: Scope, id: string): Promise<string | undefined> {
      const [found] = (await versionRead(db, { workspaceId: scope.workspaceId, environment: scope.environment, id })) as Record<string, string | null>[];
      return found && Object.values(found).join('|');
    },
  };
}

export async function findOrder(db: Executor, scope: Scope, id: string, opts: { source?: string; forUpdate?: boolean } = {}): Promise<OrderRow | undefined> {
  if (opts.source === undefined && !opts.forUpdate) {
    const rows = await selectOrderById(db, { workspaceId: scope.workspaceId, environment: scope.environment, id });
    return rows[0] as OrderRow | undefined;
  }
  let q = db.selectFrom('orders').selectAll().where(inScope(scope)).where('id', '=', id);
  if (opts.source !== undefined) q = q.where('source', '=', opts.source);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findOrderByExternalId(
  db: Executor,
  scope: Scope,
  source: string,
  externalId: string,
  opts: { forUpdate?: boolean } = {},
): Promise<OrderRow | undefined> {
  let q = db.selectFrom('orders').selectAll().where(inScope(scope)).where('external_id', '=', externalId).where('source', '=', source);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function updateOrder(
  db: Executor,
  scope: Scope,
  id: string,
  patch: Updateable<OrdersTable>,
  opts: { fromStatus?: readonly OrderStatus[] } = {},
): Promise<OrderRow | undefined> {
  let q = db.updateTable('orders').set(patch).where(inScope(scope)).where('id', '=', id);
  // A compare-and-set on the status: a concurrent move makes this update miss, not overwrite.
  if (opts.fromStatus) q = q.where('status', 'in', [...opts.fromStatus]);
  return q.returningAll().executeTakeFirst();
}

type MoveStatement = (db: Executor, values: Record<string, unknown>) => Promise<OrderRow[]>;
const moveStatements = new Map<string, MoveStatement>();

/**
 * updateOrder's compare-and-set for a state-machine move (moveOrder): one move always sets the
 * same columns from the same statuses, so its statement is compiled once and run as a named
 * prepared statement (a batch of labels moves an order per label).
 */
export async function updateOrderForMove(
  db: Executor,
  scope: Scope,
  id: string,
  patch: Updateable<OrdersTable>,
  fromStatus: readonly OrderStatus[],
): Promise<OrderRow | undefined> {
  const columns = Object.keys(patch).sort() as (keyof OrdersTable & string)[];
  const key = `${columns.join(',')}|${fromStatus.join(',')}`;
  let run = moveStatements.get(key);
  if (!run) {
    const names = [...columns.map((c) => `set_${c}`), 'workspaceId', 'environment', 'id', ...fromStatus.map((_, i) => `from_${i}`)];
    run = precompiled(
      names,
      (q, v) =>
        q
          .updateTable('orders')
          .set(Object.fromEntries(columns.map((c) => [c, v[`set_${c}`]])) as Updateable<OrdersTable>)
          .where(inScope({ workspaceId: v.workspaceId as string, environment: v.environment as Scope['environment'] }))
          .where('id', '=', v.id as string)
          .where(
            'status',
            'in',
            fromStatus.map((_, i) => v[`from_${i}`] as OrderStatus),
          )
          .returningAll(),
      { statement: `orders.move_${moveStatements.size + 1}` },
    ) as MoveStatement;
    moveStatements.set(key, run);
  }
  const values: Record<string, unknown> = { workspaceId: scope.workspaceId, environment: scope.environment, id };
  for (const c of columns) values[`set_${c}`] = patch[c];
  fromStatus.forEach((status, i) => (values[`from_${i}`] = status));
  const [row] = await run(db, values);
  return row;
}

export interface OrdersQueryFilter {
  statuses?: OrderStatus[];
  archived?: boolean | 'all';
  createdAfter?: Date;
  createdBefore?: Date;
  externalId?: string;
  source?: string;
  locationId?: string;
  q?: string;
  /** The requested service's carrier: the service code's prefix (`usps` of usps_ground_advantage). */
  carrier?: string;
  /** The requested service code. */
  service?: string;
  /** ISO 3166-1 alpha-2, upper case (addresses are stored normalised). */
  shipToCountry?: string;
}

/** The filter of the list, its counts and its export, on any select from orders. */
function whereFilter<O>(query: SelectQueryBuilder<Tables, 'orders', O>, scope: Scope, filter: OrdersQueryFilter): SelectQueryBuilder<Tables, 'orders', O> {
  let q = query.where(inScope(scope));
  const archived = filter.archived ?? false;
  if (archived !== 'all') q = q.where('orders.archived', '=', archived);
  if (filter.statuses?.length) q = q.where('orders.status', 'in', filter.statuses);
  if (filter.createdAfter) q = q.where('orders.created_at', '>=', filter.createdAfter);
  if (filter.createdBefore) q = q.where('orders.created_at', '<', filter.createdBefore);
  if (filter.externalId !== undefined) q = q.where('orders.external_id', '=', filter.externalId);
  if (filter.source !== undefined) q = q.where('orders.source', '=', filter.source);
  if (filter.locationId !== undefined) q = q.where('orders.location_id', '=', filter.locationId);
  if (filter.carrier !== undefined) q = q.where('orders.requested_service', 'like', `${escapeLike(filter.carrier)}\\_%`);
  if (filter.service !== undefined) q = q.where('orders.requested_service', '=', filter.service);
  if (filter.shipToCountry !== undefined) q = q.where(sql<boolean>`orders.ship_to->>'country' = ${filter.shipToCountry}`);
  if (filter.q) {
    const pattern = `%${escapeLike(filter.q.toLowerCase())}%`;
    q = q.where(
      sql<boolean>`(lower(orders.customer_name) like ${pattern} or lower(orders.customer_email) like ${pattern} or lower(orders.external_id) like ${pattern})`,
    );
  }
  return q;
}

/** The list query (unpaginated; orders.sort.ts adds the keyset order and limit). */
export function ordersQuery(db: Executor, scope: Scope, filter: OrdersQueryFilter) {
  return whereFilter(db.selectFrom('orders').selectAll('orders'), scope, filter);
}

/** How many orders the filter matches, per status (statuses without one are absent). */
export async function countOrdersByStatus(db: Executor, scope: Scope, filter: OrdersQueryFilter): Promise<{ status: OrderStatus; count: number }[]> {
  const rows = await whereFilter(
    db.selectFrom('orders').select((eb) => ['orders.status', eb.fn.countAll<string | number>().as('count')]),
    scope,
    filter,
  )
    .groupBy('orders.status')
    .execute();
  return rows.map((r) => ({ status: r.status, count: Number(r.count) }));
}
