import { validationError } from '../errors.js';

/** A timestamp on the wire (DESIGN.md §4: ISO-8601 UTC), from a row's Date or text; null stays null. */
export const iso = (d: Date | string | null | undefined): string | null => (d == null ? null : new Date(d).toISOString());

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** An ISO date (midnight UTC) or date-time (UTC when no offset is given). */
export function parseInstant(value: string, field: string): Date {
  const match = ISO_INSTANT.exec(value.trim());
  let date = new Date(NaN);
  if (match) {
    const text = value.trim().replace(' ', 'T');
    date = new Date(text.length === 10 ? `${text}T00:00:00Z` : match[1] ? text : `${text}Z`);
  }
  if (Number.isNaN(date.getTime())) throw validationError([{ field, message: 'must be an ISO 8601 date or date-time' }]);
  return date;
}

