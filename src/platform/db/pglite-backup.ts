import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { sql, type Kysely } from 'kysely';
import { PGLITE_CONF, PGLITE_TYPES } from './pglite-config.js';
import type { Tables } from './types.js';

/**
 * Backups of the embedded database (`npm run backup`, `npm run restore`).
 *
 * The data dir is locked by the one process that runs on it (pglite-lock.ts), and copying its
 * files from outside while PostgreSQL writes them is not a consistent snapshot. So the process
 * that holds the lock answers backup requests itself, on a Unix socket in the data dir that
 * only the data dir's owner can open (mode 0600): `npm run backup` asks, the service takes a
 * checkpoint and dumps the data dir between two statements (PGlite's dumpDataDir holds the
 * engine's query lock, and we hold the one connection so no transaction is half-way), and the
 * bytes stream back to the script, which writes the file with its own permissions. The service
 * never writes where a client names. When nothing runs on the data dir, the script opens it
 * itself (taking the lock) and dumps it the same way.
 *
 * A backup is PGlite's own gzipped tarball of the data dir, so `new PGlite({ loadDataDir })`
 * opens it as is. It does not hold the encryption key of secrets at rest (ENCRYPTION_KEY or
 * DATA_DIR/encryption.key): a key stored beside its ciphertexts would protect nothing.
 */

const gzipAsync = promisify(gzip);
const SOCKET_NAME = 'control.sock';
/** sun_path holds 104–108 bytes depending on the OS. */
const MAX_SOCKET_PATH = 100;

/** Where the process holding `dataDir` answers: in the data dir, or in tmp when that path is too long. */
export function controlSocketPath(dataDir: string): string {
  const inDir = path.join(path.resolve(dataDir), SOCKET_NAME);
  if (Buffer.byteLength(inDir) <= MAX_SOCKET_PATH) return inDir;
  const digest = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  return path.join(tmpdir(), `shipping-${digest}.sock`);
}

/**
 * A consistent snapshot of an open embedded database: a checkpoint (so a restore replays little
 * WAL), then the data dir as a gzipped tarball, both on Kysely's single connection so no
 * transaction is open while the files are read.
 */
export async function snapshotPGlite(db: Kysely<Tables>, pglite: PGlite, probeStorage?: () => Promise<void>): Promise<Uint8Array> {
  // A checkpoint into a directory that refuses writes is a PANIC (pglite-reopen.ts): refused
  // before it is tried.
  await probeStorage?.();
  const tar = await db.connection().execute(async (conn) => {
    await sql`checkpoint`.execute(conn);
    const blob = await pglite.dumpDataDir('none');
    return new Uint8Array(await blob.arrayBuffer());
  });
  // Compressed after the connection is handed back (on libuv's thread pool), so requests wait
  // only for the copy of the files, not for gzip.
  return gzipAsync(tar);
}

/**
 * Answers `backup` on the control socket until closed. Call only while holding the data dir
 * lock: a socket file left by a process that died is removed first.
 */
