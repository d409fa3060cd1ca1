import type { Updateable } from 'kysely';
import type { Executor } from '../../platform/db/types.js';
import { inScope } from '../../platform/db/scope.js';
import type { Scope } from '../../platform/context.js';
import type { LocationRow, LocationsTable, NewLocationRow } from './locations.tables.js';
import './locations.tables.js';

// Scope (workspace + environment) first in every function.

export async function insertLocation(executor: Executor, row: NewLocationRow): Promise<LocationRow> {
  return executor.insertInto('locations').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findLocation(executor: Executor, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}): Promise<LocationRow | undefined> {
  let q = executor.selectFrom('locations').selectAll().where(inScope(scope)).where('id', '=', id);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findDefaultLocation(executor: Executor, scope: Scope): Promise<LocationRow | undefined> {
  return executor.selectFrom('locations').selectAll().where(inScope(scope)).where('is_default', '=', true).executeTakeFirst();
}

export async function countLocations(executor: Executor, scope: Scope): Promise<number> {
  const row = await executor
    .selectFrom('locations')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where(inScope(scope))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The scope's default is cleared before another becomes it (one default per scope: a partial unique index). */
export async function clearDefault(executor: Executor, scope: Scope): Promise<void> {
  await executor.updateTable('locations').set({ is_default: false }).where(inScope(scope)).where('is_default', '=', true).execute();
}

export async function updateLocation(executor: Executor, scope: Scope, id: string, patch: Updateable<LocationsTable>): Promise<LocationRow | undefined> {
  return executor.updateTable('locations').set(patch).where(inScope(scope)).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deleteLocation(executor: Executor, scope: Scope, id: string): Promise<boolean> {
  const res = await executor.deleteFrom('locations').where(inScope(scope)).where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export function locationsQuery(executor: Executor, scope: Scope) {
  return executor.selectFrom('locations').selectAll().where(inScope(scope));
}
