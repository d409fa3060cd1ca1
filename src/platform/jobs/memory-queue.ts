import { randomUUID } from 'node:crypto';
import { parseCron, type CronSchedule } from './cron.js';
import {
  assertJobData,
  assertQueueName,
  JOB_DEFAULTS,
  resolveSendOptions,
  resolveWorkOptions,
  toJobError,
  type DeadJob,
  type JobError,
  type JobHandler,
  type JobQueue,
  type QueueDepth,
  type ResolvedSendOptions,
  type SendOptions,
  type WorkOptions,
} from './job-queue.js';

export interface MemoryJobQueueOptions {
  /**
   * The clock in ms since the epoch. Default `Date.now`, so Vitest's fake timers
   * (`vi.setSystemTime`, `vi.advanceTimersByTime`) drive it too.
   */
  now?: () => number;
}

export type MemoryJobState = 'created' | 'retry' | 'active' | 'completed' | 'failed';

/** A job as a test sees it. */
export interface MemoryJob {
  id: string;
  name: string;
  data: unknown;
  state: MemoryJobState;
  /** Attempts started so far. */
  attempts: number;
  runAt: Date;
  error: JobError | null;
}

export interface RunSummary {
  ran: number;
  completed: number;
  failed: number;
}

interface StoredJob {
  id: string;
  seq: number;
  name: string;
  data: unknown;
  state: MemoryJobState;
  attempts: number;
  runAt: number;
  options: ResolvedSendOptions;
  singletonSlot: string | null;
  output: JobError | null;
  completedAt: number | null;
}

/**
 * The in-memory driver for unit tests of other modules (docs/architecture.md, Jobs): nothing runs by itself;
 * the test calls `runDue()` or `drain()`, and handlers run as direct calls, one at a time, in
 * due order. Same validation, payload round trip (JSON), retry, singleton and schedule rules as
 * the pg-boss driver, with these differences:
 * - `executor` is ignored: the job is enqueued at once, whatever becomes of the caller's
 *   transaction (the real driver's tests cover rollback).
 * - Retry delays have no jitter: retry n waits `delay·2^(n-1)` s with backoff (the lower bound).
 * - Attempts never expire (`signal` is never aborted) and `start()`/`stop()` only gate use.
 * - A schedule sends one job per `runDue()` when at least one tick passed since the previous
 *   check (ticks missed while "asleep" coalesce, like the real timer).
 */
export class MemoryJobQueue implements JobQueue {
  readonly #now: () => number;
  readonly #jobs = new Map<string, StoredJob>();
  readonly #handlers = new Map<string, JobHandler<unknown>>();
  readonly #schedules = new Map<string, { cron: CronSchedule; data: object; checkedAt: number }>();
  #seq = 0;
  #stopped = false;

  constructor(options: MemoryJobQueueOptions = {}) {
    this.#now = options.now ?? Date.now;
  }

  async install(): Promise<void> {}

  async send<T extends object>(name: string, data: T, options: SendOptions = {}): Promise<string | null> {
    assertQueueName(name);
    assertJobData(data);
    const resolved = resolveSendOptions(options);
    this.#assertOpen();
    const now = this.#now();
    let singletonSlot: string | null = null;
    if (resolved.singleton) {
      const slot = Math.floor(now / 1000 / resolved.singleton.seconds);
      singletonSlot = `${resolved.singleton.key}\u0000${slot}`;
      for (const job of this.#jobs.values()) {
        if (job.name === name && job.singletonSlot === singletonSlot) return null;
      }
    }
    const job: StoredJob = {
      id: randomUUID(),
      seq: this.#seq++,
      name,
      // What a handler gets back from jsonb: no Dates, no undefined, no shared references.
      data: JSON.parse(JSON.stringify(data)) as unknown,
      state: 'created',
      attempts: 0,
      runAt: now + resolved.startAfterSeconds * 1000,
      options: resolved,
      singletonSlot,
      output: null,
      completedAt: null,
    };
    this.#jobs.set(job.id, job);
    return job.id;
  }

