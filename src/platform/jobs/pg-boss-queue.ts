import PgBoss from 'pg-boss';
import { retryWhileDatabaseUnavailable } from '../db/connection-errors.js';
import type { Executor } from '../db/types.js';
import { parseCron, type CronSchedule } from './cron.js';
import {
  assertJobData,
  assertQueueName,
  consoleJobLogger,
  fromJobOutput,
  JOB_DEFAULTS,
  JobTimeoutError,
  pollDelayMs,
  resolveSendOptions,
  resolveWorkOptions,
  toJobError,
  type DeadJob,
  type JobHandler,
  type JobLogger,
  type JobQueue,
  type QueueDepth,
  type ResolvedWorkOptions,
  type SendOptions,
  type WorkOptions,
} from './job-queue.js';
import type { QueueConnection } from './sql-adapters.js';

/** pg-boss's schema name (its default); our own SQL below (depth, dead, release) reads it. */
const SCHEMA = 'pgboss';

/**
 * Scheduled sends fire this long after the cron minute begins, so the database clock (which
 * picks the singleton slot) is inside the same minute even with a little clock skew.
 */
const SCHEDULE_FIRE_DELAY_MS = 1_000;
/** How long a finished job keeps trying to record its outcome while the database is away. */
const OUTCOME_RETRY_MS = 30_000;
/** Node timers overflow above 2^31-1 ms (~24.8 days); longer waits are re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface PgBossQueueOptions {
  connection: QueueConnection;
  log?: JobLogger;
  /**
   * How often a started instance runs pg-boss maintenance: expire attempts of dead workers (so
   * their jobs are retried), archive old jobs. All instances share one run per interval (pg-boss
   * keeps the last run time in its version table). Default 30, minimum 1.
   */
  maintenanceIntervalSeconds?: number;
  /** Poll interval of workers that do not set one. Default 1 s. */
  defaultPollingIntervalSeconds?: number;
}

interface Run {
  jobId: string;
  controller: AbortController;
  /** Released by stop(): its outcome must no longer be recorded (another worker may hold the job). */
  abandoned: boolean;
  done: Promise<void>;
}

interface Worker {
  name: string;
  handler: JobHandler<unknown>;
  options: ResolvedWorkOptions;
  runs: Set<Run>;
  /** Set while the loop is paused: ends the pause early. */
  wake: (() => void) | null;
  /** The loop waits for a free slot (not for the polling interval). */
  waitingForSlot: boolean;
  loop: Promise<void> | null;
}

interface Schedule {
  cron: CronSchedule;
  data: object;
}

type FetchedJob = PgBoss.JobWithMetadata<unknown> & { expireInSeconds: number | string };

/**
 * The real driver: pg-boss 10 in the application database (schema `pgboss`), on PostgreSQL and
 * on PGlite, through a `QueueConnection` (see sql-adapters.ts).
 *
 * What we take from pg-boss: its schema and migrations, queue partitions, send (with the
 * caller's transaction through its `db` option), the `SKIP LOCKED` fetch, complete/fail with
 * retry and backoff, and maintenance (expiring attempts of dead workers, archiving).
 * What we do ourselves, and why:
 * - The worker loop. pg-boss's `work()` completes or fails a whole batch together and waits a
 *   polling interval even when more jobs are waiting; ours runs each job on its own, up to
 *   `concurrency` at once, fetches again as soon as a slot frees while the queue has a backlog,
 *   and knows which attempts are in flight for a graceful stop.
 * - Schedules. pg-boss's cron keeps schedules in a table and runs two more pollers plus an
 *   internal queue per instance; a per-process timer per schedule that sends with a one-minute
 *   singleton slot gives the same "one job per tick across processes" with nothing left behind.
 * - Dead jobs stay in state `failed` with their last error as output (no dead-letter queue):
 *   `dead()` reads them from the job table and from pg-boss's archive (failed jobs move there
 *   after 7 days and are deleted 14 days later).
 */
export class PgBossQueue implements JobQueue {
  readonly #conn: QueueConnection;
  readonly #log: JobLogger;
  readonly #defaultPolling: number | undefined;
  readonly #boss: PgBoss;
  readonly #workers = new Map<string, Worker>();
  readonly #schedules = new Map<string, Schedule>();
  readonly #scheduleTimers = new Map<string, NodeJS.Timeout>();
  readonly #scheduleFires = new Set<Promise<void>>();
  readonly #queues = new Set<string>();
  readonly #queueCreations = new Map<string, Promise<void>>();
  #schema: Promise<void> | undefined;
  #starting: Promise<void> | undefined;
  #started = false;
  #bossStarted = false;
  #stopping = false;
  #stopped: Promise<void> | undefined;

