// `npm start` (and `npm run migrate`, `npm run worker`): build only when dist/ is missing or older than the sources, then run the server
// in this same process (so SIGTERM reaches it directly).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { buildWeb, webIsStale } from './build-web.mjs';

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
const stale = !existsSync(stamp) || !existsSync('dist/server.js') ||
  Math.max(newestMtime('src'), newestMtime('migrations')) > statSync(stamp).mtimeMs;
if (stale) {
  process.stderr.write('Building (dist/ missing or out of date)…\n');
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
} else if (webIsStale()) {
  // The dashboard alone is missing or out of date: build just that (a few seconds).
  process.stderr.write('Building the dashboard (web/dist missing or out of date)…\n');
  try {
    await buildWeb();
  } catch (err) {
    process.stderr.write(`Dashboard build failed (${err?.message ?? err}); the API starts without it.\n`);
  }
}
// `node scripts/start.mjs [server|worker|migrate]`
const entry = process.argv[2] ?? 'server';
if (!['server', 'worker', 'migrate'].includes(entry)) throw new Error(`unknown entry ${entry}`);
await import(path.resolve(`dist/${entry}.js`));
