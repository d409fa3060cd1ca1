import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument, serializeOpenApi } from '../../scripts/lib/openapi-document.js';

// CI gates on the committed openapi.json: it must be what the service serves right now (so the
// client, the Postman collection and reviewers read the truth), and redocly's recommended
// ruleset (redocly.yaml) must report no errors on it.
const root = path.resolve(import.meta.dirname, '../..');

describe('openapi.json', () => {
  // buildApp on a fresh in-memory database takes tens of seconds on a loaded machine.
  it('is the live document (run `npm run openapi` when this fails)', { timeout: 180_000 }, async () => {
    const live = serializeOpenApi(await loadOpenApiDocument());
    const committed = readFileSync(path.join(root, 'openapi.json'), 'utf8');
    // Compare parsed first for a readable diff, then the bytes (formatting is part of the file).
    expect(JSON.parse(committed)).toEqual(JSON.parse(live));
    expect(committed).toBe(live);
    // The Node client's generated types (packages/client) follow the same document.
    const types = readFileSync(path.join(root, 'packages/client/src/schema.d.ts'), 'utf8');
    expect(types.slice(types.indexOf('\n') + 1)).toBe(astToString(await openapiTS(JSON.parse(live))));
  });

  it('passes `redocly lint` with no errors', { timeout: 120_000 }, () => {
    const require = createRequire(import.meta.url);
    const cli = path.join(path.dirname(require.resolve('@redocly/cli/package.json')), 'bin/cli.js');
    const r = spawnSync(process.execPath, [cli, 'lint', 'openapi.json', '--format=json'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    });
    const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as {
      totals: { errors: number };
      problems: Array<{ ruleId: string; severity: string; message: string; location?: Array<{ pointer?: string }> }>;
    };
    const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${p.location?.[0]?.pointer ?? ''}: ${p.message}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
    expect(r.status).toBe(0);
  });

  it('gives every operation a summary, a description, an operationId and documented errors', () => {
    const doc = JSON.parse(readFileSync(path.join(root, 'openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, { summary?: string; description?: string; operationId?: string; responses?: Record<string, unknown> }>>;
    };
    const missing: string[] = [];
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const errorCodes = Object.keys(op.responses ?? {}).filter((s) => Number(s) >= 400);
        if (!op.summary || !op.description || !op.operationId || errorCodes.length === 0) missing.push(`${method} ${p}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
