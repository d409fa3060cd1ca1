/**
 * One circuit breaker per carrier account: after `failureThreshold` consecutive transport
 * failures it opens for `openMs`; then one trial call is let through (half-open): success
 * closes it, failure opens it again for another `openMs`.
 */
export type BreakerState = 'closed' | 'open' | 'half_open';

export interface BreakerOptions {
  failureThreshold: number;
  openMs: number;
}

interface Entry {
  failures: number;
  openedAt: number | null;
  trialInFlight: boolean;
}

export class CircuitBreakers {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly options: BreakerOptions,
    private readonly now: () => number,
  ) {}

  private entry(key: string): Entry {
    let e = this.entries.get(key);
    if (!e) {
      e = { failures: 0, openedAt: null, trialInFlight: false };
      this.entries.set(key, e);
    }
    return e;
  }

  state(key: string): BreakerState {
    const e = this.entries.get(key);
    if (!e || e.openedAt === null) return 'closed';
    return this.now() - e.openedAt >= this.options.openMs ? 'half_open' : 'open';
  }

  /**
   * Asks to make a call. Returns null when allowed, else the milliseconds until the breaker
   * lets a trial through.
   */
  acquire(key: string): number | null {
    const e = this.entry(key);
    if (e.openedAt === null) return null;
    const elapsed = this.now() - e.openedAt;
    if (elapsed < this.options.openMs) return this.options.openMs - elapsed;
    if (e.trialInFlight) return 1000; // one trial at a time while half-open
    e.trialInFlight = true;
    return null;
  }

  success(key: string): void {
    const e = this.entry(key);
    e.failures = 0;
    e.openedAt = null;
    e.trialInFlight = false;
  }

  failure(key: string): void {
    const e = this.entry(key);
    e.failures += 1;
    if (e.trialInFlight || e.failures >= this.options.failureThreshold) {
      e.openedAt = this.now();
    }
    e.trialInFlight = false;
  }

  /** A call that ended without telling us whether the carrier is healthy (e.g. a 4xx). */
  neutral(key: string): void {
    const e = this.entry(key);
    if (e.trialInFlight) {
      // The carrier answered: it is reachable.
      this.success(key);
    }
  }
}
