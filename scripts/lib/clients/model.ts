// The language-neutral model the client templates render: every operation of openapi.json
// (method, path, parameters, body, what it answers) and the named schemas with their enums.
// Nothing here knows a target language; scripts/clients.ts hands the model to each template.

export interface Schema {
  type?: string | string[];
  $ref?: string;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  additionalProperties?: boolean | Schema;
}

export interface Param {
  name: string;
  required: boolean;
  description: string;
  /** Scalar kind for typed signatures; enums are strings whose known values are listed. */
  kind: 'string' | 'integer' | 'number' | 'boolean';
  enumValues?: string[];
}

export type Answer =
  | { kind: 'none' } // 204
  | { kind: 'binary' } // a label: PDF, PNG or ZPL bytes
  | { kind: 'text' }
  | { kind: 'json'; schema?: string } // a named schema, or any JSON object
  | { kind: 'page'; item?: string }; // {data, has_more, next_cursor} of a named schema (or any object)

export interface Operation {
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  summary: string;
  tag: string;
  pathParams: Param[];
  queryParams: Param[];
  body: 'none' | 'optional' | 'required';
  answer: Answer;
}

export interface EnumType {
  /** e.g. ShipmentStatus: the schema name plus the property name. */
  name: string;
  description: string;
  values: string[];
}

export interface Field {
  name: string;
  required: boolean;
  nullable: boolean;
  description: string;
  type: FieldType;
}

export type FieldType =
  | { kind: 'string' | 'integer' | 'number' | 'boolean' | 'any' | 'object' }
  | { kind: 'enum'; name: string }
  | { kind: 'ref'; name: string }
  | { kind: 'array'; items: FieldType };

export interface Model {
  title: string;
  version: string;
  operations: Operation[];
  schemas: Array<{ name: string; description: string; fields: Field[] }>;
  enums: EnumType[];
}

const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

/** The string values of `{enum}` or an anyOf of single-value enums; undefined for anything else. */
export function enumValues(schema: Schema | undefined): string[] | undefined {
  if (!schema) return undefined;
  if (schema.enum && schema.enum.every((v) => typeof v === 'string')) return schema.enum as string[];
  const alts = schema.anyOf ?? schema.oneOf;
  if (alts && alts.length > 0 && alts.every((a) => a.enum?.length === 1 && typeof a.enum[0] === 'string')) return alts.map((a) => a.enum![0] as string);
  return undefined;
}

/** A schema without its null alternative, and whether it had one. */
function unNull(schema: Schema): { schema: Schema; nullable: boolean } {
  const alts = schema.anyOf ?? schema.oneOf;
  if (alts) {
    const rest = alts.filter((a) => a.type !== 'null');
    if (rest.length < alts.length) return { schema: rest.length === 1 ? rest[0] : { ...schema, anyOf: rest, oneOf: undefined }, nullable: true };
  }
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const rest = schema.type.filter((t) => t !== 'null');
    return { schema: { ...schema, type: rest.length === 1 ? rest[0] : rest }, nullable: true };
  }
  return { schema, nullable: false };
}

const pascal = (s: string) => s.replace(/(^|[_\-\s.])([a-z0-9])/gi, (_m, _p, c: string) => c.toUpperCase());

function scalarKind(schema: Schema | undefined): Param['kind'] {
  const t = Array.isArray(schema?.type) ? schema?.type[0] : schema?.type;
  return t === 'integer' || t === 'number' || t === 'boolean' ? t : 'string';
}

function fieldType(schema: Schema, enumName: string, enums: EnumType[]): FieldType {
  if (schema.$ref) return { kind: 'ref', name: refName(schema.$ref) };
  const values = enumValues(schema);
  if (values) {
    if (!enums.some((e) => e.name === enumName)) enums.push({ name: enumName, description: schema.description ?? '', values });
    return { kind: 'enum', name: enumName };
  }
  if (schema.anyOf || schema.oneOf) return { kind: 'any' };
  const t = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (t === 'array') return { kind: 'array', items: schema.items ? fieldType(unNull(schema.items).schema, `${enumName}Item`, enums) : { kind: 'any' } };
  if (t === 'object') return { kind: 'object' };
  if (t === 'string' || t === 'integer' || t === 'number' || t === 'boolean') return { kind: t };
  return { kind: 'any' };
}

function answerOf(op: { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }): Answer {
  const ok = Object.entries(op.responses ?? {})
    .filter(([s]) => /^2\d\d$/.test(s))
    .sort(([a], [b]) => a.localeCompare(b));
  if (ok.length === 0 || ok.every(([, r]) => !r.content)) return { kind: 'none' };
  const content = ok.find(([, r]) => r.content)![1].content!;
  if (!content['application/json']) return Object.keys(content).some((t) => t.startsWith('text/')) ? { kind: 'text' } : { kind: 'binary' };
  const schema = content['application/json'].schema ?? {};
  if (schema.$ref) return { kind: 'json', schema: refName(schema.$ref) };
  const props = schema.properties ?? {};
  if (props.data?.type === 'array' && props.has_more && props.next_cursor) {
    const items = props.data.items;
    return { kind: 'page', item: items?.$ref ? refName(items.$ref) : undefined };
  }
  return { kind: 'json' };
}

export function buildModel(doc: {
  info: { title: string; version: string };
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        summary?: string;
        tags?: string[];
        parameters?: Array<{ in: string; name: string; required?: boolean; description?: string; schema?: Schema }>;
        requestBody?: { required?: boolean; content?: Record<string, unknown> };
      } & Parameters<typeof answerOf>[0]
    >
  >;
  components: { schemas: Record<string, Schema & { title?: string }> };
}): Model {
  const enums: EnumType[] = [];
  const schemas = Object.entries(doc.components.schemas).map(([name, s]) => ({
    name,
    description: s.description ?? '',
    fields: Object.entries(s.properties ?? {}).map(([prop, raw]) => {
      const { schema, nullable } = unNull(raw);
      return {
        name: prop,
        required: (s.required ?? []).includes(prop),
        nullable,
        description: raw.description ?? schema.description ?? '',
        type: fieldType(schema, `${name}${pascal(prop)}`, enums),
      };
    }),
  }));
  const operations: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const params = (where: string) =>
        (op.parameters ?? [])
          .filter((p) => p.in === where)
          .map((p) => ({
            name: p.name,
            required: p.in === 'path' || p.required === true,
            description: (p.description ?? '').replace(/\s+/g, ' '),
            kind: scalarKind(p.schema),
            enumValues: enumValues(p.schema),
          }));
      const hasJsonBody = Boolean(op.requestBody?.content?.['application/json']);
      operations.push({
        id: op.operationId,
        method: method.toUpperCase() as Operation['method'],
        path,
        summary: (op.summary ?? '').replace(/\s+/g, ' '),
        tag: op.tags?.[0] ?? 'default',
        pathParams: params('path'),
        queryParams: params('query'),
        body: !hasJsonBody ? 'none' : op.requestBody?.required ? 'required' : 'optional',
        answer: answerOf(op),
      });
    }
  }
  return { title: doc.info.title, version: doc.info.version, operations, schemas, enums };
}

/** `listOrders` → `list_orders`; `getTracking` → `get_tracking`. */
export const snake = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s.]/g, '_')
    .toLowerCase();
export { pascal };

/** The name of a list operation's iterator: the `list` word becomes `iter` (listOrders → iterOrders). */
export const iteratorId = (id: string) => id.replace(/^list/, 'iter').replace(/List(?=[A-Z])/, 'Iter');

export const BANNER = 'Generated by `npm run clients` (scripts/clients.ts) from openapi.json. Do not edit.';
