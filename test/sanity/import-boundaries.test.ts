import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The import-boundary check (`npm run lint:deps`: dependency-cruiser with .dependency-cruiser.cjs)
 * fails on a deliberate break of each import rule (docs/architecture.md). A small tree laid out like the service's
 * is written to a temp folder, with one bad import per rule beside imports that are allowed,
 * and cruised with the project's own configuration.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const files: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true },
    include: ['src/**/*.ts', 'migrations/**/*.ts'],
  }),
  // Allowed: a module's own files, another module through its index, a test reaching inside.
  'src/modules/alpha/index.ts': `export { alphaService } from './alpha.service.js';\n`,
  'src/modules/alpha/alpha.service.ts': `export const alphaService = () => 1;\n`,
  'src/modules/alpha/alpha.tables.ts': `export interface AlphaRow { id: string }\n`,
  'src/modules/beta/index.ts': `export { betaService } from './beta.service.js';\n`,
  'src/modules/beta/beta.service.ts': `import { alphaService } from '../alpha/index.js';\nexport const betaService = () => alphaService();\n`,
  'src/modules/beta/beta.service.test.ts': `import { alphaService } from '../alpha/alpha.service.js';\nexport const t = alphaService;\n`,
  // Deliberate deep import: gamma reaches into alpha's tables.
  'src/modules/gamma/index.ts': `export { gammaService } from './gamma.service.js';\n`,
  'src/modules/gamma/gamma.service.ts': `import type { AlphaRow } from '../alpha/alpha.tables.js';\nexport const gammaService = (row: AlphaRow) => row.id;\n`,
  // Deliberate cycle between two modules (through their indexes, which is otherwise fine).
  'src/modules/delta/index.ts': `import { epsilon } from '../epsilon/index.js';\nexport const delta = () => epsilon;\n`,
  'src/modules/epsilon/index.ts': `import { delta } from '../delta/index.js';\nexport const epsilon = () => delta;\n`,
  // app.ts may import a module's index, not its internals.
  'src/app.ts': `import { betaService } from './modules/beta/index.js';\nimport { alphaService } from './modules/alpha/alpha.service.js';\nexport const app = [betaService, alphaService];\n`,
  // platform imports no module.
  'src/platform/errors.ts': `import { alphaService } from '../modules/alpha/index.js';\nexport const e = alphaService;\n`,
  // A carrier imports no Fastify, no database and no module (its types are fine).
  'src/carriers/types.ts': `export interface CarrierDefinition { slug: string }\n`,
  'src/carriers/acme/index.ts': `import type { CarrierDefinition } from '../types.js';\nimport Fastify from 'fastify';\nexport const carrier: CarrierDefinition = { slug: String(Fastify) };\n`,
  // Migrations import nothing from src/.
  'migrations/2026-01-01-0001-x.ts': `import { alphaService } from '../src/modules/alpha/index.js';\nexport const up = alphaService;\n`,
};

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: Array<{ name: string }>;
}

describe('the import-boundary check', () => {
  let dir: string;
  let violations: Violation[];
  let status: number | null;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'boundaries-'));
    for (const [file, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, file)), { recursive: true });
      await writeFile(join(dir, file), text);
    }
    await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    const cruise = (outputType: string) =>
      spawnSync(
        join(ROOT, 'node_modules/.bin/depcruise'),
        ['src', 'migrations', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', outputType],
        {
          cwd: dir,
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        },
      );
    // As `npm run lint:deps` reports (its exit status), and in full (JSON) to see what it found.
    status = cruise('err').status;
    violations = (JSON.parse(cruise('json').stdout) as { summary: { violations: Violation[] } }).summary.violations;
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // npm packages resolve through the node_modules symlink (a path relative to the temp folder);
  // a cycle is reported once, from whichever end the cruise met first.
  const found = () =>
    [
      ...new Set(
        violations.map((v) =>
          v.rule.name === 'no-circular'
            ? `no-circular: ${[v.from, v.to].sort().join(' ↔ ')}`
            : `${v.rule.name}: ${v.from} → ${v.to.replace(/^.*\/node_modules\//, 'node_modules/')}`,
        ),
      ),
    ].sort();

  it('exits non-zero', () => {
    expect(status).not.toBe(0);
  });

  it('flags each deliberate break, and nothing that is allowed', () => {
    expect(found()).toEqual(
      [
        'carriers-stay-pure: src/carriers/acme/index.ts → node_modules/fastify/fastify.js',
        'migrations-import-nothing-from-src: migrations/2026-01-01-0001-x.ts → src/modules/alpha/index.ts',
        'module-deep-import: src/modules/gamma/gamma.service.ts → src/modules/alpha/alpha.tables.ts',
        'no-circular: src/modules/delta/index.ts ↔ src/modules/epsilon/index.ts',
        'outside-deep-import: src/app.ts → src/modules/alpha/alpha.service.ts',
        'platform-imports-no-module: src/platform/errors.ts → src/modules/alpha/index.ts',
        'platform-imports-no-module-types: src/platform/errors.ts → src/modules/alpha/index.ts',
      ].sort(),
    );
  });

  it('passes on the service itself, with no exception', () => {
    const run = spawnSync('npm', ['run', '--silent', 'lint:deps'], { cwd: ROOT, encoding: 'utf8' });
    expect(run.status, run.stdout + run.stderr).toBe(0);
  }, 120_000);
});
