import { sql } from 'kysely';
import type { Executor } from '../../platform/db/types.js';
import type { Environment } from '../../platform/context.js';
import type { AccountRow, ApiKeyRow, WorkspaceRow } from './workspaces.tables.js';
import './workspaces.tables.js';
import type { WorkspaceRole } from './roles.js';

// ---- accounts ----
export async function findAccountByEmail(db: Executor, email: string): Promise<AccountRow | undefined> {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where(sql<boolean>`lower(email) = ${email.toLowerCase()}`)
    .executeTakeFirst();
}

export async function findAccountById(db: Executor, id: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertAccount(db: Executor, row: Omit<AccountRow, 'created_at' | 'updated_at'>): Promise<AccountRow> {
  return db.insertInto('accounts').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateAccount(
  db: Executor,
  id: string,
  patch: Partial<Pick<AccountRow, 'status' | 'role' | 'password_hash' | 'name'>>,
): Promise<AccountRow | undefined> {
  return db
    .updateTable('accounts')
    .set({ ...patch, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export function accountsQuery(db: Executor, filter: { status?: string; q?: string }) {
  let q = db.selectFrom('accounts').selectAll();
  if (filter.status) q = q.where('status', '=', filter.status as AccountRow['status']);
  if (filter.q) q = q.where(sql<boolean>`lower(email) like ${'%' + escapeLike(filter.q.toLowerCase()) + '%'}`);
  return q;
}

export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

// ---- workspaces ----
export async function insertWorkspace(db: Executor, row: { id: string; name: string; plan?: WorkspaceRow['plan'] }): Promise<WorkspaceRow> {
  return db
    .insertInto('workspaces')
    .values({ id: row.id, name: row.name, plan: row.plan ?? 'starter' })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function addMember(db: Executor, workspaceId: string, accountId: string, role: WorkspaceRole): Promise<void> {
  await db.insertInto('workspace_members').values({ workspace_id: workspaceId, account_id: accountId, role }).execute();
}

export async function findWorkspace(db: Executor, id: string): Promise<WorkspaceRow | undefined> {
  return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listMemberships(db: Executor, accountId: string) {
  return db
    .selectFrom('workspace_members as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select(['w.id', 'w.name', 'w.plan', 'w.suspended_at', 'm.role', 'm.created_at'])
    .where('m.account_id', '=', accountId)
    .orderBy('m.created_at', 'asc')
    .execute();
}

/** An account's membership of a workspace, with whether the workspace is suspended. */
export async function findMembership(db: Executor, accountId: string, workspaceId: string) {
  return db
    .selectFrom('workspace_members as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .selectAll('m')
    .select('w.suspended_at')
    .where('m.account_id', '=', accountId)
    .where('m.workspace_id', '=', workspaceId)
    .executeTakeFirst();
}

export async function updateWorkspace(
  db: Executor,
  id: string,
  patch: { name?: string; origin_address?: string | null; plan?: WorkspaceRow['plan']; burst_per_minute?: number | null; mtls_required?: boolean },
): Promise<WorkspaceRow | undefined> {
  return db
    .updateTable('workspaces')
    .set({ ...patch, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

// ---- sessions ----
export async function insertSession(
  db: Executor,
  row: { id: string; account_id: string; token_hash: string; expires_at: Date; ip: string | null; user_agent: string | null },
) {
  await db.insertInto('sessions').values(row).execute();
}

export async function findLiveSession(db: Executor, tokenHash: string) {
  return db
    .selectFrom('sessions as s')
    .innerJoin('accounts as a', 'a.id', 's.account_id')
    .select(['s.id as session_id', 's.expires_at', 'a.id as account_id', 'a.email', 'a.name', 'a.role', 'a.status'])
    .where('s.token_hash', '=', tokenHash)
    .where('s.revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function revokeSession(db: Executor, tokenHash: string): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: new Date() }).where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).execute();
}

export async function revokeAccountSessions(db: Executor, accountId: string): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: new Date() }).where('account_id', '=', accountId).where('revoked_at', 'is', null).execute();
}

// ---- api keys (scope first) ----
export async function insertApiKey(db: Executor, row: Omit<ApiKeyRow, 'created_at' | 'revoked_at' | 'last_used_at'>): Promise<ApiKeyRow> {
  return db.insertInto('api_keys').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findApiKey(db: Executor, workspaceId: string, id: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
}

export function apiKeysQuery(db: Executor, workspaceId: string, environment?: Environment) {
  let q = db.selectFrom('api_keys').selectAll().where('workspace_id', '=', workspaceId).where('revoked_at', 'is', null);
  if (environment) q = q.where('environment', '=', environment);
  return q;
}

export async function revokeApiKey(db: Executor, workspaceId: string, id: string, environment?: Environment): Promise<ApiKeyRow | undefined> {
  let q = db
    .updateTable('api_keys')
    .set({ revoked_at: new Date() })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null);
  if (environment) q = q.where('environment', '=', environment);
  return q.returningAll().executeTakeFirst();
}

export async function findApiKeyByHash(db: Executor, keyHash: string): Promise<(ApiKeyRow & { workspace_suspended_at: Date | null }) | undefined> {
  return db
    .selectFrom('api_keys as k')
    .innerJoin('workspaces as w', 'w.id', 'k.workspace_id')
    .selectAll('k')
    .select('w.suspended_at as workspace_suspended_at')
    .where('k.key_hash', '=', keyHash)
    .executeTakeFirst();
}

/** Mark (or clear) the workspaces an account owns as suspended; returns their ids. */
export async function setOwnedWorkspacesSuspended(db: Executor, accountId: string, at: Date | null): Promise<string[]> {
  const rows = await db
    .updateTable('workspaces')
    .set({ suspended_at: at, updated_at: new Date() })
    .where('id', 'in', (eb) => eb.selectFrom('workspace_members').select('workspace_id').where('account_id', '=', accountId).where('role', '=', 'owner'))
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The super-admin workspace list with member and order counts. The order count reads the
 * orders table directly (a read-only aggregate; importing the orders module here would make
 * the two modules import each other); the per-workspace index keeps it cheap per page.
 */
export function workspaceSummariesQuery(db: Executor, filter: { q?: string }) {
  let q = db
    .selectFrom('workspaces as w')
    .selectAll('w')
    .select([
      sql<string>`(select count(*) from workspace_members m where m.workspace_id = w.id)`.as('member_count'),
      sql<string>`(select count(*) from orders o where o.workspace_id = w.id)`.as('order_count'),
    ]);
  if (filter.q) {
    const needle = `%${escapeLike(filter.q.toLowerCase())}%`;
    q = q.where((eb) => eb.or([eb(sql`lower(w.name)`, 'like', needle), eb('w.id', '=', filter.q!)]));
  }
  return q;
}
