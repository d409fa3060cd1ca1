// The dashboard (web/) → web/dist: index.html plus hashed assets, served by the API at
// /dashboard. Kept apart from the server's esbuild bundle (dist/): the server only reads these
// files at run time. `node scripts/build-web.mjs` builds; start.mjs builds only when stale.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'web');
const stamp = path.join(web, 'dist', '.build-stamp');

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/** True when web/dist is missing or older than any source of the dashboard. */
export function webIsStale() {
  if (!existsSync(stamp) || !existsSync(path.join(web, 'dist', 'index.html'))) return true;
  const sources = Math.max(newestMtime(path.join(web, 'src')), newestMtime(path.join(web, 'index.html')), newestMtime(path.join(web, 'vite.config.ts')));
  return sources > statSync(stamp).mtimeMs;
}

export async function buildWeb() {
  // Vite is a build tool (devDependency): a production install ships web/dist already built.
  const { build } = await import('vite');
  // Always the production build (React's production runtime and JSX transform), also when a
  // test runner that set NODE_ENV=test asks for it: Vite and the React plugin both read it.
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: path.join(web, 'vite.config.ts'), root: web, mode: 'production', logLevel: 'warn' });
  } finally {
    if (previous === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previous;
  }
  writeFileSync(stamp, new Date().toISOString());
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildWeb();
}
