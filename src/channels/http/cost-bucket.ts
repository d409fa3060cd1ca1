/**
 * Query-cost buckets (Shopify's GraphQL rate limit, docs/channels.md): each answer reports the
 * store's bucket `{maximumAvailable, currentlyAvailable, restoreRate}` in points and points per
 * second. We remember it per integration and what each operation last cost, so a query that
 * would not fit waits for the points to come back instead of being refused as THROTTLED.
 */
export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  /** Points restored per second. */
  restoreRate: number;
}

interface Bucket extends ThrottleStatus {
  at: number;
}

export class CostBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly costs = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** Records the bucket an answer reported, and what `operation` cost when known. */
  update(key: string, status: ThrottleStatus, operation?: string, requestedCost?: number | null): void {
    this.buckets.set(key, { ...status, at: this.now() });
    if (operation && requestedCost !== undefined && requestedCost !== null && requestedCost > 0) this.costs.set(`${key}\u0000${operation}`, requestedCost);
  }

  /** The points available now: what the last answer said plus what has been restored since. */
  available(key: string): number | null {
    const b = this.buckets.get(key);
    if (!b) return null;
    const restored = ((this.now() - b.at) / 1000) * b.restoreRate;
    return Math.min(b.maximumAvailable, b.currentlyAvailable + restored);
  }

  /** What `operation` cost the last time (null: never seen). */
  lastCost(key: string, operation: string): number | null {
    return this.costs.get(`${key}\u0000${operation}`) ?? null;
  }

  /** Milliseconds until `cost` points are available (0 when they are, or when nothing is known). */
  waitMs(key: string, cost: number | null): number {
    const b = this.buckets.get(key);
    const available = this.available(key);
    if (!b || available === null || cost === null || cost <= available) return 0;
    if (b.restoreRate <= 0) return 1000;
    return Math.ceil(((Math.min(cost, b.maximumAvailable) - available) / b.restoreRate) * 1000);
  }
}

/** From a THROTTLED answer: how long until `requestedCost` points are back (at least a second's worth when unknown). */
export function throttledWaitMs(status: ThrottleStatus | null, requestedCost: number | null): number {
  if (!status || status.restoreRate <= 0) return 1000;
  const need = Math.min(requestedCost ?? status.restoreRate, status.maximumAvailable) - status.currentlyAvailable;
  return Math.max(0, Math.ceil((need / status.restoreRate) * 1000));
}
