import type { UsHoliday } from '../../carriers/types.js';
import { holidayDates } from '../rates/index.js';

/** Pickup windows: at least 2 h, at most 10 days ahead. */
export const MIN_WINDOW_MS = 2 * 3_600_000;
export const MAX_AHEAD_MS = 10 * 86_400_000;

export type WindowRefusal = 'window_inverted' | 'in_the_past' | 'window_too_short' | 'too_far_ahead' | 'spans_days' | 'sunday' | 'carrier_holiday';

export interface LocalTime {
  /** YYYY-MM-DD. */
  date: string;
  /** HHmm. */
  time: string;
  /** 0 = Sunday. */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The wall clock at `timeZone` for an instant. */
export function localTime(at: Date, timeZone: string): LocalTime {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}${p.minute}`, weekday: WEEKDAYS.indexOf(p.weekday!) };
}

/**
 * Why a carrier cannot come in this window (null: it can). Days are read at the pickup
 * address (its time zone); Saturdays are allowed (carriers run Saturday pickups), Sundays and
 * the carrier's observed holidays — the calendar its delivery dates use — are not.
 */
export function refuseWindow(
  window: { start: Date; end: Date },
  now: Date,
  timeZone: string,
  holidays: readonly UsHoliday[],
): { reason: WindowRefusal; field: string; message: string } | null {
  const { start, end } = window;
  if (start.getTime() >= end.getTime()) return { reason: 'window_inverted', field: 'window.end', message: 'must be after window.start' };
  if (start.getTime() < now.getTime()) return { reason: 'in_the_past', field: 'window.start', message: 'is in the past' };
  if (end.getTime() - start.getTime() < MIN_WINDOW_MS)
    return { reason: 'window_too_short', field: 'window.end', message: 'the window must be at least 2 hours long' };
  if (start.getTime() - now.getTime() > MAX_AHEAD_MS) return { reason: 'too_far_ahead', field: 'window.start', message: 'is more than 10 days ahead' };
  const from = localTime(start, timeZone);
  const to = localTime(new Date(end.getTime() - 1), timeZone);
  if (from.date !== to.date)
    return { reason: 'spans_days', field: 'window.end', message: `must be on the same day as window.start (${from.date} at the pickup address)` };
  if (from.weekday === 0) return { reason: 'sunday', field: 'window.start', message: `${from.date} is a Sunday; the carrier does not pick up on Sundays` };
  if (holidayDates(Number(from.date.slice(0, 4)), holidays).has(from.date))
    return { reason: 'carrier_holiday', field: 'window.start', message: `${from.date} is a holiday the carrier observes` };
  return null;
}
