/**
 * Answers kept per key under the version of the rows they were read from (docs/architecture.md,
 * "Kept reads"). A reader first asks the database for the rows' current version (one narrow
 * indexed read, e.g. `xmin` of each row, which every update moves); a kept answer is served only
 * while that version is the one it was read at, so it is never older than the rows, in any
 * process: each process keeps its own answers and checks them against the database. An answer
 * that also follows the clock (a PIN that expires) is kept only until `until`.
 * Bounded: the least recently used entry goes first.
 */
export class VersionedReads<T> {
  private readonly entries = new Map<string, { version: string; value: T; until: number }>();

  constructor(
    private readonly maxEntries = 5_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, version: string): T | undefined {
    const hit = this.entries.get(key);
    if (!hit || hit.version !== version || hit.until <= this.now()) return undefined;
    // Most recently used last, so the oldest is evicted first.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  /**
   * Keep `value`, read after `version` was: if the rows moved in between, the answer is newer
   * than the version it is kept under, which then no longer matches, so it is never served stale.
   */
  set(key: string, version: string, value: T, until = Infinity): void {
    this.entries.delete(key);
    if (until <= this.now()) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { version, value, until });
  }

  get size(): number {
    return this.entries.size;
  }
}
