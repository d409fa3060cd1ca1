import type { PGlite } from '@electric-sql/pglite';

/**
 * The embedded engine after a PANIC, and the way back without a restart.
 *
 * PostgreSQL escalates a failed write inside a critical section to PANIC: a checkpoint (a
 * backup takes one) or a new WAL segment while the data directory refuses writes. A server
 * would restart its backends and replay the WAL; PGlite's single backend is left half-way, and
 * the next call into it never returns and blocks the event loop, so every request of the
 * process hangs. So the instance is never called again after a PANIC: each call fails at once
 * as a closed engine (a 503, connection-errors.ts), and a new instance is opened on the same
 * directory once it takes writes again (PostgreSQL's crash recovery replays the WAL; only the
 * transaction that hit the PANIC is lost, and its caller was told). Callers hold a stable
 * stand-in that forwards to whichever instance is current (Kysely's dialect, the job queue,
 * backups), so none of them keeps the dead one.
 */
export interface ReopenablePGlite {
  /** Stands in for the current instance; hand this to everything that talks to the engine. */
  pglite: PGlite;
  /** Stops reopening (at shutdown). */
  stop(): void;
}

export interface ReopenOptions {
  /** A new, ready, configured instance on the same data directory. */
  open(): Promise<PGlite>;
  /** Throws while the data directory does not take writes. */
  probe(): Promise<void>;
  /** Between two attempts to reopen (default 1 s). */
  retryMs?: number;
  onPanic?(err: unknown): void;
  onReopened?(): void;
}

const CLOSED = 'PGlite is closed (the embedded engine hit a PANIC and is being reopened)';

export function reopenOnPanic(first: PGlite, options: ReopenOptions): ReopenablePGlite {
  let current = first;
  let stopped = false;
  const dead = new WeakSet<PGlite>();

  const markDead = (instance: PGlite, err: unknown) => {
    if (dead.has(instance)) return;
    dead.add(instance);
    options.onPanic?.(err);
    if (instance === current) void reopen();
  };

  async function reopen(): Promise<void> {
    while (!stopped) {
      await new Promise((r) => setTimeout(r, options.retryMs ?? 1_000).unref());
      if (stopped) return;
      try {
        await options.probe();
        const next = await options.open();
        if (stopped) return void next.close().catch(() => {});
        guard(next);
        current = next;
        options.onReopened?.();
        return;
      } catch {
        // still refusing writes, or the reopen failed: try again
      }
    }
  }

  /**
   * Every call into the engine funnels through execProtocolRawSync; the PANIC surfaces as an
   * error (or, when errors are not thrown, a message) of severity PANIC from the two async
   * protocol methods above it.
   */
  function guard(instance: PGlite): void {
    const raw = instance.execProtocolRawSync.bind(instance);
    instance.execProtocolRawSync = (message: Uint8Array) => {
      if (dead.has(instance)) throw new Error(CLOSED);
      return raw(message);
    };
    for (const method of ['execProtocol', 'execProtocolStream'] as const) {
      const original = (instance[method] as (...args: unknown[]) => Promise<unknown>).bind(instance);
      (instance as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
        try {
          const result = await original(...args);
          const messages = method === 'execProtocol' ? (result as { messages: unknown[] }).messages : (result as unknown[]);
          const panic = messages.find(isPanic);
          if (panic) markDead(instance, panic);
          return result;
        } catch (err) {
          if (isPanic(err)) markDead(instance, err);
          throw err;
        }
      };
    }
  }

  /**
   * Kysely's PGlite dialect waits for the transaction's callback to start before it runs
   * anything in it; a BEGIN refused by a dead instance would leave it waiting for ever (and the
   * refusal unhandled). So the callback is then run on a transaction that refuses every call:
   * the caller's first statement fails as an outage and Kysely rolls back.
   */
  const transaction = (async (callback: (tx: unknown) => Promise<unknown>) => {
    let entered = false;
    const instance = current;
    try {
      if (dead.has(instance)) throw new Error(CLOSED);
      return await instance.transaction((tx) => {
        entered = true;
        return callback(tx);
      });
    } catch (err) {
      if (entered) throw err;
      const refuse = () => Promise.reject(err);
      await callback({ query: refuse, sql: refuse, exec: refuse, rollback: async () => {}, closed: false }).catch(() => {});
      throw err;
    }
  }) as PGlite['transaction'];

  guard(first);
  const pglite = new Proxy({} as PGlite, {
    get(_, key) {
      // A dead instance reads as closed, so a shutdown does not call into it to close it.
      if (key === 'closed' && dead.has(current)) return true;
      if (key === 'transaction') return transaction;
      const value = Reflect.get(current, key, current) as unknown;
      return typeof value === 'function' ? value.bind(current) : value;
    },
    set(_, key, value) {
      return Reflect.set(current, key, value, current);
    },
  });
  return {
    pglite,
    stop() {
      stopped = true;
    },
  };
}

function isPanic(value: unknown): boolean {
  return !!value && typeof value === 'object' && (value as { severity?: unknown }).severity === 'PANIC';
}
