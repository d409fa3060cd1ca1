// `npm start` (and `npm run migrate`, `npm run worker`): build only when dist/ is missing or older than the sources, then run the server
// in this same process (so SIGTERM reaches it directly).
import path from 'node:path';
import { ensureBuild } from './ensure-build.mjs';
import { buildWeb, webIsStale } from './build-web.mjs';

ensureBuild();
if (webIsStale()) {
  // The dashboard alone is missing or out of date: build just that (a few seconds).
  process.stderr.write('Building the dashboard (web/dist missing or out of date)…\n');
  try {
    await buildWeb();
  } catch (err) {
    process.stderr.write(`Dashboard build failed (${err?.message ?? err}); the API starts without it.\n`);
  }
}
// `node scripts/start.mjs [server|worker|migrate|backup|restore] [arguments…]`
const entry = process.argv[2] ?? 'server';
if (!['server', 'worker', 'migrate', 'backup', 'restore'].includes(entry)) throw new Error(`unknown entry ${entry}`);
// The entry reads its own arguments from argv[2] on, as when run as `node dist/<entry>.js …`.
if (process.argv.length > 2) process.argv.splice(2, 1);
await import(path.resolve(`dist/${entry}.js`));
