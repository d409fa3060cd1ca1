import { sql, type Insertable, type Updateable } from 'kysely';
import type { Executor } from '../../platform/db/types.js';
import { inScope } from '../../platform/db/scope.js';
import type { Scope } from '../../platform/context.js';
import type {
  ChannelDeliveriesTable,
  ChannelDeliveryRow,
  ChannelSyncRunsTable,
  OrderSyncEntriesTable,
  OrderSyncEntryRow,
  SyncRunRow,
  WriteBackRow,
} from './channels.tables.js';
import './channels.tables.js';

// Scope (workspace + environment) first in every tenant-facing function. The receiver and the
// jobs find their rows by id first (the delivery names its integration) and scope after.

/** Stores a delivery once per platform delivery id: undefined when it was seen before. */
export async function insertDeliveryOnce(db: Executor, row: Insertable<ChannelDeliveriesTable>): Promise<ChannelDeliveryRow | undefined> {
  return db
    .insertInto('channel_deliveries')
    .values(row)
    .onConflict((oc) => oc.columns(['integration_id', 'delivery_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function findDelivery(db: Executor, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}): Promise<ChannelDeliveryRow | undefined> {
  let q = db.selectFrom('channel_deliveries').selectAll().where(inScope(scope)).where('id', '=', id);
  if (opts.forUpdate) q = q.forUpdate().skipLocked();
  return q.executeTakeFirst();
}

export async function markDelivery(db: Executor, id: string, set: Updateable<ChannelDeliveriesTable>): Promise<void> {
  await db.updateTable('channel_deliveries').set(set).where('id', '=', id).execute();
}

export async function insertSyncEntry(db: Executor, row: Insertable<OrderSyncEntriesTable>): Promise<void> {
  await db.insertInto('order_sync_entries').values(row).execute();
}

/** One order's sync history, oldest first (bounded: an order sees a few hundred changes at most). */
export async function listSyncEntries(db: Executor, scope: Scope, integrationId: string, externalId: string, limit = 500): Promise<OrderSyncEntryRow[]> {
  return db
    .selectFrom('order_sync_entries')
    .selectAll()
    .where(inScope(scope))
    .where('integration_id', '=', integrationId)
    .where('external_id', '=', externalId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * The versions of one store order the apply step has judged (applied, unchanged, skipped for its
 * status…): not a duplicate or an error, which carry no judged version. Bounded like the history.
 */
export async function judgedVersions(db: Executor, integrationId: string, externalId: string, limit = 500): Promise<string[]> {
  const rows = await db
    .selectFrom('order_sync_entries')
    .select('platform_version')
    .where('integration_id', '=', integrationId)
    .where('external_id', '=', externalId)
    .where('decision', 'not in', ['duplicate', 'error'])
    .where('platform_version', 'is not', null)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.platform_version!);
}

export async function insertSyncRun(db: Executor, row: Insertable<ChannelSyncRunsTable>): Promise<SyncRunRow> {
  return db.insertInto('channel_sync_runs').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateSyncRun(db: Executor, id: string, set: Updateable<ChannelSyncRunsTable>): Promise<SyncRunRow | undefined> {
  return db.updateTable('channel_sync_runs').set(set).where('id', '=', id).returningAll().executeTakeFirst();
}

export function syncRunsQuery(db: Executor, scope: Scope, integrationId: string) {
  return db.selectFrom('channel_sync_runs').selectAll().where(inScope(scope)).where('integration_id', '=', integrationId);
}

export async function writeBacksOfOrder(db: Executor, scope: Scope, orderId: string): Promise<WriteBackRow[]> {
  return db.selectFrom('write_backs').selectAll().where(inScope(scope)).where('order_id', '=', orderId).orderBy('created_at').orderBy('id').execute();
}

/** Per platform, the largest lag (seconds) of its active connections: `channel_sync_lag_seconds`. */
export async function syncLagByPlatform(db: Executor, now: Date): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('integrations')
    .select(['platform', sql<Date | null>`min(greatest(last_webhook_at, last_reconciled_at))`.as('oldest')])
    .where('connection_state', '=', 'active')
    .groupBy('platform')
    .execute();
  const out: Record<string, number> = {};
  for (const r of rows) if (r.oldest) out[r.platform] = Math.max(0, Math.round((now.getTime() - new Date(r.oldest).getTime()) / 1000));
  return out;
}
