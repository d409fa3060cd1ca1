import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';

// The OpenAPI document as the security and fuzz suites walk it: every operation, the kind of
// credential it needs, and fast-check arbitraries generated from its schemas. New routes are
// covered as soon as they appear in /openapi.json.

export type JsonSchema = Record<string, unknown>;
export interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}
export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI template, `/v1/orders/{id}`. */
  path: string;
  operationId: string;
  security: Array<Record<string, unknown>> | null;
  parameters: Parameter[];
  body?: JsonSchema;
  auth: AuthKind;
}
export interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        security?: Array<Record<string, unknown>>;
        parameters?: Parameter[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
      }
    >
  >;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** Which credential a route wants (the guards: docs/api-conventions.md, Authentication). */
/** `signature`: a store platform's webhook, whose signature over the body is the credential. */
export type AuthKind = 'none' | 'apiKey' | 'session' | 'admin' | 'superAdmin' | 'ingestKey' | 'signature';

export function authKind(path: string, security: Operation['security']): AuthKind {
  if (!security || security.length === 0) return 'none';
  if (security.some((s) => 'platformSignature' in s)) return 'signature';
  // /metrics is open outside production unless METRICS_TOKEN is set (the test app sets none).
  if (security.every((s) => Object.keys(s).every((k) => k === 'metricsToken'))) return 'none';
  if (path.startsWith('/v1/')) return 'apiKey';
  if (path.startsWith('/api/super-admin/')) return 'superAdmin';
  if (path.startsWith('/api/admin/')) return 'admin';
  if (path.startsWith('/api/integrations/')) return 'ingestKey';
  const schemes = security.flatMap((s) => Object.keys(s));
  if (schemes.includes('ingestKey')) return 'ingestKey';
  if (schemes.includes('apiKey')) return 'apiKey';
  return 'session';
}

export async function loadOperations(app: FastifyInstance): Promise<{ doc: OpenApiDoc; operations: Operation[] }> {
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as OpenApiDoc;
  const operations: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const security = op.security ?? null;
      operations.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        operationId: op.operationId,
        security,
        parameters: op.parameters ?? [],
        body: op.requestBody?.content?.['application/json']?.schema,
        auth: authKind(path, security),
      });
    }
  }
  return { doc, operations };
}

export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? 'x'));
}

export function pathParams(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
}

/** The collection a templated path acts on: `/api/admin/orders/{orderId}/process` → `orders`. */
export function collectionOf(template: string): string | undefined {
  const m = /\/([a-z0-9-]+)\/\{[^}]+\}/.exec(template);
  return m?.[1];
}

// ---- schemas → arbitraries ----

