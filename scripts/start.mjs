// `npm start` (and `npm run migrate`, `npm run worker`): build only when dist/ is missing or older than the sources, then run the server
// in this same process (so SIGTERM reaches it directly).
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

const stamp = 'dist/.build-stamp';
// The bundle also depends on how it is built and on the installed packages.
const buildInputs = ['scripts/build.mjs', 'scripts/bundle-guard.mjs', 'package-lock.json'];
const isStale = () =>
  !existsSync(stamp) ||
  !existsSync('dist/server.js') ||
  Math.max(newestMtime('src'), newestMtime('migrations'), ...buildInputs.map((f) => statSync(f, { throwIfNoEntry: false })?.mtimeMs ?? 0)) >
    statSync(stamp).mtimeMs;

// Several processes may start at once on a stale tree (test files in parallel, a server and a
// worker): one builds while the others wait, then they see a fresh tree. Without this, one
// process's build removes dist/ under another that is loading it. The lock file holds the
// builder's PID; a lock whose builder is gone (killed mid-build) is taken over.
const lock = 'dist-build.lock';
function lockIsStale() {
  try {
    process.kill(Number(readFileSync(lock, 'utf8')), 0);
    return Date.now() - statSync(lock).mtimeMs > 600_000;
  } catch (err) {
    return err.code === 'ESRCH' || err.code === 'ENOENT' || err.code === 'EISDIR';
  }
}
function withBuildLock(fn) {
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      if (lockIsStale()) rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

if (isStale()) {
  withBuildLock(() => {
    if (!isStale()) return; // another process built it while this one waited
    process.stderr.write('Building (dist/ missing or out of date)…\n');
    execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  });
}
// `node scripts/start.mjs [server|worker|migrate]`
const entry = process.argv[2] ?? 'server';
if (!['server', 'worker', 'migrate'].includes(entry)) throw new Error(`unknown entry ${entry}`);
await import(path.resolve(`dist/${entry}.js`));
