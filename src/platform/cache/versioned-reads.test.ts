import { describe, expect, it } from 'vitest';
import { VersionedReads } from './versioned-reads.js';

describe('VersionedReads', () => {
  it('answers only for the version an answer was kept under', () => {
    const reads = new VersionedReads<string>();
    reads.set('k', 'v1', 'answer');
    expect(reads.get('k', 'v1')).toBe('answer');
    expect(reads.get('k', 'v2')).toBeUndefined();
    reads.set('k', 'v2', 'newer');
    expect(reads.get('k', 'v1')).toBeUndefined();
    expect(reads.get('k', 'v2')).toBe('newer');
  });

  it('keeps an answer that follows the clock only until its time', () => {
    let now = 1_000;
    const reads = new VersionedReads<string>(10, () => now);
    reads.set('k', 'v', 'answer', 2_000);
    expect(reads.get('k', 'v')).toBe('answer');
    now = 2_000;
    expect(reads.get('k', 'v')).toBeUndefined();
    reads.set('past', 'v', 'answer', 1_500);
    expect(reads.size).toBe(1);
  });

  it('drops the least recently used answer when full', () => {
    const reads = new VersionedReads<number>(2);
    reads.set('a', 'v', 1);
    reads.set('b', 'v', 2);
    expect(reads.get('a', 'v')).toBe(1);
    reads.set('c', 'v', 3);
    expect(reads.get('b', 'v')).toBeUndefined();
    expect(reads.get('a', 'v')).toBe(1);
    expect(reads.get('c', 'v')).toBe(3);
  });
});