export async function serveBackups(
  dataDir: string,
  snapshot: () => Promise<Uint8Array>,
  log: (message: string, err?: unknown) => void = () => {},
): Promise<() => Promise<void>> {
  const socketPath = controlSocketPath(dataDir);
  rmSync(socketPath, { force: true });
  const server: Server = createServer((socket) => {
    socket.on('error', () => {});
    let request = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      request += chunk;
      if (!request.includes('\n')) {
        if (request.length > 100) socket.destroy();
        return;
      }
      socket.removeAllListeners('data');
      if (request.split('\n')[0].trim() !== 'backup') {
        socket.end(`${JSON.stringify({ ok: false, error: 'unknown request' })}\n`);
        return;
      }
      const started = Date.now();
      snapshot().then(
        (bytes) => {
          log(`backup: ${bytes.byteLength} bytes in ${Date.now() - started} ms`);
          socket.write(`${JSON.stringify({ ok: true, bytes: bytes.byteLength })}\n`);
          socket.end(bytes);
        },
        (err: unknown) => {
          log('backup failed', err);
          socket.end(`${JSON.stringify({ ok: false, error: err instanceof Error ? err.message : String(err) })}\n`);
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(socketPath, 0o600);
  server.unref();
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(socketPath, { force: true });
  };
}

export class BackupError extends Error {}

/** Asks the process holding `dataDir` for a snapshot. */
export async function requestBackup(dataDir: string, timeoutMs = 600_000): Promise<Buffer> {
  const socketPath = controlSocketPath(dataDir);
  return new Promise<Buffer>((resolve, reject) => {
    const socket = createConnection(socketPath);
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy(new BackupError(`no answer on ${socketPath} within ${timeoutMs / 1000} s`)));
    socket.on('connect', () => socket.write('backup\n'));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const newline = all.indexOf(10);
      if (newline < 0) return reject(new BackupError('the service closed the connection without an answer'));
      let header: { ok: boolean; bytes?: number; error?: string };
      try {
        header = JSON.parse(all.subarray(0, newline).toString('utf8')) as typeof header;
      } catch {
        return reject(new BackupError('the service sent an answer this script does not understand'));
      }
      if (!header.ok) return reject(new BackupError(`the service could not take a backup: ${header.error}`));
      const body = all.subarray(newline + 1);
      if (body.length !== header.bytes) return reject(new BackupError(`the backup was cut short (${body.length} of ${header.bytes} bytes)`));
      resolve(body);
    });
  });
}

/** The pid in the data dir's lock file when that process is alive, else undefined. */
export function runningOwner(dataDir: string): number | undefined {
  let owner: number;
  try {
    owner = Number(readFileSync(path.join(dataDir, 'service.lock'), 'utf8').trim());
  } catch {
    return undefined;
  }
  if (!Number.isInteger(owner) || owner <= 0 || owner === process.pid) return undefined;
  try {
    process.kill(owner, 0);
    return owner;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? owner : undefined;
  }
}

export function hasDatabase(dataDir: string): boolean {
  return existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'));
}

/**
 * Replaces `dataDir/pgdata` with the database in `tarball`. Call holding the data dir lock.
 * The backup is loaded into a scratch directory and checked (it opens, and it holds this
 * service's migration table) before anything is moved; the database it replaces is kept as
 * `pgdata.before-restore-<time>`, returned, for the user to delete.
 */
export async function restorePGlite(dataDir: string, tarball: Uint8Array): Promise<{ migrations: number; previous?: string }> {
  const scratch = path.join(dataDir, 'pgdata.restoring');
  rmSync(scratch, { recursive: true, force: true });
  let migrations: number;
  try {
    const pglite = new PGlite({
      dataDir: `file://${scratch}`,
      loadDataDir: new Blob([new Uint8Array(tarball)], { type: 'application/x-gzip' }),
      postgresqlconf: PGLITE_CONF,
      ...PGLITE_TYPES,
    });
    try {
      await pglite.waitReady;
      const { rows } = await pglite.query<{ n: number }>(`select count(*)::int as n from kysely_migration`).catch(() => {
        throw new BackupError('the file is a database, but not one of this service (it has no migration table)');
      });
      migrations = rows[0].n;
      await pglite.query('checkpoint');
    } finally {
      await pglite.close().catch(() => {});
    }
  } catch (err) {
    rmSync(scratch, { recursive: true, force: true });
    if (err instanceof BackupError) throw err;
    throw new BackupError(`the file is not a backup this service can open (${err instanceof Error ? err.message : String(err)})`);
  }
  const live = path.join(dataDir, 'pgdata');
  let previous: string | undefined;
  if (existsSync(live)) {
    previous = path.join(
      dataDir,
      `pgdata.before-restore-${new Date()
        .toISOString()
        .replaceAll(':', '-')
        .replace(/\.\d+Z$/, 'Z')}`,
    );
    renameSync(live, previous);
  }
  renameSync(scratch, live);
  return { migrations, previous };
}
