import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The committed Postman collection (npm run postman) has exactly one request per OpenAPI
// operation besides its Getting started folder, and its variables are the ones the environment
// file and the collection declare. test/clients/conformance.test.ts runs it with newman.
const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));

interface Item {
  item?: Item[];
  request?: { method: string; url: { path?: string[] } };
}

function requests(items: Item[]): string[] {
  return items.flatMap((i) =>
    i.item
      ? requests(i.item)
      : i.request
        ? [`${i.request.method.toLowerCase()} /${(i.request.url.path ?? []).map((s) => s.replace(/^:(.+)$/, '{$1}')).join('/')}`]
        : [],
  );
}

describe('Postman collection', () => {
  const collection = read('postman/shipping-service.postman_collection.json');
  const environment = read('postman/shipping-service.postman_environment.json');
  const doc = read('openapi.json') as { paths: Record<string, Record<string, unknown>> };

  it('has one request per operation of openapi.json', () => {
    const operations = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`));
    const found = requests(collection.item.filter((i: { name: string }) => i.name !== 'Getting started'));
    expect(found.length).toBe(operations.length);
    expect([...found].sort()).toEqual([...operations].sort());
  });

  it('uses only variables the environment defines', () => {
    const used = new Set([...JSON.stringify(collection).matchAll(/\{\{([A-Za-z_][\w]*)\}\}/g)].map((m) => m[1]));
    const defined = new Set([...environment.values, ...collection.variable].map((v: { key: string }) => v.key));
    expect([...used].filter((v) => !defined.has(v))).toEqual([]);
    expect(environment.values.map((v: { key: string }) => v.key).sort()).toEqual(['api_key', 'base_url', 'workspace_id']);
  });

  it('starts with a Getting started folder whose requests all check their status', () => {
    const first = collection.item[0] as { name: string; item: Array<{ name: string; event?: Array<{ listen: string; script: { exec: string[] } }> }> };
    expect(first.name).toBe('Getting started');
    expect(first.item.length).toBeGreaterThanOrEqual(10);
    for (const request of first.item)
      expect(request.event?.find((e) => e.listen === 'test')?.script.exec.join('\n'), request.name).toMatch(/to\.have\.status\(\d{3}\)/);
  });

  it('leaves every optional query parameter off', () => {
    type Q = { disabled?: boolean };
    const walk = (i: Item & { request?: { url: { query?: Q[] } } }): Q[] => (i.item ? i.item.flatMap(walk) : (i.request?.url.query ?? []));
    const queries = (collection.item.slice(1) as Item[]).flatMap(walk);
    expect(queries.length).toBeGreaterThan(50);
    expect(queries.filter((q) => !q.disabled)).toEqual([]);
  });
});
