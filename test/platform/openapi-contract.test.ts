import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers/app.js';
import { exampleProblems, type DocWithExamples } from '../helpers/openapi-examples.js';

// The contract rules every route must follow, checked on the document clients read
// (/openapi.json), so a route added later is covered without touching this file:
// operationId, summary and error responses, the input bounds (every string a
// maxLength, every array a maxItems, every path id a length bound), and examples (every
// request body and 2xx JSON response has one, the Error schema too, each valid for its schema).
type Schema = Record<string, any>;
interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  parameters?: { name: string; in: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, unknown>;
}

let app: FastifyInstance;
let doc: { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };
const methods = ['get', 'post', 'put', 'patch', 'delete'];

beforeAll(async () => {
  app = await buildTestApp();
  doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
});

function operations(): [string, Operation][] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([m]) => methods.includes(m))
      .map(([m, op]) => [`${m.toUpperCase()} ${path}`, op] as [string, Operation]),
  );
}

/** Every place in a request schema where a string lacks maxLength or an array lacks maxItems. */
function unbounded(schema: Schema | undefined, where: string, out: string[], seen = new Set<Schema>()): string[] {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return out;
  seen.add(schema);
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop()!;
    return unbounded(doc.components?.schemas?.[name], where, out, seen);
  }
  const types = [schema.type].flat();
  const bounded = schema.const !== undefined || Array.isArray(schema.enum);
  if (types.includes('string') && schema.maxLength === undefined && !bounded) out.push(`${where}: string without maxLength`);
  if (types.includes('array') && schema.maxItems === undefined) out.push(`${where}: array without maxItems`);
  for (const [k, sub] of Object.entries<Schema>(schema.properties ?? {})) unbounded(sub, `${where}.${k}`, out, seen);
  for (const [k, sub] of Object.entries<Schema>(schema.patternProperties ?? {})) unbounded(sub, `${where}[${k}]`, out, seen);
  if (typeof schema.additionalProperties === 'object') unbounded(schema.additionalProperties, `${where}.*`, out, seen);
  if (schema.items) unbounded(schema.items, `${where}[]`, out, seen);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) for (const sub of schema[key] ?? []) unbounded(sub, where, out, seen);
  return out;
}

describe('every operation in /openapi.json', () => {
  it('has a unique operationId, a summary, tags and at least one documented error response', () => {
    const problems: string[] = [];
    const ids = new Map<string, string>();
    for (const [name, op] of operations()) {
      if (!op.operationId) problems.push(`${name}: no operationId`);
      else if (ids.has(op.operationId)) problems.push(`${name}: operationId ${op.operationId} also used by ${ids.get(op.operationId)}`);
      else ids.set(op.operationId, name);
      if (!op.summary) problems.push(`${name}: no summary`);
      if (!op.tags?.length) problems.push(`${name}: no tags`);
      if (!Object.keys(op.responses ?? {}).some((s) => /^[45]\d\d$/.test(s))) problems.push(`${name}: no 4xx/5xx response documented`);
    }
    expect(operations().length).toBeGreaterThan(30);
    expect(problems).toEqual([]);
  });

  it('bounds every request string (maxLength), array (maxItems) and path parameter', () => {
    const problems: string[] = [];
    for (const [name, op] of operations()) {
      for (const p of op.parameters ?? []) {
        unbounded(p.schema, `${name} ${p.in} ${p.name}`, problems);
        if (p.in === 'path' && p.schema?.maxLength === undefined) problems.push(`${name}: path parameter ${p.name} has no length bound`);
      }
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) unbounded(media.schema, `${name} body(${type})`, problems);
    }
    expect([...new Set(problems)]).toEqual([]);
  });

  it('has an example for every request body, every 2xx JSON response and the Error schema, each valid against its schema', () => {
    const { missing, invalid, checked } = exampleProblems(doc as DocWithExamples);
    expect(missing).toEqual([]);
    expect(invalid).toEqual([]);
    // Request bodies, successes and every documented error response: hundreds, not a handful.
    expect(checked).toBeGreaterThan(300);
  });

  it('shows each error status with its usual code from the catalogue', () => {
    const responses = doc.paths['/v1/orders/{id}'].get.responses as Record<string, { content: Record<string, { example: { code: string } }> }>;
    expect(responses['404'].content['application/json'].example.code).toBe('not_found');
    expect(responses['401'].content['application/json'].example.code).toBe('unauthorized');
    expect(responses['400'].content['application/json'].example.code).toBe('validation_failed');
  });
});
