import { describe, expect, it } from 'vitest';
import { parseDateValue, type DateFormat } from './dates.js';
import { parseInstant } from './wire.js';

const iso = (value: string, format: DateFormat) => parseDateValue(value, format)?.toISOString() ?? null;

describe('date values a client may send', () => {
  it('reads the three grammars, offsets and fractions to the instant they name', () => {
    expect(iso('2026-03-01', 'date')).toBe('2026-03-01T00:00:00.000Z');
    expect(iso('2024-02-29', 'date')).toBe('2024-02-29T00:00:00.000Z');
    expect(iso('2026-03-03T13:00:00-05:00', 'date-time')).toBe('2026-03-03T18:00:00.000Z');
    expect(iso('2026-03-03t13:00:00.123456789z', 'date-time')).toBe('2026-03-03T13:00:00.123Z');
    expect(iso('2026-03-03T13:00:00+14:00', 'date-time')).toBe('2026-03-02T23:00:00.000Z');
    expect(iso('2026-03-03', 'date-or-date-time')).toBe('2026-03-03T00:00:00.000Z');
    expect(iso('2026-03-03 13:00', 'date-or-date-time')).toBe('2026-03-03T13:00:00.000Z');
    expect(iso('2026-03-03T13:00-0500', 'date-or-date-time')).toBe('2026-03-03T18:00:00.000Z');
    expect(iso('0001-01-01T00:00:00Z', 'date-time')).toBe('0001-01-01T00:00:00.000Z');
    expect(iso('0099-06-01', 'date')).toBe('0099-06-01T00:00:00.000Z'); // not 1999
    expect(iso('9999-12-31T23:59:59.999Z', 'date-time')).toBe('9999-12-31T23:59:59.999Z');
  });

  it('refuses what JavaScript or PostgreSQL cannot represent, and impossible days, times and offsets', () => {
    const refused: Array<[string, DateFormat]> = [
      ['0000-01-01', 'date'],
      ['0000-01-01T00:00:00Z', 'date-time'],
      ['0000-01-01T00:00:00Z', 'date-or-date-time'],
      ['+275760-09-13T00:00:00Z', 'date-time'],
      ['+010000-01-01T00:00:00Z', 'date-time'],
      ['10000-01-01T00:00:00Z', 'date-time'],
      ['-000001-01-01T00:00:00Z', 'date-time'],
      ['2026-02-30', 'date'],
      ['2025-02-29', 'date'],
      ['2026-04-31T00:00:00Z', 'date-time'],
      ['2026-13-01', 'date'],
      ['2026-00-10', 'date'],
      ['2026-01-00', 'date'],
      ['2026-01-01T24:00:00Z', 'date-time'],
      ['2026-01-01T24:00', 'date-or-date-time'],
      ['2026-03-03T13:60:00Z', 'date-time'],
      ['2026-03-03T13:60', 'date-or-date-time'],
      ['2026-01-01T23:59:60Z', 'date-time'], // a leap second: JavaScript has none
      ['2026-03-03T13:00:00+24:00', 'date-time'],
      ['2026-03-03T13:00:00+14:01', 'date-time'],
      ['2026-03-03T13:00:00-15:00', 'date-time'],
      ['2026-03-03T13:00:00+05:60', 'date-time'],
      ['2026-03-03T13:00+9999', 'date-or-date-time'],
      // In range as written, out of range once the offset is applied.
      ['0001-01-01T00:00:00+01:00', 'date-time'],
      ['9999-12-31T23:00:00-01:00', 'date-time'],
      // Not the grammar.
      ['2026-03-03T13:00:00', 'date-time'],
      ['2026-03-03', 'date-time'],
      ['2026-03-03T13:00:00Z', 'date'],
      ['yesterday', 'date-or-date-time'],
      ['2026-3-3', 'date'],
      ['２０２６-03-03', 'date'],
    ];
    for (const [value, format] of refused) expect(parseDateValue(value, format), `${format} ${value}`).toBeNull();
  });

  it('parseInstant refuses the same values as 400 validation_failed on the field', () => {
    expect(() => parseInstant('0000-01-01', 'created_after')).toThrow(
      expect.objectContaining({ code: 'validation_failed', details: [expect.objectContaining({ field: 'created_after' })] }),
    );
    expect(parseInstant(' 2026-03-01 ', 'from').toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });
});
