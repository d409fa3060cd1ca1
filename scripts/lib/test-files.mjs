// Which test files read the database target of the run: shared by `npm test` (scripts/test.mjs,
// whose PostgreSQL pass leaves the others out) and vitest.config.ts (which runs the others'
// units in shared workers).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// A file reaches the pass's database only through the target test/global-setup.ts provides for
// the run (inject('testDb'), in the file or in a test helper it imports) or TEST_DATABASE_URL.
// One that reads neither (pure units, the published artefacts, the dashboard's helpers, the
// import boundaries, a test on an embedded database of its own) gives the same answer on either
// engine, and a file that starts reading the target is counted with the others without a list
// to update.
const DATABASE_TARGET = /inject\(\s*['"]testDb['"]\s*\)|TEST_DATABASE_URL/;
const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function readsDatabaseTarget(file, testHelpers, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  if (DATABASE_TARGET.test(text)) return true;
  for (const [, spec] of text.matchAll(RELATIVE_IMPORT)) {
    // Only test/ code reads the target; the product's modules never do.
    const imported = path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts'));
    if (imported.startsWith(testHelpers) && existsSync(imported) && readsDatabaseTarget(imported, testHelpers, seen)) return true;
  }
  return false;
}

/**
 * The test files of vitest.config.ts's `include` that do not read the target, relative to root
 * (the repository) with `/` separators.
 */
export function engineFreeFiles(root = process.cwd()) {
  const testHelpers = path.resolve(root, 'test') + path.sep;
  const files = ['src', 'test', 'packages'].flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true })
      .map((f) => path.join(dir, f).split(path.sep).join('/'))
      .filter((f) => f.endsWith('.test.ts') && !f.includes('/node_modules/')),
  );
  return files.filter((f) => !readsDatabaseTarget(path.resolve(root, f), testHelpers));
}
