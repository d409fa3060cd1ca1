import Ajv, { type ValidateFunction } from 'ajv';

/**
 * A request/response checker over a carrier's published OpenAPI 3.0 documents, for the fake
 * carrier servers: which operation a request is, whether its path, query, header parameters and
 * body match the description, and whether an answer matches the documented response schema.
 * Carrier quirks stay with each carrier's loader (ups-spec.ts, fedex-spec.ts) and come in
 * through the options.
 */

type Doc = Record<string, any>;

export interface SpecParameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Record<string, any>;
}

export interface SpecOperation {
  /** The document's name as the loader keyed it. */
  file: string;
  operationId: string;
  method: string;
  template: string;
  regex: RegExp;
  pathParams: string[];
  parameters: SpecParameter[];
  /** Ajv reference of the body schema (`<prefix><file>#/components/...`). */
  requestSchema: string | null;
  requestContentType: string | null;
  /** An inline request schema (no `$ref`), compiled from the operation itself. */
  inlineRequest?: unknown;
  /** status → schema reference (null: documented without a JSON schema). */
  responses: Record<string, string | null>;
}

export interface SpecChecker {
  ops: SpecOperation[];
  ajv: Ajv;
  docs: Record<string, Doc>;
  validator(ref: string): ValidateFunction;
  match(method: string, path: string): SpecOperation | null;
  /** Problems with a request as sent: unknown route, path/query/header parameters, body. */
  checkRequest(
    method: string,
    url: URL,
    headers: Record<string, string | string[] | undefined>,
    body: string,
  ): { op: SpecOperation | null; problems: string[] };
  checkResponse(op: SpecOperation, status: number, body: unknown): string[];
}

export interface SpecCheckerOptions {
  /** Prefix of the Ajv schema ids, one per document (`ups-`, `fedex-`). */
  idPrefix: string;
  /** Carrier name in problem messages. */
  carrier: string;
  /** Operations the fake never serves (deprecated versions). */
  skip?: (template: string, op: Doc) => boolean;
  /**
   * The request schema to validate against, from the operation's media-type schema: by default
   * its `$ref`. FedEx wraps each body in `oneOf: [full schema, example-only schemas…]`, which no
   * body can match exactly once, so its loader picks the full schema.
   */
  requestRef?: (doc: Doc, schema: Doc) => string | null;
  /**
   * A carrier's own check of one parameter value; return problems, or undefined for the
   * default checks (maxLength, integer).
   */
  checkParameter?: (op: SpecOperation, p: SpecParameter, value: string) => string[] | undefined;
}

const METHODS = ['get', 'post', 'put', 'delete'] as const;

function serverPrefix(doc: Doc, op: Doc): string {
  const url: string = (op.servers ?? doc.servers ?? [{ url: '/' }])[0].url;
  return new URL(url, 'https://x').pathname.replace(/\/$/, '');
}

/** An inline schema whose `$ref`s point into its own document, re-pointed at the added doc. */
function rebase(schema: unknown, id: string): unknown {
  if (Array.isArray(schema)) return schema.map((s) => rebase(s, id));
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(
      Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `${id}${v}` : rebase(v, id)]),
    );
  }
  return schema;
}

export function createSpecChecker(docs: Record<string, Doc>, options: SpecCheckerOptions): SpecChecker {
  const { idPrefix, carrier } = options;
  const requestRef = options.requestRef ?? ((_doc: Doc, schema: Doc) => (schema?.$ref as string | undefined) ?? null);
  // OpenAPI 3.0 schemas are draft-04/07-ish with extra keywords (nullable, xml, example): not strict.
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, validateFormats: false });
  for (const [file, doc] of Object.entries(docs)) ajv.addSchema(doc, `${idPrefix}${file}`);
  const ops: SpecOperation[] = [];
  for (const [file, doc] of Object.entries(docs)) {
    const id = `${idPrefix}${file}`;
    for (const [template, item] of Object.entries<Doc>(doc.paths ?? {})) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op || options.skip?.(template, op)) continue;
        const full = `${serverPrefix(doc, op)}${template}`;
        const pathParams: string[] = [];
        const regex = new RegExp(
          `^${full.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_m, name: string) => {
            pathParams.push(name);
            return '([^/]+)';
          })}$`,
        );
        const content = op.requestBody?.content;
        const requestContentType = content ? Object.keys(content)[0] : null;
        const schema = requestContentType ? content[requestContentType].schema : null;
        const ref = schema ? requestRef(doc, schema) : null;
        const responses: Record<string, string | null> = {};
        for (const [status, r] of Object.entries<Doc>(op.responses ?? {})) {
          const rs = r.content?.['application/json']?.schema?.$ref as string | undefined;
          responses[status] = rs ? `${id}${rs}` : null;
        }
        ops.push({
          file,
          operationId: op.operationId,
          method: method.toUpperCase(),
          template: full,
          regex,
          pathParams,
          parameters: [...(item.parameters ?? []), ...(op.parameters ?? [])],
          requestSchema: ref ? `${id}${ref}` : null,
          requestContentType,
          ...(ref === null && schema ? { inlineRequest: rebase(schema, id) } : {}),
          responses,
        });
      }
    }
  }
  const cache = new Map<string, ValidateFunction>();
  const inlineCache = new Map<SpecOperation, ValidateFunction>();
  const validator = (ref: string) => {
    let v = cache.get(ref);
    if (!v) {
      v = ajv.compile({ $ref: ref });
      cache.set(ref, v);
    }
    return v;
  };
  const errorsOf = (v: ValidateFunction) =>
    (v.errors ?? [])
      .slice(0, 10)
      .map((e) => `${e.instancePath || '/'} ${e.message}${e.params && 'allowedValues' in e.params ? ` ${JSON.stringify(e.params.allowedValues)}` : ''}`);
  const match = (method: string, path: string) => ops.find((o) => o.method === method && o.regex.test(path)) ?? null;

  return {
    ops,
    ajv,
    docs,
    validator,
    match,
    checkRequest(method, url, headers, body) {
      const op = match(method, url.pathname);
      if (!op) return { op: null, problems: [`no ${carrier} operation ${method} ${url.pathname}`] };
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
        const own = options.checkParameter?.(op, p, value);
        if (own) {
          problems.push(...own);
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
          let v = op.requestSchema ? validator(op.requestSchema) : null;
          if (!v && op.inlineRequest) {
            v = inlineCache.get(op) ?? ajv.compile(op.inlineRequest as object);
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
