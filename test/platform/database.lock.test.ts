import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { lockDataDir, DataDirLockedError } from '../../src/platform/db/pglite-lock.js';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'ship-lock-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('PGlite data directory lock', () => {
  it('refuses a second owner while the first is alive, with a message naming DATABASE_URL', () => {
    const dir = tempDir();
    // Pretend another live process (our parent) holds it.
    writeFileSync(path.join(dir, 'service.lock'), String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(/DATABASE_URL/);
  });

  it('takes over a stale lock whose owner is dead and releases it', () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(path.join(dir, 'service.lock'), dead);
    const release = lockDataDir(dir);
    expect(readFileSync(path.join(dir, 'service.lock'), 'utf8')).toBe(String(process.pid));
    release();
    const again = lockDataDir(dir);
    again();
  });
});
