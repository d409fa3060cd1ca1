import { describe, expect, it } from 'vitest';
import type { UsHoliday } from '../../carriers/types.js';
import {
  addBusinessDays,
  estimateDeliveryDate,
  holidayDates,
  isBusinessDay,
  isValidDate,
  yearOfDay,
  localClock,
  nextBusinessDay,
  originTimeZone,
  tenderDate,
} from './delivery-dates.js';

const USPS: readonly UsHoliday[] = [
  'new_years_day',
  'mlk_day',
  'washingtons_birthday',
  'memorial_day',
  'juneteenth',
  'independence_day',
  'labor_day',
  'columbus_day',
  'veterans_day',
  'thanksgiving_day',
  'christmas_day',
];
const UPS: readonly UsHoliday[] = ['new_years_day', 'memorial_day', 'independence_day', 'labor_day', 'thanksgiving_day', 'christmas_day'];
const MORNING = { date: '2000-01-01', hour: 9 }; // a clock on another day: no cutoff effect

describe('holiday calendars', () => {
  it('knows the 2026 federal holidays, with the observed Friday for a Saturday July 4', () => {
    const dates = holidayDates(2026, USPS);
    for (const d of [
      '2026-01-01',
      '2026-01-19',
      '2026-02-16',
      '2026-05-25',
      '2026-06-19',
      '2026-07-03',
      '2026-07-04',
      '2026-09-07',
      '2026-10-12',
      '2026-11-11',
      '2026-11-26',
      '2026-12-25',
    ]) {
      expect(dates.has(d), d).toBe(true);
    }
    expect(dates.has('2026-11-27')).toBe(false); // day after Thanksgiving is not federal
    expect(dates.has('2026-12-24')).toBe(false);
  });

  it('UPS/FedEx/DHL observe only the six major holidays', () => {
    const dates = holidayDates(2026, UPS);
    expect(dates.has('2026-10-12')).toBe(false); // Columbus Day
    expect(dates.has('2026-11-11')).toBe(false); // Veterans Day
    expect(dates.has('2026-09-07')).toBe(true); // Labor Day
    expect(dates.size).toBe(7); // six holidays + the observed Friday July 3
  });

  it('finds every holiday key a carrier can declare, every year (guards against renamed holidays)', () => {
    for (let year = 2025; year <= 2032; year++) {
      for (const key of USPS) expect(holidayDates(year, [key]).size, `${key} ${year}`).toBeGreaterThanOrEqual(1);
    }
  });

  it('weekends are never business days', () => {
    expect(isBusinessDay('2026-03-07', UPS)).toBe(false); // Saturday
    expect(isBusinessDay('2026-03-08', UPS)).toBe(false); // Sunday
    expect(isBusinessDay('2026-03-09', UPS)).toBe(true);
  });
});

describe('business-day arithmetic', () => {
  it('ship on the Friday before Labor Day: one business day lands on Tuesday', () => {
    expect(addBusinessDays('2026-09-04', 1, UPS)).toBe('2026-09-08');
    expect(addBusinessDays('2026-09-04', 1, USPS)).toBe('2026-09-08');
  });

  it('Columbus Day closes USPS but not UPS', () => {
    expect(addBusinessDays('2026-10-09', 1, USPS)).toBe('2026-10-13');
    expect(addBusinessDays('2026-10-09', 1, UPS)).toBe('2026-10-12');
  });

  it('spans Thanksgiving and a weekend', () => {
    // Wed Nov 25 + 2: Thu 26 holiday, Fri 27, Mon 30
    expect(addBusinessDays('2026-11-25', 2, UPS)).toBe('2026-11-30');
  });

  it('crosses the new year with the observed holiday', () => {
    // 2027-12-31 (Fri) is the observed New Year's Day 2028; 2027-12-24 (Fri) the observed Christmas.
    expect(addBusinessDays('2027-12-23', 1, UPS)).toBe('2027-12-27');
    expect(addBusinessDays('2027-12-30', 1, UPS)).toBe('2028-01-03');
  });

  it('nextBusinessDay skips a three-day weekend', () => {
    expect(nextBusinessDay('2026-05-22', USPS)).toBe('2026-05-26'); // Memorial Day Monday
  });

  it('zero days is the same date', () => {
    expect(addBusinessDays('2026-03-04', 0, UPS)).toBe('2026-03-04');
  });
});

describe('tender date and cutoff', () => {
  it('a weekday ship date before the cutoff is tendered that day', () => {
    expect(tenderDate('2026-03-04', UPS, { date: '2026-03-04', hour: 16 })).toBe('2026-03-04');
  });

  it('today at or after 17:00 local is tendered the next business day', () => {
    expect(tenderDate('2026-03-04', UPS, { date: '2026-03-04', hour: 17 })).toBe('2026-03-05');
    expect(tenderDate('2026-03-06', UPS, { date: '2026-03-06', hour: 18 })).toBe('2026-03-09'); // Friday evening → Monday
  });

  it('the cutoff does not apply to a future ship date', () => {
    expect(tenderDate('2026-03-05', UPS, { date: '2026-03-04', hour: 20 })).toBe('2026-03-05');
  });

  it('a weekend or holiday ship date is tendered the next business day', () => {
    expect(tenderDate('2026-03-07', UPS, MORNING)).toBe('2026-03-09');
    expect(tenderDate('2026-12-25', UPS, MORNING)).toBe('2026-12-28');
  });

  it('estimates delivery from the tender date', () => {
    // Friday before Labor Day, 2 business days: tender Fri → Tue, Wed
    expect(estimateDeliveryDate('2026-09-04', 2, UPS, MORNING)).toBe('2026-09-09');
    // Friday after the cutoff: tender Tue (Mon is Labor Day) → Wed
    expect(estimateDeliveryDate('2026-09-04', 1, UPS, { date: '2026-09-04', hour: 19 })).toBe('2026-09-09');
  });

  it('reads the local clock in the origin time zone', () => {
    // 2026-03-04T23:30Z is 18:30 in New York and 15:30 in Los Angeles
    const now = new Date('2026-03-04T23:30:00Z');
    expect(localClock(now, originTimeZone('NY'))).toEqual({ date: '2026-03-04', hour: 18 });
    expect(localClock(now, originTimeZone('CA'))).toEqual({ date: '2026-03-04', hour: 15 });
    expect(localClock(now, originTimeZone(null))).toEqual({ date: '2026-03-04', hour: 23 });
    expect(localClock(new Date('2026-03-05T02:00:00Z'), 'America/Los_Angeles')).toEqual({ date: '2026-03-04', hour: 18 });
  });
});

describe('isValidDate', () => {
  it.each([
    ['2026-02-28', true],
    ['2028-02-29', true],
    ['2026-02-29', false],
    ['2026-13-01', false],
    ['2026-1-01', false],
    ['20260101', false],
  ])('%s → %s', (d, ok) => expect(isValidDate(d)).toBe(ok));
});

describe('yearOfDay', () => {
  it('agrees with Date for every day from 1900 to 2200, around each New Year too', () => {
    const DAY = 86_400_000;
    for (let day = Date.UTC(1900, 0, 1) / DAY; day < Date.UTC(2200, 0, 1) / DAY; day++) {
      const expected = new Date(day * DAY).getUTCFullYear();
      if (yearOfDay(day) !== expected) expect(yearOfDay(day), `day ${day}`).toBe(expected);
    }
  });
});
