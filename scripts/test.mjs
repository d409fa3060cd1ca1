// `npm test`: every suite on the embedded database (PGlite), then again on PostgreSQL when
// DATABASE_URL is set. Each run creates databases of its own (see test/global-setup.ts).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const vitest = path.join(path.dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
const extra = process.argv.slice(2);

function run(label, env) {
  process.stdout.write(`\n=== tests on ${label} ===\n`);
  const r = spawnSync(process.execPath, [vitest, 'run', ...extra], { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status === 0;
}

const { DATABASE_URL } = process.env;
let ok = run('PGlite (embedded)', { TEST_DATABASE_URL: '' });
if (DATABASE_URL) ok = run('PostgreSQL', { TEST_DATABASE_URL: DATABASE_URL }) && ok;
process.exit(ok ? 0 : 1);
