import { sql, type Insertable, type Updateable } from 'kysely';
import type { Scope } from '../../platform/context.js';
import type { Executor } from '../../platform/db/types.js';
import { inScope } from '../../platform/db/scope.js';
import { isUniqueViolation } from '../../platform/db/pg-errors.js';
import { paginate, type Page } from '../../platform/http/pagination.js';
import { newId } from '../../platform/ids.js';
import type { CarrierAccountRow, CarrierAccountsTable, CarrierExchangeRow } from './carrier-accounts.tables.js';

export async function insertAccount(executor: Executor, row: Insertable<CarrierAccountsTable>): Promise<CarrierAccountRow> {
  return executor.insertInto('carrier_accounts').values(row).returningAll().executeTakeFirstOrThrow();
}

/** A live (not deleted) account of the scope. */
export async function findAccountById(executor: Executor, scope: Scope, id: string): Promise<CarrierAccountRow | undefined> {
  return executor.selectFrom('carrier_accounts').selectAll().where(inScope(scope)).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

/** Any account of the scope, deleted ones too (a shipment's account stays readable). */
export async function findAccountEvenDeleted(executor: Executor, scope: Scope, id: string): Promise<CarrierAccountRow | undefined> {
  return executor.selectFrom('carrier_accounts').selectAll().where(inScope(scope)).where('id', '=', id).executeTakeFirst();
}

export async function listAccounts(
  executor: Executor,
  scope: Scope,
  filter: { limit?: number; cursor?: string; carrier?: string; enabled?: boolean },
): Promise<Page<CarrierAccountRow>> {
  let q = executor.selectFrom('carrier_accounts').selectAll().where(inScope(scope)).where('deleted_at', 'is', null);
  if (filter.carrier) q = q.where('carrier', '=', filter.carrier);
  if (filter.enabled !== undefined) q = q.where('enabled', '=', filter.enabled);
  return paginate(q, filter);
}

/** Every live account of the scope, oldest first (rating and purchase routing read these, cached). */
export async function listLiveAccounts(executor: Executor, scope: Scope): Promise<CarrierAccountRow[]> {
  return executor
    .selectFrom('carrier_accounts')
    .selectAll()
    .where(inScope(scope))
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function updateAccount(
  executor: Executor,
  scope: Scope,
  id: string,
  changes: Updateable<CarrierAccountsTable>,
): Promise<CarrierAccountRow | undefined> {
  return executor
    .updateTable('carrier_accounts')
    .set({ ...changes, updated_at: sql`now()` as never })
    .where(inScope(scope))
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** Makes no other live account of the carrier the default (before one becomes it). */
export async function clearDefault(executor: Executor, scope: Scope, carrier: string, exceptId: string): Promise<void> {
  await executor
    .updateTable('carrier_accounts')
    .set({ is_default: false, updated_at: sql`now()` as never })
    .where(inScope(scope))
    .where('carrier', '=', carrier)
    .where('is_default', '=', true)
    .where('id', '<>', exceptId)
    .where('deleted_at', 'is', null)
    .execute();
}

/**
 * The simulated default account of each carrier, made once per workspace and environment (a
 * deleted one is not made again: the partial unique index on origin 'seed' covers deleted rows).
 */
export async function ensureSeedAccounts(executor: Executor, scope: Scope, carriers: readonly string[]): Promise<void> {
  if (carriers.length === 0) return;
  try {
    await insertSeeds(executor, scope, carriers);
  } catch (err) {
    // Two processes seeding the same scope at once (two batch workers on its first label): ON
    // CONFLICT guards the seed index only, so the other's row can trip the one-default index
    // instead. Either way the seeds now exist.
    if (!isUniqueViolation(err)) throw err;
  }
}

async function insertSeeds(executor: Executor, scope: Scope, carriers: readonly string[]): Promise<void> {
  await executor
    .insertInto('carrier_accounts')
    .values(
      carriers.map((carrier) => ({
        id: newId('carrierAccount'),
        workspace_id: scope.workspaceId,
        environment: scope.environment,
        carrier,
        driver: 'simulated' as const,
        origin: 'seed' as const,
        is_default: true,
        enabled: true,
        health_status: 'ok' as const,
      })),
    )
    .onConflict((oc) => oc.columns(['workspace_id', 'environment', 'carrier']).where('origin', '=', 'seed').doNothing())
    .execute();
}

/** The newest exchanges of one account within the retention window. */
export async function listExchanges(executor: Executor, scope: Scope, accountId: string, limit: number, since: Date): Promise<CarrierExchangeRow[]> {
  return executor
    .selectFrom('carrier_exchanges')
    .selectAll()
    .where(inScope(scope))
    .where('carrier_account_id', '=', accountId)
    .where('created_at', '>=', since)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
