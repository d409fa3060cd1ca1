// `npm test`: every suite on the embedded database (PGlite), then again on PostgreSQL when
// DATABASE_URL is set. Each run creates databases of its own (see test/global-setup.ts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const vitest = path.join(path.dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
const extra = process.argv.slice(2);

function run(label, env, exclude = []) {
  process.stdout.write(`\n=== tests on ${label} ===\n`);
  const started = Date.now();
  // Besides the usual report, a JSON one read back below for each file's own time.
  const report = path.join(mkdtempSync(path.join(tmpdir(), 'vitest-report-')), 'report.json');
  // A filter naming only such files leaves the second pass nothing to run, which is not a failure.
  const args = [
    vitest,
    'run',
    ...exclude.flatMap((glob) => ['--exclude', glob]),
    ...(exclude.length ? ['--passWithNoTests'] : []),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...extra,
  ];
  const r = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  printTimes(label, report, Date.now() - started);
  return r.status === 0;
}

/** The pass's wall time and its slowest files, so a slow CI run says where the time went. */
function printTimes(label, report, wallMs) {
  let files = [];
  try {
    files = JSON.parse(readFileSync(report, 'utf8')).testResults.map((f) => ({ name: path.relative(process.cwd(), f.name), ms: f.endTime - f.startTime }));
  } catch {
    // No report (the run stopped before writing one): the wall time alone.
  }
  const slowest = files.sort((a, b) => b.ms - a.ms).slice(0, 15);
  process.stdout.write(`\n=== ${label}: ${Math.round(wallMs / 1000)} s wall, ${files.length} files; slowest: ===\n`);
  for (const f of slowest) process.stdout.write(`${String(Math.round(f.ms / 1000)).padStart(5)} s  ${f.name}\n`);
}

// Files that never open a database (checks of the published artefacts, the dashboard's pure
// helpers, the import boundaries, the bundle guard) give the same answer on either engine: the
// second pass leaves them out.
const ENGINE_FREE = ['test/docs/**', 'test/web/**', 'test/sanity/import-boundaries.test.ts', 'test/platform/bundle-guard.test.ts', 'test/clients/generated.test.ts'];

const { DATABASE_URL } = process.env;
let ok = run('PGlite (embedded)', { TEST_DATABASE_URL: '' });
if (DATABASE_URL) ok = run('PostgreSQL', { TEST_DATABASE_URL: DATABASE_URL }, ENGINE_FREE) && ok;
process.exit(ok ? 0 : 1);
