// The counter store's contract, apart from its drivers (the fail-open wrapper and the drivers
// both implement it, so neither file imports the other for it).

export interface TakeResult {
  allowed: boolean;
  remaining: number;
  /** Seconds until the bucket is full again (RateLimit-Reset). */
  resetSeconds: number;
  /** Seconds until one token is available (Retry-After), when refused. */
  retryAfterSeconds: number;
}

/**
 * Shared counters for rate limits and login throttling: in-process by default, Redis when
 * REDIS_URL is set so several API processes share one budget.
 */
export interface CounterStore {
  /** Token bucket: `capacity` tokens refilled evenly over `windowMs`. */
  take(key: string, capacity: number, windowMs: number): Promise<TakeResult>;
  /** The same, answered at once, by a store that keeps its buckets in this process. */
  takeNow?(key: string, capacity: number, windowMs: number): TakeResult;
  /** Fixed-window counter; returns the count after incrementing. */
  hit(key: string, windowMs: number): Promise<number>;
  count(key: string): Promise<number>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}
