import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { createSpecChecker, type SpecChecker, type SpecOperation, type SpecParameter } from '../carrier-openapi.js';

/**
 * BigCommerce's published OpenAPI documents (../shared/channel-specs/bigcommerce: Orders V2 and
 * Webhooks V3), loaded as published and turned into request/response validators for the fake
 * BigCommerce. Required: the suite fails when they are absent.
 *
 * Read as published, with these repairs in memory (nothing edited on disk):
 * - servers: `https://api.bigcommerce.com/stores/{store_hash}/v2` (and `/v3`) become `/v2` and
 *   `/v3`; the fake checks the `/stores/{store_hash}` prefix itself.
 * - parameters and responses given as `$ref`s are resolved in place (the checker reads them
 *   inline), and each response's inline schema is filed under `components.schemas` so answers are
 *   checked too.
 * - `sort`: the enum lists field names, the description says `field:asc` / `field:desc`; both
 *   forms are accepted.
 * - `Content-Type` is listed as a required header of `GET /orders/{order_id}/products`, which
 *   has no body: it is required only where there is a body.
 * - `POST /orders/{order_id}/shipments`: the description says "Required Fields: order_address_id,
 *   items" and items' "order_product_id (required), quantity (required)"; the schema says
 *   neither, so they are added.
 * - Request bodies we send (shipment create, hook create/update) refuse properties the schema
 *   does not name: stricter than BigCommerce, so a misspelt field is caught here.
 * - `GET /hooks` says `data` has at least one item; a store without hooks answers `data: []`.
 * - `min_date_modified` must be RFC-2822 or ISO-8601, as its description says.
 */

export const BIGCOMMERCE_SPEC_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/channel-specs/bigcommerce');
const FILES = { orders: 'orders.v2.oas2.yml', hooks: 'webhooks.v3.yml' } as const;
const SERVERS: Record<keyof typeof FILES, string> = { orders: '/v2', hooks: '/v3' };

type Doc = Record<string, any>;

const pointer = (doc: Doc, ref: string): any =>
  ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((o: Doc, k) => o?.[k], doc);

function inlineRef(doc: Doc, value: Doc): Doc {
  let v = value;
  for (let hops = 0; v?.$ref && hops < 5; hops++) v = pointer(doc, v.$ref);
  return structuredClone(v);
}

/** Parameters and responses inline; inline response schemas filed as components. */
function repair(doc: Doc, file: string): void {
  doc.servers = [{ url: SERVERS[file as keyof typeof FILES] }];
  doc.components.schemas ??= {};
  for (const [template, item] of Object.entries<Doc>(doc.paths)) {
    if (item.parameters) item.parameters = item.parameters.map((p: Doc) => inlineRef(doc, p));
    for (const method of ['get', 'post', 'put', 'delete']) {
      const op = item[method];
      if (!op) continue;
      if (op.parameters) op.parameters = op.parameters.map((p: Doc) => inlineRef(doc, p));
      if (!op.requestBody) {
        const drop = (list: Doc[] | undefined) => list?.map((p) => (p.in === 'header' && p.name === 'Content-Type' ? { ...p, required: false } : p));
        op.parameters = drop(op.parameters);
      }
      for (const [status, r] of Object.entries<Doc>(op.responses ?? {})) {
        const response = inlineRef(doc, r);
        const schema = response.content?.['application/json']?.schema;
        if (schema && !schema.$ref && Object.keys(schema).length) {
          const name = `fake_${method}_${template.replace(/[^a-z0-9]+/gi, '_')}_${status}`;
          doc.components.schemas[name] = schema;
          response.content['application/json'].schema = { $ref: `#/components/schemas/${name}` };
        }
        op.responses[status] = response;
      }
    }
  }
}

/** The request schemas of the bodies we send, as strict copies (the originals also describe answers). */
function strictBodies(docs: Record<string, Doc>): void {
  const strict = (doc: Doc, template: string, method: string, name: string, edit: (s: Doc) => void = () => {}) => {
    const copy = structuredClone(doc.components.schemas[name]);
    copy.additionalProperties = false;
    edit(copy);
    doc.components.schemas[`fake_strict_${name}`] = copy;
    doc.paths[template][method].requestBody.content['application/json'].schema = { $ref: `#/components/schemas/fake_strict_${name}` };
  };
  strict(docs.orders, '/orders/{order_id}/shipments', 'post', 'orderShipment_Post', (s) => {
    s.required = ['order_address_id', 'items'];
    s.properties.items.items.required = ['order_product_id', 'quantity'];
    s.properties.items.items.additionalProperties = false;
  });
  strict(docs.hooks, '/hooks', 'post', 'webhook_Base');
  strict(docs.hooks, '/hooks/{webhook_id}', 'put', 'webhook_Put');
  // "Returns a list of all webhooks": a store with none answers an empty list, whatever `minItems: 1` says.
  delete docs.hooks.components.schemas.fake_get__hooks_200.properties.data.minItems;
}

const RFC_2822 = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}$/;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** One query/path/header value against its parameter's schema (the checker's default checks only integers and lengths). */
function checkValue(op: SpecOperation, p: SpecParameter, value: string): string[] {
  const schema = p.schema ?? {};
  const where = `${p.in} ${p.name}`;
  if (p.name === 'sort' && p.in === 'query') {
    const [field, direction, ...rest] = value.split(':');
    return schema.enum?.includes(field) && rest.length === 0 && (direction === undefined || direction === 'asc' || direction === 'desc')
      ? []
      : [`${where} ${value} is not field[:asc|:desc] of ${JSON.stringify(schema.enum)}`];
  }
  if (/^(min|max)_date_(modified|created)$/.test(p.name)) {
    return (RFC_2822.test(value) || ISO_8601.test(value)) && !Number.isNaN(Date.parse(value)) ? [] : [`${where} ${value} is neither RFC-2822 nor ISO-8601`];
  }
  const problems: string[] = [];
  const items = schema.type === 'array' ? value.split(',') : [value];
  const itemSchema = schema.type === 'array' ? (schema.items ?? {}) : schema;
  for (const v of items) {
    if (itemSchema.type === 'integer' && !/^-?\d+$/.test(v)) problems.push(`${where} must be an integer, got ${v}`);
    else if (itemSchema.type === 'integer' && itemSchema.minimum !== undefined && Number(v) < itemSchema.minimum)
      problems.push(`${where} must be ≥ ${itemSchema.minimum}`);
    if (itemSchema.type === 'number' && !/^-?\d+(\.\d+)?$/.test(v)) problems.push(`${where} must be a number, got ${v}`);
    if (itemSchema.type === 'boolean' && v !== 'true' && v !== 'false') problems.push(`${where} must be true or false, got ${v}`);
    if (itemSchema.enum && !itemSchema.enum.includes(v)) problems.push(`${where} ${v} is not one of ${JSON.stringify(itemSchema.enum)}`);
  }
  if (schema.maxLength && value.length > schema.maxLength) problems.push(`${where} longer than ${schema.maxLength}`);
  void op;
  return problems;
}

let cached: SpecChecker | null = null;

export function loadBigcommerceSpecs(): SpecChecker {
  if (cached) return cached;
  const docs: Record<string, Doc> = {};
  for (const [name, file] of Object.entries(FILES)) {
    docs[name] = parseYaml(readFileSync(resolve(BIGCOMMERCE_SPEC_DIR, file), 'utf8'), { maxAliasCount: -1 });
    repair(docs[name], name);
  }
  strictBodies(docs);
  cached = createSpecChecker(docs, { idPrefix: 'bigcommerce-', carrier: 'BigCommerce', checkParameter: checkValue });
  return cached;
}
