import { afterAll, describe, expect, it } from 'vitest';
import { createCounterStore, MemoryCounterStore, type CounterStore } from './counter-store.js';

// The same behaviour from both stores: in-process, and Redis (shared by several API processes).
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const stores: Array<[string, () => Promise<CounterStore>]> = [
  ['memory', async () => new MemoryCounterStore()],
  ['redis', () => createCounterStore(redisUrl)],
];
const opened: CounterStore[] = [];
afterAll(async () => {
  for (const s of opened) await s.close();
});

describe.each(stores)('%s counter store', (_name, make) => {
  const unique = () => `test:${Date.now().toString(36)}:${Math.random().toString(36).slice(2)}`;

  it('token bucket: capacity requests pass, the next is refused with a retry delay', async () => {
    const store = await make();
    opened.push(store);
    const key = unique();
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await store.take(key, 3, 60_000));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
    expect(results[3].retryAfterSeconds).toBeGreaterThanOrEqual(19); // one token per 20 s
    expect(results[3].retryAfterSeconds).toBeLessThanOrEqual(20);
    expect(results[2].resetSeconds).toBeLessThanOrEqual(60);
  });

  it('fixed windows count, and reset clears', async () => {
    const store = await make();
    opened.push(store);
    const key = unique();
    expect(await store.count(key)).toBe(0);
    expect(await store.hit(key, 60_000)).toBe(1);
    expect(await store.hit(key, 60_000)).toBe(2);
    expect(await store.count(key)).toBe(2);
    await store.reset(key);
    expect(await store.count(key)).toBe(0);
  });
});

describe('redis store shared by two processes', () => {
  it('two clients spend one budget', async () => {
    const a = await createCounterStore(redisUrl);
    const b = await createCounterStore(redisUrl);
    opened.push(a, b);
    const key = `test:shared:${Math.random().toString(36).slice(2)}`;
    expect((await a.take(key, 2, 60_000)).allowed).toBe(true);
    expect((await b.take(key, 2, 60_000)).allowed).toBe(true);
    expect((await a.take(key, 2, 60_000)).allowed).toBe(false);
  });
});
