// Build dist/ only when it is missing or older than the sources (`npm start` and built-tree tests).
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
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
  return !existsSync(stamp) || !existsSync('dist/server.js') ||
    Math.max(newestMtime('src'), newestMtime('migrations'), ...buildInputs.map((f) => statSync(f, { throwIfNoEntry: false })?.mtimeMs ?? 0)) >
      statSync(stamp).mtimeMs;
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Builds when stale; one build at a time (the build starts by deleting dist/, so two would collide). */
export function ensureBuild() {
  if (!stale()) return;
  const lock = '.build-lock';
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Someone else is building; a lock left by a killed build is taken over after 10 minutes.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 600_000) rmSync(lock, { recursive: true, force: true });
      sleep(200);
    }
  }
  try {
    if (stale()) {
      process.stderr.write('Building (dist/ missing or out of date)…\n');
      execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
