import { createRequire } from 'node:module';
import type Holidays from 'date-holidays';
import type { UsHoliday } from '../../carriers/types.js';

/**
 * Business-day calendars for delivery promises. A carrier business day is Monday–Friday
 * except the US holidays that carrier observes (from `date-holidays`, including the observed
 * Friday/Monday when a holiday falls on a weekend). Dates are `YYYY-MM-DD` strings throughout.
 *
 * Cutoff: a parcel shipped today at or after 17:00 in the origin's local time is tendered the
 * next business day. The origin's time zone comes from its state (US) or is UTC elsewhere.
 */

export const CUTOFF_HOUR = 17;

/** date-holidays' English names for the holidays carriers declare. */
const HOLIDAY_NAMES: Record<UsHoliday, string> = {
  new_years_day: "New Year's Day",
  mlk_day: 'Martin Luther King Jr. Day',
  washingtons_birthday: "Washington's Birthday",
  memorial_day: 'Memorial Day',
  juneteenth: 'Juneteenth',
  independence_day: 'Independence Day',
  labor_day: 'Labor Day',
  columbus_day: 'Columbus Day',
  veterans_day: 'Veterans Day',
  thanksgiving_day: 'Thanksgiving Day',
  christmas_day: 'Christmas Day',
};
export const ALL_US_HOLIDAYS = Object.keys(HOLIDAY_NAMES) as UsHoliday[];
/** Names as date-holidays spells them, per language variant ("Labour Day" in plain `en`). */
const KEY_BY_NAME = new Map<string, UsHoliday>([...Object.entries(HOLIDAY_NAMES).map(([k, v]) => [v, k as UsHoliday] as const), ['Labour Day', 'labor_day']]);

const require = createRequire(import.meta.url);
let calendar: Holidays | null = null;

/** date-holidays carries every country's rules (~0.3 s to load): loaded on first use. */
function usCalendar(): Holidays {
  if (!calendar) {
    const HolidaysClass = require('date-holidays') as typeof Holidays;
    calendar = new HolidaysClass('US');
  }
  return calendar;
}
/** year → holiday key → observed day numbers (a holiday and its substitute day). */
const byYear = new Map<number, Map<UsHoliday, number[]>>();

function holidaysOf(year: number): Map<UsHoliday, number[]> {
  let map = byYear.get(year);
  if (map) return map;
  map = new Map();
  for (const h of usCalendar().getHolidays(year)) {
    if (h.type !== 'public') continue;
    const key = KEY_BY_NAME.get(h.name.replace(/ \(substitute day\)$/, ''));
    if (!key) continue;
    const list = map.get(key) ?? [];
    list.push(toDay(h.date.slice(0, 10)));
    map.set(key, list);
  }
  byYear.set(year, map);
  return map;
}

/**
 * Closed days per holiday list and year. Carriers hand in the same constant list on every
 * call, so the list itself is the cache key (the rate query hot path does no string work).
 */
const closedDays = new WeakMap<readonly UsHoliday[], Map<number, Set<number>>>();

function closedDaysOf(year: number, holidays: readonly UsHoliday[]): Set<number> {
  let years = closedDays.get(holidays);
  if (!years) {
    years = new Map();
    closedDays.set(holidays, years);
  }
  let set = years.get(year);
  if (!set) {
    const map = holidaysOf(year);
    set = new Set(holidays.flatMap((h) => map.get(h) ?? []));
    years.set(year, set);
  }
  return set;
}

/** Every date in `year` on which a carrier observing `holidays` is closed for a holiday. */
export function holidayDates(year: number, holidays: readonly UsHoliday[]): ReadonlySet<string> {
  return new Set([...closedDaysOf(year, holidays)].map(fromDay));
}

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 (UTC). Day arithmetic on integers keeps the hot path cheap. */
function toDay(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
}

