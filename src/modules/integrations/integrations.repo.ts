import { sql, type Insertable, type Updateable } from 'kysely';
import type { Executor } from '../../platform/db/types.js';
import { inScope } from '../../platform/db/scope.js';
import type { Scope } from '../../platform/context.js';
import type { IntegrationHealth } from './integrations.health.js';
import type { IntegrationPlatform, IntegrationRow, IntegrationsTable } from './integrations.tables.js';
import './integrations.tables.js';

// Scope (workspace + environment) first in every tenant-facing function. The few functions
// without a scope serve the ingest-key guard (the key names its integration) and the
// periodic health job (system-wide by nature).

export async function insertIntegration(db: Executor, row: Insertable<IntegrationsTable>): Promise<IntegrationRow> {
  return db.insertInto('integrations').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findIntegration(db: Executor, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}): Promise<IntegrationRow | undefined> {
  let q = db.selectFrom('integrations').selectAll().where(inScope(scope)).where('id', '=', id);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

export function integrationsQuery(db: Executor, scope: Scope, filter: { health?: IntegrationHealth; platform?: IntegrationPlatform }) {
  let q = db.selectFrom('integrations').selectAll().where(inScope(scope));
  if (filter.health) q = q.where('health', '=', filter.health);
  if (filter.platform) q = q.where('platform', '=', filter.platform);
  return q;
}

export async function updateIntegration(
  db: Executor,
  scope: Scope,
  id: string,
  patch: Updateable<IntegrationsTable>,
  opts: { whereHealth?: IntegrationHealth } = {},
): Promise<IntegrationRow | undefined> {
  let q = db.updateTable('integrations').set(patch).where(inScope(scope)).where('id', '=', id);
  // Compare-and-set on the health, so a change is made (and announced) once.
  if (opts.whereHealth) q = q.where('health', '=', opts.whereHealth);
  return q.returningAll().executeTakeFirst();
}

export async function deleteIntegration(db: Executor, scope: Scope, id: string): Promise<IntegrationRow | undefined> {
  return db.deleteFrom('integrations').where(inScope(scope)).where('id', '=', id).returningAll().executeTakeFirst();
}

/** The ingest-key guard: an integration by the SHA-256 of its key, and whether its workspace is suspended. */
export async function findIntegrationByKeyHash(db: Executor, keyHash: string) {
  return db
    .selectFrom('integrations as i')
    .innerJoin('workspaces as w', 'w.id', 'i.workspace_id')
    .select(['i.id', 'i.workspace_id', 'i.environment', 'w.suspended_at as workspace_suspended_at'])
    .where('i.ingest_key_hash', '=', keyHash)
    .executeTakeFirst();
}

export async function insertIntakeFailure(
  db: Executor,
  row: { integration_id: string; workspace_id: string; environment: string; at: Date; code: string; details: unknown },
): Promise<void> {
  await db
    .insertInto('integration_intake_failures')
    .values({ ...row, details: row.details === undefined ? null : JSON.stringify(row.details) })
    .execute();
}

/** Failures of one integration after `since` (exclusive) up to `until` (inclusive). */
export async function countIntakeFailures(db: Executor, integrationId: string, since: Date, until: Date, code?: string): Promise<number> {
  let q = db
    .selectFrom('integration_intake_failures')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('integration_id', '=', integrationId)
    .where('at', '>', since)
    .where('at', '<=', until);
  // Without a code: the intake's own failures (a connection's troubles count apart, each under its code).
  q = code ? q.where('code', '=', code) : q.where('code', 'not in', ['unreachable', 'invalid_signature', 'throttled']);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteIntakeFailuresBefore(db: Executor, before: Date): Promise<number> {
  const result = await db.deleteFrom('integration_intake_failures').where('at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The health job: integrations whose token has run out but are not marked so (locked, skipping ones in use). */
export async function lockExpiredTokens(db: Executor, now: Date, limit: number): Promise<IntegrationRow[]> {
  return db
    .selectFrom('integrations')
    .selectAll()
    .where('token_expires_at', '<=', now)
    .where('health', '<>', 'token_expired')
    .orderBy('token_expires_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

export async function stampTokenChecks(db: Executor, now: Date): Promise<number> {
  const result = await db.updateTable('integrations').set({ health_checked_at: now }).where('token_expires_at', 'is not', null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The webhook receiver: the integration a delivery URL names (its signature then proves the sender). */
export async function findIntegrationById(db: Executor, id: string): Promise<IntegrationRow | undefined> {
  return db.selectFrom('integrations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The OAuth callback: the integration a pending state belongs to, the state consumed (single-use) in the same statement. */
export async function consumeOAuthState(db: Executor, stateHash: string): Promise<IntegrationRow | undefined> {
  const row = await db.selectFrom('integrations').selectAll().where('oauth_state_hash', '=', stateHash).forUpdate().executeTakeFirst();
  if (!row) return undefined;
  await db.updateTable('integrations').set({ oauth_state_hash: null, oauth_state_expires_at: null }).where('id', '=', row.id).execute();
  return row;
}
