import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { loggerOptions } from '../logger.js';
import { LazyRequestLogger } from './request-logger.js';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, cb) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
      cb();
    },
  });
  return { log: pino(loggerOptions(level), sink), lines };
}

describe('LazyRequestLogger (request.log)', () => {
  it('makes its child only when a line is logged at an enabled level', () => {
    const { log, lines } = capture('info');
    const child = vi.spyOn(log, 'child');
    const request = new LazyRequestLogger(log, { reqId: 'req_1' }, {});
    request.debug('not at info');
    request.trace({ a: 1 }, 'nor this');
    expect(child).not.toHaveBeenCalled();
    expect(request.level).toBe('info');
    request.warn({ token: 'secret-value', detail: 'x' }, 'a warning');
    request.error('an error');
    expect(child).toHaveBeenCalledTimes(1);
    expect(child).toHaveBeenCalledWith({ reqId: 'req_1' }, {});
    // As the child Fastify would have made: the request id bound, the redaction paths applied.
    expect(lines).toMatchObject([
      { level: 40, reqId: 'req_1', token: '[redacted]', detail: 'x', msg: 'a warning' },
      { level: 50, reqId: 'req_1', msg: 'an error' },
    ]);
  });

  it('logs below info when the level allows it, and its children carry both bindings', () => {
    const { log, lines } = capture('debug');
    const request = new LazyRequestLogger(log, { reqId: 'req_2' }, {});
    request.debug({ step: 1 }, 'debugging');
    request.child({ job: 'j' }).info('from a child');
    expect(lines).toMatchObject([
      { level: 20, reqId: 'req_2', step: 1, msg: 'debugging' },
      { level: 30, reqId: 'req_2', job: 'j', msg: 'from a child' },
    ]);
  });
});
