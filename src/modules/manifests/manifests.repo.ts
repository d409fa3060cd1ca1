import type { Updateable } from 'kysely';
import type { Executor } from '../../platform/db/types.js';
import { inScope } from '../../platform/db/scope.js';
import type { Scope } from '../../platform/context.js';
import type { ManifestRow, ManifestStatus, ManifestsTable, NewManifestRow } from './manifests.tables.js';
import './manifests.tables.js';

// Scope (workspace + environment) first in every function: another workspace's manifest is absent.

/** Every column but the document bytes (lists and reads never carry them). */
const COLUMNS = [
  'id',
  'workspace_id',
  'environment',
  'carrier',
  'carrier_account_id',
  'ship_date',
  'status',
  'shipment_ids',
  'rejected',
  'batch_id',
  'location_id',
  'document_type',
  'document_content_type',
  'carrier_manifest_id',
  'error',
  'ready_at',
  'created_at',
  'updated_at',
] as const;
export type ManifestSummaryRow = Omit<ManifestRow, 'document'>;

export async function insertManifest(executor: Executor, row: NewManifestRow): Promise<ManifestSummaryRow> {
  return executor.insertInto('manifests').values(row).returning(COLUMNS).executeTakeFirstOrThrow();
}

export async function findManifest(executor: Executor, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}): Promise<ManifestSummaryRow | undefined> {
  let q = executor.selectFrom('manifests').select(COLUMNS).where(inScope(scope)).where('id', '=', id);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function findManifestDocument(executor: Executor, scope: Scope, id: string) {
  return executor
    .selectFrom('manifests')
    .select(['id', 'status', 'document', 'document_content_type', 'document_type', 'carrier_manifest_id'])
    .where(inScope(scope))
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function updateManifest(executor: Executor, id: string, patch: Updateable<ManifestsTable>): Promise<ManifestSummaryRow> {
  return executor.updateTable('manifests').set(patch).where('id', '=', id).returning(COLUMNS).executeTakeFirstOrThrow();
}

export function manifestsQuery(executor: Executor, scope: Scope, filter: { status?: ManifestStatus; carrier?: string; locationId?: string }) {
  let q = executor.selectFrom('manifests').select(COLUMNS).where(inScope(scope));
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.carrier) q = q.where('carrier', '=', filter.carrier);
  if (filter.locationId) q = q.where('location_id', '=', filter.locationId);
  return q;
}
