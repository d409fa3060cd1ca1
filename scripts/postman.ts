// `npm run postman`: the Postman collection and environment from the committed openapi.json
// (run `npm run openapi` first when routes changed). Requests use {{base_url}}, {{api_key}} and
// {{workspace_id}}, which the environment file declares; test/docs/postman.test.ts checks there is
// one request per operation.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const converter = require('openapi-to-postmanv2') as {
  convert: (
    input: { type: 'json'; data: unknown },
    options: Record<string, unknown>,
    cb: (err: Error | null, result: { result: boolean; reason?: string; output: Array<{ data: unknown }> }) => void,
  ) => void;
};

const doc = JSON.parse(readFileSync('openapi.json', 'utf8'));
const collection = await new Promise<Record<string, unknown>>((resolve, reject) =>
  converter.convert(
    { type: 'json', data: doc },
    { folderStrategy: 'Tags', requestParametersResolution: 'Example', exampleParametersResolution: 'Example', includeAuthInfoInExample: false },
    (err, res) => {
      if (err) return reject(err);
      if (!res.result) return reject(new Error(res.reason));
      resolve(res.output[0].data as Record<string, unknown>);
    },
  ),
);

// One set of variables for every request: the converter's {{baseUrl}} becomes the environment's
// base_url, and credentials come from the collection-level auth and header rather than per request.
// Per-request bearer auth (the converter's {{bearerToken}}) uses the key too; for /api/admin routes
// put a session token from POST /api/auth/login in api_key instead.
// A store platform's webhook signature (the receiver's credential) is computed over each body by
// the platform: Postman cannot make one, so the header holds a placeholder, not a variable.
let text = JSON.stringify(collection)
  .replaceAll('{{baseUrl}}', '{{base_url}}')
  .replaceAll('{{bearerToken}}', '{{api_key}}')
  .replaceAll('{{apiKey}}', 'base64-hmac-sha256-of-the-body');
const out = JSON.parse(text) as Record<string, unknown> & { item: unknown[] };
delete out.variable;
out.auth = { type: 'bearer', bearer: [{ key: 'token', value: '{{api_key}}', type: 'string' }] };
out.event = [
  {
    listen: 'prerequest',
    script: {
      type: 'text/javascript',
      exec: [
        '// X-Service-Workspace on every request, and a fresh Idempotency-Key on every POST.',
        "pm.request.headers.upsert({ key: 'X-Service-Workspace', value: pm.environment.get('workspace_id') || '' });",
        "if (pm.request.method === 'POST' && !pm.request.headers.has('Idempotency-Key')) pm.request.headers.upsert({ key: 'Idempotency-Key', value: pm.variables.replaceIn('{{$guid}}') });",
      ],
    },
  },
];
// A collection a person runs top to bottom: optional query parameters are off (their example
// values stay, one click away), ids in paths are the ones the Getting started folder stores, and
// that folder comes first, in dependency order, with tests that check each answer.
interface PmItem {
  name?: string;
  item?: PmItem[];
  request?: {
    url: {
      path?: string[];
      query?: Array<{ key: string; value: string; disabled?: boolean; description?: unknown }>;
      variable?: Array<{ key: string; value: string }>;
    };
  };
}
const ID_VARIABLES: Record<string, string> = {
  orders: 'order_id',
  shipments: 'shipment_id',
  tracking: 'tracking_number',
  webhooks: 'webhook_id',
  batches: 'batch_id',
  'webhook-deliveries': 'delivery_id',
  'api-keys': 'api_key_id',
};
function tidy(items: PmItem[]): void {
  for (const item of items) {
    if (item.item) tidy(item.item);
    const url = item.request?.url;
    if (!url) continue;
    for (const q of url.query ?? []) q.disabled = true; // no operation has a required query parameter
    const resource = url.path?.[0] === 'v1' ? url.path[1] : undefined;
    for (const v of url.variable ?? []) if (resource && ID_VARIABLES[resource] && v.key === 'id') v.value = `{{${ID_VARIABLES[resource]}}}`;
  }
}
tidy(out.item as PmItem[]);
out.variable = [...new Set([...Object.values(ID_VARIABLES), 'service_code'])].map((key) => ({ key, value: '', type: 'string' }));
out.item.unshift(gettingStarted());
text = `${JSON.stringify(out, null, 2)}\n`;
writeFileSync('postman/shipping-service.postman_collection.json', text);

