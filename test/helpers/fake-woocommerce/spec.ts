import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { createSpecChecker, type SpecChecker, type SpecParameter } from '../carrier-openapi.js';

/**
 * WooCommerce's `wc/v3` as published (the OpenAPI document at `WOOCOMMERCE_SPEC_FILE`, read with
 * WooCommerce's official REST docs; docs/channels-woocommerce.md), turned into the request/answer
 * checker of the fake WooCommerce.
 *
 * Required, not optional: without the document the fake would check nothing, so a missing file
 * fails the suite with the path it looked at (`WOOCOMMERCE_SPEC_FILE` points elsewhere).
 *
 * Read as published, with these repairs in memory (the file is never edited), each where the
 * OpenAPI document says less than WooCommerce's own docs or answers:
 * - request bodies declare no required fields: `note` of an order note and `topic` +
 *   `delivery_url` of a new webhook are mandatory in the docs;
 * - request bodies the fake serves are closed (`additionalProperties: false`): WooCommerce
 *   silently ignores a field it does not know, so a misspelt one would otherwise pass unseen;
 * - query parameters are checked against their schema (type, enum) — the shared checker only
 *   checks integers and lengths — plus what the docs add: `per_page` 1–100, `page` ≥ 1, and
 *   dates in the ISO-8601 form WordPress parses (`2017-03-22T16:28:02`, optional fraction and zone);
 * - answers: an order's `status` may also be `trash` (the docs list it; the enum does not), a
 *   line's `product_id` is an integer (the document says string), `version` is WooCommerce's
 *   version string (the document says integer), `date_paid`/`date_completed` are null until
 *   they happen, and meta values are any JSON.
 */
export const WOOCOMMERCE_SPEC_FILE =
  process.env.WOOCOMMERCE_SPEC_FILE ??
  resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/channel-specs/woocommerce/woocommerce-openapi-3.0.x.yml');

type Doc = Record<string, any>;

/** The bodies the connector sends: closed, with the docs' mandatory fields. */
const BODIES: { path: string; method: string; required?: string[] }[] = [
  { path: '/orders/{order_id}/notes', method: 'post', required: ['note'] },
  { path: '/orders/{id}', method: 'put' },
  { path: '/webhooks', method: 'post', required: ['topic', 'delivery_url'] },
  { path: '/webhooks/{id}', method: 'put' },
];

/** What WordPress's `rest_parse_date` accepts. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/;
const DATE_PARAMS = new Set(['after', 'before', 'modified_after', 'modified_before']);

function repair(doc: Doc): void {
  for (const { path, method, required } of BODIES) {
    const schema = doc.paths?.[path]?.[method]?.requestBody?.content?.['application/json']?.schema;
    if (!schema) throw new Error(`the WooCommerce document has no ${method.toUpperCase()} ${path} body any more: review spec.ts`);
    schema.additionalProperties = false;
    if (required) schema.required = required;
  }
  const order = doc.components.schemas.shop_order.properties;
  order.status.enum = [...order.status.enum, 'trash'];
  order.line_items.items.properties.product_id = { type: 'integer' };
  // WooCommerce's own version string (`8.9.1`), and dates an unpaid or open order has not reached (null).
  order.version = { type: 'string' };
  for (const date of ['date_paid', 'date_paid_gmt', 'date_completed', 'date_completed_gmt']) order[date] = { type: ['string', 'null'] };
  for (const list of ['meta_data']) {
    const value = order[list]?.items?.properties?.value;
    if (value) delete value.type;
  }
  for (const line of ['line_items', 'shipping_lines', 'tax_lines', 'fee_lines', 'coupon_lines']) {
    const value = order[line]?.items?.properties?.meta_data?.items?.properties?.value;
    if (value) delete value.type;
  }
}

function checkParameter(p: SpecParameter, value: string): string[] {
  const schema = p.schema ?? {};
  const problems: string[] = [];
  if (p.in === 'query' && DATE_PARAMS.has(p.name) && !ISO_DATE.test(value)) problems.push(`query ${p.name} is not an ISO-8601 date WordPress parses: ${value}`);
  if (schema.type === 'integer' && !/^-?\d+$/.test(value)) problems.push(`${p.in} ${p.name} must be an integer, got ${value}`);
  if (schema.type === 'boolean' && !['true', 'false', '1', '0'].includes(value)) problems.push(`${p.in} ${p.name} must be a boolean, got ${value}`);
  if (schema.enum && !schema.enum.includes(value)) problems.push(`${p.in} ${p.name} must be one of ${schema.enum.join(', ')}, got ${value}`);
  if (p.in === 'query' && p.name === 'per_page' && !(Number(value) >= 1 && Number(value) <= 100))
    problems.push(`query per_page must be 1 to 100, got ${value}`);
  if (p.in === 'query' && p.name === 'page' && !(Number(value) >= 1)) problems.push(`query page must be at least 1, got ${value}`);
  return problems;
}

let cached: SpecChecker | null = null;

export function loadWooSpec(): SpecChecker {
  if (cached) return cached;
  if (!existsSync(WOOCOMMERCE_SPEC_FILE)) {
    throw new Error(
      `WooCommerce's OpenAPI document is missing at ${WOOCOMMERCE_SPEC_FILE}: the fake WooCommerce checks every request against it (set WOOCOMMERCE_SPEC_FILE to its path)`,
    );
  }
  const doc: Doc = parseYaml(readFileSync(WOOCOMMERCE_SPEC_FILE, 'utf8'), { maxAliasCount: -1 });
  repair(doc);
  cached = createSpecChecker(
    { wc: doc },
    {
      idPrefix: 'woocommerce-',
      carrier: 'WooCommerce',
      checkParameter: (_op, p, value) => checkParameter(p, value),
    },
  );
  return cached;
}
