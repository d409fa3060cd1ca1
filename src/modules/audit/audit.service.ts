import { sql } from 'kysely';
import type { Executor } from '../../platform/db/types.js';
import { paginate, type Page } from '../../platform/http/pagination.js';
import { iso, parseInstant } from '../../platform/http/wire.js';
import type { AuditRow } from './audit.tables.js';
import type { AuditEntryWire, AuditListFilter } from './audit.schemas.js';
import './audit.tables.js';

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The audit log, newest first, keyset paginated on (at, id); every filter is indexed. */
export async function listAuditLog(db: Executor, filter: AuditListFilter): Promise<Page<AuditEntryWire>> {
  let q = db.selectFrom('audit_log').selectAll();
  if (filter.action) {
    q = filter.action.endsWith('.*') ? q.where('action', 'like', `${escapeLike(filter.action.slice(0, -1))}%`) : q.where('action', '=', filter.action);
  }
  const actor = filter.actor ?? filter.actor_id;
  if (actor) {
    q = actor.includes('@') ? q.where(sql<boolean>`lower(actor_email) = ${actor.toLowerCase()}`) : q.where('actor_id', '=', actor);
  }
  if (filter.target_type) q = q.where('target_type', '=', filter.target_type);
  if (filter.target_id) q = q.where('target_id', '=', filter.target_id);
  if (filter.workspace_id) q = q.where('workspace_id', '=', filter.workspace_id);
  if (filter.from) q = q.where('at', '>=', parseInstant(filter.from, 'from'));
  if (filter.to) q = q.where('at', '<', parseInstant(filter.to, 'to'));
  // paginate keys on a created-at column; the audit log calls it `at`.
  const page = await paginate(q as never, { limit: filter.limit, cursor: filter.cursor, createdAtColumn: 'at' });
  return { ...page, data: (page.data as unknown as AuditRow[]).map(toAuditEntry) };
}

export function toAuditEntry(row: AuditRow): AuditEntryWire {
  return {
    id: row.id,
    at: iso(row.at)!,
    actor: { type: row.actor_type, id: row.actor_id, email: row.actor_email },
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id,
    workspace_id: row.workspace_id,
    environment: row.environment,
    changes: row.changes ?? null,
    ip: row.ip,
    request_id: row.request_id,
  };
}
