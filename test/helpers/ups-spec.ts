import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv, { type ValidateFunction } from 'ajv';
import { parse as parseYaml } from 'yaml';

/**
 * UPS's published OpenAPI documents (../shared/carrier-specs/ups), loaded as published and
 * turned into request/response validators for the fake UPS server.
 *
 * Read as published, with the in-memory repairs the files need (never edited on disk):
 * - CRLF line ends → LF; TABs (Shipping.yaml, Tracking.yaml) → two spaces;
 * - Shipping.yaml has two single-quoted descriptions whose continuation lines are indented no
 *   deeper than their key (line 14219 `AgentRole`, …): `yaml` and `js-yaml` both refuse them,
 *   so such continuation lines are indented two more spaces.
 * Known contradictions between UPS's constraints and UPS's own listed values, where the
 * validator follows the listed value (see `OVERRIDES` below):
 * - Rating `requestoption` path parameter: maxLength 10, yet lists `Shoptimeintransit` (17);
 * - Pickup creation `PickupDateInfo.PickupDate`: minLength = maxLength = 4, yet described as
 *   yyyyMMdd, and every example sends 8 characters.
 */

/** `UPS_SPECS_DIR` points elsewhere (or at nothing, to prove the tests run without the documents). */
export const UPS_SPEC_DIR = process.env.UPS_SPECS_DIR ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/carrier-specs/ups');
const FILES = ['OAuthClientCredentials', 'Rating', 'Shipping', 'Tracking', 'AddressValidation', 'Pickup'] as const;
const METHODS = ['get', 'post', 'put', 'delete'] as const;

type Doc = Record<string, any>;

export function readUpsYaml(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').replace(/\t/g, '  ').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^( *)[A-Za-z0-9_$"-]+: '(.*)$/.exec(lines[i]);
    if (!m || m[2].replace(/''/g, '').includes("'")) continue;
    const indent = m[1].length;
    for (let j = i + 1; j < lines.length; j++) {
      const lead = /^ */.exec(lines[j])![0].length;
      if (lead <= indent && lines[j].trim() !== '') lines[j] = ' '.repeat(indent + 2 - lead) + lines[j];
      if (lines[j].replace(/''/g, '').includes("'")) break;
    }
  }
  return lines.join('\n');
}

export interface UpsOperation {
  file: string;
  operationId: string;
  method: string;
  template: string;
  regex: RegExp;
  pathParams: string[];
  parameters: { name: string; in: string; required?: boolean; schema?: Record<string, any> }[];
  requestSchema: string | null;
  requestContentType: string | null;
  /** status → schema ref (JSON) */
  responses: Record<string, string | null>;
}

export interface UpsSpecs {
  ops: UpsOperation[];
  ajv: Ajv;
  docs: Record<string, Doc>;
  validator(ref: string): ValidateFunction;
  match(method: string, path: string): UpsOperation | null;
  /** Problems with a request as sent: unknown route, path/query/header parameters, body. */
  checkRequest(method: string, url: URL, headers: Record<string, string | string[] | undefined>, body: string): { op: UpsOperation | null; problems: string[] };
  checkResponse(op: UpsOperation, status: number, body: unknown): string[];
}

function serverPrefix(doc: Doc, op: Doc): string {
  const url: string = (op.servers ?? doc.servers ?? [{ url: '/' }])[0].url;
  return new URL(url, 'https://x').pathname.replace(/\/$/, '');
}

function refOf(content: Doc | undefined, type: string): string | null {
  const schema = content?.[type]?.schema;
  return schema?.$ref ?? null;
}

/** An inline schema whose `$ref`s point into its own document, re-pointed at the added doc. */
function rebase(schema: unknown, file: string): unknown {
  if (Array.isArray(schema)) return schema.map((s) => rebase(s, file));
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(
      Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `ups-${file}${v}` : rebase(v, file)]),
    );
  }
  return schema;
}

const OVERRIDES: ((docs: Record<string, Doc>) => void)[] = [
  (docs) => {
    const info = docs.Pickup?.components?.schemas?.PickupCreationRequest_PickupDateInfo;
    if (info?.properties?.PickupDate) Object.assign(info.properties.PickupDate, { minLength: 8, maxLength: 8 });
  },
];

