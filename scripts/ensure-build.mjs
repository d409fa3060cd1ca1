// Build dist/ only when it is missing or older than the sources (`npm start` and built-tree tests).
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

// The bundle also depends on how it is built and on the installed packages.
const buildInputs = ['scripts/build.mjs', 'scripts/bundle-guard.mjs', 'package-lock.json'];

function stale() {
  const stamp = 'dist/.build-stamp';
  return (
    !existsSync(stamp) ||
    !existsSync('dist/server.js') ||
    Math.max(newestMtime('src'), newestMtime('migrations'), ...buildInputs.map((f) => statSync(f, { throwIfNoEntry: false })?.mtimeMs ?? 0)) >
      statSync(stamp).mtimeMs
  );
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

// Several processes may start at once on a stale tree (test files in parallel, a server and a
// worker): one builds while the others wait, then they see a fresh tree. Without this, one
// process's build removes dist/ under another that is loading it. The lock file holds the
// builder's PID; a lock whose builder is gone (killed mid-build) is taken over.
const lock = '.build-lock';
function lockIsStale() {
  try {
    process.kill(Number(readFileSync(lock, 'utf8')), 0);
    return Date.now() - statSync(lock).mtimeMs > 600_000;
  } catch (err) {
    return err.code === 'ESRCH' || err.code === 'ENOENT' || err.code === 'EISDIR';
  }
}

/** Builds when stale; one build at a time (the build starts by deleting dist/, so two would collide). */
export function ensureBuild() {
  if (!stale()) return;
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      if (lockIsStale()) rmSync(lock, { recursive: true, force: true });
      else sleep(200);
    }
  }
  try {
    if (stale()) {
      process.stderr.write('Building (dist/ missing or out of date)…\n');
      execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
    }
  } finally {
    rmSync(lock, { force: true });
  }
}
