import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse as parseYaml } from 'yaml';

/**
 * USPS's published v3 OpenAPI documents (../shared/carrier-specs/usps/openapi), loaded as
 * published and turned into request/response validators for the fake USPS server.
 *
 * What the documents do not cover, and how this loader fills it (never by editing the files):
 * - OAuth (`POST /oauth2/v3/token`) has no OpenAPI document (SOURCES.md says so); its request
 *   is checked against a schema written from the README's "Example OAuth Client Credentials
 *   Token request" (JSON body: client_id, client_secret, grant_type=client_credentials).
 * - Multipart label answers: the fake checks the JSON metadata part against the
 *   `labelMetadata` property of `LabelMultiPartResponse` (and the whole set of parts, image
 *   parts as base64 strings, against the multipart schema).
 * Known contradictions inside USPS's documents, repaired in memory (see `repairContradictions`):
 * - `allOf` whose member says `additionalProperties: false` while a sibling member declares
 *   other properties (International Labels `packageDescription`: weight and dimensions;
 *   Carrier Pickup `pickupAddress`: firstName, lastName, firm), or a closed schema whose own
 *   `allOf` declares its properties (Carrier Pickup `PickupAddress`): as published nothing
 *   with those properties could validate, so the closed part is opened.
 * - `oneOf` whose object branches require nothing (Carrier Pickup `contact`: `{email}` or
 *   `{cellNumber}`): every contact matches both branches, so as published none is valid; read
 *   as `anyOf`.
 * - Tracking's `mailClass` enum lacks USPS_GROUND_ADVANTAGE (left as published: our fixture
 *   omits the optional field rather than bending the document).
 */

export const USPS_SPEC_DIR = process.env.USPS_SPECS_DIR ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/carrier-specs/usps');
const FILES = ['domestic-prices', 'domestic-labels', 'international-labels', 'payments', 'tracking', 'addresses', 'carrier-pickup', 'scan-forms'] as const;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

type Doc = Record<string, any>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Record<string, unknown>;
}

export interface UspsOperation {
  file: string;
  operationId: string;
  method: string;
  template: string;
  regex: RegExp;
  pathParams: string[];
  parameters: Parameter[];
  requestContentType: string | null;
  requestSchema: unknown;
  /** status → content type → schema (rebased onto the document's id) */
  responses: Record<string, Record<string, unknown>>;
  /** Operations that need no bearer token (OAuth itself). */
  public: boolean;
}

export interface UspsSpecs {
  ops: UspsOperation[];
  docs: Record<string, Doc>;
  op(file: string, operationId: string): UspsOperation;
  match(method: string, path: string): UspsOperation | null;
  checkRequest(
    method: string,
    url: URL,
    headers: Record<string, string | string[] | undefined>,
    body: string,
  ): { op: UspsOperation | null; problems: string[] };
  /** `body` is the parsed JSON answer, or for a multipart answer an object of its parts. */
  checkResponse(op: UspsOperation, status: number, body: unknown, contentType?: string): string[];
}

/** The OAuth request as the README's example sends it. */
const TOKEN_REQUEST_SCHEMA = {
  type: 'object',
  required: ['client_id', 'client_secret', 'grant_type'],
  additionalProperties: false,
  properties: {
    client_id: { type: 'string', minLength: 1 },
    client_secret: { type: 'string', minLength: 1 },
    grant_type: { enum: ['client_credentials'] },
    scope: { type: 'string' },
  },
};

function resolveIn(doc: Doc, node: any): any {
  return node && typeof node.$ref === 'string' && node.$ref.startsWith('#/')
    ? resolveIn(
        doc,
        node.$ref
          .slice(2)
          .split('/')
          .reduce((o: any, k: string) => o?.[k], doc),
      )
    : node;
}

/** Properties an allOf member declares, through `$ref`s and nested `allOf`s. */
function declared(doc: Doc, node: any, seen = new Set<unknown>()): Set<string> {
  const n = resolveIn(doc, node);
  const out = new Set<string>();
  if (!n || typeof n !== 'object' || seen.has(n)) return out;
  seen.add(n);
  for (const k of Object.keys(n.properties ?? {})) out.add(k);
  for (const m of n.allOf ?? []) for (const k of declared(doc, m, seen)) out.add(k);
  return out;
}

