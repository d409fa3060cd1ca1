import type { Redis } from 'ioredis';
import { FailOpenCounterStore, type FailOpenOptions } from './fail-open-counter-store.js';
import type { CounterStore, TakeResult } from './counter-store.types.js';

export type { CounterStore, TakeResult } from './counter-store.types.js';

function bucketMath(tokens: number, capacity: number, windowMs: number) {
  const perMs = capacity / windowMs;
  const allowed = tokens >= 1;
  const after = allowed ? tokens - 1 : tokens;
  return {
    allowed,
    after,
    remaining: Math.floor(after),
    resetSeconds: Math.ceil((capacity - after) / perMs / 1000),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - after) / perMs / 1000)),
  };
}

export class MemoryCounterStore implements CounterStore {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly windows = new Map<string, { count: number; until: number }>();
  constructor(private readonly now: () => number = Date.now) {}

  async take(key: string, capacity: number, windowMs: number): Promise<TakeResult> {
    return this.takeNow(key, capacity, windowMs);
  }

  takeNow(key: string, capacity: number, windowMs: number): TakeResult {
    const now = this.now();
    const b = this.buckets.get(key) ?? { tokens: capacity, at: now };
    const tokens = Math.min(capacity, b.tokens + ((now - b.at) * capacity) / windowMs);
    const r = bucketMath(tokens, capacity, windowMs);
    this.buckets.set(key, { tokens: r.after, at: now });
    if (this.buckets.size > 100_000) this.buckets.delete(this.buckets.keys().next().value as string);
    return r;
  }

  async hit(key: string, windowMs: number): Promise<number> {
    const now = this.now();
    const w = this.windows.get(key);
    if (!w || w.until <= now) {
      this.windows.set(key, { count: 1, until: now + windowMs });
      return 1;
    }
    w.count++;
    return w.count;
  }

  async count(key: string): Promise<number> {
    const w = this.windows.get(key);
    return w && w.until > this.now() ? w.count : 0;
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
    this.buckets.delete(key);
  }

  async close(): Promise<void> {}
}

// Atomic token bucket in Redis: state {tokens, at} in a hash, refill by elapsed time.
const TAKE_SCRIPT = `
local cap = tonumber(ARGV[1]); local window = tonumber(ARGV[2]); local now = tonumber(ARGV[3])
local s = redis.call('HMGET', KEYS[1], 't', 'a')
local tokens = tonumber(s[1]) or cap; local at = tonumber(s[2]) or now
tokens = math.min(cap, tokens + (now - at) * cap / window)
local allowed = 0
if tokens >= 1 then tokens = tokens - 1; allowed = 1 end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'a', tostring(now))
redis.call('PEXPIRE', KEYS[1], window * 2)
return {allowed, tostring(tokens)}
`;

export class RedisCounterStore implements CounterStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'ship:',
  ) {
    this.redis.defineCommand('shipTake', { numberOfKeys: 1, lua: TAKE_SCRIPT });
  }

  async take(key: string, capacity: number, windowMs: number): Promise<TakeResult> {
    const [allowed, tokensText] = (await (
      this.redis as unknown as {
        shipTake(k: string, cap: number, win: number, now: number): Promise<[number, string]>;
      }
    ).shipTake(this.prefix + 'b:' + key, capacity, windowMs, Date.now())) as [number, string];
    const tokens = Number(tokensText);
    const perMs = capacity / windowMs;
    return {
      allowed: allowed === 1,
      remaining: Math.floor(tokens),
      resetSeconds: Math.ceil((capacity - tokens) / perMs / 1000),
      retryAfterSeconds: allowed === 1 ? 0 : Math.max(1, Math.ceil((1 - tokens) / perMs / 1000)),
    };
  }

  async hit(key: string, windowMs: number): Promise<number> {
    const k = this.prefix + 'w:' + key;
    const results = await this.redis.multi().incr(k).pexpire(k, windowMs, 'NX').exec();
    return Number(results?.[0]?.[1] ?? 1);
  }

  async count(key: string): Promise<number> {
    return Number((await this.redis.get(this.prefix + 'w:' + key)) ?? 0);
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + 'w:' + key, this.prefix + 'b:' + key);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => {});
  }
}

export interface SharedStoreOptions extends Omit<FailOpenOptions, 'onFailure'> {
  /** Every failed or timed-out call (a metric and a throttled warning). */
  onFailure: FailOpenOptions['onFailure'];
  /** How long start-up waits for a first connection before serving without one (ms). */
  connectWaitMs?: number;
}

/**
 * The Redis client is imported only when REDIS_URL is set (it costs start-up time otherwise).
 * With `shared` options the store fails open: a command never waits in an offline queue, and
 * one that takes longer than `timeoutMs` lets the request through (FailOpenCounterStore).
 */
export async function createCounterStore(redisUrl?: string, shared?: SharedStoreOptions): Promise<CounterStore> {
  if (!redisUrl) return new MemoryCounterStore();
  const { Redis } = await import('ioredis');
  if (!shared) return new RedisCounterStore(new Redis(redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true }));
  const redis = new Redis(redisUrl, {
    // While disconnected a command fails at once instead of queueing behind the reconnect.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: shared.timeoutMs,
    connectTimeout: 2_000,
    // Keep trying to come back, at most every 2 s.
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  redis.on('error', (err) => shared.onFailure('connect', err));
  await waitUntilReady(redis, shared.connectWaitMs ?? 2_000);
  return new FailOpenCounterStore(new RedisCounterStore(redis), shared);
}

/** Resolve when the client is ready or the wait is over (serving fails open until it connects). */
function waitUntilReady(redis: Redis, waitMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, waitMs);
    redis.once('ready', done);
  });
}
