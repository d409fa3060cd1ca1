// `npm test`: every suite on the embedded database (PGlite), then again on PostgreSQL when
// DATABASE_URL is set, less the files whose answer cannot depend on the engine (below). Each run
// creates databases of its own (see test/global-setup.ts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { engineFreeFiles } from './lib/test-files.mjs';

const require = createRequire(import.meta.url);
const vitest = path.join(path.dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
const extra = process.argv.slice(2);

function run(label, env, exclude = []) {
  process.stdout.write(`\n=== tests on ${label} ===\n`);
  const started = Date.now();
  const cpuBefore = machineCpu();
  // Besides the usual report, a JSON one read back below for each file's own time.
  const report = path.join(mkdtempSync(path.join(tmpdir(), 'vitest-report-')), 'report.json');
  // A filter naming only such files leaves the second pass nothing to run, which is not a failure.
  const args = [
    vitest,
    'run',
    ...(exclude.length ? ['--passWithNoTests'] : []),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...extra,
  ];
  // The files left out reach vitest.config.ts's projects through TEST_PASS_EXCLUDE (vitest's own
  // --exclude does not).
  const r = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...env, TEST_PASS_EXCLUDE: exclude.join('\n') } });
  printTimes(label, report, Date.now() - started, cpuBefore);
  return r.status === 0;
}

/** The machine's CPU time so far, busy and all, in clock ticks (/proc/stat; null elsewhere). */
function machineCpu() {
  try {
    const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = ticks[3] + (ticks[4] ?? 0);
    const all = ticks.reduce((a, b) => a + b, 0);
    return { busy: all - idle, all };
  } catch {
    return null;
  }
}

/**
 * The pass's wall time, how busy the machine's cores were over it (near 100 % the pass waits on
 * CPU, and running more side by side would not help; well below, it waits on timers and other
 * processes), and its slowest files, so a slow CI run says where the time went.
 */
function printTimes(label, report, wallMs, cpuBefore) {
  let files = [];
  try {
    files = JSON.parse(readFileSync(report, 'utf8')).testResults.map((f) => ({ name: path.relative(process.cwd(), f.name), ms: f.endTime - f.startTime }));
  } catch {
    // No report (the run stopped before writing one): the wall time alone.
  }
  const slowest = files.sort((a, b) => b.ms - a.ms).slice(0, 15);
  const cpuAfter = machineCpu();
  const busy = cpuBefore && cpuAfter ? `, cores ${Math.round((100 * (cpuAfter.busy - cpuBefore.busy)) / (cpuAfter.all - cpuBefore.all))} % busy` : '';
  process.stdout.write(`\n=== ${label}: ${Math.round(wallMs / 1000)} s wall${busy}, ${files.length} files; slowest: ===\n`);
  for (const f of slowest) process.stdout.write(`${String(Math.round(f.ms / 1000)).padStart(5)} s  ${f.name}\n`);
}

// A file that reads neither the database target nor TEST_DATABASE_URL (pure units, the
// published artefacts, the dashboard's helpers, the import boundaries, a test on an embedded
// database of its own; scripts/lib/test-files.mjs) gives the same answer on either engine: the
// second pass leaves it out.

// The dashboard's browser suites test pages: what the API under them answers is proved on both
// engines by the API's own suites, so they run on the embedded database only. Except printing
// labels: its bulk buy is a batch the job workers run while the page waits on it, and on
// PostgreSQL those workers are pg-boss on a pool of connections polling every second (one
// connection and a 5 s poll on the embedded engine), so the page's wait for the batch, its
// progress and the merged file it prints meet a different queue there.
const DASHBOARD_ONLY = ['test/browser/!(print-labels).browser.test.ts'];

const { DATABASE_URL } = process.env;
let ok = run('PGlite (embedded)', { TEST_DATABASE_URL: '' });
if (DATABASE_URL) {
  const engineFree = engineFreeFiles();
  process.stdout.write(`\n${engineFree.length} files never read the database target: the PostgreSQL pass leaves them out, and the browser suites but one\n`);
  ok = run('PostgreSQL', { TEST_DATABASE_URL: DATABASE_URL }, [...engineFree, ...DASHBOARD_ONLY]) && ok;
}
process.exit(ok ? 0 : 1);
