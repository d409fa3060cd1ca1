import type { Executor } from '../db/types.js';

/**
 * The durable job queue (docs/architecture.md, Jobs): an interface, a real
 * driver over pg-boss 10 in the application database (`pg-boss-queue.ts`, both engines) and an
 * in-memory driver for unit tests (`memory-queue.ts`). Wired once in `app.ts`.
 *
 * Semantics shared by both drivers:
 * - At-least-once: a job may run twice (a worker dies after the handler's side effect, before
 *   the completion is recorded), so handlers are idempotent.
 * - Payloads are JSON objects holding the tenant ID plus entity IDs, never whole records; they
 *   are stored as `jsonb`, so a handler sees what `JSON.parse(JSON.stringify(data))` gives.
 * - A failed attempt is retried `retryLimit` times (so `retryLimit + 1` attempts in all), after
 *   `retryDelaySeconds`, doubled each retry when `retryBackoff` (pg-boss adds up to 100 %
 *   jitter: retry n waits between `delay·2^(n-1)` and `delay·2^n` seconds). After the last
 *   attempt the job is dead: kept in state `failed` with its last error, listed by `dead()`.
 * - Queue names: letters, digits, `.`, `_`, `-` (e.g. `webhooks.deliver`), at most 100 chars.
 *   pg-boss 10 accepts dots as they are (a queue's partition table is named by a hash), so no
 *   mapping is needed.
 */
export interface JobQueue {
  /**
   * Create the queue's schema (pg-boss tables in schema `pgboss`) or migrate it, plus the queues
   * of handlers registered so far. Idempotent and safe from several processes at once (pg-boss
   * takes an advisory lock). Called at start and by `prepareDatabase`; `start()` calls it too.
   */
  install(): Promise<void>;

  /**
   * Enqueue a job. With `executor` set to an open transaction, the job is inserted in that
   * transaction: it exists (and can run) only if the transaction commits. Returns the job ID, or
   * null when a singleton send was deduplicated. The queue is created on first use.
   *
   * Inside a transaction, always pass it as `executor`: on PGlite the transaction holds the one
   * connection, so a send without it (or any query on the root handle) waits for the
   * transaction, which waits for the send — a deadlock.
   */
  send<T extends object>(name: string, data: T, options?: SendOptions): Promise<string | null>;

  /**
   * Register the handler of a queue (one per queue and instance). Jobs are fetched only after
   * `start()`; registering after `start()` begins fetching at once. A handler that throws (or
   * rejects) fails the attempt; one that resolves completes the job.
   */
  work<T>(name: string, handler: JobHandler<T>, options?: WorkOptions): Promise<void>;

  /**
   * A periodic job: from `start()` on, send `data` to queue `name` on every tick of the
   * five-field cron expression (minute hour day-of-month month day-of-week, UTC; see
   * `cron.ts`). Every process may declare the same schedules: each tick is deduplicated across
   * processes by a singleton slot, so one job is sent per tick. Declare a schedule again to
   * replace it; schedules live in process memory only (nothing stale is left in the database).
   */
  schedule(name: string, cron: string, data?: object): Promise<void>;

  /** Jobs per queue by state, for `/metrics`: queued (created or awaiting retry), active, failed (dead). */
  depth(): Promise<Record<string, QueueDepth>>;

  /** Dead jobs of a queue, newest first (default limit 50), with the error of their last attempt. */
  dead(name: string, limit?: number): Promise<DeadJob[]>;

  /**
   * Put every `active` job back in the queue at once, as if released at stop. Only correct when
   * no other process can be running jobs: the embedded database, whose data-dir lock proves the
   * previous owner is dead (kill -9). Otherwise such jobs wait for their expiry. Returns the count.
   */
  recoverOrphans(): Promise<number>;

  /** Begin working the registered handlers (and timers of schedules, and maintenance). */
  start(): Promise<void>;

  /**
   * Graceful shutdown: stop fetching, cancel schedule timers, wait up to `timeoutMs` (default
   * 30 s) for active handlers to finish, then release jobs still running (their signal is
   * aborted and they return to the queue without counting the interrupted attempt) and close the
   * queue's own connections. Leaves no timers behind. Idempotent; the queue is unusable after.
   */
  stop(options?: { timeoutMs?: number }): Promise<void>;
}

