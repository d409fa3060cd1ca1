import pg from 'pg';
import { sql } from 'kysely';
import type { Executor } from '../db/types.js';

const CHANNEL = 'cache_invalidation';

/**
 * Tells every process to drop cached entries for a topic (`api_key:<hash>`, `account:<id>`,
 * `workspace:<id>`, `settings`). On PostgreSQL it is LISTEN/NOTIFY, sent inside the caller's
 * transaction so other processes hear it at commit; on PGlite there is only one process.
 */
export interface InvalidationBus {
  publish(topic: string, executor?: Executor): Promise<void>;
  subscribe(listener: (topic: string) => void): void;
  close(): Promise<void>;
}

class LocalBus implements InvalidationBus {
  protected listeners: Array<(topic: string) => void> = [];
  async publish(topic: string): Promise<void> {
    this.emit(topic);
  }
  subscribe(listener: (topic: string) => void): void {
    this.listeners.push(listener);
  }
  protected emit(topic: string): void {
    for (const l of this.listeners) l(topic);
  }
  async close(): Promise<void> {}
}

class PostgresBus extends LocalBus {
  private client?: pg.Client;
  private closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly db: Executor,
    private readonly onError: (err: unknown) => void,
  ) {
    super();
  }

  async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (msg) => {
      if (msg.channel === CHANNEL && msg.payload) this.emit(msg.payload);
    });
    client.on('error', (err) => {
      this.onError(err);
      // A lost listener connection means missed invalidations: drop everything, reconnect.
      this.emit('*');
      if (!this.closed) setTimeout(() => void this.connect().catch(this.onError), 1000).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.client = client;
  }

  override async publish(topic: string, executor?: Executor): Promise<void> {
    // Drop locally at once; the NOTIFY (delivered at commit) clears again everywhere.
    this.emit(topic);
    await sql`select pg_notify(${CHANNEL}, ${topic})`.execute(executor ?? this.db);
  }

  override async close(): Promise<void> {
    this.closed = true;
    await this.client?.end().catch(() => {});
  }
}

export async function createInvalidationBus(opts: {
  connectionString?: string;
  db: Executor;
  onError: (err: unknown) => void;
}): Promise<InvalidationBus> {
  if (!opts.connectionString) return new LocalBus();
  const bus = new PostgresBus(opts.connectionString, opts.db, opts.onError);
  await bus.connect();
  return bus;
}
