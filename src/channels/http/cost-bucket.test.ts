import { describe, expect, it } from 'vitest';
import { CostBuckets, throttledWaitMs } from './cost-bucket.js';

describe('cost buckets', () => {
  it('waits for what an operation cost last time, counting what was restored since', () => {
    let now = 0;
    const b = new CostBuckets(() => now);
    expect(b.waitMs('int_1', b.lastCost('int_1', 'orders_list'))).toBe(0);
    b.update('int_1', { maximumAvailable: 1000, currentlyAvailable: 100, restoreRate: 50 }, 'orders_list', 500);
    expect(b.lastCost('int_1', 'orders_list')).toBe(500);
    expect(b.waitMs('int_1', 500)).toBe(8000);
    now = 4000;
    expect(b.available('int_1')).toBe(300);
    expect(b.waitMs('int_1', 500)).toBe(4000);
    now = 60_000;
    expect(b.available('int_1')).toBe(1000);
    expect(b.waitMs('int_1', 500)).toBe(0);
    // Another integration has its own bucket.
    expect(b.waitMs('int_2', 500)).toBe(0);
  });

  it('a THROTTLED answer waits until the requested points are back', () => {
    expect(throttledWaitMs({ maximumAvailable: 1000, currentlyAvailable: 20, restoreRate: 50 }, 520)).toBe(10_000);
    expect(throttledWaitMs(null, 520)).toBe(1000);
  });
});
