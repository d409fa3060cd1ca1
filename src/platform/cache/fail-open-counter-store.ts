import type { CounterStore, TakeResult } from './counter-store.types.js';

export type CounterOperation = 'take' | 'hit' | 'count' | 'reset' | 'connect';

export interface FailOpenOptions {
  /** The longest a request waits for the store before it is let through (ms). */
  timeoutMs: number;
  /** Called on every failure or timeout (metric); logging is the caller's choice. */
  onFailure: (operation: CounterOperation, err: unknown) => void;
}

class CounterTimeout extends Error {
  constructor(operation: CounterOperation, timeoutMs: number) {
    super(`counter store ${operation} took longer than ${timeoutMs} ms`);
    this.name = 'CounterTimeout';
  }
}

/**
 * A shared counter store (Redis) that can never take the API down with it: a call that fails
 * or takes longer than `timeoutMs` is answered as if the budget were untouched (fail open).
 * Rate limits are a fairness tool, not an authorisation check: a minute without them costs
 * less than a minute of 500s or requests stalled behind a dead socket.
 */
export class FailOpenCounterStore implements CounterStore {
  constructor(
    private readonly inner: CounterStore,
    private readonly opts: FailOpenOptions,
  ) {}

  private guarded<T>(operation: CounterOperation, call: () => Promise<T>, fallback: T): Promise<T> {
    return new Promise<T>((resolve) => {
      let settled = false;
      const fail = (err: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.opts.onFailure(operation, err);
        resolve(fallback);
      };
      const timer = setTimeout(() => fail(new CounterTimeout(operation, this.opts.timeoutMs)), this.opts.timeoutMs);
      let pending: Promise<T>;
      try {
        pending = call();
      } catch (err) {
        fail(err);
        return;
      }
      pending.then((value) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(value);
      }, fail);
    });
  }

  take(key: string, capacity: number, windowMs: number): Promise<TakeResult> {
    // Unknown budget: allowed, and the headers say a full bucket minus this request.
    const open: TakeResult = { allowed: true, remaining: Math.max(0, capacity - 1), resetSeconds: 0, retryAfterSeconds: 0 };
    return this.guarded('take', () => this.inner.take(key, capacity, windowMs), open);
  }

  hit(key: string, windowMs: number): Promise<number> {
    return this.guarded('hit', () => this.inner.hit(key, windowMs), 0);
  }

  count(key: string): Promise<number> {
    return this.guarded('count', () => this.inner.count(key), 0);
  }

  reset(key: string): Promise<void> {
    return this.guarded('reset', () => this.inner.reset(key), undefined);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
