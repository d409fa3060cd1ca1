import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv, { type ValidateFunction } from 'ajv';
import { parse as parseYaml } from 'yaml';

/**
 * DHL's published OpenAPI description of the MyDHL API (../shared/carrier-specs/dhl_express,
 * `mydhl-api.yaml`, 3.3.1), loaded as published and turned into request/response validators for
 * the fake DHL Express server.
 *
 * Not the UPS loader generalised: that one repairs UPS's files (CRLF, TABs, broken quoted
 * scalars, listed values against constraints) across six documents; this is one document that
 * parses as is but refers to its parameters by `$ref` and declares basic auth per operation.
 * What the two share is small (Ajv over an OpenAPI 3.0 document) and each reads better whole.
 *
 * The document is 1.2 MB: load it once per test file. Ajv compiles a schema the first time it is
 * needed, so only the operations a test touches are compiled.
 * Ajv `multipleOfPrecision`: every DHL number is `multipleOf: 0.001`, which a binary float such as
 * 2.501 fails by a hair without it (DHL's own server accepts three decimals).
 */

export const DHL_SPEC_FILE =
  process.env.DHL_SPEC_FILE ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/carrier-specs/dhl_express/mydhl-api.yaml');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const PREFIX = 'dhl';

type Doc = Record<string, any>;

export interface DhlParameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Record<string, any>;
}

export interface DhlOperation {
  operationId: string;
  method: string;
  template: string;
  regex: RegExp;
  pathParams: string[];
  parameters: DhlParameter[];
  basicAuth: boolean;
  requestSchema: string | null;
  requestContentType: string | null;
  /** status → schema ref (null: documented without a JSON body). */
  responses: Record<string, string | null>;
}

export interface DhlSpecs {
  ops: DhlOperation[];
  doc: Doc;
  /** Milliseconds spent parsing the document. */
  loadMs: number;
  validator(ref: string): ValidateFunction;
  op(operationId: string): DhlOperation;
  match(method: string, path: string): DhlOperation | null;
  /** Problems with a request as sent: unknown route, auth header, path/query/header parameters, body. */
  checkRequest(method: string, url: URL, headers: Record<string, string | string[] | undefined>, body: string): { op: DhlOperation | null; problems: string[] };
  checkResponse(op: DhlOperation, status: number, body: unknown): string[];
}

function deref(doc: Doc, value: Doc): Doc {
  let v = value;
  while (v && typeof v.$ref === 'string')
    v = v.$ref
      .split('/')
      .slice(1)
      .reduce((o: Doc, k: string) => o?.[k], doc);
  return v;
}

