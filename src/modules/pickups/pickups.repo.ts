import type { Updateable } from 'kysely';
import type { Executor } from '../../platform/db/types.js';
import { inScope } from '../../platform/db/scope.js';
import type { Scope } from '../../platform/context.js';
import type { NewPickupRow, PickupRow, PickupStatus, PickupsTable } from './pickups.tables.js';
import './pickups.tables.js';

// Scope (workspace + environment) first in every function; only the completion sweep looks across tenants.

export async function insertPickup(executor: Executor, row: NewPickupRow): Promise<PickupRow> {
  return executor.insertInto('pickups').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findPickup(executor: Executor, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}): Promise<PickupRow | undefined> {
  let q = executor.selectFrom('pickups').selectAll().where(inScope(scope)).where('id', '=', id);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function updatePickup(executor: Executor, id: string, patch: Updateable<PickupsTable>): Promise<PickupRow> {
  return executor.updateTable('pickups').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export function pickupsQuery(executor: Executor, scope: Scope, filter: { status?: PickupStatus; locationId?: string }) {
  let q = executor.selectFrom('pickups').selectAll().where(inScope(scope));
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.locationId) q = q.where('location_id', '=', filter.locationId);
  return q;
}

/** Scheduled pickups whose window has ended (the completion sweep), across tenants, oldest first. */
export async function duePickups(executor: Executor, now: Date, limit: number): Promise<Pick<PickupRow, 'id' | 'workspace_id' | 'environment'>[]> {
  return executor
    .selectFrom('pickups')
    .select(['id', 'workspace_id', 'environment'])
    .where('status', '=', 'scheduled')
    .where('window_end', '<=', now)
    .orderBy('window_end')
    .limit(limit)
    .execute();
}
