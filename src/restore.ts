import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, ConfigError } from './config.js';
import { DataDirLockedError, lockDataDir } from './platform/db/pglite-lock.js';
import { BackupError, restorePGlite, runningOwner } from './platform/db/pglite-backup.js';

/**
 * `npm run restore -- <file>`: replace the embedded database (DATA_DIR) with a backup from
 * `npm run backup`. Refused while the service runs: a restore replaces every row, and a
 * running process would keep serving (and writing) the database it has open.
 */
async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file || process.argv.length > 3) throw new BackupError('usage: npm run restore -- <file>   (a file written by npm run backup)');
  const config = loadConfig();
  if (config.databaseUrl) {
    throw new BackupError(
      'DATABASE_URL is set: this service runs on PostgreSQL; restore a pg_dump backup with its own tools:\n' +
        '  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" <file>',
    );
  }
  const source = path.resolve(file);
  let tarball: Buffer;
  try {
    tarball = readFileSync(source);
  } catch (err) {
    throw new BackupError(`cannot read ${source} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const owner = runningOwner(config.dataDir);
  if (owner !== undefined) {
    throw new BackupError(
      `The service is running on ${config.dataDir} (process ${owner}). Stop it first (SIGTERM or Ctrl-C), ` +
        'then run this again: a restore replaces every row, and the running service would keep its own copy open.',
    );
  }
  const started = Date.now();
  const release = lockDataDir(config.dataDir);
  try {
    const { migrations, previous } = await restorePGlite(config.dataDir, tarball);
    process.stdout.write(
      `Restored ${source} into ${config.dataDir} (${migrations} migrations applied in the backup, ${Date.now() - started} ms).\n` +
        (previous ? `The database it replaced is kept in ${previous}; delete it once the service runs as it should.\n` : '') +
        'Start the service as usual (npm start); it brings the schema up to date if the backup is older.\n',
    );
  } finally {
    release();
  }
}

main().catch((err) => {
  const known = err instanceof BackupError || err instanceof ConfigError || err instanceof DataDirLockedError;
  process.stderr.write(`Restore failed: ${known ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
