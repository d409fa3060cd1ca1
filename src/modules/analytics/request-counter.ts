import { sql } from 'kysely';
import { onePerApp, type Deps } from '../../platform/deps.js';
import './analytics.tables.js';

const FLUSH_EVERY_MS = 60_000;

/**
 * API requests per workspace: counted in memory on the hot path (no query per request) and
 * flushed once a minute as additive upserts into api_request_counts, one row per workspace,
 * environment and minute, so every process's counts add up. A crash loses at most the last
 * minute of counts, which analytics can afford.
 */
export class ApiRequestCounter {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: Deps) {}

  count(workspaceId: string, environment: string, at = this.deps.now()): void {
    const minute = Math.floor(at.getTime() / 60_000) * 60_000;
    const key = `${workspaceId}\u0000${environment}\u0000${minute}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    if (!this.timer) {
      this.timer = setInterval(() => void this.flush().catch((err: unknown) => this.deps.log.warn({ err }, 'API request counts not flushed')), FLUSH_EVERY_MS);
      this.timer.unref();
    }
  }

  /** Write what was counted since the last flush (one flush at a time). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new Map();
      const rows = [...batch].map(([key, count]) => {
        const [workspace_id, environment, minute] = key.split('\u0000');
        return { workspace_id, environment, minute: new Date(Number(minute)), count };
      });
      try {
        await this.deps.db
          .insertInto('api_request_counts')
          .values(rows)
          .onConflict((oc) => oc.columns(['minute', 'workspace_id', 'environment']).doUpdateSet({ count: sql`api_request_counts.count + excluded.count` }))
          .execute();
      } catch (err) {
        // Put the counts back so the next flush retries them.
        for (const [key, n] of batch) this.pending.set(key, (this.pending.get(key) ?? 0) + n);
        throw err;
      }
    });
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush().catch((err: unknown) => this.deps.log.warn({ err }, 'API request counts not flushed at shutdown'));
  }
}

export const apiRequestCounter = onePerApp((deps) => new ApiRequestCounter(deps));
