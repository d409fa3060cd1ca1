import { describe, expect, it } from 'vitest';
import { MemoryJobQueue } from './memory-queue.js';
import type { JobContext } from './job-queue.js';

function clock(start = Date.UTC(2026, 10, 23, 12, 0, 30)) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

describe('MemoryJobQueue', () => {
  it('runs due jobs as direct handler calls, with JSON payloads', async () => {
    const q = new MemoryJobQueue();
    const seen: unknown[] = [];
    await q.work('webhooks.deliver', async (data) => void seen.push(data));
    await q.send('webhooks.deliver', { workspaceId: 'ws_1', at: new Date(0), skip: undefined });
    expect(seen).toEqual([]); // nothing runs by itself
    expect(await q.drain()).toEqual({ ran: 1, completed: 1, failed: 0 });
    expect(seen).toEqual([{ workspaceId: 'ws_1', at: '1970-01-01T00:00:00.000Z' }]);
    expect(q.jobs('webhooks.deliver')[0].state).toBe('completed');
  });

  it('validates like the real driver', async () => {
    const q = new MemoryJobQueue();
    await expect(q.send('bad name', {})).rejects.toThrow(TypeError);
    await expect(q.send('a.b', [] as unknown as object)).rejects.toThrow(TypeError);
    await expect(q.schedule('a.b', 'not a cron')).rejects.toThrow(TypeError);
  });

  it('honours startAfterSeconds against its clock', async () => {
    const c = clock();
    const q = new MemoryJobQueue({ now: c.now });
    let runs = 0;
    await q.work('later.job', async () => void runs++);
    await q.send('later.job', { n: 1 }, { startAfterSeconds: 30 });
    await q.runDue();
    expect(runs).toBe(0);
    c.advance(30_000);
    await q.runDue();
    expect(runs).toBe(1);
  });

  it('retries with exponential backoff on the fake clock, then keeps the job dead', async () => {
    const c = clock();
    const q = new MemoryJobQueue({ now: c.now });
    const attempts: number[] = [];
    await q.work('flaky.job', async (_data, ctx: JobContext) => {
      attempts.push(ctx.attempt);
      throw new Error(`fail ${ctx.attempt}`);
    });
    const id = await q.send('flaky.job', { n: 1 }, { retryLimit: 2, retryDelaySeconds: 10, retryBackoff: true });

    expect(await q.drain()).toEqual({ ran: 1, completed: 0, failed: 1 });
    c.advance(9_999);
    expect((await q.runDue()).ran).toBe(0);
    c.advance(1);
    expect((await q.runDue()).ran).toBe(1); // retry 1 after 10 s
    c.advance(19_999);
    expect((await q.runDue()).ran).toBe(0);
    c.advance(1);
    expect((await q.runDue()).ran).toBe(1); // retry 2 after 20 s
    expect(attempts).toEqual([1, 2, 3]);

    const dead = await q.dead('flaky.job');
    expect(dead).toEqual([{ id, data: { n: 1 }, error: expect.objectContaining({ message: 'fail 3' }), failedAt: new Date(c.now()), attempts: 3 }]);
    expect((await q.depth())['flaky.job']).toEqual({ queued: 0, active: 0, failed: 1 });
  });

  it('completes a job that succeeds on a retry', async () => {
    const q = new MemoryJobQueue();
    await q.work('once.flaky', async (_d, ctx) => {
      if (ctx.attempt === 1) throw new Error('first');
    });
    await q.send('once.flaky', {}, { retryDelaySeconds: 0, retryBackoff: false });
    expect(await q.drain()).toEqual({ ran: 2, completed: 1, failed: 1 });
    expect(await q.dead('once.flaky')).toEqual([]);
  });

  it('drain() also runs jobs that handlers send', async () => {
    const q = new MemoryJobQueue();
    const order: string[] = [];
    await q.work('chain.first', async () => {
      order.push('first');
      await q.send('chain.second', {});
    });
    await q.work('chain.second', async () => void order.push('second'));
    await q.send('chain.first', {});
    await q.drain();
    expect(order).toEqual(['first', 'second']);
  });

  it('deduplicates singleton sends per window', async () => {
    const c = clock();
    const q = new MemoryJobQueue({ now: c.now });
    expect(await q.send('s.job', {}, { singletonKey: 'k', singletonSeconds: 60 })).toEqual(expect.any(String));
    expect(await q.send('s.job', {}, { singletonKey: 'k', singletonSeconds: 60 })).toBeNull();
    c.advance(60_000);
    expect(await q.send('s.job', {}, { singletonKey: 'k', singletonSeconds: 60 })).toEqual(expect.any(String));
  });

  it('sends scheduled jobs when a tick has passed, coalescing missed ticks', async () => {
    const c = clock(Date.UTC(2026, 10, 23, 12, 0, 30));
    const q = new MemoryJobQueue({ now: c.now });
    let runs = 0;
    await q.work('tokens.expire', async () => void runs++);
    await q.schedule('tokens.expire', '*/5 * * * *', { kind: 'sweep' });
    await q.drain();
    expect(runs).toBe(0);
    c.advance(4 * 60_000 + 29_000); // 12:04:59
    await q.drain();
    expect(runs).toBe(0);
    c.advance(1_000); // 12:05:00
    await q.drain();
    expect(runs).toBe(1);
    c.advance(60 * 60_000); // an hour asleep: one job, not twelve
    await q.drain();
    expect(runs).toBe(2);
    expect(q.jobs('tokens.expire').map((j) => j.data)).toEqual([{ kind: 'sweep' }, { kind: 'sweep' }]);
  });

  it('refuses use after stop()', async () => {
    const q = new MemoryJobQueue();
    await q.stop();
    await expect(q.send('a.b', {})).rejects.toThrow(/stopped/);
  });
});
