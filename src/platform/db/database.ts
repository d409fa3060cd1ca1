import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Tables } from './types.js';
import { PGLITE_CONF, PGLITE_TYPES } from './pglite-config.js';
import { lockDataDir } from './pglite-lock.js';
import { useNamedStatements as usePGliteNamedStatements } from './pglite-statements.js';
import { serveBackups, snapshotPGlite } from './pglite-backup.js';
import { reopenOnPanic } from './pglite-reopen.js';

export type Engine = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Tables>;
  engine: Engine;
  /** Run a multi-statement SQL text (migrations of pg-boss, test setup). */
  execMulti(text: string): Promise<void>;
  /** The raw clients, for drivers that need them (job queue, LISTEN/NOTIFY). */
  pglite?: PGlite;
  pool?: pg.Pool;
  connectionString?: string;
  /** The embedded engine's data directory, when on disk. */
  dataDir?: string;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  databaseUrl?: string;
  /** PGlite data directory; omitted = in memory. */
  dataDir?: string;
  /** A PGlite data dir dump to start from (tests copy a migrated template). */
  loadDataDir?: Blob | File;
  poolMax?: number;
}

/**
 * SQL texts sent as named prepared statements (registered by `precompiled`): each pooled
 * PostgreSQL connection, and the embedded engine (pglite-statements.ts), parses and plans them
 * once, then only binds and executes, instead of a parse and plan per call (the
 * planner's time on the shared cores of the order read). Only registered texts are named, so
 * the server keeps a bounded set per connection.
 */
const statementNames = new Map<string, string>();

export function nameStatement(sqlText: string, name: string): void {
  statementNames.set(sqlText, name);
}

type QueryFn = (...args: unknown[]) => unknown;

/** Routes the registered SQL texts of this client's queries to named statements. */
function useNamedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as QueryFn;
  client.query = ((text: unknown, values?: unknown, callback?: unknown) => {
    const name = typeof text === 'string' && typeof values !== 'function' && callback === undefined ? statementNames.get(text) : undefined;
    if (!name) return query(text, values, callback);
    return (query({ name, text, values }) as Promise<unknown>).catch((err: { code?: string }) => {
      // "cached plan must not change result type": the table changed under a running process
      // (a migration of a newer version). Prepare it afresh under a new name.
      if (err?.code === '0A000' && statementNames.get(text as string) === name) {
        const renamed = `${name.replace(/#\d+$/, '')}#${Date.now()}`;
        statementNames.set(text as string, renamed);
      }
      throw err;
    });
  }) as never;
}

/** How long a caller waits for a pooled connection to a database that does not answer. */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * A lost connection must never crash the process (a PostgreSQL blip killed every
 * process with "Unhandled 'error' event" on a pg Client). pg-pool listens for errors only on
 * idle clients; a client checked out between two queries (a Kysely transaction, the queue's
 * multi-statement scripts) emits its connection error with no listener. Every client gets one
 * for its whole life: the query in flight fails on its own, and the pool discards the broken
 * client when it is released (it is no longer queryable).
 */
export function guardPool(pool: pg.Pool, onError: (err: Error) => void = () => {}): void {
  pool.on('error', onError);
  pool.on('connect', (client) => {
    client.on('error', onError);
  });
}

// int8 (count(*), sums) as JS numbers: our counts and minor-unit sums stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolMax ?? 10,
      // While the database is unreachable a request waits at most this long for a connection,
      // then fails (503, see connection-errors.ts) instead of hanging.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    });
    guardPool(pool);
    pool.on('connect', useNamedStatements);
    const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      engine: 'postgres',
      pool,
      connectionString: options.databaseUrl,
      async execMulti(text) {
        await pool.query(text);
      },
      async close() {
        await db.destroy();
      },
    };
  }

  const release = options.dataDir ? lockDataDir(options.dataDir) : () => {};
  try {
    const openInstance = async (loadDataDir?: Blob | File) => {
      const instance = new PGlite({
        dataDir: options.dataDir ? `file://${options.dataDir}/pgdata` : undefined,
        loadDataDir,
        postgresqlconf: PGLITE_CONF,
        ...PGLITE_TYPES,
      });
      await instance.waitReady;
      await instance.query(`SET TIME ZONE 'UTC'`);
      usePGliteNamedStatements(instance, (text) => statementNames.get(text));
      return instance;
    };
    const first = await openInstance(options.loadDataDir);
    // On disk, a PANIC (a write refused mid-checkpoint) is survived by reopening the directory;
    // in memory there is nothing to reopen.
    const reopenable = options.dataDir
      ? reopenOnPanic(first, {
          open: () => openInstance(),
          probe: () => probeStorage({ dataDir: options.dataDir }),
          onPanic: (err) =>
            process.emitWarning(`the embedded database hit a PANIC (${(err as Error).message}); it is reopened once the data directory takes writes`),
          onReopened: () => process.emitWarning('the embedded database was reopened after a PANIC'),
        })
      : undefined;
    const pglite = reopenable?.pglite ?? first;
    const db = new Kysely<Tables>({ dialect: new PGliteDialect({ pglite }) });
    // The lock holder answers `npm run backup` (pglite-backup.ts).
    // A socket that cannot be opened must not stop the service: the backup script then says so.
    const stopBackups = options.dataDir
      ? await serveBackups(options.dataDir, () => snapshotPGlite(db, pglite, () => probeStorage({ dataDir: options.dataDir }))).catch((err: Error) => {
          process.emitWarning(`backups cannot be requested from this process: ${err.message}`);
          return undefined;
        })
      : undefined;
    return {
      db,
      engine: 'pglite',
      pglite,
      dataDir: options.dataDir,
      async execMulti(text) {
        // Hold Kysely's single connection while exec runs, so nothing interleaves with it.
        await db.connection().execute(async () => {
          await pglite.exec(text);
        });
      },
      async close() {
        reopenable?.stop();
        await stopBackups?.();
        await db.destroy();
        // Kysely closes the instance only when a query went through it: a handle closed unused
        // would keep the whole WASM heap alive.
        if (!pglite.closed) await pglite.close();
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}

export async function pingDatabase(db: Kysely<Tables>): Promise<void> {
  await sql`select 1`.execute(db);
}

/**
 * Whether the embedded engine's data directory takes writes: a file written and removed in it.
 * A read-only directory leaves `select 1` answering while every write that opens a new file
 * fails, so the health check asks the storage too. The error is an io_error (SQLSTATE 58030)
 * so it is read as an outage (connection-errors.ts). Nothing to check on PostgreSQL or in memory.
 */
export async function probeStorage(handle: Pick<DatabaseHandle, 'dataDir'>): Promise<void> {
  if (!handle.dataDir) return;
  const probe = path.join(handle.dataDir, 'pgdata', `.write-probe-${process.pid}`);
  try {
    await writeFile(probe, 'ok');
    await rm(probe, { force: true });
  } catch (err) {
    throw Object.assign(new Error(`the data directory does not take writes (${(err as NodeJS.ErrnoException).code ?? 'error'})`), {
      code: '58030',
      cause: err,
    });
  }
}
