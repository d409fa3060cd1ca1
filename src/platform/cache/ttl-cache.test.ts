import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.js';

describe('TtlCache fill', () => {
  it('stores a read only when nothing was invalidated while it was in flight', () => {
    const cache = new TtlCache<string>(60_000);
    const quiet = cache.loading();
    cache.fill('a', 'read', quiet);
    expect(cache.get('a')).toBe('read');

    for (const invalidate of [() => cache.delete('other'), () => cache.deleteWhere(() => false), () => cache.clear()]) {
      const ticket = cache.loading();
      invalidate();
      cache.fill('b', 'stale read', ticket);
      expect(cache.get('b')).toBeUndefined();
    }

    // Expiry and eviction are not invalidations.
    let now = 0;
    const small = new TtlCache<string>(10, 1, () => now);
    small.set('x', '1');
    small.set('y', '2'); // evicts x
    now = 20;
    expect(small.get('y')).toBeUndefined(); // expired
    const ticket = small.loading();
    small.fill('z', '3', ticket);
    expect(small.get('z')).toBe('3');
  });
});