/** A request of the Getting started folder: method, path, body, expected status, what to store. */
function step(name: string, method: string, path: string, status: number, body?: unknown, store: Record<string, string> = {}, extraTests: string[] = []) {
  const [pathPart, queryPart] = path.split('?');
  const tests = [
    `pm.test('${method} ${pathPart} answers ${status}', () => pm.response.to.have.status(${status}));`,
    ...Object.entries(store).map(
      ([variable, field]) => `if (pm.response.code === ${status}) pm.collectionVariables.set('${variable}', pm.response.json().${field});`,
    ),
    ...extraTests,
  ];
  return {
    name,
    event: [{ listen: 'test', script: { type: 'text/javascript', exec: tests } }],
    request: {
      method,
      header: body === undefined ? [] : [{ key: 'Content-Type', value: 'application/json' }],
      url: {
        raw: `{{base_url}}${path}`,
        host: ['{{base_url}}'],
        path: pathPart.split('/').filter(Boolean),
        query: queryPart ? queryPart.split('&').map((kv) => ({ key: kv.split('=')[0], value: kv.split('=')[1] })) : [],
      },
      ...(body === undefined ? {} : { body: { mode: 'raw', raw: JSON.stringify(body, null, 2), options: { raw: { language: 'json' } } } }),
    },
  };
}

function gettingStarted() {
  const shipFrom = { name: 'Acme Fulfilment', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
  const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
  const parcel = { weight_oz: 20, length_in: 10, width_in: 8, height_in: 4 };
  const order = (externalId: string) => ({
    external_id: externalId,
    ship_from: shipFrom,
    ship_to: shipTo,
    line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 2, weight_oz: 10 }],
    parcel,
  });
  return {
    name: 'Getting started',
    description: 'Run this folder top to bottom (Run collection → Getting started): each request checks its answer and stores the ids the next ones use.',
    item: [
      step('1. Create an order', 'POST', '/v1/orders', 201, order('GS-{{$timestamp}}'), { order_id: 'id' }),
      step(
        '2. Rate the parcel',
        'POST',
        '/v1/rates/query',
        200,
        { ship_from: { postal_code: '10118', country: 'US' }, ship_to: { postal_code: '94105', country: 'US' }, parcel },
        {},
        [
          "pm.test('rates are offered', () => pm.expect(pm.response.json().data.length).to.be.above(0));",
          "if (pm.response.code === 200) pm.collectionVariables.set('service_code', pm.response.json().data[0].service_code);",
        ],
      ),
      step(
        '3. Buy the label',
        'POST',
        '/v1/shipments',
        201,
        { order_id: '{{order_id}}', service_code: '{{service_code}}' },
        { shipment_id: 'id', tracking_number: 'tracking_number' },
      ),
      step('4. Download the label (PDF)', 'GET', '/v1/shipments/{{shipment_id}}/label?format=pdf_4x6', 200, undefined, {}, [
        "pm.test('is a PDF', () => pm.expect(pm.response.headers.get('Content-Type')).to.include('application/pdf'));",
      ]),
      step('5. Track the parcel', 'GET', '/v1/tracking/{{tracking_number}}', 200, undefined, {}, [
        "pm.test('tracks the parcel', () => pm.expect(pm.response.json().tracking_number).to.eql(pm.collectionVariables.get('tracking_number')));",
      ]),
      step('6. Void the label', 'POST', '/v1/shipments/{{shipment_id}}/void', 200, undefined, {}, [
        "pm.test('is voided', () => pm.expect(pm.response.json().status).to.eql('voided'));",
      ]),
      step(
        '7. Register a webhook endpoint',
        'POST',
        '/v1/webhooks',
        201,
        { url: 'https://example.com/hooks/shipping', events: ['shipment.label_purchased', 'tracking.updated'], description: 'Getting started' },
        { webhook_id: 'id' },
        ["pm.test('shows its secret once', () => pm.expect(pm.response.json().secret).to.match(/^whsec_/));"],
      ),
      step('8. Read the webhook endpoint', 'GET', '/v1/webhooks/{{webhook_id}}', 200),
      step('9. Remove the webhook endpoint', 'DELETE', '/v1/webhooks/{{webhook_id}}', 204),
      step('10. Create a second order', 'POST', '/v1/orders', 201, order('GS-B-{{$timestamp}}'), { order_id: 'id' }),
      step(
        '11. Buy its label in a batch',
        'POST',
        '/v1/batches',
        202,
        { type: 'purchase_labels', order_ids: ['{{order_id}}'], service_code: 'cheapest', label_format: 'pdf_4x6' },
        { batch_id: 'id' },
      ),
      step('12. Read the batch', 'GET', '/v1/batches/{{batch_id}}', 200),
      step('13. List the orders (first page)', 'GET', '/v1/orders?limit=2', 200, undefined, {}, [
        "pm.test('is a page', () => pm.expect(pm.response.json()).to.have.keys('data', 'has_more', 'next_cursor'));",
      ]),
    ],
  };
}

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
