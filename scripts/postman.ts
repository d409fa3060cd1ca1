// `npm run postman`: the Postman collection and environment from the committed openapi.json
// (run `npm run openapi` first when routes changed). Requests use {{base_url}}, {{api_key}} and
// {{workspace_id}}, which the environment file declares; test/docs/postman.test.ts checks there is
// one request per operation.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const converter = require('openapi-to-postmanv2') as {
  convert: (input: { type: 'json'; data: unknown }, options: Record<string, unknown>, cb: (err: Error | null, result: { result: boolean; reason?: string; output: Array<{ data: unknown }> }) => void) => void;
};

const doc = JSON.parse(readFileSync('openapi.json', 'utf8'));
const collection = await new Promise<Record<string, unknown>>((resolve, reject) =>
  converter.convert({ type: 'json', data: doc }, { folderStrategy: 'Tags', requestParametersResolution: 'Example', exampleParametersResolution: 'Example', includeAuthInfoInExample: false }, (err, res) => {
    if (err) return reject(err);
    if (!res.result) return reject(new Error(res.reason));
    resolve(res.output[0].data as Record<string, unknown>);
  }),
);

// One set of variables for every request: the converter's {{baseUrl}} becomes the environment's
// base_url, and credentials come from the collection-level auth and header rather than per request.
// Per-request bearer auth (the converter's {{bearerToken}}) uses the key too; for /api/admin routes
// put a session token from POST /api/auth/login in api_key instead.
let text = JSON.stringify(collection).replaceAll('{{baseUrl}}', '{{base_url}}').replaceAll('{{bearerToken}}', '{{api_key}}');
const out = JSON.parse(text) as Record<string, unknown> & { item: unknown[] };
delete out.variable;
out.auth = { type: 'bearer', bearer: [{ key: 'token', value: '{{api_key}}', type: 'string' }] };
out.event = [
  {
    listen: 'prerequest',
    script: {
      type: 'text/javascript',
      exec: [
        "// X-Service-Workspace on every request, and a fresh Idempotency-Key on every POST.",
        "pm.request.headers.upsert({ key: 'X-Service-Workspace', value: pm.environment.get('workspace_id') || '' });",
        "if (pm.request.method === 'POST' && !pm.request.headers.has('Idempotency-Key')) pm.request.headers.upsert({ key: 'Idempotency-Key', value: pm.variables.replaceIn('{{$guid}}') });",
      ],
    },
  },
];
text = `${JSON.stringify(out, null, 2)}\n`;
writeFileSync('postman/shipping-service.postman_collection.json', text);

const environment = {
  name: 'Shipping service (local)',
  values: [
    { key: 'base_url', value: 'http://localhost:3000', type: 'default', enabled: true },
    { key: 'workspace_id', value: 'ws_…', type: 'default', enabled: true },
    { key: 'api_key', value: '', type: 'secret', enabled: true },
  ],
  _postman_variable_scope: 'environment',
};
writeFileSync('postman/shipping-service.postman_environment.json', `${JSON.stringify(environment, null, 2)}\n`);
process.stdout.write('wrote postman/shipping-service.postman_collection.json and postman/shipping-service.postman_environment.json\n');
