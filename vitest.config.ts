import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The files that take longest on either engine (the slowest lists `npm test` prints), slowest
 * first, then the rest of the files that start processes or Chromium. With a few workers, a
 * long file started last keeps the whole pass waiting on it alone; started first it runs beside
 * the short ones. Vitest's own order cannot know this on a fresh checkout (it goes by the
 * durations it cached, none after `npm ci`, else by file size), and on the PostgreSQL pass it
 * would put the PostgreSQL-only files last, their PGlite durations being the skip's 0 s.
 */
const SLOWEST = [
  'test/e2e/scale-out.test.ts',
  'test/browser/operations.browser.test.ts',
  'test/e2e/built-tree-operations.test.ts',
  'test/e2e/batches-crash.test.ts',
  'test/security/fuzz.test.ts',
  'test/e2e/webhooks-lease.test.ts',
];
const PROCESS_DIRS = ['test/e2e/', 'test/browser/'];

function rank(file: string): number {
  const index = SLOWEST.indexOf(file);
  if (index >= 0) return index;
  return PROCESS_DIRS.some((dir) => file.startsWith(dir)) ? SLOWEST.length : SLOWEST.length + 1;
}

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ranked = (await super.sort(files)).map((spec, order) => ({
      spec,
      order,
      rank: rank(path.relative(spec.project.config.root, spec.moduleId).split(path.sep).join('/')),
    }));
    return ranked.sort((a, b) => a.rank - b.rank || a.order - b.order).map((r) => r.spec);
  }
}

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'packages/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Generous: several suites start real processes (the built tree, Chromium) on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // PGlite instances are ~100 MB each; two cores → a few files at once is the sweet spot.
    maxWorkers: 3,
    sequence: { sequencer: SlowestFirst },
  },
});
