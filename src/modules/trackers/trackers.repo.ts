import type { Updateable } from 'kysely';
import type { Executor } from '../../platform/db/types.js';
import { inScope } from '../../platform/db/scope.js';
import type { Scope } from '../../platform/context.js';
import type { NewTrackerRow, TrackerRow, TrackersTable } from './trackers.tables.js';
import './trackers.tables.js';

// Scope (workspace + environment) first in every function; only the poll sweep looks across tenants.

export async function insertTracker(executor: Executor, row: NewTrackerRow): Promise<TrackerRow | undefined> {
  // A concurrent create of the same number: the other one's row wins (the caller reads it).
  return executor
    .insertInto('trackers')
    .values(row)
    .onConflict((oc) => oc.columns(['workspace_id', 'environment', 'carrier', 'tracking_number']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function findTracker(executor: Executor, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}): Promise<TrackerRow | undefined> {
  let q = executor.selectFrom('trackers').selectAll().where(inScope(scope)).where('id', '=', id);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findTrackerByNumber(executor: Executor, scope: Scope, carrier: string, trackingNumber: string): Promise<TrackerRow | undefined> {
  return executor
    .selectFrom('trackers')
    .selectAll()
    .where(inScope(scope))
    .where('carrier', '=', carrier)
    .where('tracking_number', '=', trackingNumber)
    .executeTakeFirst();
}

/** The scope's newest tracker of a number, whatever its carrier (the tracking read by number). */
export async function findTrackerOfNumber(executor: Executor, scope: Scope, trackingNumber: string): Promise<TrackerRow | undefined> {
  return executor
    .selectFrom('trackers')
    .selectAll()
    .where(inScope(scope))
    .where('tracking_number', '=', trackingNumber)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Any tenant's newest tracker of a number: public tracking, which finds shipments the same way. */
export async function findTrackerOfNumberAnywhere(executor: Executor, trackingNumber: string): Promise<TrackerRow | undefined> {
  return executor
    .selectFrom('trackers')
    .selectAll()
    .where('tracking_number', '=', trackingNumber)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function updateTracker(executor: Executor, scope: Scope, id: string, patch: Updateable<TrackersTable>): Promise<TrackerRow> {
  return executor.updateTable('trackers').set(patch).where(inScope(scope)).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteTracker(executor: Executor, scope: Scope, id: string): Promise<boolean> {
  const res = await executor.deleteFrom('trackers').where(inScope(scope)).where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export function trackersQuery(executor: Executor, scope: Scope, filter: { status?: string; carrier?: string; tracking_number?: string }) {
  let q = executor.selectFrom('trackers').selectAll().where(inScope(scope));
  if (filter.status) q = q.where('status', '=', filter.status as TrackerRow['status']);
  if (filter.carrier) q = q.where('carrier', '=', filter.carrier);
  if (filter.tracking_number) q = q.where('tracking_number', '=', filter.tracking_number);
  return q;
}

/** Trackers whose next scan is due (the poll job), across tenants, most overdue first. */
export async function dueTrackers(executor: Executor, now: Date, limit: number): Promise<Pick<TrackerRow, 'id' | 'workspace_id' | 'environment'>[]> {
  return executor
    .selectFrom('trackers')
    .select(['id', 'workspace_id', 'environment'])
    .where('next_check_at', 'is not', null)
    .where('next_check_at', '<=', now)
    .orderBy('next_check_at')
    .limit(limit)
    .execute();
}
