import { defineConfig } from 'vitest/config';

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
  },
});
