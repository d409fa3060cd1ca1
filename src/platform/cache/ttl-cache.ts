/** A small bounded in-memory cache with per-entry expiry (insertion order eviction). */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  /** Counts invalidations (delete, deleteWhere, clear); see `loading` and `fill`. */
  private invalidations = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(key: string, value: V, ttlMs = this.ttlMs): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
  }

  /**
   * Taken before reading the source of an entry, handed to `fill` with what was read. An
   * invalidation that arrives while the read is in flight may describe a change the read did
   * not see (its snapshot predates the commit); caching that read would undo the invalidation
   * for a whole TTL, so `fill` then drops it and the next lookup reads again.
   */
  loading(): number {
    return this.invalidations;
  }

  /** `set`, unless anything was invalidated since `loading()` returned `ticket`. */
  fill(key: string, value: V, ticket: number): void {
    if (ticket === this.invalidations) this.set(key, value);
  }

  delete(key: string): void {
    this.invalidations++;
    this.entries.delete(key);
  }

  deleteWhere(predicate: (value: V, key: string) => boolean): void {
    this.invalidations++;
    for (const [key, { value }] of this.entries) if (predicate(value, key)) this.entries.delete(key);
  }

  clear(): void {
    this.invalidations++;
    this.entries.clear();
  }
}
