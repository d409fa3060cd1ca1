import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { requestBackup } from '../../src/platform/db/pglite-backup.js';
import { freePort } from '../helpers/built-service.js';

// The embedded engine's data directory made read-only under a running service (a remounted or
// full disk, a wrong owner after a restore): requests that need the storage are refused 503
// service_unavailable with Retry-After (they had been 500s), /health says 503 (it had said ok,
// as `select 1` still answers), and once the directory takes writes again the service works
// without a restart. Running as root, chmod stops no one: the service then runs as nobody.
const dataDir = mkdtempSync(path.join(tmpdir(), 'ship-ro-'));
const children: ChildProcess[] = [];
const asRoot = process.getuid?.() === 0;
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

function setWritable(writable: boolean): void {
  execFileSync('chmod', ['-R', writable ? 'u+w' : 'a-w', dataDir]);
}

describe.runIf(inject('testDb').engine === 'pglite')('a read-only data directory under the running service', () => {
  it('is 503 with Retry-After and an unhealthy /health, and heals by itself once writable', { timeout: 240_000 }, async () => {
    if (asRoot) execFileSync('chown', ['-R', '65534:65534', dataDir]);
    chmodSync(dataDir, 0o755);
    const port = await freePort();
    let output = '';
    // The built tree, as `npm start` runs it (its server entry; no workers: RUN_WORKERS=0).
    const child = spawn(process.execPath, ['dist/server.js'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        SEED_DEMO: '0',
        RUN_WORKERS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    children.push(child);
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const base = `http://127.0.0.1:${port}`;
    const health = async () => {
      try {
        return (await fetch(`${base}/health`)).status;
      } catch {
        return 0;
      }
    };
    for (let i = 0; i < 1_200 && (await health()) !== 200 && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await health(), output).toBe(200);

    let n = 0;
    const register = () =>
      fetch(`${base}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `ro${++n}@example.com`, password: 'long enough pw', name: 'RO', workspace_name: `RO ${n}` }),
      });
    expect((await register()).status).toBe(201);

    setWritable(false);
    try {
      const unhealthy = await fetch(`${base}/health`);
      expect(unhealthy.status).toBe(503);
      expect(await unhealthy.json()).toMatchObject({ status: 'unavailable', checks: { database: { status: 'failing' } } });
      // Whatever each request needs of the storage: never a 500; a refusal is 503 with Retry-After.
      // Writes to tables already open may still pass (PostgreSQL holds their files open); those
      // touching tables not used since the start must open files, and are refused.
      const login = () =>
        fetch(`${base}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'ro1@example.com', password: 'long enough pw' }),
        });
      // A session may not be had (the sessions table is one to open): the guard's read is refused too.
      const admin = { authorization: 'Bearer sess_none', 'content-type': 'application/json' };
      const attempts = [
        () => register(),
        () => login(),
        () => fetch(`${base}/api/admin/orders`, { headers: admin }),
        () => fetch(`${base}/api/admin/api-keys`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'ro', environment: 'test' }) }),
        () => fetch(`${base}/api/admin/webhooks`, { headers: admin }),
        () => fetch(`${base}/api/admin/shipments`, { headers: admin }),
      ];
      const statuses: number[] = [];
      for (const attempt of attempts) {
        const res = await attempt();
        statuses.push(res.status);
        expect(res.status, output).not.toBe(500);
        if (res.status === 503) {
          expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
          expect(await res.json()).toMatchObject({ code: 'service_unavailable', details: [] });
        }
      }
      expect(statuses).toContain(503);
      // A backup takes a checkpoint, which a read-only directory turns into a PANIC of the engine
      // (src/platform/db/pglite-reopen.ts): it is refused before it is tried, and the service
      // goes on answering.
      await expect(requestBackup(dataDir, 30_000)).rejects.toThrow(/does not take writes/);
      expect((await fetch(`${base}/health`)).status).toBe(503);
    } finally {
      setWritable(true);
    }

    // Writable again: healthy and writing, in the same process.
    for (let i = 0; i < 100 && (await health()) !== 200; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await health()).toBe(200);
    expect((await register()).status, output).toBe(201);
    expect(child.exitCode).toBeNull();
  });
});
