import type { Updateable } from 'kysely';
import type { Executor } from '../../platform/db/types.js';
import { inScope } from '../../platform/db/scope.js';
import type { Scope } from '../../platform/context.js';
import type { NewPackageRow, PackageRow, PackagesTable } from './packages.tables.js';
import './packages.tables.js';

// Scope (workspace + environment) first in every function.

export async function insertPackage(executor: Executor, row: NewPackageRow): Promise<PackageRow> {
  return executor.insertInto('packages').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findPackage(executor: Executor, scope: Scope, id: string): Promise<PackageRow | undefined> {
  return executor.selectFrom('packages').selectAll().where(inScope(scope)).where('id', '=', id).executeTakeFirst();
}

export async function updatePackage(executor: Executor, scope: Scope, id: string, patch: Updateable<PackagesTable>): Promise<PackageRow | undefined> {
  return executor.updateTable('packages').set(patch).where(inScope(scope)).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deletePackage(executor: Executor, scope: Scope, id: string): Promise<boolean> {
  const res = await executor.deleteFrom('packages').where(inScope(scope)).where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export function packagesQuery(executor: Executor, scope: Scope) {
  return executor.selectFrom('packages').selectAll().where(inScope(scope));
}
