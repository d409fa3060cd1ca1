import type { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, type Kysely } from 'kysely';
import pg from 'pg';
import { CONNECT_TIMEOUT_MS, guardPool } from '../db/database.js';
import type { Executor } from '../db/types.js';

/**
 * pg-boss's `db` option: it runs every statement through `executeSql(text, values)` and reads
 * `rows`. pg-boss sends two kinds of text: parameterised single statements (send, fetch,
 * complete…), and parameterless multi-statement scripts (schema creation, migrations,
 * maintenance), wrapped in `BEGIN; … advisory lock …; COMMIT;`.
 */
export interface PgBossDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

/** How the queue reaches the database, per engine. */
export interface QueueConnection {
  /** The queue's own statements. */
  readonly root: PgBossDb;
  /**
   * True on PGlite: one connection for everything, so a statement on `root` waits for any open
   * transaction, and issuing one from inside a transaction deadlocks.
   */
  readonly singleConnection: boolean;
  /** Statements inside a caller's transaction (they commit or roll back with it). */
  inTransaction(trx: Executor): PgBossDb;
  /** On PGlite: resolves once every transaction open now has ended. */
  idle(): Promise<void>;
  /** Release the queue's own connections (never the application's). */
  close(): Promise<void>;
}

type Rows = { rows: any[]; results?: unknown[] };

const nullify = (values: readonly unknown[]) => values.map((v) => (v === undefined ? null : v));

/** Parameterised single statements through any Kysely executor (root or transaction). */
function kyselyDb(executor: Executor): PgBossDb {
  return {
    async executeSql(text, values = []) {
      const result = await executor.executeQuery(CompiledQuery.raw(text, nullify(values)));
      return { rows: result.rows as any[] };
    },
  };
}

/**
 * PGlite: everything goes through Kysely's `PGliteDialect`, whose mutex serialises the single
 * connection, so a pg-boss poll can never slip into a caller's open transaction (or the other
 * way round). Parameterised statements go through `executeQuery`; parameterless texts (maybe
 * several statements) through `pglite.exec` while holding the connection, returning the rows of
 * every statement. A script that fails after its own `BEGIN` leaves the session in an aborted
 * transaction (measured, on both engines), which on PGlite would break every later query of
 * the process: roll it back before releasing the connection.
 */
export function pgliteConnection(db: Kysely<any>, pglite: PGlite): QueueConnection {
  const params = kyselyDb(db);
  const root: PgBossDb = {
    async executeSql(text, values) {
      if (values && values.length > 0) return params.executeSql(text, values);
      return db.connection().execute(async () => {
        try {
          const results = await pglite.exec(text);
          return { rows: results.flatMap((r) => r.rows), results } satisfies Rows;
        } catch (err) {
          await pglite.exec('ROLLBACK').catch(() => {});
          throw err;
        }
      });
    },
  };
  return {
    root,
    singleConnection: true,
    inTransaction: kyselyDb,
    async idle() {
      await db.connection().execute(async () => {});
    },
    async close() {},
  };
}

export interface PostgresConnectionOptions {
  connectionString: string;
  /** Connections of the queue's own pool (fetch, complete, maintenance, sends outside a transaction). */
  poolMax: number;
  onPoolError(err: Error): void;
}

/**
 * PostgreSQL: a small pool of the queue's own (created on first use), so a burst of jobs cannot
 * starve the API's pool and several queue instances behave like several processes. Sends inside
 * a caller's transaction go through that transaction's Kysely connection. A parameterless script
 * runs on a checked-out client that is discarded if the script fails (aborted transaction, see
 * above).
 */
export function postgresConnection(options: PostgresConnectionOptions): QueueConnection {
  let pool: pg.Pool | undefined;
  let closed = false;
  const getPool = () => {
    if (closed) throw new Error('job queue connection is closed');
    if (!pool) {
      pool = new pg.Pool({
        connectionString: options.connectionString,
        max: options.poolMax,
        application_name: 'jobs',
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        keepAlive: true,
      });
      guardPool(pool, options.onPoolError);
    }
    return pool;
  };
  const root: PgBossDb = {
    async executeSql(text, values) {
      const p = getPool();
      if (values && values.length > 0) {
        const result = await p.query(text, nullify(values));
        return { rows: result.rows };
      }
      const client = await p.connect();
      try {
        const result = (await client.query(text)) as pg.QueryResult | pg.QueryResult[];
        client.release();
        const results = Array.isArray(result) ? result : [result];
        return { rows: results.flatMap((r) => r.rows ?? []), results } satisfies Rows;
      } catch (err) {
        client.release(err instanceof Error ? err : new Error(String(err)));
        throw err;
      }
    },
  };
  return {
    root,
    singleConnection: false,
    inTransaction: kyselyDb,
    async idle() {},
    async close() {
      closed = true;
      await pool?.end();
    },
  };
}
