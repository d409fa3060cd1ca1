import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { configDefaults, defineConfig } from 'vitest/config';

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

/**
 * The product's own tests (src/), the in-process suites under test/ (platform, security, docs,
 * sanity) and the dashboard's helpers (test/web/) run in shared workers: a worker keeps the
 * modules it has loaded from one file to the next instead of evaluating them afresh for every
 * file, which cost a file about as much CPU as its own tests. A file that opens the run's
 * database closes it, and its app, after its tests (test/helpers/cleanup.ts), so a worker holds
 * one file's at a time. The other suites under test/ keep a fresh module graph each: the built
 * tree, Chromium and other processes (e2e, browser, clients, bench), and the fuzz suite, the
 * largest in memory.
 */
const SHARED = [
  'src/**/*.test.ts',
  'test/web/*.test.ts',
  'test/platform/*.test.ts',
  'test/security/!(fuzz).test.ts',
  'test/docs/*.test.ts',
  'test/sanity/*.test.ts',
];
/**
 * Tests of those folders that need their modules fresh. src/platform/ids.test.ts: its first case
 * mints at a fixed past millisecond and reads that millisecond back, which holds only while no
 * file has minted an id in the process before it (ids never go back in time).
 */
const NEEDS_FRESH_MODULES = ['src/platform/ids.test.ts'];
// The files a pass of `npm test` leaves out (scripts/test.mjs), one glob a line: vitest's own
// --exclude does not reach the projects below.
const PASS_EXCLUDE = (process.env.TEST_PASS_EXCLUDE ?? '').split('\n').filter(Boolean);

// Options of both projects. Not `extends: true`: the projects would each run the globalSetup
// again (the root's runs once, and both see what it provides).
const common = {
  // Generous: several suites start real processes (the built tree, Chromium) on a 2-core machine.
  testTimeout: 60_000,
  hookTimeout: 120_000,
  pool: 'forks' as const,
  setupFiles: ['test/setup/cleanup.ts'],
};

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    // PGlite instances are ~100 MB each; two cores → a few files at once is the sweet spot.
    // One pool for both projects.
    maxWorkers: 3,
    sequence: { sequencer: SlowestFirst },
    projects: [
      {
        test: {
          ...common,
          name: 'isolated',
          include: ['test/**/*.test.ts', 'packages/**/*.test.ts', ...NEEDS_FRESH_MODULES],
          exclude: [...configDefaults.exclude, ...SHARED.filter((glob) => glob.startsWith('test/')), ...PASS_EXCLUDE],
        },
      },
      {
        test: {
          ...common,
          name: 'shared',
          include: SHARED,
          exclude: [...configDefaults.exclude, ...NEEDS_FRESH_MODULES, ...PASS_EXCLUDE],
          isolate: false,
        },
      },
    ],
  },
});
