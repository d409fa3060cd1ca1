/**
 * The one reading of dates and times a client sends (query strings and bodies alike). A value
 * is accepted only when it names a real instant both JavaScript and PostgreSQL represent:
 * years 0001–9999 (PostgreSQL has no year 0 and JavaScript none beyond ±275760; year 0000 and
 * five-digit years were answered with a 500 from the database), a day that exists in its month,
 * hours 00–23, minutes and seconds 00–59, and an offset no wider than any time zone uses
 * (±14:00). The instant it names, in UTC, must fall in the same years.
 *
 * Three grammars, each an Ajv format (registered in app.ts, so a schema only names it):
 * - `date`: `YYYY-MM-DD`.
 * - `date-time`: RFC 3339, `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`.
 * - `date-or-date-time`: what list filters take ("an ISO date or date-time", as the audit and analytics filters promise):
 *   a date (midnight UTC), or a date and time with optional seconds and fraction, `T` or a
 *   space between them, and an optional offset (`Z`, `±HH:MM` or `±HHMM`; UTC without one).
 */

export type DateFormat = 'date' | 'date-time' | 'date-or-date-time';

/** The formats this module answers for, with the message a refusal carries. */
export const DATE_FORMAT_MESSAGES: Record<DateFormat, string> = {
  date: 'must be a calendar date YYYY-MM-DD (a day that exists, years 0001–9999)',
  'date-time': 'must be an ISO 8601 date-time with an offset, e.g. 2026-03-03T13:00:00Z (a real day and time, years 0001–9999, offset within ±14:00)',
  'date-or-date-time': 'must be an ISO 8601 date or date-time (a real day and time, years 0001–9999, offset within ±14:00)',
};

const MIN_YEAR = 1;
const MAX_YEAR = 9999;
/** The widest offset of any time zone (UTC+14:00; the westmost is UTC−12:00). */
const MAX_OFFSET_MINUTES = 14 * 60;
const MIN_MS = utcMs(MIN_YEAR, 1, 1, 0, 0, 0, 0);
const MAX_MS = utcMs(MAX_YEAR + 1, 1, 1, 0, 0, 0, 0) - 1;
/** The first instant a date value may name (0001-01-01T00:00:00Z): a bound for ranges derived from one. */
export const EARLIEST_INSTANT = new Date(MIN_MS);

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;
const DATE_OR_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?$/;

function utcMs(year: number, month: number, day: number, hour: number, minute: number, second: number, ms: number): number {
  // Date.UTC reads years 0–99 as 1900–1999; setUTCFullYear does not.
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, ms);
  return d.getTime();
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The instant a value names in the given grammar, or null when it names none we represent. */
export function parseDateValue(value: string, format: DateFormat): Date | null {
  const grammar = format === 'date' ? DATE : format === 'date-time' ? DATE_TIME : DATE_OR_DATE_TIME;
  const m = grammar.exec(value);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < MIN_YEAR || year > MAX_YEAR || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return null;
  const ms = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  let offsetMinutes = 0;
  if (m[9]) {
    const [oh, om] = [Number(m[10]), Number(m[11])];
    if (om > 59) return null;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
    if (Math.abs(offsetMinutes) > MAX_OFFSET_MINUTES) return null;
  }
  const at = utcMs(year, month, day, hour, minute, second, ms) - offsetMinutes * 60_000;
  if (at < MIN_MS || at > MAX_MS) return null;
  return new Date(at);
}

/** Whether a value is valid in a format (the Ajv and TypeBox format check). */
export function isDateValue(format: DateFormat): (value: string) => boolean {
  return (value) => parseDateValue(value, format) !== null;
}

/** The formats to register with a validator (Ajv's `addFormat`, TypeBox's `FormatRegistry.Set`). */
export const DATE_FORMATS: ReadonlyArray<readonly [DateFormat, (value: string) => boolean]> = (['date', 'date-time', 'date-or-date-time'] as const).map(
  (f) => [f, isDateValue(f)] as const,
);

/** Registers (or replaces: Ajv's own `date` and `date-time` accept year 0000) the date formats on an Ajv instance. */
export function addDateFormats(ajv: { addFormat(name: string, format: (value: string) => boolean): unknown }): void {
  for (const [name, check] of DATE_FORMATS) ajv.addFormat(name, check);
}