export interface JobContext {
  id: string;
  name: string;
  /** 1-based: 1 on the first run, 2 on the first retry… */
  attempt: number;
  /** `retryLimit + 1`: when `attempt === maxAttempts` a failure makes the job dead. */
  maxAttempts: number;
  /**
   * Aborted when the attempt exceeds `expireInSeconds` or `stop()` gives up waiting. Pass it to
   * I/O (fetch, carrier calls) so an abandoned attempt stops early.
   */
  signal: AbortSignal;
}

export type JobHandler<T> = (data: T, ctx: JobContext) => Promise<void>;

export interface SendOptions {
  /** Insert inside the caller's transaction (or on the root handle: same as omitted). */
  executor?: Executor;
  /** Not before this many seconds from now (database clock). */
  startAfterSeconds?: number;
  /** Retries after the first attempt. Default 5. */
  retryLimit?: number;
  /** Delay before a retry. Default 5. */
  retryDelaySeconds?: number;
  /** Double the delay on each retry (with jitter). Default true. */
  retryBackoff?: boolean;
  /**
   * An attempt running longer than this is failed (and retried): in-process by a timer, and if
   * the worker died, by the maintenance of any live worker. So it is also how long a crashed
   * worker's job waits before another worker runs it. Default 300, below 86 400.
   */
  expireInSeconds?: number;
  /**
   * Throttle: at most one job per (queue, singletonKey) per `singletonSeconds` window (windows
   * aligned to the epoch, database clock); a duplicate send returns null. Both or neither;
   * `singletonSeconds` at most 43 200.
   */
  singletonKey?: string;
  singletonSeconds?: number;
}

export interface WorkOptions {
  /** Handlers of this queue running at once in this instance. Default 1. */
  concurrency?: number;
  /** Jobs claimed per fetch, at most the free concurrency slots. Default `concurrency`. */
  batchSize?: number;
  /** Pause between fetches when the queue was empty. Default 1 s. */
  pollingIntervalSeconds?: number;
}

export interface QueueDepth {
  queued: number;
  active: number;
  failed: number;
}

export interface JobError {
  message: string;
  name?: string;
  stack?: string;
}

export interface DeadJob {
  id: string;
  data: unknown;
  /** The last attempt's error (`job failed by timeout in active state` when it expired). */
  error: JobError | null;
  failedAt: Date | null;
  attempts: number;
}

/** Structural subset of pino's logger, so the queue does not depend on the logging setup. */
export interface JobLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export const consoleJobLogger: JobLogger = {
  warn: (obj, msg) => console.warn(msg, obj),
  error: (obj, msg) => console.error(msg, obj),
};

export const JOB_DEFAULTS = {
  retryLimit: 5,
  retryDelaySeconds: 5,
  retryBackoff: true,
  expireInSeconds: 300,
  concurrency: 1,
  pollingIntervalSeconds: 1,
  deadLimit: 50,
} as const;

export interface ResolvedSendOptions {
  startAfterSeconds: number;
  retryLimit: number;
  retryDelaySeconds: number;
  retryBackoff: boolean;
  expireInSeconds: number;
  singleton: { key: string; seconds: number } | null;
}

const QUEUE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Throws on a name pg-boss or our conventions would not accept (`__pgboss__…` is internal). */
export function assertQueueName(name: string): void {
  if (typeof name !== 'string' || !QUEUE_NAME.test(name)) {
    throw new TypeError(`Invalid job queue name "${String(name)}": use letters, digits, ".", "_" or "-" (max 100).`);
  }
}

export function assertJobData(data: unknown): void {
  // node-pg would send an array as a Postgres array literal, not JSON; payloads are objects anyway.
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new TypeError('Job data must be a plain JSON object (tenant ID plus entity IDs).');
  }
}

function nonNegativeInt(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 0) throw new TypeError(`${what} must be an integer >= 0, got ${value}`);
  return value;
}

