import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module of the build scripts, without type declarations
import { assertBundleSafe, assertLeanStart, packageOf, packagesLoadedAtStart, packagesReadingBesideThemselves } from '../../scripts/bundle-guard.mjs';

// The build refuses to inline a package that finds its files beside its own code (it breaks
// only in dist/: postal-codes-js did, pdfkit's font metrics would). esbuild's metafile lists
// the inputs; the guard reads them.
const files: Record<string, string> = {
  'node_modules/postal-codes-js/formats-node.js': "return eval('require')(path.join(__dirname, 'formats', f));",
  'node_modules/pdfkit/js/pdfkit.js': "fs.readFileSync(__dirname + '/data/Helvetica.afm')",
  'node_modules/some-esm/index.js': "readFileSync(new URL('./data.json', import.meta.url))",
  'node_modules/kysely/dist/esm/index.js': 'export const sql = 1;',
  'node_modules/pino/lib/transport.js': "join(__dirname, 'worker.js')",
  'dist/src/app.js': 'const here = __dirname;',
};
const metafile = { inputs: Object.fromEntries(Object.keys(files).map((f) => [f, {}])) };
const read = (f: string) => files[f];

describe('the bundle guard', () => {
  it('names each bundled package that looks up files beside itself, except the listed harmless ones', () => {
    const found = packagesReadingBesideThemselves(metafile, { read });
    expect([...found.keys()].sort()).toEqual(['pdfkit', 'postal-codes-js', 'some-esm']);
  });

  it('fails the build with what to do', () => {
    expect(() => assertBundleSafe(metafile, { read })).toThrow(/postal-codes-js[\s\S]*external/);
    expect(() => assertBundleSafe({ inputs: { 'node_modules/kysely/dist/esm/index.js': {} } }, { read })).not.toThrow();
  });

  it('finds the package of a file, scoped and nested', () => {
    expect(packageOf('node_modules/@fastify/swagger/lib/x.js')).toBe('@fastify/swagger');
    expect(packageOf('node_modules/a/node_modules/b/index.js')).toBe('b');
    expect(packageOf('dist/src/app.js')).toBeUndefined();
  });
});

// What loads on first use stays out of what an entry point loads before it runs: the chunks it
// imports statically, transitively (esbuild's metafile outputs and their imports).
describe('the start-up guard', () => {
  const outputs = (serverImports: Array<{ path: string; kind: string }>) => ({
    outputs: {
      'dist/src/server.bundle.js': { entryPoint: 'dist/src/server.js', inputs: { 'dist/src/server.js': {} }, imports: serverImports },
      'dist/src/chunk-MAIN.js': {
        inputs: { 'node_modules/fastify/fastify.js': {}, 'node_modules/i18n-iso-countries/index.js': {} },
        imports: [{ path: 'dist/src/chunk-BARCODE.js', kind: 'dynamic-import' }],
      },
      'dist/src/chunk-BARCODE.js': { inputs: { 'node_modules/bwip-js/dist/bwip-js-node.mjs': {} }, imports: [] },
      'dist/src/chunk-LOCALES.js': { inputs: { 'node_modules/i18n-iso-countries/langs/de.json': {} }, imports: [] },
      'dist/src/chunk-MAIL.js': { inputs: { 'node_modules/nodemailer/lib/nodemailer.js': {} }, imports: [] },
    },
  });

  it('passes when what loads on first use is only imported dynamically', () => {
    const metafile = outputs([{ path: 'dist/src/chunk-MAIN.js', kind: 'import-statement' }]);
    expect(packagesLoadedAtStart(metafile, 'dist/src/server.js')).toEqual([]);
    expect(() => assertLeanStart(metafile, 'dist/src/server.js')).not.toThrow();
  });

  it('names each such package a static import reaches, however deep, and the locale tables', () => {
    const metafile = outputs([{ path: 'dist/src/chunk-MAIN.js', kind: 'import-statement' }]);
    metafile.outputs['dist/src/chunk-MAIN.js'].imports.push(
      { path: 'dist/src/chunk-MAIL.js', kind: 'import-statement' },
      { path: 'dist/src/chunk-LOCALES.js', kind: 'import-statement' },
    );
    expect(packagesLoadedAtStart(metafile, 'dist/src/server.js')).toEqual(['i18n-iso-countries locales', 'nodemailer']);
    expect(() => assertLeanStart(metafile, 'dist/src/server.js')).toThrow(/nodemailer[\s\S]*dynamic import\(\)/);
  });

  it('fails on an entry point the build did not write', () => {
    expect(() => packagesLoadedAtStart(outputs([]), 'dist/src/nothing.js')).toThrow(/no output/);
  });
});
