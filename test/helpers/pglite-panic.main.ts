/**
 * Runs as the data directory's owner (not root, whom chmod does not stop): opens the embedded
 * database on `argv[2]`, makes the directory read-only, takes a checkpoint (a PANIC), and
 * prints one JSON line of what followed. Driven by src/platform/db/pglite-reopen.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { sql } from 'kysely';
import { openDatabase } from '../../src/platform/db/database.js';
import { isDatabaseUnavailable } from '../../src/platform/db/connection-errors.js';

const dataDir = process.argv[2];
const handle = await openDatabase({ dataDir });
const { db } = handle;
await sql`create table kept (n int)`.execute(db);
await sql`insert into kept values (1)`.execute(db);

const outcome = async (run: () => Promise<unknown>) => {
  const t0 = Date.now();
  try {
    await run();
    return { ok: true, ms: Date.now() - t0 };
  } catch (err) {
    return { ok: false, ms: Date.now() - t0, unavailable: isDatabaseUnavailable(err), message: (err as Error).message };
  }
};

execFileSync('chmod', ['-R', 'a-w', dataDir]);
const checkpoint = await outcome(() => sql`checkpoint`.execute(db));
const read = await outcome(() => sql`select 1`.execute(db));
const transaction = await outcome(() => db.transaction().execute((tx) => sql`select 1`.execute(tx)));
execFileSync('chmod', ['-R', 'u+w', dataDir]);

let recoveredMs = -1;
const t0 = Date.now();
while (Date.now() - t0 < 30_000) {
  if ((await outcome(() => sql`insert into kept values (2)`.execute(db))).ok) {
    recoveredMs = Date.now() - t0;
    break;
  }
  await new Promise((r) => setTimeout(r, 100));
}
const rows = (await sql<{ n: number }>`select n from kept order by n`.execute(db)).rows.map((r) => r.n);
await handle.close();
console.log(JSON.stringify({ checkpoint, read, transaction, recoveredMs, rows }));
