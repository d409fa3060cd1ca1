import { writeFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, ConfigError } from './config.js';
import { openDatabase } from './platform/db/database.js';
import { DataDirLockedError } from './platform/db/pglite-lock.js';
import { BackupError, hasDatabase, requestBackup, runningOwner, snapshotPGlite } from './platform/db/pglite-backup.js';

/**
 * `npm run backup -- <file>`: a consistent snapshot of the embedded database (DATA_DIR), taken
 * by the running service when there is one (it holds the data dir; see pglite-backup.ts), else
 * by this process. On PostgreSQL, pg_dump is the tool.
 */
async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file || process.argv.length > 3) throw new BackupError('usage: npm run backup -- <file>   (for example backups/shipping-2026-11-25.tar.gz)');
  const config = loadConfig();
  if (config.databaseUrl) {
    throw new BackupError(
      'DATABASE_URL is set: this service runs on PostgreSQL, whose own tools take the backup:\n' +
        '  pg_dump --format=custom --file=<file> "$DATABASE_URL"\n' +
        '(restore with: pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" <file>)',
    );
  }
  const target = path.resolve(file);
  const started = Date.now();
  let bytes: Uint8Array;
  let how: string;
  const owner = runningOwner(config.dataDir);
  if (owner !== undefined) {
    try {
      bytes = await requestBackup(config.dataDir);
    } catch (err) {
      if (err instanceof BackupError) throw err;
      throw new BackupError(
        `The service (process ${owner}) holds ${config.dataDir} but did not answer the backup request ` +
          `(${(err as NodeJS.ErrnoException).code ?? (err as Error).message}). It may be a version without online backups: ` +
          'stop it (the backup is then taken from the files) and run this again.',
      );
    }
    how = `taken by the running service (process ${owner})`;
  } else {
    if (!hasDatabase(config.dataDir)) throw new BackupError(`There is no database in ${config.dataDir} (set DATA_DIR to the service's data directory).`);
    const handle = await openDatabase({ dataDir: config.dataDir });
    try {
      bytes = await snapshotPGlite(handle.db, handle.pglite!);
    } finally {
      await handle.close();
    }
    how = 'taken from the data dir (the service is not running)';
  }
  // Written beside the target and renamed, so a failed run never leaves half a backup under the name.
  const partial = `${target}.partial`;
  try {
    writeFileSync(partial, bytes, { mode: 0o600 });
    renameSync(partial, target);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
  process.stdout.write(
    `Backup of ${config.dataDir} written to ${target} (${(bytes.byteLength / 1024 / 1024).toFixed(1)} MiB, ${how}, ${Date.now() - started} ms).\n` +
      `Restore it with: npm run restore -- ${file}   (with the service stopped)\n` +
      `Secrets at rest (integration credentials, webhook secrets) are sealed with ENCRYPTION_KEY or ${path.join(config.dataDir, 'encryption.key')}, ` +
      'which the backup does not hold: keep a copy of that key apart from your backups.\n',
  );
}

main().catch((err) => {
  const known = err instanceof BackupError || err instanceof ConfigError || err instanceof DataDirLockedError;
  process.stderr.write(`Backup failed: ${known ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