  async work<T>(name: string, handler: JobHandler<T>, options?: WorkOptions): Promise<void> {
    assertQueueName(name);
    resolveWorkOptions(options);
    this.#assertOpen();
    if (this.#handlers.has(name)) throw new Error(`a handler for job queue "${name}" is already registered`);
    this.#handlers.set(name, handler as JobHandler<unknown>);
  }

  async schedule(name: string, cron: string, data: object = {}): Promise<void> {
    assertQueueName(name);
    assertJobData(data);
    const parsed = parseCron(cron);
    this.#assertOpen();
    this.#schedules.set(name, { cron: parsed, data, checkedAt: this.#now() });
  }

  async depth(): Promise<Record<string, QueueDepth>> {
    const out: Record<string, QueueDepth> = {};
    const names = new Set([...this.#handlers.keys(), ...this.#schedules.keys(), ...[...this.#jobs.values()].map((j) => j.name)]);
    for (const name of names) out[name] = { queued: 0, active: 0, failed: 0 };
    for (const job of this.#jobs.values()) {
      const d = out[job.name];
      if (job.state === 'created' || job.state === 'retry') d.queued++;
      else if (job.state === 'active') d.active++;
      else if (job.state === 'failed') d.failed++;
    }
    return out;
  }

  async dead(name: string, limit: number = JOB_DEFAULTS.deadLimit): Promise<DeadJob[]> {
    assertQueueName(name);
    return [...this.#jobs.values()]
      .filter((j) => j.name === name && j.state === 'failed')
      .sort((a, b) => (b.completedAt ?? 0) - (a.completedAt ?? 0) || b.seq - a.seq)
      .slice(0, Math.max(1, Math.floor(limit)))
      .map((j) => ({
        id: j.id,
        data: j.data,
        error: j.output,
        failedAt: j.completedAt === null ? null : new Date(j.completedAt),
        attempts: j.attempts,
      }));
  }

  async recoverOrphans(): Promise<number> {
    return 0; // nothing outlives the process that holds an in-memory queue
  }

  async start(): Promise<void> {
    this.#assertOpen();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
  }

  /** Every job, optionally of one queue, in send order: for assertions. */
  jobs(name?: string): MemoryJob[] {
    return [...this.#jobs.values()]
      .filter((j) => name === undefined || j.name === name)
      .sort((a, b) => a.seq - b.seq)
      .map((j) => ({
        id: j.id,
        name: j.name,
        data: j.data,
        state: j.state,
        attempts: j.attempts,
        runAt: new Date(j.runAt),
        error: j.output,
      }));
  }

  /**
   * Send due schedules, then run once every job due now (`runAt <= now`) whose queue has a
   * handler, in due order. Retries that become due meanwhile wait for the next call.
   */
  async runDue(): Promise<RunSummary> {
    const now = this.#now();
    for (const [name, schedule] of this.#schedules) {
      const tick = schedule.cron.nextAfter(new Date(schedule.checkedAt)).getTime();
      if (tick <= now) {
        schedule.checkedAt = now;
        await this.send(name, schedule.data, { singletonKey: '__schedule', singletonSeconds: 60 });
      }
    }
    const due = [...this.#jobs.values()]
      .filter((j) => (j.state === 'created' || j.state === 'retry') && j.runAt <= now && this.#handlers.has(j.name))
      .sort((a, b) => a.runAt - b.runAt || a.seq - b.seq);
    const summary: RunSummary = { ran: 0, completed: 0, failed: 0 };
    for (const job of due) {
      if (job.state !== 'created' && job.state !== 'retry') continue;
      summary.ran++;
      if (await this.#runOne(job)) summary.completed++;
      else summary.failed++;
    }
    return summary;
  }

  /** `runDue()` until nothing is due now (jobs a handler sends are run too). */
  async drain(options: { maxRuns?: number } = {}): Promise<RunSummary> {
    const maxRuns = options.maxRuns ?? 10_000;
    const total: RunSummary = { ran: 0, completed: 0, failed: 0 };
    for (;;) {
      const pass = await this.runDue();
      total.ran += pass.ran;
      total.completed += pass.completed;
      total.failed += pass.failed;
      if (pass.ran === 0) return total;
      if (total.ran >= maxRuns) throw new Error(`drain() ran ${total.ran} attempts: a job keeps re-enqueueing itself?`);
    }
  }

  async #runOne(job: StoredJob): Promise<boolean> {
    const handler = this.#handlers.get(job.name)!;
    job.state = 'active';
    job.attempts++;
    const maxAttempts = job.options.retryLimit + 1;
    try {
      await handler(JSON.parse(JSON.stringify(job.data)) as unknown, {
        id: job.id,
        name: job.name,
        attempt: job.attempts,
        maxAttempts,
        signal: new AbortController().signal,
      });
      job.state = 'completed';
      job.output = null;
      job.completedAt = this.#now();
      return true;
    } catch (err) {
      job.output = toJobError(err);
      if (job.attempts < maxAttempts) {
        const { retryDelaySeconds, retryBackoff } = job.options;
        const delay = retryBackoff ? Math.max(1, retryDelaySeconds) * 2 ** (job.attempts - 1) : retryDelaySeconds;
        job.state = 'retry';
        job.runAt = this.#now() + delay * 1000;
      } else {
        job.state = 'failed';
        job.completedAt = this.#now();
      }
      return false;
    }
  }

  #assertOpen(): void {
    if (this.#stopped) throw new Error('job queue is stopped');
  }
}
