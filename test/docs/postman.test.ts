import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The committed Postman collection (npm run postman) has exactly one request per OpenAPI
// operation, and its variables are the ones the environment file declares.
const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));

interface Item {
  item?: Item[];
  request?: { method: string; url: { path?: string[] } };
}

function requests(items: Item[]): string[] {
  return items.flatMap((i) =>
    i.item ? requests(i.item) : i.request ? [`${i.request.method.toLowerCase()} /${(i.request.url.path ?? []).map((s) => s.replace(/^:(.+)$/, '{$1}')).join('/')}`] : [],
  );
}

describe('Postman collection', () => {
  const collection = read('postman/shipping-service.postman_collection.json');
  const environment = read('postman/shipping-service.postman_environment.json');
  const doc = read('openapi.json') as { paths: Record<string, Record<string, unknown>> };

  it('has one request per operation of openapi.json', () => {
    const operations = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`));
    const found = requests(collection.item);
    expect(found.length).toBe(operations.length);
    expect([...found].sort()).toEqual([...operations].sort());
  });

  it('uses only variables the environment defines', () => {
    const used = new Set([...JSON.stringify(collection).matchAll(/\{\{([A-Za-z_][\w]*)\}\}/g)].map((m) => m[1]));
    const defined = new Set(environment.values.map((v: { key: string }) => v.key));
    expect([...used].filter((v) => !defined.has(v))).toEqual([]);
    expect([...defined].sort()).toEqual(['api_key', 'base_url', 'workspace_id']);
  });
});