  constructor(options: PgBossQueueOptions) {
    this.#conn = options.connection;
    this.#log = options.log ?? consoleJobLogger;
    this.#defaultPolling = options.defaultPollingIntervalSeconds;
    this.#boss = new PgBoss({
      db: this.#conn.root as PgBoss.Db,
      schema: SCHEMA,
      migrate: false,
      schedule: false,
      supervise: true,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
      archiveFailedAfterSeconds: 7 * 86_400,
      deleteAfterDays: 14,
    });
    // An 'error' event without a listener would crash the process (maintenance errors land here).
    this.#boss.on('error', (err: unknown) => this.#log.error({ err }, 'job queue maintenance failed'));
  }

  install(): Promise<void> {
    return this.#ensureSchema().then(() => this.#ensureQueues([...this.#workers.keys(), ...this.#schedules.keys()]));
  }

  async send<T extends object>(name: string, data: T, options: SendOptions = {}): Promise<string | null> {
    assertQueueName(name);
    assertJobData(data);
    const o = resolveSendOptions(options);
    if (this.#stopping) throw new Error('job queue is stopped');
    const bossOptions: PgBoss.SendOptions = {
      retryLimit: o.retryLimit,
      retryDelay: o.retryDelaySeconds,
      retryBackoff: o.retryBackoff,
      expireInSeconds: o.expireInSeconds,
      ...(o.startAfterSeconds > 0 ? { startAfter: o.startAfterSeconds } : {}),
      ...(o.singleton ? { singletonKey: o.singleton.key, singletonSeconds: o.singleton.seconds } : {}),
    };
    const trx = inTransaction(options.executor);
    let id: string | null;
    if (trx) {
      const db = this.#conn.inTransaction(trx);
      if (this.#conn.singleConnection && !this.#queues.has(name)) {
        // The caller's transaction holds PGlite's only connection: create the queue inside it
        // (rolled back with it, so not remembered as created; ON CONFLICT makes it idempotent).
        await db.executeSql(`SELECT ${SCHEMA}.create_queue($1, $2)`, [name, { policy: 'standard' }]);
      } else {
        // PostgreSQL: created and committed on our own connection; the caller's next statement
        // sees it (READ COMMITTED; under REPEATABLE READ the insert finds no queue and we throw).
        await this.#ensureQueue(name);
      }
      id = await this.#boss.send(name, data, { ...bossOptions, db: db as PgBoss.Db });
      if (this.#conn.singleConnection && this.#workers.has(name)) {
        // Run it right after the commit rather than at the next poll.
        void this.#conn.idle().then(
          () => this.#wake(name),
          () => {},
        );
      }
    } else {
      await this.#ensureQueue(name);
      id = await this.#boss.send(name, data, bossOptions);
      this.#wake(name);
    }
    if (id === null && !o.singleton) {
      throw new Error(`job not enqueued: queue "${name}" is not visible to this transaction`);
    }
    return id;
  }

  async work<T>(name: string, handler: JobHandler<T>, options?: WorkOptions): Promise<void> {
    assertQueueName(name);
    if (this.#workers.has(name)) throw new Error(`a handler for job queue "${name}" is already registered`);
    if (this.#stopping) throw new Error('job queue is stopped');
    const worker: Worker = {
      name,
      handler: handler as JobHandler<unknown>,
      options: resolveWorkOptions({ pollingIntervalSeconds: this.#defaultPolling, ...options }),
      runs: new Set(),
      wake: null,
      waitingForSlot: false,
      loop: null,
    };
    this.#workers.set(name, worker);
    if (this.#started) {
      await this.#ensureQueue(name);
      this.#startLoop(worker);
    }
  }

  async schedule(name: string, cron: string, data: object = {}): Promise<void> {
    assertQueueName(name);
    assertJobData(data);
    const parsed = parseCron(cron);
    if (this.#stopping) throw new Error('job queue is stopped');
    this.#schedules.set(name, { cron: parsed, data });
    if (this.#started) {
      await this.#ensureQueue(name);
      this.#arm(name);
    }
  }

  async depth(): Promise<Record<string, QueueDepth>> {
    const { rows } = await this.#conn.root.executeSql(
      `SELECT q.name, j.state::text AS state, count(j.id)::int AS n
         FROM ${SCHEMA}.queue q LEFT JOIN ${SCHEMA}.job j ON j.name = q.name
        WHERE q.name NOT LIKE '\\_\\_pgboss\\_\\_%'
        GROUP BY q.name, j.state`,
      [],
    );
    const out: Record<string, QueueDepth> = {};
    for (const row of rows as Array<{ name: string; state: string | null; n: number }>) {
      const d = (out[row.name] ??= { queued: 0, active: 0, failed: 0 });
      if (row.state === 'created' || row.state === 'retry') d.queued += Number(row.n);
      else if (row.state === 'active') d.active += Number(row.n);
      else if (row.state === 'failed') d.failed += Number(row.n);
    }
    return out;
  }

  async dead(name: string, limit: number = JOB_DEFAULTS.deadLimit): Promise<DeadJob[]> {
    assertQueueName(name);
    const { rows } = await this.#conn.root.executeSql(
      `SELECT id::text AS id, data, output, completed_on, retry_count FROM ${SCHEMA}.job
        WHERE name = $1 AND state = 'failed'
       UNION ALL
       SELECT id::text, data, output, completed_on, retry_count FROM ${SCHEMA}.archive
        WHERE name = $1 AND state = 'failed'
       ORDER BY completed_on DESC NULLS LAST
       LIMIT $2`,
      [name, Math.max(1, Math.floor(limit))],
    );
    return (rows as Array<{ id: string; data: unknown; output: unknown; completed_on: Date | string | null; retry_count: number }>).map((r) => ({
      id: r.id,
      data: r.data,
      error: fromJobOutput(r.output),
      failedAt: r.completed_on === null ? null : new Date(r.completed_on),
      attempts: Number(r.retry_count) + 1,
    }));
  }

  start(): Promise<void> {
    if (this.#stopping) return Promise.reject(new Error('job queue is stopped'));
    this.#starting ??= this.#start().catch((err: unknown) => {
      this.#starting = undefined;
      throw err;
    });
    return this.#starting;
  }

  async #start(): Promise<void> {
    await this.install();
    // Maintenance (supervise) only; migrate:false makes start() check the schema, not change it.
    await this.#boss.start();
    this.#bossStarted = true;
    if (this.#stopping) return;
    this.#started = true;
    await this.#ensureQueues([...this.#workers.keys(), ...this.#schedules.keys()]);
    for (const worker of this.#workers.values()) this.#startLoop(worker);
    for (const name of this.#schedules.keys()) this.#arm(name);
  }

  stop(options: { timeoutMs?: number } = {}): Promise<void> {
    this.#stopped ??= this.#stop(options.timeoutMs ?? 30_000);
    return this.#stopped;
  }

  async #stop(timeoutMs: number): Promise<void> {
    this.#stopping = true;
    // A start() in progress finishes first, so nothing it sets up is left running.
    await this.#starting?.catch(() => {});
    for (const timer of this.#scheduleTimers.values()) clearTimeout(timer);
    this.#scheduleTimers.clear();
    for (const worker of this.#workers.values()) worker.wake?.();

    const workers = [...this.#workers.values()];
    // One line saying what the stop waits for (and how long at most): the only trace of a
    // shutdown that takes seconds, instead of silence or a line per tick of something waiting.
    const running = Object.fromEntries(workers.filter((w) => w.runs.size > 0).map((w) => [w.name, w.runs.size]));
    if (Object.keys(running).length > 0) this.#log.warn({ running, timeout_ms: timeoutMs }, 'job queue stopping: waiting for running jobs to finish');
    const settled = (async () => {
      await Promise.all(workers.map((w) => w.loop));
      await Promise.all([...this.#scheduleFires]);
      await Promise.all(workers.flatMap((w) => [...w.runs].map((r) => r.done)));
    })();
    const finished = await withinMs(settled, timeoutMs);
    if (!finished) {
      for (const worker of workers) {
        const runs = [...worker.runs];
        if (runs.length === 0) continue;
        for (const run of runs) {
          run.abandoned = true;
          run.controller.abort(new Error('job queue stopped before the attempt finished'));
        }
        await withinMs(
          this.#release(
            worker.name,
            runs.map((r) => r.jobId),
          ),
          5_000,
        ).catch((err: unknown) => this.#log.error({ err, queue: worker.name }, 'could not release running jobs at stop; they will expire'));
      }
    }
    if (this.#bossStarted) await this.#boss.stop({ graceful: false, close: false });
    await this.#conn.close();
  }

  async recoverOrphans(): Promise<number> {
    await this.#ensureSchema();
    const { rows } = await this.#conn.root.executeSql(
      `UPDATE ${SCHEMA}.job SET state = 'retry', started_on = NULL, start_after = now()
        WHERE state = 'active' RETURNING id`,
      [],
    );
    return rows.length;
  }

  /**
   * Put interrupted attempts back in the queue, runnable at once. `started_on = NULL` keeps the
   * attempt from counting (pg-boss increments the retry count on fetch only when a job had
   * started): being stopped by a deploy is not the job's failure.
   */
  async #release(name: string, ids: string[]): Promise<void> {
    await this.#conn.root.executeSql(
      `UPDATE ${SCHEMA}.job SET state = 'retry', started_on = NULL, start_after = now()
        WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active'`,
      [name, ids],
    );
  }

  #ensureSchema(): Promise<void> {
    this.#schema ??= (async () => {
      // pg-boss's own installer: create or migrate under an advisory lock, tolerating the race
      // of two processes installing at once. A throwaway instance, so nothing else starts.
      const installer = new PgBoss({ db: this.#conn.root as PgBoss.Db, schema: SCHEMA, migrate: true, schedule: false, supervise: false });
      installer.on('error', (err: unknown) => this.#log.error({ err }, 'job queue install failed'));
      await installer.start();
      await installer.stop({ graceful: false, close: false });
    })().catch((err: unknown) => {
      this.#schema = undefined;
      throw err;
    });
    return this.#schema;
  }

  async #ensureQueues(names: string[]): Promise<void> {
    for (const name of names) await this.#ensureQueue(name);
  }

  #ensureQueue(name: string): Promise<void> {
    let creation = this.#queueCreations.get(name);
    if (!creation) {
      creation = (async () => {
        await this.#ensureSchema();
        await this.#createQueue(name);
        this.#queues.add(name);
      })();
      creation.catch(() => this.#queueCreations.delete(name));
      this.#queueCreations.set(name, creation);
    }
    return creation;
  }

  /**
   * pg-boss 10's `createQueue` deadlocks when two connections create the same queue at once
   * (measured on PostgreSQL: the loser waits on the queue row while holding a lock the winner's
   * ALTER TABLE … FOREIGN KEY needs), as happens when several processes start together. So
   * check first, and create under an advisory lock in one transaction. The name is inlined
   * (a parameterless script, like pg-boss's own): assertQueueName allows no quote.
   */
  async #createQueue(name: string): Promise<void> {
    const { rows } = await this.#conn.root.executeSql(`SELECT 1 FROM ${SCHEMA}.queue WHERE name = $1`, [name]);
    if (rows.length > 0) return;
    assertQueueName(name);
    await this.#conn.root.executeSql(`
      BEGIN;
      SELECT pg_advisory_xact_lock(hashtext('${SCHEMA}.create_queue'));
      SELECT ${SCHEMA}.create_queue('${name}', '{"policy":"standard"}'::json);
      COMMIT;`);
  }

  #wake(name: string): void {
    const worker = this.#workers.get(name);
    if (worker && !worker.waitingForSlot) worker.wake?.();
  }

  #startLoop(worker: Worker): void {
    worker.loop ??= this.#loop(worker).catch((err: unknown) => this.#log.error({ err, queue: worker.name }, 'job worker loop crashed'));
  }

  async #loop(worker: Worker): Promise<void> {
    const { concurrency, batchSize, pollingIntervalMs } = worker.options;
    while (!this.#stopping) {
      const free = concurrency - worker.runs.size;
      if (free <= 0) {
        await this.#pause(worker, null);
        continue;
      }
      const wanted = Math.min(batchSize, free);
      let jobs: FetchedJob[] = [];
      try {
        // pg-boss's fetch swallows query errors and returns [] (it expects only unique
        // violations there), so a database outage shows up as an idle queue, retried each poll.
        jobs = (await this.#boss.fetch<unknown>(worker.name, { batchSize: wanted, includeMetadata: true })) as FetchedJob[];
      } catch (err) {
        this.#log.error({ err, queue: worker.name }, 'job fetch failed');
      }
      // Claimed jobs run even if stop() began meanwhile: stop() waits for them.
      for (const job of jobs) this.#run(worker, job);
      if (jobs.length < wanted && !this.#stopping) await this.#pause(worker, pollDelayMs(pollingIntervalMs));
    }
  }

  /** Wait for `ms`, or with `ms === null` for a run to end; `wake()` and stop() end it early. */
  #pause(worker: Worker, ms: number | null): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        if (timer) clearTimeout(timer);
        worker.wake = null;
        worker.waitingForSlot = false;
        resolve();
      };
      const timer = ms === null ? null : setTimeout(done, ms);
      worker.waitingForSlot = ms === null;
      worker.wake = done;
    });
  }

  #run(worker: Worker, job: FetchedJob): void {
    const controller = new AbortController();
    const run: Run = { jobId: job.id, controller, abandoned: false, done: Promise.resolve() };
    const expireSeconds = Number(job.expireInSeconds);
    const maxAttempts = Number(job.retryLimit) + 1;
    const attempt = Number(job.retryCount) + 1;
    const log = { queue: worker.name, jobId: job.id, attempt, maxAttempts };
    worker.runs.add(run);
    run.done = (async () => {
      let failure: { err: unknown } | null = null;
      let timer: NodeJS.Timeout | undefined;
      // The attempt's deadline: pg-boss's maintenance would expire it anyway; failing it here is
      // sooner and frees the slot even if the handler ignores its signal.
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const err = new JobTimeoutError(expireSeconds);
          controller.abort(err);
          reject(err);
        }, expireSeconds * 1000);
      });
      deadline.catch(() => {});
      try {
        const attemptPromise = Promise.resolve().then(() =>
          worker.handler(job.data, { id: job.id, name: worker.name, attempt, maxAttempts, signal: controller.signal }),
        );
        await Promise.race([attemptPromise, deadline]);
      } catch (err) {
        failure = { err };
      } finally {
        clearTimeout(timer);
      }
      if (run.abandoned) return;
      try {
        // Through a database blip, keep trying for a while: given up on, the job would sit
        // active until its lease expires and then run a second time.
        await retryWhileDatabaseUnavailable(
          () => (failure ? this.#boss.fail(worker.name, job.id, toJobError(failure.err) as object) : this.#boss.complete(worker.name, job.id)),
          OUTCOME_RETRY_MS,
          () => this.#stopping,
        );
        if (failure) {
          if (attempt < maxAttempts) this.#log.warn({ ...log, err: failure.err }, 'job attempt failed; it will be retried');
          else this.#log.error({ ...log, err: failure.err }, 'job failed on its last attempt; it is dead');
        }
      } catch (err) {
        // The job stays active and expires, then runs again: handlers are idempotent.
        this.#log.error({ err, ...log }, 'could not record the job outcome');
      }
    })().finally(() => {
      worker.runs.delete(run);
      if (worker.waitingForSlot) worker.wake?.();
    });
  }

  #arm(name: string): void {
    const schedule = this.#schedules.get(name);
    if (!schedule || this.#stopping) return;
    clearTimeout(this.#scheduleTimers.get(name));
    const now = Date.now();
    const tick = schedule.cron.nextAfter(new Date(now)).getTime();
    const timer = setTimeout(
      () => {
        this.#scheduleTimers.delete(name);
        if (Date.now() < tick) return this.#arm(name); // a clamped long wait: wait again
        const fire = this.#fire(name, schedule).finally(() => {
          this.#scheduleFires.delete(fire);
          if (this.#schedules.get(name) === schedule) this.#arm(name);
        });
        this.#scheduleFires.add(fire);
      },
      Math.min(tick - now + SCHEDULE_FIRE_DELAY_MS, MAX_TIMER_MS),
    );
    this.#scheduleTimers.set(name, timer);
  }

  async #fire(name: string, schedule: Schedule): Promise<void> {
    try {
      // One job per cron minute across processes: every process sends, the slot dedupes.
      await this.send(name, schedule.data, { singletonKey: '__schedule', singletonSeconds: 60 });
    } catch (err) {
      if (!this.#stopping) this.#log.error({ err, queue: name }, 'scheduled job could not be sent');
    }
  }
}

function inTransaction(executor: Executor | undefined): Executor | undefined {
  return executor?.isTransaction ? executor : undefined;
}

/** Whether `promise` settled within `ms` (its rejection counts as settled and is rethrown). */
async function withinMs(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
