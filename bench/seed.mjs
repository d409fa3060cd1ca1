// Runs SQL straight against the service's database, in a process of its own (bench/run.ts seeds
// large tables this way: SQL generate_series, not the API). Job as JSON in argv[2]:
//   { engine: 'postgres', url, statements: [sql…] }
//   { engine: 'pglite', dataDir, conf: [setting…], statements: [sql…] }   (the service must be stopped: one
//   process per data dir; conf: the service's own settings, src/platform/db/pglite-config.ts)
// Runs the statements in order, each on its own (autocommit), and prints
// { ms: [per statement], rows: [rows of the last statement] }.
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

const job = JSON.parse(process.argv[2]);
let run;
let close;
if (job.engine === 'postgres') {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: job.url });
  await client.connect();
  run = async (text) => (await client.query(text)).rows;
  close = () => client.end();
} else {
  // The service's own data-dir lock (src/platform/db/pglite-lock.ts): refuse if it is held, hold it meanwhile.
  const lockPath = path.join(job.dataDir, 'service.lock');
  const fd = openSync(lockPath, 'wx');
  writeSync(fd, String(process.pid));
  closeSync(fd);
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite({ dataDir: `file://${job.dataDir}/pgdata`, postgresqlconf: job.conf });
  await db.waitReady;
  await db.query(`SET TIME ZONE 'UTC'`);
  run = async (text) => (await db.query(text)).rows;
  close = async () => {
    await db.close();
    rmSync(lockPath, { force: true });
  };
}
const ms = [];
let rows = [];
try {
  for (const text of job.statements) {
    const t0 = performance.now();
    rows = await run(text);
    ms.push(Math.round(performance.now() - t0));
  }
} finally {
  await close();
}
process.stdout.write(JSON.stringify({ ms, rows }));
