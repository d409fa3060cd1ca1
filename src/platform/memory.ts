import { setFlagsFromString } from 'node:v8';

/**
 * Holds the V8 heap near what is live (the target: RSS under 300 MB under load).
 * Under a high allocation rate V8 lets the old generation grow to several times what the last
 * full GC kept before collecting again: at 32 connections of rate queries the heap reached
 * ~320 MiB of old space with under 100 MiB live. `--heap-growing-percent` fixes that factor
 * (the next full GC when the heap is this much larger than what survived the last one). It is
 * read at every GC, so setting it at start-up takes effect at once; worker threads share it.
 * Unlike a capped old space (`--max-old-space-size`) it never refuses memory the live data
 * needs: a big batch merge still gets its heap, it is only collected sooner.
 */
export function limitHeapGrowth(percent: number): void {
  // 0: leave V8's own heuristics in place.
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