function resolve(schema: JsonSchema, doc: OpenApiDoc): JsonSchema {
  let s = schema;
  for (let i = 0; i < 10 && typeof s.$ref === 'string'; i++) {
    const name = (s.$ref as string).split('/').pop()!;
    s = { ...(doc.components?.schemas?.[name] ?? {}), ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$ref')) };
  }
  return s;
}

const instants = fc.date({ min: new Date('2020-01-01'), max: new Date('2035-01-01'), noInvalidDate: true });
const FORMAT_SAMPLES: Record<string, fc.Arbitrary<string>> = {
  'date-time': instants.map((d) => d.toISOString()),
  date: instants.map((d) => d.toISOString().slice(0, 10)),
  // List filters (an ISO date or date-time).
  'date-or-date-time': fc.oneof(
    instants.map((d) => d.toISOString()),
    instants.map((d) => d.toISOString().slice(0, 10)),
  ),
  email: fc.emailAddress(),
  uri: fc.webUrl(),
};

/** The formats that carry a date or a time: every field with one gets OUT_OF_RANGE_DATES too. */
export const DATE_FORMATS = ['date', 'date-time', 'date-or-date-time'];

/**
 * Dates and times no field may accept: years PostgreSQL or JavaScript does not have (0000,
 * five and six digits, negative), days and times that do not exist, offsets no time zone
 * uses, and in-range text that leaves the range once its offset is applied. Year 0000 was a
 * 500 on every date parameter; these keep a new one from repeating it.
 */
export const OUT_OF_RANGE_DATES = [
  '0000-01-01T00:00:00Z',
  '0000-01-01',
  '0000-12-31T23:59:59.999Z',
  '10000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '+010000-01-01',
  '-000001-01-01T00:00:00Z',
  '2026-02-30',
  '2026-02-30T12:00:00Z',
  '2025-02-29T12:00:00Z',
  '2026-04-31T00:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-01-01T24:00:00Z',
  '2026-03-03T13:60:00Z',
  '2026-03-03T13:60:00-05:00',
  '2026-03-03T13:00:60Z',
  '2026-03-03T13:00:00+24:00',
  '2026-03-03T13:00:00-99:99',
  '0001-01-01T00:00:00+01:00',
  '9999-12-31T23:59:59-14:00',
];
const outOfRangeDate = fc.constantFrom(...OUT_OF_RANGE_DATES);

function hasDateFormat(s: JsonSchema): boolean {
  return typeof s.format === 'string' && DATE_FORMATS.includes(s.format);
}

/**
 * Values that satisfy the schema (as far as a schema can say: business rules may still refuse
 * them). With `badDates`, every date or date-time field holds an out-of-range value instead.
 */
export function validArbitrary(schema: JsonSchema, doc: OpenApiDoc, depth = 0, options: { badDates?: boolean } = {}): fc.Arbitrary<unknown> {
  const s = resolve(schema, doc);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const union = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (union) return fc.oneof(...union.map((u) => validArbitrary(u, doc, depth + 1, options)));
  const types = Array.isArray(s.type) ? (s.type as string[]) : s.type ? [s.type as string] : [];
  // A nullable date is a date here: with badDates, null would hide the field.
  if (options.badDates && types.includes('string') && hasDateFormat(s)) return outOfRangeDate;
  if (types.length > 1) return fc.oneof(...types.map((t) => validArbitrary({ ...s, type: t }, doc, depth + 1, options)));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = (s.minimum as number | undefined) ?? (s.exclusiveMinimum !== undefined ? (s.exclusiveMinimum as number) + 1 : -1_000);
      const max = (s.maximum as number | undefined) ?? (s.exclusiveMaximum !== undefined ? (s.exclusiveMaximum as number) - 1 : Math.max(min, 0) + 10_000);
      return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
    }
    case 'number': {
      const min = (s.minimum as number | undefined) ?? (s.exclusiveMinimum as number | undefined) ?? -1_000;
      const max = (s.maximum as number | undefined) ?? (s.exclusiveMaximum as number | undefined) ?? Math.max(min, 0) + 10_000;
      return fc
        .double({ min, max, noNaN: true, noDefaultInfinity: true })
        .filter(
          (n) =>
            (s.exclusiveMinimum === undefined || n > (s.exclusiveMinimum as number)) &&
            (s.exclusiveMaximum === undefined || n < (s.exclusiveMaximum as number)),
        );
    }
    case 'string': {
      // A date format names the values better than a pattern beside it (random digits are mostly no date).
      if (hasDateFormat(s)) {
        const pattern = typeof s.pattern === 'string' ? new RegExp(s.pattern) : null;
        return pattern ? FORMAT_SAMPLES[s.format as string].filter((v) => pattern.test(v)) : FORMAT_SAMPLES[s.format as string];
      }
      if (typeof s.pattern === 'string') {
        const maxLength = (s.maxLength as number | undefined) ?? 1000;
        return fc
          .stringMatching(new RegExp(s.pattern as string))
          .filter((v) => v.length <= maxLength && v.length >= ((s.minLength as number | undefined) ?? 0));
      }
      if (typeof s.format === 'string' && FORMAT_SAMPLES[s.format]) return FORMAT_SAMPLES[s.format];
      return fc.string({
        minLength: (s.minLength as number | undefined) ?? 0,
        maxLength: Math.min((s.maxLength as number | undefined) ?? 40, 40),
        unit: 'grapheme',
      });
    }
    case 'array': {
      if (depth > 6) return fc.constant([]);
      const items = (s.items as JsonSchema | undefined) ?? {};
      const minLength = (s.minItems as number | undefined) ?? 0;
      return fc.array(validArbitrary(items, doc, depth + 1, options), {
        minLength,
        maxLength: Math.max(minLength, Math.min((s.maxItems as number | undefined) ?? 3, 3)),
      });
    }
    case 'object':
    default: {
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      if (Object.keys(props).length === 0) {
        if (types[0] === 'object' || s.additionalProperties) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
        return fc.jsonValue({ maxDepth: 2 });
      }
      if (depth > 6) return fc.constant({});
      const required = (s.required ?? []) as string[];
      return fc.record(Object.fromEntries(Object.entries(props).map(([k, v]) => [k, validArbitrary(v, doc, depth + 1, options)])), {
        requiredKeys: required.filter((k) => k in props),
      });
    }
  }
}

