// A package that finds its own files at run time (`__dirname`, `__filename`, or a URL relative
// to `import.meta.url`) breaks once esbuild inlines it into dist/src: `__dirname` is not defined
// in an ES module, and `import.meta.url` then names the bundle, not the package. postal-codes-js
// did this (every international address answered 500 from the built tree only). The build
// refuses such a package unless it is listed in `external` (loaded from node_modules as it is)
// or below, with the reason its file lookup never runs in this service.
import { readFileSync } from 'node:fs';

/** Bundled on purpose although they mention `__dirname`: the code path never runs here. */
export const harmlessFileLookups = {
  // Pino transports run in a worker thread started from a file; our logger writes JSON to stdout and starts no transport.
  pino: 'transports only (none configured)',
  'thread-stream': 'pino transports only (none configured)',
  // Reads its own package.json for a default `info.version`, inside a try/catch; openapi.ts sets the version.
  '@fastify/swagger': 'default info.version only, caught',
};

const FILE_LOOKUP = /\b__dirname\b|\b__filename\b|new URL\([^)]*import\.meta\.url/;

/** `node_modules/@scope/name/lib/x.js` → `@scope/name` (the innermost node_modules wins). */
export function packageOf(file) {
  const parts = file.split(/[\\/]/);
  const i = parts.lastIndexOf('node_modules');
  if (i < 0) return undefined;
  return parts[i + 1]?.startsWith('@') ? `${parts[i + 1]}/${parts[i + 2]}` : parts[i + 1];
}

/**
 * The packages inlined into the bundle (esbuild's metafile inputs) whose code looks up files
 * beside itself, with one offending file each; `read` is injectable for tests.
 */
export function packagesReadingBesideThemselves(metafile, { read = (f) => readFileSync(f, 'utf8'), allowed = harmlessFileLookups } = {}) {
  const found = new Map();
  for (const file of Object.keys(metafile.inputs)) {
    const pkg = packageOf(file);
    if (!pkg || pkg in allowed || found.has(pkg)) continue;
    if (FILE_LOOKUP.test(read(file))) found.set(pkg, file);
  }
  return found;
}

export function assertBundleSafe(metafile, options) {
  const found = packagesReadingBesideThemselves(metafile, options);
  if (found.size === 0) return;
  const list = [...found].map(([pkg, file]) => `  ${pkg} (${file})`).join('\n');
  throw new Error(
    `These packages look up files beside their own code, which breaks inside the bundle:\n${list}\n` +
      `Add them to \`external\` in scripts/build.mjs (or, if the lookup never runs, to harmlessFileLookups in scripts/bundle-guard.mjs, with the reason).`,
  );
}
