import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The benchmark suite itself, end to end (bench/run.ts): a BENCH_QUICK run on PGlite with a row
// of every kind (throughput beside an anchor, latency, seeded lists, webhooks, fake carriers, a batch,
// shipping rules against an explicit service, restart),
// then the JSON it wrote must hold every expected row, fully filled in, and the Markdown must list
// them. The numbers of a quick run mean nothing and are not checked. It starts the built service
// several times (~1 min on an idle 2-core machine, 2–3 min on a busy one), so it runs only with
// BENCH_SMOKE=1: BENCH_SMOKE=1 npx vitest run test/bench/suite-smoke.test.ts
const root = path.resolve(import.meta.dirname, '../..');
const results = mkdtempSync(path.join(tmpdir(), 'bench-smoke-'));
afterAll(() => rmSync(results, { recursive: true, force: true }));

const ROWS = [
  'restart',
  'health',
  'rates-floor',
  'rates-options',
  'rss',
  'logging',
  'purchase',
  'tracking',
  'webhooks',
  'carriers',
  'purchase-auto',
  'list',
  'batch',
  'batch-rules',
];
const EXPECTED = [
  'restart',
  'health',
  'rates-floor-fastify',
  'rates-floor-node',
  'rates-options',
  'rss',
  'logging',
  'purchase',
  'tracking',
  'webhooks',
  'carriers-fanout',
  'carriers-deadline',
  'purchase-auto',
  'list-first-1k',
  'list-deep-1k',
  'list-first-5k',
  'list-deep-5k',
  'batch-import',
  'batch',
  'batch-interactive',
  'batch-rules',
];
/** Rows measured beside an anchor (and so with a ratio). */
const ANCHORED = ['health', 'rates-floor-fastify', 'rates-floor-node', 'tracking', 'purchase-auto', 'list-first-5k', 'list-deep-5k', 'batch-rules'];

function runSuite(): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts'], {
    cwd: root,
    env: { ...process.env, BENCH_QUICK: '1', BENCH_ENGINES: 'pglite', BENCH_ROWS: ROWS.join(','), BENCH_RESULTS_DIR: results },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

describe.runIf(process.env.BENCH_SMOKE === '1')('npm run bench, quick', () => {
  it('records every selected row with its value, anchor, ratio and target', { timeout: 600_000 }, async () => {
    const { code, output } = await runSuite();
    expect(code, output.slice(-3000)).toBe(0);
    const files = readdirSync(results);
    const json = files.find((f) => f.endsWith('-quick.json'));
    expect(json, files.join(', ')).toBeTruthy();
    expect(files).toContain(json!.replace(/\.json$/, '.md'));
    // A quick run never replaces the figures the README shows.
    expect(files).not.toContain('latest.md');

    const report = JSON.parse(readFileSync(path.join(results, json!), 'utf8'));
    expect(report.quick).toBe(true);
    expect(report.engines.pglite.status).toBe('measured');
    expect(report.machine.cores).toBeGreaterThan(0);
    expect(report.machine.load_end).toHaveLength(3);
    const rows = new Map<string, any>(report.rows.map((r: any) => [r.key, r]));
    expect([...rows.keys()].sort()).toEqual([...EXPECTED].sort());
    for (const [key, row] of rows) {
      expect(row.engine, key).toBe('pglite');
      expect(Number.isFinite(row.value) && row.value > 0, `${key} value ${row.value}`).toBe(true);
      expect(row.unit, key).toBeTruthy();
      expect(row.target, key).toBeTruthy();
      expect(row.met, `${key}: a quick run judges nothing`).toBeNull();
    }
    for (const key of ANCHORED) {
      expect(rows.get(key).anchor?.value, key).toBeGreaterThan(0);
      expect(Number.isFinite(rows.get(key).ratio), key).toBe(true);
    }
    expect(rows.get('batch').detail.status).toBe('completed');
    expect(rows.get('batch').detail.failed).toBe(0);
    expect(rows.get('batch-rules').detail.status).toBe('completed');
    expect(rows.get('batch-rules').detail.failed).toBe(0);

    const md = readFileSync(path.join(results, json!.replace(/\.json$/, '.md')), 'utf8');
    for (const row of rows.values()) expect(md).toContain(row.name);
    expect(md).toMatch(/Load average .* at start .* at end/);
  });
});
