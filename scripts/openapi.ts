// `npm run openapi`: writes the live OpenAPI document to openapi.json at the repo root. The file
// is committed so the client (packages/client), the Postman collection and reviewers have it
// without starting the service; test/docs/openapi-file.test.ts fails when it is stale.
import { writeFileSync } from 'node:fs';
import { loadOpenApiDocument, serializeOpenApi } from './lib/openapi-document.js';

const out = 'openapi.json';
const doc = await loadOpenApiDocument();
writeFileSync(out, serializeOpenApi(doc));
process.stdout.write(`wrote ${out} (${Object.keys(doc.paths).length} paths)\n`);
