import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateClientFiles } from '../../scripts/lib/clients/generate.js';

// The Python, PHP and Go clients' generated layer and the shared webhook vectors are what
// `npm run clients` writes from the committed openapi.json (as openapi.json is the live document).
const root = path.resolve(import.meta.dirname, '../..');

describe('generated client files', () => {
  const files = generateClientFiles(JSON.parse(readFileSync(path.join(root, 'openapi.json'), 'utf8')));

  it('are not stale (run `npm run clients` when this fails)', () => {
    const stale = Object.entries(files)
      .filter(([file, text]) => {
        try {
          return readFileSync(path.join(root, file), 'utf8') !== text;
        } catch {
          return true;
        }
      })
      .map(([file]) => file);
    expect(stale).toEqual([]);
  });

  it('leave no generated enum behind that openapi.json no longer has', () => {
    const phpEnums = readdirSync(path.join(root, 'clients/php/src/Enum')).map((f) => `clients/php/src/Enum/${f}`);
    expect(phpEnums.filter((f) => !(f in files))).toEqual([]);
  });

  it('give every operation a method in each language', () => {
    const doc = JSON.parse(readFileSync(path.join(root, 'openapi.json'), 'utf8')) as { paths: Record<string, Record<string, { operationId: string }>> };
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    const py = files['clients/python/shipping_service/_generated.py'];
    const php = files['clients/php/src/Generated/Operations.php'];
    const go = files['clients/go/generated.go'];
    for (const id of ids) {
      expect(py).toContain(`    def ${id.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()}(`);
      expect(php).toContain(`    public function ${id}(`);
      expect(go).toMatch(new RegExp(`\\nfunc \\(c \\*Client\\) ${id[0].toUpperCase()}\\w*\\(ctx context\\.Context`));
      expect(go).toContain(`\t"${id}":`);
    }
  });
});
