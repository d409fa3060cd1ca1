import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script without typings
import { ensureBuild } from '../../scripts/ensure-build.mjs';

// V8 holds each loaded source for the life of the process, two bytes a character as soon as one
// character is beyond Latin-1 (README "Memory"): the build escapes what esbuild leaves raw.
beforeAll(() => {
  ensureBuild();
});

describe('the bundles', () => {
  it('hold only Latin-1 characters, so V8 keeps their sources one byte a character', () => {
    const dir = path.resolve('dist/src');
    const bundles = readdirSync(dir).filter((f) => /^(chunk-.*|.*\.bundle)\.js$/.test(f));
    expect(bundles.length).toBeGreaterThan(5);
    const wide = bundles.filter((f) => /[\u0100-\uffff]/.test(readFileSync(path.join(dir, f), 'utf8')));
    expect(wide).toEqual([]);
  });
});
