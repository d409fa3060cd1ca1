/**
 * Whether an error means the database cannot be reached right now (a restart, failover or
 * network blip), as opposed to a fault in the query or the data: the request can be retried
 * once the database is back, so it is answered 503 `service_unavailable` with Retry-After, not
 * a 500. So is storage that refuses writes (a read-only or full disk): it passes once fixed. Errors are matched on their node error code, their SQLSTATE class, and the messages of
 * node-postgres, pg-pool, Kysely and PGlite (these carry no code); causes are followed.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08') || code.startsWith('58'))) return true;
    if (code === '42501' && typeof message === 'string' && STORAGE_REFUSED.test(message)) return true;
    if (typeof message === 'string' && MESSAGES.some((m) => message.includes(m))) return true;
  }
  return false;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections, disk_full (class 08,
 * connection exceptions, and class 58, system errors such as io_error, are matched by prefix).
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '53100']);

/**
 * The server's own storage refusing it (the embedded engine's data directory made read-only,
 * or not its owner's): PostgreSQL reports the file's EACCES/EPERM/EROFS as 42501 with this
 * message, unlike a missing privilege on a table ("permission denied for table …").
 */
const STORAGE_REFUSED = /^could not (open|create|write|read|extend|fsync|truncate|rename|access|link|remove|unlink)\b.*\bfile\b/i;

const MESSAGES = [
  'Connection terminated', // node-postgres: "… unexpectedly", "… due to connection timeout"
  'timeout exceeded when trying to connect', // pg-pool's connectionTimeoutMillis
  'is not queryable', // a client that saw a connection error, or was closed
  'Cannot use a pool after calling end', // the pool is closing (shutdown)
  'driver has already been destroyed', // Kysely after destroy()
  'PGlite is closed',
];

/**
 * Run `write` again, with backoff (250 ms doubling to 4 s), while it fails because the
 * database is unreachable, for up to `budgetMs`; any other error, or the budget spent, is
 * thrown. For writes that record what already happened outside the database (a webhook sent,
 * a job finished): given up on, that work would be done a second time once a lease expires.
 */
export async function retryWhileDatabaseUnavailable<T>(write: () => Promise<T>, budgetMs: number, stop: () => boolean = () => false): Promise<T> {
  const giveUpAt = Date.now() + budgetMs;
  for (let delay = 250; ; delay = Math.min(delay * 2, 4_000)) {
    try {
      return await write();
    } catch (err) {
      if (!isDatabaseUnavailable(err) || Date.now() + delay > giveUpAt || stop()) throw err;
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}
