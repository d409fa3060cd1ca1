import type { Executor } from '../../platform/db/types.js';
import type { Scope } from '../../platform/context.js';
import { newId } from '../../platform/ids.js';
import { precompiled } from '../../platform/db/precompiled.js';
import { runEventHooks } from './events.hooks.js';
import './events.tables.js';

export interface EventEnvelope<T = unknown> {
  id: string;
  type: string;
  created_at: string;
  workspace_id: string;
  environment: string;
  data: T;
}

// Every label, import and move records one: compiled once, a named prepared statement.
const insertEvent = precompiled(
  ['id', 'workspaceId', 'environment', 'type', 'data', 'createdAt'],
  (db, v) =>
    db.insertInto('events').values({
      id: v.id as string,
      workspace_id: v.workspaceId as string,
      environment: v.environment as Scope['environment'],
      type: v.type as string,
      data: v.data as string,
      created_at: v.createdAt as Date,
    }),
  { statement: 'events.insert' },
);

/**
 * Record a domain event (the envelope webhooks deliver: docs/api-conventions.md) in the caller's transaction.
 * Consumers registered with registerEventHook (the webhook fan-out) run in the same transaction, so
 * the deliveries an event causes exist exactly when the event does; recording never calls out.
 */
export async function recordEvent<T>(executor: Executor, scope: Scope, type: string, data: T): Promise<EventEnvelope<T>> {
  const created = new Date();
  const id = newId('event');
  await insertEvent(executor, { id, workspaceId: scope.workspaceId, environment: scope.environment, type, data: JSON.stringify(data), createdAt: created });
  await runEventHooks(executor, { id, type, workspaceId: scope.workspaceId, environment: scope.environment, data });
  return { id, type, created_at: created.toISOString(), workspace_id: scope.workspaceId, environment: scope.environment, data };
}
