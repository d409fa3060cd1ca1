import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module of the build scripts, without type declarations
import { assertBundleSafe, packageOf, packagesReadingBesideThemselves } from '../../scripts/bundle-guard.mjs';

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
