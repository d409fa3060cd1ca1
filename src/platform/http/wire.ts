import { validationError } from '../errors.js';
import { DATE_FORMAT_MESSAGES, parseDateValue } from './dates.js';

/** A timestamp on the wire (ISO-8601 UTC: docs/api-conventions.md), from a row's Date or text; null stays null. */
export const iso = (d: Date | string | null | undefined): string | null => (d == null ? null : new Date(d).toISOString());

/**
 * An ISO date (midnight UTC) or date-time (UTC when no offset is given), as the
 * `date-or-date-time` format reads it (dates.ts): only instants the database can compare with.
 */
export function parseInstant(value: string, field: string): Date {
  const date = parseDateValue(value.trim(), 'date-or-date-time');
  if (!date) throw validationError([{ field, message: DATE_FORMAT_MESSAGES['date-or-date-time'] }]);
  return date;
}

/** A comma-separated filter (`status=a,b`): known values only, else 400 naming the field. */
export function parseList<T extends string>(value: string, allowed: readonly T[], field: string): T[] {
  const parts = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 0 || parts.some((s) => !(allowed as readonly string[]).includes(s))) {
    throw validationError([{ field, message: `must be one or more of ${allowed.join(', ')} (comma-separated)` }]);
  }
  return parts as T[];
}