export function loadUpsSpecs(): UpsSpecs | null {
  if (!existsSync(UPS_SPEC_DIR)) return null;
  const docs: Record<string, Doc> = {};
  for (const f of FILES) docs[f] = parseYaml(readUpsYaml(readFileSync(resolve(UPS_SPEC_DIR, `${f}.yaml`), 'utf8')), { maxAliasCount: -1 });
  for (const o of OVERRIDES) o(docs);
  // OpenAPI 3.0 schemas are draft-04/07-ish with extra keywords (nullable, xml, example): not strict.
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, validateFormats: false });
  for (const f of FILES) ajv.addSchema(docs[f], `ups-${f}`);
  const ops: UpsOperation[] = [];
  for (const f of FILES) {
    const doc = docs[f];
    for (const [template, item] of Object.entries<Doc>(doc.paths)) {
      if (template.includes('deprecatedVersion')) continue;
      for (const method of METHODS) {
        const op = item[method];
        if (!op || /^deprecated/i.test(op.operationId ?? '')) continue;
        const full = `${serverPrefix(doc, op)}${template}`;
        const pathParams: string[] = [];
        const regex = new RegExp(
          `^${full.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_m, name) => {
            pathParams.push(name);
            return '([^/]+)';
          })}$`,
        );
        const content = op.requestBody?.content;
        const requestContentType = content ? Object.keys(content)[0] : null;
        const ref = requestContentType ? refOf(content, requestContentType) : null;
        const responses: Record<string, string | null> = {};
        for (const [status, r] of Object.entries<Doc>(op.responses ?? {})) responses[status] = refOf(r.content, 'application/json');
        ops.push({
          file: f,
          operationId: op.operationId,
          method: method.toUpperCase(),
          template: full,
          regex,
          pathParams,
          parameters: [...(item.parameters ?? []), ...(op.parameters ?? [])],
          requestSchema: ref ? `ups-${f}${ref}` : null,
          requestContentType,
          // an inline request schema (OAuth's form body) is compiled from the operation itself
          ...(ref === null && requestContentType ? { inlineRequest: rebase(content[requestContentType].schema, f) } : {}),
          responses: Object.fromEntries(Object.entries(responses).map(([s, r]) => [s, r ? `ups-${f}${r}` : null])),
        } as UpsOperation);
      }
    }
  }
  const cache = new Map<string, ValidateFunction>();
  const inlineCache = new Map<UpsOperation, ValidateFunction>();
  const validator = (ref: string) => {
    let v = cache.get(ref);
    if (!v) {
      v = ajv.compile({ $ref: ref });
      cache.set(ref, v);
    }
    return v;
  };
  const errorsOf = (v: ValidateFunction) => (v.errors ?? []).slice(0, 10).map((e) => `${e.instancePath || '/'} ${e.message}${e.params && 'allowedValues' in e.params ? ` ${JSON.stringify(e.params.allowedValues)}` : ''}`);

  const match = (method: string, path: string) => ops.find((o) => o.method === method && o.regex.test(path)) ?? null;

  return {
    ops,
    ajv,
    docs,
    validator,
    match,
    checkRequest(method, url, headers, body) {
      const op = match(method, url.pathname);
      if (!op) return { op: null, problems: [`no UPS operation ${method} ${url.pathname}`] };
      const problems: string[] = [];
      const values = op.regex.exec(url.pathname)!.slice(1).map(decodeURIComponent);
      const lowerHeaders = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
      for (const p of op.parameters) {
        const schema = p.schema ?? {};
        let value: string | undefined;
        if (p.in === 'path') value = values[op.pathParams.indexOf(p.name)];
        else if (p.in === 'query') value = url.searchParams.get(p.name) ?? undefined;
        else if (p.in === 'header') value = lowerHeaders[p.name.toLowerCase()] as string | undefined;
        if (value === undefined) {
          if (p.required) problems.push(`${p.in} parameter ${p.name} is required`);
          continue;
        }
        // `version` lists one valid value, the schema's default.
        if (p.in === 'path' && p.name === 'version' && schema.default && value !== schema.default) problems.push(`path version must be ${schema.default}, got ${value}`);
        if (op.operationId === 'Rate' && p.name === 'requestoption') {
          // Contradiction: maxLength 10, but the listed values include Shoptimeintransit.
          if (!['Rate', 'Shop', 'Ratetimeintransit', 'Shoptimeintransit'].includes(value)) problems.push(`requestoption ${value} is not a listed value`);
          continue;
        }
        if (schema.maxLength && value.length > schema.maxLength) problems.push(`${p.in} ${p.name} longer than ${schema.maxLength}`);
        if (schema.type === 'integer' && !/^\d+$/.test(value)) problems.push(`${p.in} ${p.name} must be an integer`);
      }
      const declaredQuery = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
      for (const name of url.searchParams.keys()) if (!declaredQuery.has(name)) problems.push(`query parameter ${name} is not declared`);
      const contentType = String(lowerHeaders['content-type'] ?? '');
      if (op.requestContentType) {
        if (!contentType.includes(op.requestContentType)) problems.push(`content-type ${contentType} is not ${op.requestContentType}`);
        let parsed: unknown;
        if (op.requestContentType.includes('json')) {
          try {
            parsed = JSON.parse(body);
          } catch {
            problems.push('request body is not JSON');
          }
        } else parsed = Object.fromEntries(new URLSearchParams(body));
        if (parsed !== undefined) {
          const inline = (op as UpsOperation & { inlineRequest?: Record<string, unknown> }).inlineRequest;
          let v = op.requestSchema ? validator(op.requestSchema) : null;
          if (!v && inline) {
            v = inlineCache.get(op) ?? ajv.compile(inline);
            inlineCache.set(op, v);
          }
          if (v && !v(parsed)) problems.push(...errorsOf(v).map((e) => `body ${e}`));
        }
      } else if (body.length > 0) problems.push('this operation takes no body');
      return { op, problems };
    },
    checkResponse(op, status, body) {
      const ref = op.responses[String(status)];
      if (ref === undefined) return [`${op.operationId} documents no ${status} answer`];
      if (ref === null) return [];
      const v = validator(ref);
      return v(body) ? [] : errorsOf(v);
    },
  };
}
