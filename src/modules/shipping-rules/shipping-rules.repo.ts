import { sql, type Insertable, type Updateable } from 'kysely';
import type { Scope } from '../../platform/context.js';
import type { Executor } from '../../platform/db/types.js';
import { inScope } from '../../platform/db/scope.js';
import { AppError } from '../../platform/errors.js';
import { clampLimit, type Page } from '../../platform/http/pagination.js';
import type { ShippingRuleRow, ShippingRulesTable } from './shipping-rules.tables.js';

export async function insertRule(executor: Executor, row: Insertable<ShippingRulesTable>): Promise<ShippingRuleRow> {
  return executor.insertInto('shipping_rules').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findRuleById(executor: Executor, scope: Scope, id: string): Promise<ShippingRuleRow | undefined> {
  return executor.selectFrom('shipping_rules').selectAll().where(inScope(scope)).where('id', '=', id).executeTakeFirst();
}

export async function updateRule(executor: Executor, scope: Scope, id: string, changes: Updateable<ShippingRulesTable>): Promise<ShippingRuleRow | undefined> {
  return executor
    .updateTable('shipping_rules')
    .set({ ...changes, updated_at: sql`now()` as never })
    .where(inScope(scope))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteRule(executor: Executor, scope: Scope, id: string): Promise<ShippingRuleRow | undefined> {
  return executor.deleteFrom('shipping_rules').where(inScope(scope)).where('id', '=', id).returningAll().executeTakeFirst();
}

/** Every enabled rule of the scope in the order they apply (the purchase path reads these, cached). */
export async function listEnabledRules(executor: Executor, scope: Scope): Promise<ShippingRuleRow[]> {
  return executor
    .selectFrom('shipping_rules')
    .selectAll()
    .where(inScope(scope))
    .where('enabled', '=', true)
    .orderBy('priority')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

interface RuleCursor {
  p: number;
  t: string;
  id: string;
}

/**
 * The rules in the order they apply (priority, then oldest first), keyset-paginated on
 * (priority, created_at, id): the shared paginate() walks (created_at, id) newest first, which
 * is not the order a rule list is read in.
 */
export async function listRules(
  executor: Executor,
  scope: Scope,
  filter: { limit?: number; cursor?: string; enabled?: boolean },
): Promise<Page<ShippingRuleRow>> {
  const limit = clampLimit(filter.limit);
  let q = executor.selectFrom('shipping_rules').selectAll().where(inScope(scope));
  if (filter.enabled !== undefined) q = q.where('enabled', '=', filter.enabled);
  if (filter.cursor) {
    const pos = decodeRuleCursor(filter.cursor);
    q = q.where(sql<boolean>`(priority, created_at, id) > (${pos.p}, ${pos.t}::timestamptz, ${pos.id})`);
  }
  const rows = await q
    .orderBy('priority')
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit + 1)
    .execute();
  const has_more = rows.length > limit;
  const data = has_more ? rows.slice(0, limit) : rows;
  const last = data[data.length - 1];
  return { data, has_more, next_cursor: has_more && last ? encodeRuleCursor(last) : null };
}

function encodeRuleCursor(row: ShippingRuleRow): string {
  const t = (row.created_at instanceof Date ? row.created_at : new Date(row.created_at)).toISOString();
  return Buffer.from(JSON.stringify({ p: row.priority, t, id: row.id } satisfies RuleCursor)).toString('base64url');
}

export function decodeRuleCursor(cursor: string): RuleCursor {
  try {
    const pos = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as RuleCursor;
    if (!Number.isInteger(pos.p) || typeof pos.t !== 'string' || typeof pos.id !== 'string' || Number.isNaN(Date.parse(pos.t))) throw new Error();
    return pos;
  } catch {
    throw new AppError('validation_failed', 'The cursor is not valid.', {
      details: [{ field: 'cursor', message: 'is not a cursor returned by this endpoint' }],
    });
  }
}