/** Day number → YYYY-MM-DD (Hinnant's civil-from-days; cheaper than Date#toISOString). */
function fromDay(day: number): string {
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, '0')}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`;
}

/** True for a real calendar date written YYYY-MM-DD. */
export function isValidDate(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const day = toDay(date);
  return Number.isFinite(day) && fromDay(day) === date;
}

/** The UTC year of a day number, without allocating a Date (this runs per day counted). */
export function yearOfDay(day: number): number {
  let year = 1970 + Math.floor(day / 365.2425);
  if (Date.UTC(year, 0, 1) / DAY_MS > day) year -= 1;
  else if (Date.UTC(year + 1, 0, 1) / DAY_MS <= day) year += 1;
  return year;
}

function isBusinessDayNumber(day: number, holidays: readonly UsHoliday[]): boolean {
  const dow = (((day + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday (4)
  if (dow === 0 || dow === 6) return false;
  return !closedDaysOf(yearOfDay(day), holidays).has(day);
}

function nextBusinessDayNumber(day: number, holidays: readonly UsHoliday[]): number {
  let d = day + 1;
  while (!isBusinessDayNumber(d, holidays)) d += 1;
  return d;
}

export function isBusinessDay(date: string, holidays: readonly UsHoliday[]): boolean {
  return isBusinessDayNumber(toDay(date), holidays);
}

/** The first business day strictly after `date`. */
export function nextBusinessDay(date: string, holidays: readonly UsHoliday[]): string {
  return fromDay(nextBusinessDayNumber(toDay(date), holidays));
}

/** `date` plus `days` business days (date itself not counted). */
export function addBusinessDays(date: string, days: number, holidays: readonly UsHoliday[]): string {
  let day = toDay(date);
  for (let i = 0; i < days; i++) day = nextBusinessDayNumber(day, holidays);
  return fromDay(day);
}

/** The local calendar date and hour at the origin, read once per request. */
export interface LocalClock {
  date: string;
  hour: number;
  /** Set when the origin keeps its own cut-off (a location's pickup_cutoff): whether it has passed today. */
  past_cutoff?: boolean;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Local clocks stay valid until the next quarter hour (every UTC offset is a multiple of 15 min). */
const QUARTER_HOUR_MS = 900_000;
const clocks = new Map<string, { from: number; until: number; clock: LocalClock }>();

export function localClock(now: Date, timeZone: string): LocalClock {
  const t = now.getTime();
  const cached = clocks.get(timeZone);
  if (cached && t >= cached.from && t < cached.until) return cached.clock;
  const clock = readLocalClock(now, timeZone);
  const from = Math.floor(t / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
  clocks.set(timeZone, { from, until: from + QUARTER_HOUR_MS, clock });
  return clock;
}

/** The clock of an origin with its own cut-off (minutes after local midnight). */
export function cutoffClock(now: Date, timeZone: string, cutoffMinutes: number): LocalClock {
  const clock = localClock(now, timeZone);
  const minute = Number(new Intl.DateTimeFormat('en-US', { timeZone, minute: '2-digit' }).format(now));
  return { ...clock, past_cutoff: clock.hour * 60 + minute >= cutoffMinutes };
}

function readLocalClock(now: Date, timeZone: string): LocalClock {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(now).map((p) => [p.type, p.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
}

/**
 * The day the carrier takes the parcel: the ship date if it is a business day and, when it
 * is today, the cutoff has not passed; otherwise the next business day.
 */
export function tenderDate(shipDate: string, holidays: readonly UsHoliday[], clock: LocalClock): string {
  const day = toDay(shipDate);
  const pastCutoff = shipDate === clock.date && (clock.past_cutoff ?? clock.hour >= CUTOFF_HOUR);
  if (pastCutoff || !isBusinessDayNumber(day, holidays)) return fromDay(nextBusinessDayNumber(day, holidays));
  return shipDate;
}

/** Tender date + transit business days. */
export function estimateDeliveryDate(shipDate: string, businessDays: number, holidays: readonly UsHoliday[], clock: LocalClock): string {
  // A pure function of its arguments that a quote calls once per option (14 times), on
  // arguments that repeat across lanes: remembered per holiday calendar.
  let dates = deliveryDates.get(holidays);
  if (!dates) deliveryDates.set(holidays, (dates = new Map()));
  const key = `${shipDate}|${businessDays}|${clock.date}|${clock.hour}|${clock.past_cutoff ?? ''}`;
  let date = dates.get(key);
  if (date === undefined) {
    if (dates.size >= 4096) dates.clear();
    date = addBusinessDays(tenderDate(shipDate, holidays, clock), businessDays, holidays);
    dates.set(key, date);
  }
  return date;
}

const deliveryDates = new WeakMap<readonly UsHoliday[], Map<string, string>>();

/** Dominant IANA zone per US state, district, territory. */
const STATE_TIME_ZONES: Record<string, string> = {
  AL: 'America/Chicago',
  AK: 'America/Anchorage',
  AZ: 'America/Phoenix',
  AR: 'America/Chicago',
  CA: 'America/Los_Angeles',
  CO: 'America/Denver',
  CT: 'America/New_York',
  DE: 'America/New_York',
  DC: 'America/New_York',
  FL: 'America/New_York',
  GA: 'America/New_York',
  HI: 'Pacific/Honolulu',
  ID: 'America/Boise',
  IL: 'America/Chicago',
  IN: 'America/Indiana/Indianapolis',
  IA: 'America/Chicago',
  KS: 'America/Chicago',
  KY: 'America/New_York',
  LA: 'America/Chicago',
  ME: 'America/New_York',
  MD: 'America/New_York',
  MA: 'America/New_York',
  MI: 'America/Detroit',
  MN: 'America/Chicago',
  MS: 'America/Chicago',
  MO: 'America/Chicago',
  MT: 'America/Denver',
  NE: 'America/Chicago',
  NV: 'America/Los_Angeles',
  NH: 'America/New_York',
  NJ: 'America/New_York',
  NM: 'America/Denver',
  NY: 'America/New_York',
  NC: 'America/New_York',
  ND: 'America/Chicago',
  OH: 'America/New_York',
  OK: 'America/Chicago',
  OR: 'America/Los_Angeles',
  PA: 'America/New_York',
  RI: 'America/New_York',
  SC: 'America/New_York',
  SD: 'America/Chicago',
  TN: 'America/Chicago',
  TX: 'America/Chicago',
  UT: 'America/Denver',
  VT: 'America/New_York',
  VA: 'America/New_York',
  WA: 'America/Los_Angeles',
  WV: 'America/New_York',
  WI: 'America/Chicago',
  WY: 'America/Denver',
  PR: 'America/Puerto_Rico',
  VI: 'America/St_Thomas',
  GU: 'Pacific/Guam',
  AS: 'Pacific/Pago_Pago',
  MP: 'Pacific/Saipan',
  FM: 'Pacific/Pohnpei',
  MH: 'Pacific/Majuro',
  PW: 'Pacific/Palau',
};

/** The origin's time zone for the cutoff: its state's zone in the US, UTC elsewhere. */
export function originTimeZone(state: string | null): string {
  return (state && STATE_TIME_ZONES[state]) || 'UTC';
}
