import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MEMORY_MODULE = fileURLToPath(new URL('./memory.ts', import.meta.url));

/**
 * The largest V8 heap (MiB) of a fresh process that keeps ~40 MiB live while it churns through
 * ~1 GiB of objects that live a while (survive young collections, as in-flight requests do),
 * after `limitHeapGrowth(percent)`.
 */
function peakHeapMiB(percent: number): number {
  const script = `
    import { limitHeapGrowth } from ${JSON.stringify(MEMORY_MODULE)};
    limitHeapGrowth(${percent});
    // Held to the end (a global), as the service's own long-lived data is.
    globalThis.live = Array.from({ length: 40 }, () => new Array(128 * 1024).fill(1.5));
    let peak = 0, keep = [];
    for (let i = 0; i < 9_000; i++) {
      keep.push(Array.from({ length: 1000 }, (_, j) => ({ j, s: 'x' + j })));
      if (keep.length > 300) keep = [];
      if (i % 50 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal);
    }
    process.stdout.write(String(Math.round(peak / 1048576)));
  `;
  return Number(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' }));
}

describe('limitHeapGrowth', () => {
  it('keeps the heap near what is live under churn, where V8 alone lets it grow', () => {
    const unlimited = peakHeapMiB(0);
    const limited = peakHeapMiB(20);
    expect(limited).toBeLessThan(unlimited * 0.8);
  }, 60_000);
});
