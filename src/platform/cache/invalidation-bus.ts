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

/** Reconnect backoff of the listener: 250 ms doubling to 5 s, with jitter. */
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5_000;

class PostgresBus extends LocalBus {
  private client?: pg.Client;
  private closed = false;
  private reconnecting = false;

  constructor(
    private readonly connectionString: string,
    private readonly db: Executor,
    private readonly onError: (err: unknown) => void,
  ) {
    super();
  }

  /** Connect and LISTEN; rejects if either fails (the first connect, at start). */
  async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, keepAlive: true, connectionTimeoutMillis: 5_000 });
    client.on('notification', (msg) => {
      if (msg.channel === CHANNEL && msg.payload) this.emit(msg.payload);
    });
    // A client errors once (the connection is then dead); 'end' covers a close without error.
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      if (err) this.onError(err);
      if (this.client === client) {
        this.client = undefined;
        this.reconnect();
      }
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      lost = true;
      client.end().catch(() => {});
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
  }

  /**
   * Until a new listener is up, with backoff. Notifications sent while no listener was up are
   * lost, so every cache is dropped when the connection goes and again once LISTEN is back
   * (anything refilled in between may predate a change nobody heard of).
   */
  private reconnect(): void {
    if (this.closed || this.reconnecting) return;
    this.reconnecting = true;
    this.emit('*');
    void (async () => {
      for (let attempt = 0; !this.closed; attempt++) {
        const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** attempt);
        await new Promise((r) => setTimeout(r, ceiling / 2 + Math.random() * (ceiling / 2)).unref());
        if (this.closed) break;
        try {
          await this.connect();
          this.emit('*');
          break;
        } catch (err) {
          if (attempt === 0) this.onError(err);
        }
      }
      this.reconnecting = false;
    })();
  }

  override async publish(topic: string, executor?: Executor): Promise<void> {
    // Drop locally at once; the NOTIFY (delivered at commit) clears again everywhere.
    this.emit(topic);
    await sql`select pg_notify(${CHANNEL}, ${topic})`.execute(executor ?? this.db);
  }

  override async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}

export async function createInvalidationBus(opts: { connectionString?: string; db: Executor; onError: (err: unknown) => void }): Promise<InvalidationBus> {
  if (!opts.connectionString) return new LocalBus();
  const bus = new PostgresBus(opts.connectionString, opts.db, opts.onError);
  await bus.connect();
  return bus;
}
