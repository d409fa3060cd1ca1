import { describe, expect, it } from 'vitest';
import { parseCron } from './cron.js';

const at = (iso: string) => new Date(iso);
const next = (expr: string, from: string) => parseCron(expr).nextAfter(at(from)).toISOString();

describe('parseCron', () => {
  it('every minute', () => {
    expect(next('* * * * *', '2026-11-23T12:00:30.500Z')).toBe('2026-11-23T12:01:00.000Z');
    expect(next('* * * * *', '2026-11-23T12:01:00.000Z')).toBe('2026-11-23T12:02:00.000Z');
  });

  it('steps, ranges and lists', () => {
    expect(next('*/15 * * * *', '2026-11-23T12:01:00Z')).toBe('2026-11-23T12:15:00.000Z');
    expect(next('17 * * * *', '2026-11-23T12:17:00Z')).toBe('2026-11-23T13:17:00.000Z');
    expect(next('0 9-17/4 * * *', '2026-11-23T13:00:00Z')).toBe('2026-11-23T17:00:00.000Z');
    expect(next('5,35 * * * *', '2026-11-23T12:06:00Z')).toBe('2026-11-23T12:35:00.000Z');
    expect(next('10/20 * * * *', '2026-11-23T12:31:00Z')).toBe('2026-11-23T12:50:00.000Z');
  });

  it('days of month, months and weekdays (UTC)', () => {
    expect(next('0 0 1 * *', '2026-11-23T00:00:00Z')).toBe('2026-12-01T00:00:00.000Z');
    expect(next('0 0 29 2 *', '2026-03-01T00:00:00Z')).toBe('2028-02-29T00:00:00.000Z');
    // 2026-11-23 is a Monday; 7 and 0 are both Sunday.
    expect(next('30 2 * * 0', '2026-11-23T00:00:00Z')).toBe('2026-11-29T02:30:00.000Z');
    expect(next('30 2 * * 7', '2026-11-23T00:00:00Z')).toBe('2026-11-29T02:30:00.000Z');
    expect(next('0 8 * * 1-5', '2026-11-27T09:00:00Z')).toBe('2026-11-30T08:00:00.000Z');
  });

  it('matches either day field when both are restricted', () => {
    // The 1st of the month or any Friday.
    expect(next('0 0 1 * 5', '2026-11-23T00:00:00Z')).toBe('2026-11-27T00:00:00.000Z');
    expect(parseCron('0 0 1 * 5').matches(at('2026-12-01T00:00:00Z'))).toBe(true);
  });

  it('rejects what it does not support', () => {
    for (const bad of ['* * * *', '60 * * * *', '* 24 * * *', '* * 0 * *', '*/0 * * * *', 'MON * * * *', '5-1 * * * *', '@daily', '0 0 30 2 *']) {
      expect(() => parseCron(bad).nextAfter(at('2026-01-01T00:00:00Z')), bad).toThrow(TypeError);
    }
  });
});