export function resolveSendOptions(options: SendOptions = {}): ResolvedSendOptions {
  const startAfterSeconds = options.startAfterSeconds ?? 0;
  if (!(startAfterSeconds >= 0)) throw new TypeError('startAfterSeconds must be >= 0');
  const expireInSeconds = options.expireInSeconds ?? JOB_DEFAULTS.expireInSeconds;
  if (!Number.isInteger(expireInSeconds) || expireInSeconds < 1 || expireInSeconds >= 86_400) {
    throw new TypeError('expireInSeconds must be an integer from 1 to 86 399');
  }
  if ((options.singletonKey === undefined) !== (options.singletonSeconds === undefined)) {
    throw new TypeError('singletonKey and singletonSeconds go together (a key alone would not deduplicate)');
  }
  let singleton: ResolvedSendOptions['singleton'] = null;
  if (options.singletonKey !== undefined && options.singletonSeconds !== undefined) {
    // A slot is enforced by a unique index over live jobs; completed jobs are archived after 12 h
    // (pg-boss's default, which also caps the window), after which the slot would reopen.
    if (!Number.isInteger(options.singletonSeconds) || options.singletonSeconds < 1 || options.singletonSeconds > 43_200) {
      throw new TypeError('singletonSeconds must be an integer from 1 to 43 200 (12 h)');
    }
    singleton = { key: options.singletonKey, seconds: options.singletonSeconds };
  }
  return {
    startAfterSeconds,
    retryLimit: nonNegativeInt(options.retryLimit ?? JOB_DEFAULTS.retryLimit, 'retryLimit'),
    retryDelaySeconds: nonNegativeInt(options.retryDelaySeconds ?? JOB_DEFAULTS.retryDelaySeconds, 'retryDelaySeconds'),
    retryBackoff: options.retryBackoff ?? JOB_DEFAULTS.retryBackoff,
    expireInSeconds,
    singleton,
  };
}

export interface ResolvedWorkOptions {
  concurrency: number;
  batchSize: number;
  pollingIntervalMs: number;
}

export function resolveWorkOptions(options: WorkOptions = {}): ResolvedWorkOptions {
  const concurrency = options.concurrency ?? JOB_DEFAULTS.concurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new TypeError('concurrency must be an integer >= 1');
  const batchSize = options.batchSize ?? concurrency;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new TypeError('batchSize must be an integer >= 1');
  const polling = options.pollingIntervalSeconds ?? JOB_DEFAULTS.pollingIntervalSeconds;
  if (!(polling > 0)) throw new TypeError('pollingIntervalSeconds must be > 0');
  return { concurrency, batchSize, pollingIntervalMs: Math.round(polling * 1000) };
}

/** How far an idle worker's wait strays from its interval, either way (a fraction of it). */
const POLL_SPREAD = 0.25;

/**
 * How long an idle worker waits before it asks its queue again: its interval, give or take a
 * quarter at random. Every queue's worker starts at the same moment, most with the same
 * interval, and each ask is a statement (on the embedded engine, milliseconds of the service's
 * one thread): waits of exactly the interval kept them in step, so they all asked at once
 * (docs/architecture.md, "Jobs").
 */
export function pollDelayMs(intervalMs: number): number {
  return Math.round(intervalMs * (1 - POLL_SPREAD + 2 * POLL_SPREAD * Math.random()));
}

/** What we store as a failed attempt's output: enough to debug, nothing that is not JSON. */
export function toJobError(err: unknown): JobError {
  if (err instanceof Error) return { name: err.name, message: err.message, stack: err.stack };
  return { message: typeof err === 'string' ? err : safeJson(err) };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The error of a stored output: ours, pg-boss's expiry `{value: {message}}`, or anything else. */
export function fromJobOutput(output: unknown): JobError | null {
  if (output === null || output === undefined) return null;
  if (typeof output === 'object') {
    const o = output as { message?: unknown; name?: unknown; stack?: unknown; value?: unknown };
    if (typeof o.message === 'string') {
      return {
        message: o.message,
        ...(typeof o.name === 'string' ? { name: o.name } : {}),
        ...(typeof o.stack === 'string' ? { stack: o.stack } : {}),
      };
    }
    if (o.value !== undefined) return fromJobOutput(typeof o.value === 'object' ? o.value : { message: String(o.value) });
  }
  return { message: safeJson(output) };
}

/** The error thrown into a handler's signal when its attempt runs past `expireInSeconds`. */
export class JobTimeoutError extends Error {
  constructor(seconds: number) {
    super(`job attempt exceeded ${seconds}s (expireInSeconds)`);
    this.name = 'JobTimeoutError';
  }
}
