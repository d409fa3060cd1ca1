// `npm run clients`: the Python, PHP and Go clients' generated layer from the committed
// openapi.json (run `npm run openapi` first when routes changed), plus the webhook signature
// vectors every client's tests check. One model (scripts/lib/clients/model.ts), three templates;
// the hand-written cores beside the generated files supply HTTP, retries, errors and pagination.
// test/docs/clients.test.ts fails when a committed file differs from what this writes.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateClientFiles } from './lib/clients/generate.js';

const root = path.resolve(import.meta.dirname, '..');
const files = generateClientFiles(JSON.parse(readFileSync(path.join(root, 'openapi.json'), 'utf8')));
for (const [file, text] of Object.entries(files)) {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}
process.stdout.write(`wrote ${Object.keys(files).join(', ')}\n`);