function repairContradictions(doc: Doc, node: unknown, seen = new Set<unknown>()): void {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) return node.forEach((n) => repairContradictions(doc, n, seen));
  const o = node as Doc;
  if (Array.isArray(o.allOf) && o.additionalProperties === false) {
    // Closed itself while its allOf members declare the properties (Carrier Pickup `PickupAddress`).
    const own = new Set(Object.keys(o.properties ?? {}));
    if (o.allOf.some((m: unknown) => [...declared(doc, m)].some((k) => !own.has(k)))) delete o.additionalProperties;
  }
  if (Array.isArray(o.allOf)) {
    const members = o.allOf.map((m: unknown) => resolveIn(doc, m));
    members.forEach((m: Doc, i: number) => {
      if (m?.additionalProperties !== false) return;
      const own = new Set(Object.keys(m.properties ?? {}));
      const others = members.filter((_x: unknown, j: number) => j !== i).flatMap((x: unknown) => [...declared(doc, x)]);
      if (others.some((k: string) => !own.has(k))) delete m.additionalProperties;
    });
  }
  if (Array.isArray(o.oneOf)) {
    const branches = o.oneOf.map((b: unknown) => resolveIn(doc, b));
    if (branches.length > 1 && branches.every((b: Doc) => b?.type === 'object' && !b.required?.length)) {
      o.anyOf = o.oneOf;
      delete o.oneOf;
    }
  }
  Object.values(o).forEach((v) => repairContradictions(doc, v, seen));
}

/**
 * OpenAPI 3.0 writes `exclusiveMinimum: true` beside `minimum` (draft 4); Ajv takes the JSON
 * Schema draft 7 form, a number. Rewritten in memory, with the same meaning.
 */
function draft7Bounds(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(draft7Bounds);
  if (!node || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof o[flag] !== 'boolean') continue;
    if (o[flag] && typeof o[bound] === 'number') {
      o[flag] = o[bound];
      delete o[bound];
    } else delete o[flag];
  }
  Object.values(o).forEach(draft7Bounds);
}

function deref(doc: Doc, node: any): any {
  if (node && typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
    return node.$ref
      .slice(2)
      .split('/')
      .reduce((o: any, k: string) => o?.[k], doc);
  }
  return node;
}

/** A schema inline in an operation, its `#/…` refs pointed at the document added to Ajv. */
function rebase(schema: unknown, id: string): unknown {
  if (Array.isArray(schema)) return schema.map((s) => rebase(s, id));
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(
      Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `${id}${v}` : rebase(v, id)]),
    );
  }
  return schema;
}

function serverPrefix(doc: Doc): string {
  return new URL(doc.servers?.[0]?.url ?? '/', 'https://x').pathname.replace(/\/$/, '');
}

