import type { Executor } from '../../platform/db/types.js';
import type { Actor, RequestMeta } from '../../platform/context.js';
import { newId } from '../../platform/ids.js';
import { maskSecrets } from './audit.mask.js';
import './audit.tables.js';

export interface AuditEntry {
  action: string; // `<target_type>.<past verb>`, e.g. account.approved
  targetType: string;
  targetId: string | null;
  changes?: unknown;
  workspaceId?: string | null;
  environment?: string | null;
}

/** Append one audit-log row, in the caller's transaction so it commits with the change; secrets in `changes` are masked. */
export async function writeAudit(executor: Executor, actor: Actor, meta: RequestMeta, entry: AuditEntry): Promise<void> {
  await executor
    .insertInto('audit_log')
    .values({
      id: newId('audit'),
      workspace_id: entry.workspaceId ?? null,
      environment: entry.environment ?? null,
      actor_type: actor.type,
      actor_id: actor.id,
      actor_email: actor.email ?? null,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      changes: entry.changes === undefined ? null : JSON.stringify(maskSecrets(entry.changes)),
      ip: meta.ip ?? null,
      request_id: meta.requestId ?? null,
    })
    .execute();
}
