import { CompiledQuery, sql } from 'kysely';
import PgBoss from 'pg-boss';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestDatabase } from '../../../test/helpers/db.js';
import type { DatabaseHandle } from '../db/database.js';
import { createJobQueue, type CreateJobQueueOptions, type JobContext, type JobLogger, type JobQueue } from './index.js';

/**
 * The pg-boss driver on the run's engine (PGlite by default, PostgreSQL with
 * TEST_DATABASE_URL). "Two processes" are two JobQueue instances: over the same PGlite handle
 * (one process per data dir is the rule there), or each with its own pool on PostgreSQL.
 */
let handle: DatabaseHandle;
const queues: JobQueue[] = [];

const logs: Array<{ level: 'warn' | 'error'; msg: string; obj: object }> = [];
const log: JobLogger = {
  warn: (obj, msg) => logs.push({ level: 'warn', msg, obj }),
  error: (obj, msg) => logs.push({ level: 'error', msg, obj }),
};

function makeQueue(options: CreateJobQueueOptions = {}): JobQueue {
  const queue = createJobQueue(handle, { log, ...options });
  queues.push(queue);
  return queue;
}

const fast = { pollingIntervalSeconds: 0.1 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

async function jobRows(name: string) {
  const { rows } = await sql<{ id: string; state: string; retry_count: number; started_on: Date | null; data: any; output: any }>`
    select id::text as id, state::text as state, retry_count, started_on, data, output
    from pgboss.job where name = ${name} order by created_on, id`.execute(handle.db);
  return rows;
}

beforeAll(async () => {
  handle = await openTestDatabase();
  await sql`create table jobs_scratch (tag text primary key)`.execute(handle.db);
});

afterEach(async () => {
  await Promise.all(queues.splice(0).map((q) => q.stop({ timeoutMs: 2_000 })));
  logs.length = 0;
});

afterAll(async () => {
  await handle?.close();
});

describe('install', () => {
  it('is already in the template (prepareDatabase) and idempotent', async () => {
    const before = await sql<{ v: string | null }>`select to_regclass('pgboss.job')::text as v`.execute(handle.db);
    expect(before.rows[0].v).toBe('pgboss.job');
    const q = makeQueue();
    await q.install();
    await Promise.all([makeQueue().install(), makeQueue().install()]);
    const { rows } = await sql<{ version: number }>`select version from pgboss.version`.execute(handle.db);
    expect(rows).toHaveLength(1);
  });
});

describe('send', () => {
  it('rejects invalid queue names and non-object payloads', async () => {
    const q = makeQueue();
    await expect(q.send('bad name', {})).rejects.toThrow(TypeError);
    await expect(q.send('ok.name', [1, 2] as unknown as object)).rejects.toThrow(TypeError);
    await expect(q.send('ok.name', {}, { singletonKey: 'k' })).rejects.toThrow(/singletonSeconds/);
  });

  it('accepts dotted queue names and counts queued jobs in depth()', async () => {
    const q = makeQueue();
    await q.send('depth.only-queued', { n: 1 });
    await q.send('depth.only-queued', { n: 2 }, { startAfterSeconds: 60 });
    const depth = await q.depth();
    expect(depth['depth.only-queued']).toEqual({ queued: 2, active: 0, failed: 0 });
  });

  it('creates a new queue from several instances at once (pg-boss alone deadlocks on PostgreSQL)', async () => {
    const senders = [makeQueue(), makeQueue(), makeQueue(), makeQueue()];
    const ids = await Promise.all(senders.map((q, n) => q.send('create.race', { n })));
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(await jobRows('create.race')).toHaveLength(4);
  });

  it('deduplicates a singleton key within its window', async () => {
    const q = makeQueue();
    const first = await q.send('singleton.test', { n: 1 }, { singletonKey: 'acct_1', singletonSeconds: 600 });
    const second = await q.send('singleton.test', { n: 2 }, { singletonKey: 'acct_1', singletonSeconds: 600 });
    const other = await q.send('singleton.test', { n: 3 }, { singletonKey: 'acct_2', singletonSeconds: 600 });
    expect(first).toEqual(expect.any(String));
    expect(second).toBeNull();
    expect(other).toEqual(expect.any(String));
  });
});

describe('transactions', () => {
  it('runs a job sent in a committed transaction, never one sent in a rolled-back one', async () => {
    const q = makeQueue();
    const ran: string[] = [];
    await q.work<{ tag: string }>('tx.deliver', async (data) => void ran.push(data.tag), fast);
    await q.start();

    await expect(
      handle.db.transaction().execute(async (trx) => {
        await sql`insert into jobs_scratch (tag) values ('rolled')`.execute(trx);
        await q.send('tx.deliver', { tag: 'rolled' }, { executor: trx });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await handle.db.transaction().execute(async (trx) => {
      await sql`insert into jobs_scratch (tag) values ('committed')`.execute(trx);
      await q.send('tx.deliver', { tag: 'committed' }, { executor: trx });
    });

    await waitFor(() => ran.includes('committed'), 5_000, 'the committed job');
    await sleep(300); // a few more polls: the rolled-back job must not show up
    expect(ran).toEqual(['committed']);
    const rows = await jobRows('tx.deliver');
    expect(rows.map((r) => [r.data.tag, r.state])).toEqual([['committed', 'completed']]);
  });

  it('creates a queue on first use inside a transaction, and forgets it on rollback', async () => {
    const q = makeQueue();
    await expect(
      handle.db.transaction().execute(async (trx) => {
        await q.send('tx.brand-new', { n: 1 }, { executor: trx });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const id = await handle.db.transaction().execute((trx) => q.send('tx.brand-new', { n: 2 }, { executor: trx }));
    expect(id).toEqual(expect.any(String));
    const rows = await jobRows('tx.brand-new');
    expect(rows.map((r) => r.data.n)).toEqual([2]);
  });
});

describe('retries and dead jobs', () => {
  it('retries a failing handler and passes 1-based attempt numbers', async () => {
    const q = makeQueue();
    const attempts: number[] = [];
    await q.work(
      'retry.flaky',
      async (_data, ctx: JobContext) => {
        attempts.push(ctx.attempt);
        expect(ctx.maxAttempts).toBe(4);
        if (ctx.attempt < 3) throw new Error(`flaky ${ctx.attempt}`);
      },
      fast,
    );
    await q.start();
    const id = await q.send('retry.flaky', { n: 1 }, { retryLimit: 3, retryDelaySeconds: 0, retryBackoff: false });

    await waitFor(async () => (await jobRows('retry.flaky'))[0]?.state === 'completed', 5_000, 'completion');
    expect(attempts).toEqual([1, 2, 3]);
    expect((await jobRows('retry.flaky'))[0].id).toBe(id);
    expect(logs.filter((l) => l.level === 'warn')).toHaveLength(2);
  });

  it('backs off exponentially between retries', async () => {
    const q = makeQueue();
    const attempts: number[] = [];
    await q.work(
      'retry.backoff',
      async (_data, ctx) => {
        attempts.push(ctx.attempt);
        throw new Error('down');
      },
      fast,
    );
    await q.start();
    await q.send('retry.backoff', { n: 1 }, { retryLimit: 3, retryDelaySeconds: 10, retryBackoff: true });

    const delay = async () => {
      const { rows } = await sql<{ s: number }>`
        select extract(epoch from start_after - now())::float8 as s from pgboss.job where name = 'retry.backoff'`.execute(handle.db);
      return Number(rows[0].s);
    };
    await waitFor(() => attempts.length === 1 && logs.length === 1, 5_000, 'first failure');
    const first = await delay();
    expect(first).toBeGreaterThan(9);
    expect(first).toBeLessThanOrEqual(20);
    await sql`update pgboss.job set start_after = now() where name = 'retry.backoff'`.execute(handle.db);
    await waitFor(() => attempts.length === 2 && logs.length === 2, 5_000, 'second failure');
    const second = await delay();
    expect(second).toBeGreaterThan(19);
    expect(second).toBeLessThanOrEqual(40);
    expect(attempts).toEqual([1, 2]);
  });

  it('keeps a job that fails every attempt as dead, with its last error', async () => {
    const q = makeQueue();
    await q.work(
      'dead.always',
      async (_data, ctx) => {
        throw new Error(`boom on attempt ${ctx.attempt}`);
      },
      fast,
    );
    await q.start();
    const id = await q.send('dead.always', { shipmentId: 'shp_1' }, { retryLimit: 1, retryDelaySeconds: 0, retryBackoff: false });

    await waitFor(async () => (await q.dead('dead.always')).length === 1, 5_000, 'a dead job');
    const [dead] = await q.dead('dead.always');
    expect(dead).toMatchObject({ id, data: { shipmentId: 'shp_1' }, attempts: 2 });
    expect(dead.error).toMatchObject({ name: 'Error', message: 'boom on attempt 2' });
    expect(dead.failedAt).toBeInstanceOf(Date);
    expect((await q.depth())['dead.always']).toEqual({ queued: 0, active: 0, failed: 1 });
    expect(logs.map((l) => l.level)).toEqual(['warn', 'error']);
  });

  it('fails an attempt that outlives expireInSeconds, aborting its signal, and retries it', async () => {
    const q = makeQueue();
    const seen: Array<{ attempt: number; aborted: boolean }> = [];
    await q.work(
      'expire.slow',
      async (_data, ctx) => {
        if (ctx.attempt === 1) {
          await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
        }
        seen.push({ attempt: ctx.attempt, aborted: ctx.signal.aborted });
      },
      fast,
    );
    await q.start();
    await q.send('expire.slow', { n: 1 }, { expireInSeconds: 1, retryLimit: 1, retryDelaySeconds: 0, retryBackoff: false });
    await waitFor(async () => (await jobRows('expire.slow'))[0]?.state === 'completed', 5_000, 'completion');
    expect(seen).toEqual([
      { attempt: 1, aborted: true },
      { attempt: 2, aborted: false },
    ]);
  });
});

describe('several workers', () => {
  it('never runs one job twice across two instances', async () => {
    const a = makeQueue();
    const b = makeQueue();
    const runs = new Map<string, number>();
    const byInstance = { a: 0, b: 0 };
    const seenN = new Set<number>();
    const handler = (who: 'a' | 'b') => async (data: { n: number }, ctx: JobContext) => {
      runs.set(ctx.id, (runs.get(ctx.id) ?? 0) + 1);
      seenN.add(data.n);
      byInstance[who]++;
      await sleep(1);
    };
    await a.work('race.jobs', handler('a'), { concurrency: 4, ...fast });
    await b.work('race.jobs', handler('b'), { concurrency: 4, ...fast });
    await Promise.all([a.start(), b.start()]);
    const N = 200;
    // One transaction: all 200 appear at once, so both instances compete for them.
    await handle.db.transaction().execute(async (trx) => {
      for (let n = 0; n < N; n++) await a.send('race.jobs', { n }, { executor: trx });
    });

    await waitFor(() => seenN.size === N, 20_000, `${N} jobs`);
    await sleep(300);
    expect(runs.size).toBe(N);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(byInstance.a + byInstance.b).toBe(N);
    expect(byInstance.a).toBeGreaterThan(0);
    expect(byInstance.b).toBeGreaterThan(0);
    expect((await a.depth())['race.jobs']).toEqual({ queued: 0, active: 0, failed: 0 });
  });

  it('runs again a job claimed by a worker that died, once its attempt expires', async () => {
    const sender = makeQueue();
    const id = await sender.send('crash.recover', { n: 1 }, { expireInSeconds: 1, retryLimit: 2, retryDelaySeconds: 0, retryBackoff: false });
    // The "dead process": claims the job with pg-boss's fetch and never completes it.
    const crashed = new PgBoss({
      db: { executeSql: async (text: string, values: unknown[]) => handle.db.executeQuery(CompiledQuery.raw(text, values)) as Promise<{ rows: any[] }> },
    });
    const claimed = await crashed.fetch('crash.recover');
    expect(claimed.map((j) => j.id)).toEqual([id]);
    expect((await jobRows('crash.recover'))[0].state).toBe('active');

    const survivor = makeQueue({ maintenanceIntervalSeconds: 1 });
    const attempts: number[] = [];
    await survivor.work('crash.recover', async (_data, ctx) => void attempts.push(ctx.attempt), fast);
    await survivor.start();
    await waitFor(() => attempts.length === 1, 10_000, 'the expired job to run again');
    expect(attempts).toEqual([2]);
    await waitFor(async () => (await jobRows('crash.recover'))[0].state === 'completed', 2_000, 'completion');
  });
});

describe('idle workers', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('ask their queues again at different moments, not all at once', async () => {
    // Known draws instead of Math.random's, one per worker as each finds its queue empty.
    const draws = [0, 1 / 3, 2 / 3, 0.999];
    let n = 0;
    vi.spyOn(Math, 'random').mockImplementation(() => draws[n++ % draws.length]);
    const queue = makeQueue();
    const names = Array.from({ length: draws.length }, (_, i) => `idle.spread${i}`);
    const pickedAt = new Map<string, number>();
    for (const name of names) await queue.work(name, async () => void pickedAt.set(name, performance.now()), { pollingIntervalSeconds: 1 });
    await queue.start();
    // Every worker has asked once and found nothing; a job for each arrives, sent where no worker
    // is woken by it: each is found at its worker's next ask.
    await sleep(300);
    const outside = new PgBoss({
      db: { executeSql: async (text: string, values: unknown[]) => handle.db.executeQuery(CompiledQuery.raw(text, values)) as Promise<{ rows: any[] }> },
    });
    for (const name of names) await outside.send(name, {});
    await waitFor(() => pickedAt.size === names.length, 5_000, 'every queue to find its job');
    const times = [...pickedAt.values()];
    // Waits of exactly the interval: the next asks come together (within what the four statements
    // take one after another, tens of milliseconds on the embedded engine). Spread: 750 to 1,250 ms.
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(300);
  });
});

describe('stop', () => {
  it('waits for an active handler to finish, then leaves no timers behind', async () => {
    const q = makeQueue();
    const timeoutsBefore = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    let started = false;
    let finished = false;
    await q.work(
      'stop.graceful',
      async () => {
        started = true;
        await sleep(400);
        finished = true;
      },
      fast,
    );
    await q.start();
    await q.send('stop.graceful', { n: 1 });
    await waitFor(() => started, 5_000, 'the handler to start');
    const t0 = Date.now();
    await q.stop();
    expect(finished).toBe(true);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBeLessThanOrEqual(timeoutsBefore);
    expect((await jobRows('stop.graceful'))[0].state).toBe('completed');
    await expect(q.send('stop.graceful', { n: 2 })).rejects.toThrow(/stopped/);
  });

  it('after its timeout, aborts and releases a running job without counting the attempt', async () => {
    const q = makeQueue();
    let aborted = false;
    await q.work(
      'stop.release',
      async (_data, ctx) => {
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
        aborted = true;
      },
      fast,
    );
    await q.start();
    await q.send('stop.release', { n: 1 }, { retryLimit: 0 });
    await waitFor(async () => (await jobRows('stop.release'))[0]?.state === 'active', 5_000, 'the job to start');
    const t0 = Date.now();
    await q.stop({ timeoutMs: 200 });
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(aborted).toBe(true);
    const [row] = await jobRows('stop.release');
    expect(row).toMatchObject({ state: 'retry', started_on: null, retry_count: 0 });

    // retryLimit 0 and yet it runs again, as attempt 1: the interruption did not count.
    const next = makeQueue();
    const attempts: number[] = [];
    await next.work('stop.release', async (_data, ctx) => void attempts.push(ctx.attempt), fast);
    await next.start();
    await waitFor(() => attempts.length === 1, 5_000, 'the released job');
    expect(attempts).toEqual([1]);
  });
});

describe('schedule', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends one job per cron tick even when two instances declare the schedule', async () => {
    // Only Date is faked (advancing with real time), 2.2 s before a minute: the timers are real.
    const now = new Date();
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(new Date(Math.ceil(now.getTime() / 60_000) * 60_000 - 2_200));
    const a = makeQueue();
    const b = makeQueue();
    await a.schedule('cron.tick', '* * * * *', { kind: 'tick' });
    await b.schedule('cron.tick', '* * * * *', { kind: 'tick' });
    await Promise.all([a.start(), b.start()]);
    await waitFor(async () => (await jobRows('cron.tick')).length > 0, 6_000, 'the scheduled job');
    await sleep(500);
    const rows = await jobRows('cron.tick');
    expect(rows.map((r) => r.data)).toEqual([{ kind: 'tick' }]);
  });
});

describe('crash recovery on the embedded database', () => {
  it('recoverOrphans puts jobs left active by a dead process back at once', async () => {
    const handle = await openTestDatabase();
    const crashed = createJobQueue(handle);
    const survivor = createJobQueue(handle);
    try {
      await crashed.install();
      const name = `orphans.${Math.random().toString(36).slice(2, 8)}`;
      const ran: string[] = [];
      let hang!: () => void;
      await crashed.work<{ n: number }>(name, () => new Promise<void>((resolve) => (hang = resolve)));
      await crashed.send(name, { n: 1 }, { expireInSeconds: 3600 });
      await crashed.start();
      for (let i = 0; i < 100 && !hang; i++) await new Promise((r) => setTimeout(r, 20));
      expect(hang).toBeTypeOf('function');
      // The "crashed" instance never completes; the survivor recovers its job without waiting an hour.
      expect(await survivor.recoverOrphans()).toBe(1);
      await survivor.work<{ n: number }>(name, async (data, ctx) => {
        ran.push(`${data.n}@${ctx.attempt}`);
      });
      await survivor.start();
      for (let i = 0; i < 200 && ran.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
      expect(ran).toEqual(['1@1']);
      hang();
    } finally {
      await survivor.stop({ timeoutMs: 1000 });
      await crashed.stop({ timeoutMs: 1000 });
      await handle.close();
    }
  });
});
