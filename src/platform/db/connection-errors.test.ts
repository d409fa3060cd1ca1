import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './connection-errors.js';

describe('isDatabaseUnavailable', () => {
  it('knows a lost or refused connection', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('connection failure'), { code: '08006' }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: new Error('Client has encountered a connection error and is not queryable') }))).toBe(true);
  });

  it('knows storage that refuses the server (a read-only data dir, a full or failing disk)', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('could not open file "base/5/2650": Permission denied'), { code: '42501' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('could not create file "base/5/16394": Read-only file system'), { code: '42501' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('could not extend file "base/5/16394": No space left on device'), { code: '53100' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('could not read block 0 in file "base/5/16394": I/O error'), { code: '58030' }))).toBe(true);
  });

  it('does not take a query or data fault for an outage', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('permission denied for table accounts'), { code: '42501' }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('syntax error at or near "x"'), { code: '42601' }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
