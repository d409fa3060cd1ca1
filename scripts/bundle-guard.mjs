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

/**
 * Loaded on first use, never at start-up (docs/architecture.md, "Start-up"): a restart pays for
 * every byte of code it loads. A static import that reaches one of these from an entry point
 * pulls it into the start-up chunks again.
 */
export const loadedOnFirstUse = {
  'bwip-js': 'barcodes: label writers and the documents drawn with the label fonts',
  nodemailer: 'the first mail',
  'pdf-lib': 'label conversion and merging',
  pngjs: 'PNG labels',
};

/** The files an output loads before it runs: itself and every chunk it imports statically. */
function staticClosure(metafile, output) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file) || !metafile.outputs[file]) return;
    seen.add(file);
    for (const imported of metafile.outputs[file].imports ?? []) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(output);
  return seen;
}

/** The packages of `loadedOnFirstUse` (and locale tables) that `entry`'s output loads at start-up. */
export function packagesLoadedAtStart(metafile, entry, { lazy = loadedOnFirstUse } = {}) {
  const output = Object.keys(metafile.outputs).find((file) => metafile.outputs[file].entryPoint === entry);
  if (!output) throw new Error(`no output for the entry point ${entry}`);
  const found = new Set();
  for (const file of staticClosure(metafile, output)) {
    for (const input of Object.keys(metafile.outputs[file].inputs ?? {})) {
      const pkg = packageOf(input);
      if (pkg && pkg in lazy) found.add(pkg);
      // i18n-iso-countries' node entry registers every locale's names; its core has none.
      if (pkg === 'i18n-iso-countries' && /\/langs\//.test(input)) found.add('i18n-iso-countries locales');
    }
  }
  return [...found].sort();
}

export function assertLeanStart(metafile, entry, options) {
  const found = packagesLoadedAtStart(metafile, entry, options);
  if (found.length === 0) return;
  throw new Error(
    `${entry} loads at start-up what is meant to load on first use: ${found.join(', ')}.\n` +
      'Import it with a dynamic import() where it is used (docs/architecture.md, "Start-up").',
  );
}
