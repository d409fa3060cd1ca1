import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { startBuiltService, type BuiltService } from '../helpers/built-service.js';

// The log as `npm start` writes it at its default level (docs/architecture.md, "Logging"): one
// line per request, written asynchronously, and none lost when the process stops or crashes.

interface Line {
  msg?: string;
  reqId?: string;
  method?: string;
  route?: string | null;
  status?: number;
  ms?: number;
  workspace_id?: string | null;
}
const parse = (text: string): Line[] =>
  text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);

let service: BuiltService | undefined;
afterAll(() => service?.stop());

describe('the access log of the built service', () => {
  it('holds one line per request, with route, status, duration and request id, all flushed by a clean stop', { timeout: 300_000 }, async () => {
    service = await startBuiltService({ env: { LOG_LEVEL: 'info' } });
    const sent: { id: string; status: number }[] = [];
    for (let i = 0; i < 300; i++) {
      const id = `req_access_${String(i).padStart(4, '0')}`;
      const url = ['/health', '/v1/orders/ord_nothing', '/no/such/route'][i % 3];
      const res = await service.request('GET', url, { headers: { 'x-request-id': id } });
      sent.push({ id, status: res.status });
    }
    expect(await service.stop()).toBe(0);

    const lines = parse(service.output());
    expect(lines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toEqual([]);
    const access = new Map(lines.filter((l) => l.msg === 'request' && l.reqId?.startsWith('req_access_')).map((l) => [l.reqId!, l]));
    expect(access.size).toBe(sent.length);
    for (const { id, status } of sent) expect(access.get(id)).toMatchObject({ method: 'GET', status });
    expect(access.get('req_access_0000')).toMatchObject({ route: '/health', status: 200 });
    expect(access.get('req_access_0001')).toMatchObject({ route: '/v1/orders/:id', status: 401, workspace_id: null });
    expect(typeof access.get('req_access_0002')?.ms).toBe('number');
  });

  it('a crash flushes the lines still waiting to be written', { timeout: 60_000 }, async () => {
    // 20,000 lines written at once, then an uncaught exception: the asynchronous destination has
    // most of them pending when the process dies. Three lines are fewer than one write gathers:
    // all three wait in the buffer.
    for (const count of [20000, 3]) {
      const { code, out } = await runLogScript(`
        for (let i = 0; i < ${count}; i++) log.info({ i }, 'line');
        setImmediate(() => { throw new Error('crash'); });
      `);
      expect(code).not.toBe(0);
      const indices = parse(out).map((l) => (l as { i: number }).i);
      expect(indices.length).toBe(count);
      expect(new Set(indices).size).toBe(count);
    }
  });

  it('a lone line of a quiet process is written within a moment, not held for others', { timeout: 60_000 }, async () => {
    // One line, then nothing for 5 s: it must appear while the process still runs.
    let seenAt: number | undefined;
    const { out } = await runLogScript(`log.info({ i: 1 }, 'alone'); setTimeout(() => {}, 5000);`, (text) => {
      if (seenAt === undefined && text.includes('"alone"')) seenAt = performance.now();
    });
    const exitedAt = performance.now();
    expect(parse(out).filter((l) => l.msg === 'alone')).toHaveLength(1);
    expect(seenAt).toBeDefined();
    // Seen seconds before the exit: written by the destination's timer, not by the flush at exit.
    expect(exitedAt - seenAt!).toBeGreaterThan(3000);
  });
});

/** Runs a script that logs through serviceLogDestination (`log`), as the service does; resolves to its exit code and output. */
async function runLogScript(body: string, onOutput?: (soFar: string) => void): Promise<{ code: number | null; out: string }> {
  const script = `
    import pino from 'pino';
    import { serviceLogDestination } from './src/platform/logger.ts';
    const log = pino(serviceLogDestination());
    ${body}
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
    onOutput?.(out);
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, out };
}