/** Deeply nested arrays: a JSON-depth attack. */
const deep = (n: number): unknown => (n === 0 ? 1 : [deep(n - 1)]);

/** Hostile leaf values: wrong types, NUL and control characters, huge and odd numbers. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    -1,
    0,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER + 2,
    0.1 + 0.2,
    '',
    '\u0000',
    'a\u0000b',
    '\uD800',
    '💥'.repeat(300),
    'x'.repeat(100_001),
    '../../etc/passwd',
    "' or 1=1 --",
    '<script>alert(1)</script>',
    '1970-01-01T00:00:00Z',
    '9999-99-99',
    [],
    {},
    { $ne: null },
    JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}'),
    deep(120),
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A value the schema should refuse (or at least survive): one mutation of a valid one. */
export function invalidArbitrary(schema: JsonSchema, doc: OpenApiDoc): fc.Arbitrary<unknown> {
  const valid = validArbitrary(schema, doc);
  return fc.oneof(
    hostileValue,
    // Every date and time field out of range at once (as valid as the rest can be).
    validArbitrary(schema, doc, 0, { badDates: true }),
    fc.tuple(valid, fc.string({ maxLength: 12 }), hostileValue).map(([v, key, bad]) => (isObject(v) ? { ...v, [key || 'extra']: bad } : bad)),
    fc.tuple(valid, fc.nat(), hostileValue).map(([v, n, bad]) => replaceSomewhere(v, n, bad)),
    fc.tuple(valid, fc.nat()).map(([v, n]) => dropSomewhere(v, n)),
  );
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Replace the n-th (mod count) nested value with `bad`. */
function replaceSomewhere(v: unknown, n: number, bad: unknown): unknown {
  const slots: Array<[Record<string, unknown> | unknown[], string | number]> = [];
  const walk = (x: unknown) => {
    if (Array.isArray(x)) {
      x.forEach((item, i) => {
        slots.push([x, i]);
        walk(item);
      });
    } else if (isObject(x)) {
      for (const k of Object.keys(x)) {
        slots.push([x, k]);
        walk(x[k]);
      }
    }
  };
  const copy = structuredClone(v);
  walk(copy);
  if (slots.length === 0) return bad;
  const [holder, key] = slots[n % slots.length];
  (holder as Record<string | number, unknown>)[key] = bad;
  return copy;
}

function dropSomewhere(v: unknown, n: number): unknown {
  const holders: Array<[Record<string, unknown>, string]> = [];
  const walk = (x: unknown) => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (isObject(x)) {
      for (const k of Object.keys(x)) {
        holders.push([x, k]);
        walk(x[k]);
      }
    }
  };
  const copy = structuredClone(v);
  walk(copy);
  if (holders.length === 0) return copy;
  const [holder, key] = holders[n % holders.length];
  delete holder[key];
  return copy;
}

/**
 * Where a body schema holds dates and times: each a path of keys (an array's first item as 0),
 * following $ref, unions and nullable types. The fuzz walk puts OUT_OF_RANGE_DATES there.
 */
export function dateFieldPaths(schema: JsonSchema, doc: OpenApiDoc, path: Array<string | number> = [], depth = 0): Array<Array<string | number>> {
  if (depth > 8) return [];
  const s = resolve(schema, doc);
  if (hasDateFormat(s)) return [path];
  const union = (s.anyOf ?? s.oneOf ?? s.allOf) as JsonSchema[] | undefined;
  const out: Array<Array<string | number>> = [];
  if (union) for (const u of union) out.push(...dateFieldPaths(u, doc, path, depth + 1));
  if (s.items && typeof s.items === 'object') out.push(...dateFieldPaths(s.items as JsonSchema, doc, [...path, 0], depth + 1));
  for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, JsonSchema>)) out.push(...dateFieldPaths(v, doc, [...path, k], depth + 1));
  const seen = new Set<string>();
  return out.filter((p) => !seen.has(p.join('/')) && !!seen.add(p.join('/')));
}

