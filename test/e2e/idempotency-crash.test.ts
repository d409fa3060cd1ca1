import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/platform/db/database.js';
import { openTestDatabase } from '../helpers/db.js';
import { holderApp } from '../helpers/idempotency-holder.js';

// A process killed with -9 while it runs a request with an Idempotency-Key leaves the key
// `running`. The key must be free again soon (it had answered 409 "still running" for 5
// minutes): on PostgreSQL once the dead holder's lease runs out (it renews it while alive), on
// the embedded engine at once (only one process can open the data dir, so the key is dead).
const target = inject('testDb');
const LEASE_MS = 1_500;
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Starts the holder process, sends it a keyed POST that never ends; resolves once it holds the key. */
async function holdKeyInAProcess(env: Record<string, string>, key: string, leaseMs: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/idempotency-holder.main.ts'], {
    env: { ...process.env, ...env, LEASE_MS: String(leaseMs) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stderr!.on('data', (d) => (out += d));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', () => reject(new Error(`holder exited: ${out}`)));
  });
  void fetch(`http://127.0.0.1:${port}/hold`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: '{"n":1}',
  }).catch(() => {});
  for (let i = 0; i < 400 && !out.includes('claimed'); i++) await new Promise((r) => setTimeout(r, 50));
  expect(out).toContain('claimed');
  return child;
}

async function kill9(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function retry(handle: DatabaseHandle, key: string, leaseMs = LEASE_MS) {
  const app = await holderApp(handle, { hang: false, leaseMs });
  try {
    return await app.inject({ method: 'POST', url: '/hold', headers: { 'content-type': 'application/json', 'idempotency-key': key }, payload: '{"n":1}' });
  } finally {
    await app.close();
  }
}

describe('an Idempotency-Key held by a process killed with -9', () => {
  it.runIf(target.engine === 'postgres')(
    'PostgreSQL: 409 with Retry-After while the holder lives (it renews its lease), free within a lease of its death',
    { timeout: 60_000 },
    async () => {
      const handle = await openTestDatabase();
      try {
        const key = `crash-${Date.now()}`;
        const child = await holdKeyInAProcess({ DATABASE_URL: handle.connectionString! }, key, LEASE_MS);
        // Alive past two leases: still held.
        await new Promise((r) => setTimeout(r, LEASE_MS * 2));
        const inUse = await retry(handle, key);
        expect(inUse.statusCode).toBe(409);
        expect(inUse.json().code).toBe('idempotency_key_in_use');
        expect(inUse.headers['retry-after']).toMatch(/^[1-9]\d*$/);

        await kill9(child);
        const died = Date.now();
        let res = await retry(handle, key);
        while (res.statusCode === 409 && Date.now() - died < LEASE_MS * 4) {
          await new Promise((r) => setTimeout(r, 200));
          res = await retry(handle, key);
        }
        expect(res.statusCode, res.body).toBe(201);
        expect(Date.now() - died).toBeLessThan(LEASE_MS + 1_500);
      } finally {
        await handle.close();
      }
    },
  );

  it.runIf(target.engine === 'pglite')('the embedded engine: free at once in the next process on the data dir', { timeout: 120_000 }, async () => {
    if (target.engine !== 'pglite') return;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ship-idem-'));
    dirs.push(dataDir);
    // The migrated template, on disk.
    const seeded = await openDatabase({ dataDir, loadDataDir: new Blob([await readFile(target.templatePath)]) });
    await seeded.close();
    const key = `crash-${Date.now()}`;
    // A lease far longer than the test: only the data dir's single owner frees the key.
    const child = await holdKeyInAProcess({ DATA_DIR: dataDir, DATABASE_URL: '' }, key, 600_000);
    await kill9(child);
    const handle = await openDatabase({ dataDir });
    try {
      const row = await handle.db.selectFrom('idempotency_keys').select('state').where('key', '=', key).executeTakeFirstOrThrow();
      expect(row.state).toBe('running');
      const res = await retry(handle, key, 600_000);
      expect(res.statusCode, res.body).toBe(201);
    } finally {
      await handle.close();
    }
  });
});
