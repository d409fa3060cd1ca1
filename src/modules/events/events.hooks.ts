import type { Executor } from '../../platform/db/types.js';

/** What a module may react to when a domain event is recorded: the event and its data, as recorded. */
export interface RecordedEvent {
  id: string;
  type: string;
  workspaceId: string;
  environment: string;
  /** The event's data (read-only: the row is already written). */
  data: unknown;
}

/**
 * Runs inside the transaction that records the event, before it commits: whatever it writes
 * commits or rolls back with the event (the outbox pattern). It must only use `executor`
 * (on PGlite any other query would wait for this very transaction), and a throw aborts the
 * caller's transaction, so a hook fails only when the event must not be recorded without it.
 */
export type EventHook = (executor: Executor, event: RecordedEvent) => Promise<void>;

/**
 * The registry that lets the event recorder (recordEvent) call consumers (modules/webhooks)
 * without importing them: a consumer registers under its own name and gets an unregister
 * function. The registry is per process: a process runs one app (several apps of one process,
 * as some tests build, must share one database). Registering a name again replaces the hook;
 * unregistering removes it only if it is still the registered one, so a closed app never
 * removes its successor's hook.
 */
const hooks = new Map<string, EventHook>();

export function registerEventHook(name: string, hook: EventHook): () => void {
  hooks.set(name, hook);
  return () => {
    if (hooks.get(name) === hook) hooks.delete(name);
  };
}

/** Called by the event recorder after the event row is written, in the same transaction. */
export async function runEventHooks(executor: Executor, event: RecordedEvent): Promise<void> {
  for (const hook of hooks.values()) await hook(executor, event);
}