/** Every text field of a body schema: its path and its (resolved) schema, through $ref, unions and arrays. */
export function stringFields(
  schema: JsonSchema,
  doc: OpenApiDoc,
  path: Array<string | number> = [],
  depth = 0,
): Array<{ path: Array<string | number>; schema: JsonSchema }> {
  if (depth > 8) return [];
  const s = resolve(schema, doc);
  const types = Array.isArray(s.type) ? (s.type as string[]) : s.type ? [s.type as string] : [];
  const out: Array<{ path: Array<string | number>; schema: JsonSchema }> = types.includes('string') ? [{ path, schema: s }] : [];
  for (const u of ((s.anyOf ?? s.oneOf ?? s.allOf) as JsonSchema[] | undefined) ?? []) out.push(...stringFields(u, doc, path, depth + 1));
  if (s.items && typeof s.items === 'object') out.push(...stringFields(s.items as JsonSchema, doc, [...path, 0], depth + 1));
  for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, JsonSchema>)) out.push(...stringFields(v, doc, [...path, k], depth + 1));
  return out;
}

/** Whether a schema declares one of DATE_FORMATS. */
export function isDateSchema(schema: JsonSchema, doc: OpenApiDoc): boolean {
  return hasDateFormat(resolve(schema, doc));
}

/** The query parameters of an operation that take a date or a time. */
export function dateQueryParams(op: Operation, doc: OpenApiDoc): string[] {
  return op.parameters.filter((p) => p.in === 'query' && p.schema && hasDateFormat(resolve(p.schema, doc))).map((p) => p.name);
}

/** A path as the error details name it: `['window', 'start']` → `window.start`, `['items', 0, 'at']` → `items[0].at`. */
export function detailField(path: Array<string | number>): string {
  return path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${part}` : part), '');
}

/** A copy of `value` with `leaf` at `path`, objects and arrays made on the way where missing. */
export function setPath(value: unknown, path: Array<string | number>, leaf: unknown): unknown {
  const root: unknown = structuredClone(value ?? (typeof path[0] === 'number' ? [] : {}));
  let holder = root as Record<string | number, unknown>;
  path.forEach((key, i) => {
    if (i === path.length - 1) {
      holder[key] = leaf;
      return;
    }
    const next = holder[key];
    if (typeof next !== 'object' || next === null) holder[key] = typeof path[i + 1] === 'number' ? [] : {};
    holder = holder[key] as Record<string | number, unknown>;
  });
  return root;
}

/** A query string from the operation's query parameters: valid values, hostile ones, or none. */
export function queryArbitrary(op: Operation, doc: OpenApiDoc): fc.Arbitrary<string> {
  const params = op.parameters.filter((p) => p.in === 'query');
  if (params.length === 0) return fc.constant('');
  const entry = (p: Parameter) =>
    fc.option(
      fc.oneof(
        validArbitrary(p.schema ?? { type: 'string' }, doc).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
        fc.constantFrom('-1', 'abc', '1e999', '\u0000', '%', 'x'.repeat(5_000), '[]', 'null', 'true'),
        ...(p.schema && hasDateFormat(resolve(p.schema, doc)) ? [outOfRangeDate] : []),
      ),
      { nil: undefined },
    );
  return fc.tuple(...params.map(entry)).map((values) => {
    const q = new URLSearchParams();
    values.forEach((v, i) => v !== undefined && q.append(params[i].name, v));
    const text = q.toString();
    return text ? `?${text}` : '';
  });
}

/** The error body every 4xx/5xx must have (docs/api-conventions.md). */
export function errorShapeProblem(res: { statusCode: number; body: string; headers: Record<string, unknown> }): string | null {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(res.body);
  } catch {
    return `not JSON: ${res.body.slice(0, 80)}`;
  }
  if (typeof body.code !== 'string' || !/^[a-z][a-z0-9_]*$/.test(body.code)) return `code ${JSON.stringify(body.code)}`;
  if (typeof body.message !== 'string' || !body.message) return 'message missing';
  if (body.request_id !== res.headers['x-request-id']) return 'request_id differs from X-Request-Id';
  const extra = Object.keys(body).filter((k) => !['code', 'message', 'details', 'request_id'].includes(k));
  if (extra.length) return `extra keys ${extra.join(',')}`;
  return null;
}
