import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { dataDirFromTemplate, expectStatus, onboardClient, startBuiltService, type BuiltClient, type BuiltService } from '../helpers/built-service.js';

// `npm run backup` / `npm run restore` as users run them (scripts/start.mjs → dist/), against the
// built service on a PGlite data dir: a backup taken while the service runs and writes, more
// rows written after it, a restore refused while the service runs, then accepted once it is
// stopped; the restarted service holds exactly the rows the backup held.

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/start.mjs', command, ...args],
      { env: { ...process.env, NODE_ENV: 'development', DATABASE_URL: '', LOG_LEVEL: 'warn', ...env }, timeout: 180_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const shipTo = { name: 'Ada Buyer', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const engine = inject('testDb').engine;
const scratch = mkdtempSync(path.join(tmpdir(), 'ship-backup-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function createOrder(svc: BuiltService, c: BuiltClient, tag: string): Promise<string> {
  const res = await svc.request('POST', '/v1/orders', {
    headers: c.v1,
    json: { external_id: tag, ship_to: shipTo, line_items: [{ sku: 'MUG', quantity: 1 }] },
  });
  expectStatus(svc, res, 201, `create order ${tag}`);
  return res.body.external_id as string;
}

async function listOrders(svc: BuiltService, c: BuiltClient): Promise<string[]> {
  const tags: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await svc.request('GET', `/v1/orders?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: c.v1 });
    expectStatus(svc, res, 200, 'list orders');
    tags.push(...res.body.data.map((o: { external_id: string }) => o.external_id));
    cursor = res.body.has_more ? res.body.next_cursor : null;
  } while (cursor);
  return tags.sort();
}

describe.skipIf(engine !== 'pglite')('npm run backup / restore (embedded database)', () => {
  it('backs up while the service runs and writes; restore refuses while it runs, then brings back exactly the backed-up rows', async () => {
    const dataDir = dataDirFromTemplate();
    const file = path.join(scratch, 'nightly.tar.gz');
    let svc = await startBuiltService({ dataDir });
    try {
      const c = await onboardClient(svc);
      const before = [await createOrder(svc, c, 'before-1'), await createOrder(svc, c, 'before-2'), await createOrder(svc, c, 'before-3')];

      // A writer keeps creating orders while the backup is taken: the snapshot must hold every
      // order answered before the backup began, and nothing that was never created.
      let writing = true;
      const answered: string[] = [];
      const writer = (async () => {
        for (let i = 0; writing; i++) answered.push(await createOrder(svc, c, `during-${i}`));
      })();
      await new Promise((r) => setTimeout(r, 200));
      const answeredBeforeBackup = [...answered];
      const backup = await run('backup', [file], { DATA_DIR: dataDir });
      writing = false;
      await writer;
      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.stdout).toContain('taken by the running service');
      expect(existsSync(file)).toBe(true);
      expect(existsSync(`${file}.partial`)).toBe(false);

      const after = [await createOrder(svc, c, 'after-1'), await createOrder(svc, c, 'after-2')];

      const refused = await run('restore', [file], { DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/The service is running on .* \(process \d+\)\. Stop it first/);
      // Refused means untouched: the running service still serves everything.
      const whileRunning = await listOrders(svc, c);
      for (const tag of [...before, ...answered, ...after]) expect(whileRunning).toContain(tag);

      expect(await svc.stop()).toBe(0);
      const restored = await run('restore', [file], { DATA_DIR: dataDir });
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toMatch(/Restored .* \(\d+ migrations applied in the backup/);
      expect(readdirSync(dataDir).filter((n) => n.startsWith('pgdata.before-restore-'))).toHaveLength(1);

      svc = await startBuiltService({ dataDir });
      const rows = await listOrders(svc, c);
      for (const tag of [...before, ...answeredBeforeBackup]) expect(rows).toContain(tag);
      for (const tag of after) expect(rows).not.toContain(tag);
      // Nothing the service never created, and no order the backup did not hold.
      const created = new Set([...before, ...answered, ...after]);
      for (const tag of rows) expect(created.has(tag), tag).toBe(true);
      expect(rows.length).toBeGreaterThanOrEqual(before.length + answeredBeforeBackup.length);
      expect(rows.length).toBeLessThanOrEqual(before.length + answered.length);
      // The restored database takes writes as before.
      await createOrder(svc, c, 'after-restore');
    } finally {
      await svc.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 600_000);

  it('backs up a stopped data dir itself, and a restore of a file that is no backup leaves the data dir as it was', async () => {
    const dataDir = dataDirFromTemplate();
    try {
      const file = path.join(scratch, 'offline.tar.gz');
      const backup = await run('backup', [file], { DATA_DIR: dataDir });
      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.stdout).toContain('taken from the data dir (the service is not running)');

      const junk = path.join(scratch, 'junk.tar.gz');
      writeFileSync(junk, randomBytes(4096));
      const refused = await run('restore', [junk], { DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('Restore failed: the file is not a backup this service can open');
      expect(readdirSync(dataDir).filter((n) => n.startsWith('pgdata.'))).toEqual([]);

      const empty = mkdtempSync(path.join(scratch, 'empty-'));
      const nothing = await run('backup', [path.join(scratch, 'x.tar.gz')], { DATA_DIR: empty });
      expect(nothing.code).toBe(1);
      expect(nothing.stderr).toContain(`There is no database in ${empty}`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});

describe('npm run backup / restore on PostgreSQL', () => {
  it('points to pg_dump and pg_restore instead of touching the database', async () => {
    const env = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', DATA_DIR: scratch };
    const backup = await run('backup', [path.join(scratch, 'pg.dump')], env);
    expect(backup.code).toBe(1);
    expect(backup.stderr).toContain('pg_dump --format=custom --file=<file> "$DATABASE_URL"');
    const restore = await run('restore', [path.join(scratch, 'pg.dump')], env);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toContain('pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" <file>');
    const usage = await run('backup', [], env);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('usage: npm run backup -- <file>');
  }, 300_000);
});
