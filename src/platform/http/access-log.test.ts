import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accessLoggerOptions, timeField } from '../logger.js';
import { accessLine, type AccessFields } from './access-log.js';

/** What the access logger (pino) writes for these fields at `info`. */
function pinoLine(fields: AccessFields): string {
  let out = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, cb) {
      out += chunk.toString();
      cb();
    },
  });
  pino(accessLoggerOptions('info'), sink).info(fields, 'request');
  return out;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the access line', () => {
  it("is pino's line for the same fields, byte for byte", async () => {
    vi.useFakeTimers({ now: new Date('2026-03-04T05:06:07.089Z'), toFake: ['Date'] });
    const cases: AccessFields[] = [
      { reqId: 'req_0123abcd', method: 'POST', route: '/v1/rates/query', status: 200, ms: 1.23, workspace_id: 'ws_01m84sr8f2etp94j1xzspytcgn' },
      { reqId: 'req_x', method: 'GET', route: null, status: 404, ms: 0, workspace_id: null },
      { reqId: 'a"b\\c', method: 'DELETE', route: '/v1/orders/:id', status: 500, ms: 1234.5, workspace_id: null },
    ];
    for (const fields of cases) {
      const line = accessLine(fields);
      expect(line).toBe(pinoLine(fields));
      expect(JSON.parse(line)).toEqual({ level: 30, time: '2026-03-04T05:06:07.089Z', service: 'shipping-service', ...fields, msg: 'request' });
    }
  });

  it('carries the time of the millisecond it is written in', () => {
    vi.useFakeTimers({ now: new Date('2026-03-04T05:06:07.089Z'), toFake: ['Date'] });
    expect(timeField()).toBe(',"time":"2026-03-04T05:06:07.089Z"');
    vi.setSystemTime(new Date('2026-03-04T05:06:07.090Z'));
    expect(timeField()).toBe(',"time":"2026-03-04T05:06:07.090Z"');
    expect(JSON.parse(accessLine({ reqId: 'r', method: 'GET', route: null, status: 200, ms: 1, workspace_id: null })).time).toBe('2026-03-04T05:06:07.090Z');
  });
});
