import { sql, type RawBuilder } from 'kysely';
import { AppError } from '../../platform/errors.js';
import { clampLimit, paginate, type Page } from '../../platform/http/pagination.js';
import type { OrderRow } from './orders.tables.js';
import type { ordersQuery } from './orders.repo.js';

/**
 * The orders list's sorts (docs/api-conventions.md, "Lists and pagination"): keyset pages on the sort key
 * and the id, so the page cost does not grow with the table. A total is not among them: it is
 * computed from the line items, no column a keyset can walk.
 */
export const ORDER_SORTS = ['-created_at', 'created_at', 'order_number', '-order_number'] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];
export const DEFAULT_ORDER_SORT: OrderSort = '-created_at';

type OrdersQuery = ReturnType<typeof ordersQuery>;

interface SortKey {
  expr: RawBuilder<unknown>;
  /** The SQL type the cursor's value is compared as. */
  cast: 'timestamptz' | 'text';
  value(row: OrderRow): string;
}

/** The number an operator reads: the store's, else the sender's external id, else ours. */
export function orderNumberOf(row: Pick<OrderRow, 'external_number' | 'external_id' | 'id'>): string {
  return row.external_number ?? row.external_id ?? row.id;
}

const KEYS: Record<'created_at' | 'order_number', SortKey> = {
  created_at: { expr: sql`orders.created_at`, cast: 'timestamptz', value: (row) => new Date(row.created_at).toISOString() },
  order_number: { expr: sql`coalesce(orders.external_number, orders.external_id, orders.id)`, cast: 'text', value: orderNumberOf },
};

function keyOf(sort: OrderSort): { key: SortKey; desc: boolean } {
  const desc = sort.startsWith('-');
  return { key: KEYS[(desc ? sort.slice(1) : sort) as keyof typeof KEYS], desc };
}

/** The query in the sort's order (the export: no cursor). */
export function sortOrders(query: OrdersQuery, sort: OrderSort): OrdersQuery {
  const { key, desc } = keyOf(sort);
  const dir = desc ? 'desc' : 'asc';
  return query.orderBy(key.expr, dir).orderBy(sql`orders.id`, dir);
}

interface SortCursor {
  s: OrderSort;
  v: string;
  id: string;
}

function badCursor(): AppError {
  return new AppError('validation_failed', 'The cursor is not valid.', {
    details: [{ field: 'cursor', message: 'is not a cursor returned by this endpoint for this sort' }],
  });
}

function decodeSortCursor(cursor: string, sort: OrderSort): SortCursor {
  let parsed: SortCursor;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as SortCursor;
  } catch {
    throw badCursor();
  }
  if (parsed?.s !== sort || typeof parsed.v !== 'string' || typeof parsed.id !== 'string') throw badCursor();
  if (keyOf(sort).key.cast === 'timestamptz' && Number.isNaN(Date.parse(parsed.v))) throw badCursor();
  return parsed;
}

/**
 * One page in the sort's order. The default (newest first) keeps the cursors every list of
 * the service issues; the others carry their sort, so a cursor cannot change the order midway.
 */
export async function paginateOrders(query: OrdersQuery, sort: OrderSort, opts: { limit?: number; cursor?: string }): Promise<Page<OrderRow>> {
  if (sort === DEFAULT_ORDER_SORT) return paginate(query, { ...opts, table: 'orders' }) as Promise<Page<OrderRow>>;
  const limit = clampLimit(opts.limit);
  const { key, desc } = keyOf(sort);
  let q = query;
  if (opts.cursor) {
    const pos = decodeSortCursor(opts.cursor, sort);
    const value = key.cast === 'timestamptz' ? sql`${pos.v}::timestamptz` : sql`${pos.v}::text`;
    q = desc
      ? q.where(sql<boolean>`(${key.expr}, orders.id) < (${value}, ${pos.id})`)
      : q.where(sql<boolean>`(${key.expr}, orders.id) > (${value}, ${pos.id})`);
  }
  const rows = (await sortOrders(q, sort)
    .limit(limit + 1)
    .execute()) as OrderRow[];
  const has_more = rows.length > limit;
  const data = has_more ? rows.slice(0, limit) : rows;
  const last = data[data.length - 1];
  const next_cursor =
    has_more && last ? Buffer.from(JSON.stringify({ s: sort, v: key.value(last), id: last.id } satisfies SortCursor)).toString('base64url') : null;
  return { data, has_more, next_cursor };
}
