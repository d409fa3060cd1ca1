import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// A PANIC of the embedded engine (a checkpoint into a data directory that refuses writes) used
// to leave the next call into it hanging with the event loop blocked: the process answered
// nothing until restarted. Now the calls fail at once as an outage, and the directory is
// reopened once it takes writes, with what was committed before kept.
const parent = mkdtempSync(path.join(tmpdir(), 'ship-panic-'));
const dataDir = path.join(parent, 'data');
afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe('the embedded engine after a PANIC', () => {
  it('refuses calls at once as an outage, then reopens by itself once writable', { timeout: 120_000 }, () => {
    const asRoot = process.getuid?.() === 0;
    execFileSync('mkdir', ['-p', dataDir]);
    if (asRoot) execFileSync('chown', ['-R', '65534:65534', parent]);
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'test/helpers/pglite-panic.main.ts', dataDir], {
      encoding: 'utf8',
      timeout: 90_000,
      env: { ...process.env, NODE_NO_WARNINGS: '1' },
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    expect(child.signal, `the process hung after the PANIC\n${child.stderr}`).toBeNull();
    expect(child.status, child.stderr).toBe(0);
    const report = JSON.parse(child.stdout.trim().split('\n').at(-1)!);
    expect(report.checkpoint).toMatchObject({ ok: false, unavailable: true });
    // The dead instance is not called again: both fail at once, as an outage (503).
    for (const call of [report.read, report.transaction]) {
      expect(call).toMatchObject({ ok: false, unavailable: true });
      expect(call.ms).toBeLessThan(1_000);
    }
    expect(report.recoveredMs).toBeGreaterThanOrEqual(0);
    expect(report.rows).toEqual([1, 2]);
  });
});