export function loadUspsSpecs(): UspsSpecs | null {
  const dir = resolve(USPS_SPEC_DIR, 'openapi');
  if (!existsSync(dir)) return null;
  const docs: Record<string, Doc> = {};
  for (const f of FILES) docs[f] = parseYaml(readFileSync(resolve(dir, `${f}.yaml`), 'utf8'), { maxAliasCount: -1 });
  for (const f of FILES) repairContradictions(docs[f], docs[f]);
  for (const f of FILES) draft7Bounds(docs[f]);
  // OpenAPI 3.0 schemas carry keywords Ajv does not know (xml, example): not strict.
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  // OpenAPI's numeric and binary formats say nothing a JSON validator can check.
  for (const f of ['double', 'float', 'int32', 'int64', 'byte', 'binary']) ajv.addFormat(f, true);
  for (const f of FILES) ajv.addSchema(docs[f], `usps-${f}`);

  const ops: UspsOperation[] = [
    {
      file: 'README',
      operationId: 'oauth-token',
      method: 'POST',
      template: '/oauth2/v3/token',
      regex: /^\/oauth2\/v3\/token$/,
      pathParams: [],
      parameters: [],
      requestContentType: 'application/json',
      requestSchema: TOKEN_REQUEST_SCHEMA,
      responses: {},
      public: true,
    },
  ];
  for (const f of FILES) {
    const doc = docs[f];
    const id = `usps-${f}`;
    for (const [template, item] of Object.entries<Doc>(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const full = `${serverPrefix(doc)}${template}`;
        const pathParams: string[] = [];
        const regex = new RegExp(
          `^${full.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_m, name: string) => {
            pathParams.push(name);
            return '([^/]+)';
          })}$`,
        );
        const content = op.requestBody?.content as Doc | undefined;
        const requestContentType = content ? (Object.keys(content).find((t) => t.includes('json')) ?? Object.keys(content)[0]) : null;
        const responses: Record<string, Record<string, unknown>> = {};
        for (const [status, r] of Object.entries<Doc>(op.responses ?? {})) {
          const res = deref(doc, r);
          responses[status] = Object.fromEntries(Object.entries<Doc>(res?.content ?? {}).map(([t, c]) => [t, c.schema ? rebase(c.schema, id) : null]));
        }
        const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Doc) => {
          const d = deref(doc, p);
          return { ...d, schema: d.schema ? rebase(d.schema, id) : undefined } as Parameter;
        });
        ops.push({
          file: f,
          operationId: op.operationId,
          method: method.toUpperCase(),
          template: full,
          regex,
          pathParams,
          parameters,
          requestContentType,
          requestSchema: requestContentType && content?.[requestContentType]?.schema ? rebase(content[requestContentType].schema, id) : null,
          responses,
          public: false,
        });
      }
    }
  }

  const cache = new Map<unknown, ValidateFunction>();
  const validator = (schema: unknown) => {
    let v = cache.get(schema);
    if (!v) {
      v = ajv.compile(schema as object);
      cache.set(schema, v);
    }
    return v;
  };
  const errorsOf = (v: ValidateFunction) =>
    (v.errors ?? [])
      .slice(0, 10)
      .map(
        (e) =>
          `${e.instancePath || '/'} ${e.message}${e.params && 'allowedValues' in e.params ? ` ${JSON.stringify(e.params.allowedValues)}` : ''}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`,
      );
  const match = (method: string, path: string) => ops.find((o) => o.method === method && o.regex.test(path)) ?? null;

  /** A parameter arrives as text: numbers and booleans are read as such before validation. */
  const paramValue = (schema: Record<string, unknown> | undefined, raw: string): unknown => {
    const t = schema?.type;
    if ((t === 'integer' || t === 'number') && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
    if (t === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
    return raw;
  };

  return {
    ops,
    docs,
    match,
    op(file, operationId) {
      const found = ops.find((o) => o.file === file && o.operationId === operationId);
      if (!found) throw new Error(`no USPS operation ${file} ${operationId}`);
      return found;
    },
    checkRequest(method, url, headers, body) {
      const op = match(method, url.pathname);
      if (!op) return { op: null, problems: [`no USPS operation ${method} ${url.pathname}`] };
      const problems: string[] = [];
      const values = op.regex.exec(url.pathname)!.slice(1).map(decodeURIComponent);
      const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : v]));
      for (const p of op.parameters) {
        let raw: string | undefined;
        if (p.in === 'path') raw = values[op.pathParams.indexOf(p.name)];
        else if (p.in === 'query') raw = url.searchParams.get(p.name) ?? undefined;
        else if (p.in === 'header') raw = lower[p.name.toLowerCase()];
        else continue;
        if (raw === undefined) {
          if (p.required) problems.push(`${p.in} parameter ${p.name} is required`);
          continue;
        }
        if (p.schema) {
          const v = validator(p.schema);
          if (!v(paramValue(p.schema, raw))) problems.push(...errorsOf(v).map((e) => `${p.in} ${p.name} ${e}`));
        }
      }
      const declared = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
      for (const name of url.searchParams.keys()) if (!declared.has(name)) problems.push(`query parameter ${name} is not declared`);
      if (!op.public && !/^Bearer \S+$/.test(lower.authorization ?? '')) problems.push('no Bearer token (every v3 API takes OAuth)');
      if (op.requestContentType) {
        const contentType = lower['content-type'] ?? '';
        if (!contentType.includes(op.requestContentType)) problems.push(`content-type ${contentType} is not ${op.requestContentType}`);
        let parsed: unknown;
        try {
          parsed = JSON.parse(body);
        } catch {
          problems.push('request body is not JSON');
        }
        if (parsed !== undefined && op.requestSchema) {
          const v = validator(op.requestSchema);
          if (!v(parsed)) problems.push(...errorsOf(v).map((e) => `body ${e}`));
        }
      } else if (body.length > 0) problems.push('this operation takes no body');
      return { op, problems };
    },
    checkResponse(op, status, body, contentType = 'application/json') {
      if (op.public) return [];
      const byType = op.responses[String(status)] ?? op.responses.default;
      if (!byType) return [`${op.operationId} documents no ${status} answer`];
      const type = Object.keys(byType).find((t) => contentType.startsWith(t));
      if (type === undefined) return Object.keys(byType).length === 0 ? [] : [`${op.operationId} ${status} has no ${contentType} answer`];
      const schema = byType[type];
      if (!schema) return [];
      const v = validator(schema);
      return v(body) ? [] : errorsOf(v);
    },
  };
}