/** A query/header/path value (text) as its schema's type, for Ajv. */
function coerce(value: string, schema: Record<string, any>): unknown {
  if (schema.type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  if ((schema.type === 'number' || schema.type === 'integer') && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}

export function loadDhlSpecs(): DhlSpecs | null {
  if (!existsSync(DHL_SPEC_FILE)) return null;
  const started = Date.now();
  const doc: Doc = parseYaml(readFileSync(DHL_SPEC_FILE, 'utf8'), { maxAliasCount: -1 });
  const loadMs = Date.now() - started;
  // OpenAPI 3.0 schemas are draft-04/07-ish with extra keywords (nullable, example): not strict.
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, validateFormats: false, multipleOfPrecision: 6 });
  ajv.addSchema(doc, PREFIX);
  const ops: DhlOperation[] = [];
  for (const [template, item] of Object.entries<Doc>(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const pathParams: string[] = [];
      const regex = new RegExp(
        `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_m, name) => {
          pathParams.push(name);
          return '([^/]+)';
        })}$`,
      );
      const content = op.requestBody?.content;
      const requestContentType = content ? Object.keys(content)[0] : null;
      const ref: string | null = requestContentType ? (content[requestContentType].schema?.$ref ?? null) : null;
      const responses: Record<string, string | null> = {};
      for (const [status, r] of Object.entries<Doc>(op.responses ?? {})) {
        const schemaRef = r.content?.['application/json']?.schema?.$ref;
        responses[status] = schemaRef ? `${PREFIX}${schemaRef}` : null;
      }
      ops.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        template,
        regex,
        pathParams,
        parameters: [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Doc) => deref(doc, p) as DhlParameter),
        basicAuth: (op.security ?? doc.security ?? []).some((s: Doc) => 'basicAuth' in s),
        requestSchema: ref ? `${PREFIX}${ref}` : null,
        requestContentType,
        responses,
      });
    }
  }
  const cache = new Map<string, ValidateFunction>();
  const validator = (ref: string) => {
    let v = cache.get(ref);
    if (!v) {
      v = ajv.compile({ $ref: ref });
      cache.set(ref, v);
    }
    return v;
  };
  const paramValidators = new Map<string, ValidateFunction>();
  const paramValidator = (op: DhlOperation, p: DhlParameter) => {
    const key = `${op.operationId}:${p.in}:${p.name}`;
    let v = paramValidators.get(key);
    if (!v) {
      v = ajv.compile(p.schema ?? {});
      paramValidators.set(key, v);
    }
    return v;
  };
  const errorsOf = (v: ValidateFunction) =>
    (v.errors ?? [])
      .slice(0, 10)
      .map((e) => `${e.instancePath || '/'} ${e.message}${e.params && 'allowedValues' in e.params ? ` ${JSON.stringify(e.params.allowedValues)}` : ''}`);
  // Literal segments win over parameters (`/shipments/{n}/tracking` is not `/shipments`).
  const match = (method: string, path: string) => ops.find((o) => o.method === method && o.regex.test(path)) ?? null;

  return {
    ops,
    doc,
    loadMs,
    validator,
    match,
    op(operationId) {
      const found = ops.find((o) => o.operationId === operationId);
      if (!found) throw new Error(`no DHL operation ${operationId}`);
      return found;
    },
    checkRequest(method, url, headers, body) {
      const op = match(method, url.pathname);
      if (!op) return { op: null, problems: [`no MyDHL operation ${method} ${url.pathname}`] };
      const problems: string[] = [];
      const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : v]));
      if (op.basicAuth && !/^Basic [A-Za-z0-9+/=]+$/.test(lower.authorization ?? '')) problems.push('basic authorization header is required');
      const values = op.regex.exec(url.pathname)!.slice(1).map(decodeURIComponent);
      for (const p of op.parameters) {
        const schema = p.schema ?? {};
        let raw: string | string[] | undefined;
        if (p.in === 'path') raw = values[op.pathParams.indexOf(p.name)];
        else if (p.in === 'query') raw = schema.type === 'array' ? url.searchParams.getAll(p.name) : (url.searchParams.get(p.name) ?? undefined);
        else if (p.in === 'header') raw = lower[p.name.toLowerCase()];
        if (raw === undefined || (Array.isArray(raw) && raw.length === 0)) {
          if (p.required) problems.push(`${p.in} parameter ${p.name} is required`);
          continue;
        }
        const value = Array.isArray(raw) ? raw.map((r) => coerce(r, schema.items ?? {})) : coerce(raw, schema);
        const v = paramValidator(op, p);
        if (!v(value)) problems.push(...errorsOf(v).map((e) => `${p.in} ${p.name}${e.startsWith('/ ') ? e.slice(1) : ` ${e}`}`));
      }
      const declared = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
      for (const name of new Set(url.searchParams.keys())) if (!declared.has(name)) problems.push(`query parameter ${name} is not declared`);
      if (op.requestContentType) {
        const contentType = String(lower['content-type'] ?? '');
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
    checkResponse(op, status, body) {
      const ref = op.responses[String(status)];
      if (ref === undefined) return [`${op.operationId} documents no ${status} answer`];
      if (ref === null) return body === undefined || body === null || body === '' ? [] : [`${op.operationId} ${status} documents no body`];
      const v = validator(ref);
      return v(body) ? [] : errorsOf(v);
    },
  };
}
