// `npm test`: every suite on the embedded database (PGlite), then again on PostgreSQL when
// DATABASE_URL is set. Each run creates databases of its own (see test/global-setup.ts).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const vitest = path.join(path.dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
const extra = process.argv.slice(2);

function run(label, env, exclude = []) {
  process.stdout.write(`\n=== tests on ${label} ===\n`);
  // A filter naming only such files leaves the second pass nothing to run, which is not a failure.
  const args = [vitest, 'run', ...exclude.flatMap((glob) => ['--exclude', glob]), ...(exclude.length ? ['--passWithNoTests'] : []), ...extra];
  const r = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status === 0;
}

// Files that never open a database (checks of the published artefacts, the dashboard's pure
// helpers, the import boundaries, the bundle guard) give the same answer on either engine: the
// second pass leaves them out.
const ENGINE_FREE = ['test/docs/**', 'test/web/**', 'test/sanity/import-boundaries.test.ts', 'test/platform/bundle-guard.test.ts', 'test/clients/generated.test.ts'];

const { DATABASE_URL } = process.env;
let ok = run('PGlite (embedded)', { TEST_DATABASE_URL: '' });
if (DATABASE_URL) ok = run('PostgreSQL', { TEST_DATABASE_URL: DATABASE_URL }, ENGINE_FREE) && ok;
process.exit(ok ? 0 : 1);
