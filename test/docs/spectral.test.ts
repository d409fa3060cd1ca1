import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApiDocument, serializeOpenApi, type OpenApiDocument } from '../../scripts/lib/openapi-document.js';

// The live OpenAPI document (what GET /openapi.json serves, not the committed file) must lint
// clean under Spectral's OpenAPI ruleset and the OWASP API Security ruleset, with the rules
// .spectral.yaml switches off or replaces: no error and no warning. Run it yourself with
// `npx spectral lint openapi.json` after `npm run openapi`.
const root = path.resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const cli = path.join(path.dirname(require.resolve('@stoplight/spectral-cli/package.json')), 'dist/index.js');

type Finding = { code: string; severity: number; path: string[]; message: string };

/** Spectral's findings on a document, each as `code path: message`. */
function lint(doc: unknown, dir: string, name: string): Finding[] {
  const file = path.join(dir, name);
  writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc));
  const r = spawnSync(
    process.execPath,
    [cli, 'lint', file, '--ruleset', path.join(root, '.spectral.yaml'), '--format', 'json', '--quiet', '--fail-severity', 'hint'],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as Finding[];
}
const show = (findings: Finding[]) => findings.map((f) => `${['error', 'warning', 'info', 'hint'][f.severity]} ${f.code} ${f.path.join('.')}: ${f.message}`);

describe('spectral lint (spectral:oas + OWASP, .spectral.yaml)', () => {
  let dir: string;
  let live: OpenApiDocument;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'spectral-'));
    live = await loadOpenApiDocument();
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds no error and no warning in the live document', { timeout: 240_000 }, () => {
    expect(show(lint(serializeOpenApi(live), dir, 'openapi.json').filter((f) => f.severity <= 1))).toEqual([]);
  });

  // The rules that replace OWASP's own (.spectral.yaml) must be able to fail: the same document
  // with one thing each takes away, on a few paths to keep the run short.
  it('reports what the replacing rules and the admin-scheme rule guard', { timeout: 240_000 }, () => {
    const doc = structuredClone(live) as OpenApiDocument & { paths: Record<string, Record<string, any>> };
    const keep = ['/v1/orders', '/api/admin/orders', '/api/super-admin/accounts', '/api/auth/login'];
    doc.paths = Object.fromEntries(keep.map((p) => [p, doc.paths[p]]));
    delete doc.paths['/v1/orders'].get.responses['200'].headers;
    delete doc.paths['/v1/orders'].post.responses['429'];
    delete doc.paths['/api/auth/login'].post.responses['429'];
    delete doc.paths['/api/admin/orders'].get.responses['401'];
    doc.paths['/api/admin/orders'].post.security = [];
    doc.paths['/api/super-admin/accounts'].get.security = [{ adminSession: [] }];
    doc.paths['/api/super-admin/accounts'].get.responses['401'].content['application/json'].schema = {
      type: 'object',
      properties: { code: { type: 'string' }, n: { type: 'integer' }, list: { type: 'array', items: {} } },
    };
    const found = lint(doc, dir, 'broken.json').map((f) => `${f.code} ${f.path.slice(1, 3).join(' ')}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'rate-limit-headers-v1 /v1/orders get',
        'rate-limit-429 /v1/orders post',
        'rate-limit-429 /api/auth/login post',
        'authenticated-401 /api/admin/orders get',
        'security-outside-public-routes /api/admin/orders post',
        'owasp:api5:2023-admin-security-unique /api/admin/orders get',
        'owasp:api4:2023-string-limit /api/super-admin/accounts get',
        'owasp:api4:2023-integer-limit /api/super-admin/accounts get',
        'owasp:api4:2023-integer-format /api/super-admin/accounts get',
        'owasp:api4:2023-array-limit /api/super-admin/accounts get',
      ]),
    );
  });
});
