/**
 * A five-field cron expression in UTC: `minute hour day-of-month month day-of-week`.
 * Each field takes `*`, `n`, `a-b`, `*\/s`, `a-b/s`, `n/s` and comma lists; day-of-week is 0–7
 * (0 and 7 are Sunday). As in Vixie cron, when both day fields are restricted a day matches if
 * either does. No names (`MON`), no seconds, no `@daily` macros: schedules are few and written
 * by us. Why not pg-boss's cron: see `pg-boss-queue.ts` (schedule).
 */
export interface CronSchedule {
  readonly expression: string;
  /** Does the minute holding `date` match? */
  matches(date: Date): boolean;
  /** The first matching minute strictly after `date` (at second 0). */
  nextAfter(date: Date): Date;
}

interface Field {
  values: Set<number>;
  restricted: boolean;
}

const RANGES: ReadonlyArray<readonly [number, number]> = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 7],
];

function parseField(text: string, [min, max]: readonly [number, number], expression: string): Field {
  const values = new Set<number>();
  const bad = () => new TypeError(`Invalid cron expression "${expression}" (field "${text}")`);
  for (const part of text.split(',')) {
    const m = /^(\*|\d+)(?:-(\d+))?(?:\/(\d+))?$/.exec(part);
    if (!m) throw bad();
    const [, start, end, stepText] = m;
    let lo: number;
    let hi: number;
    if (start === '*') {
      if (end !== undefined) throw bad();
      lo = min;
      hi = max;
    } else {
      lo = Number(start);
      // `n/s` means from n to the end of the range, as in Vixie cron.
      hi = end !== undefined ? Number(end) : stepText !== undefined ? max : lo;
    }
    const step = stepText === undefined ? 1 : Number(stepText);
    if (lo < min || hi > max || lo > hi || step < 1) throw bad();
    for (let v = lo; v <= hi; v += step) values.add(v);
  }
  return { values, restricted: text !== '*' };
}

export function parseCron(expression: string): CronSchedule {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) {
    throw new TypeError(`Invalid cron expression "${expression}": expected 5 fields (minute hour day month weekday)`);
  }
  const [minute, hour, dom, month, dow] = parts.map((p, i) => parseField(p, RANGES[i], expression));
  if (dow.values.has(7)) dow.values.add(0);

  const dayMatches = (d: Date): boolean => {
    const byDom = dom.values.has(d.getUTCDate());
    const byDow = dow.values.has(d.getUTCDay());
    if (dom.restricted && dow.restricted) return byDom || byDow;
    return byDom && byDow;
  };

  const matches = (date: Date): boolean =>
    minute.values.has(date.getUTCMinutes()) && hour.values.has(date.getUTCHours()) && month.values.has(date.getUTCMonth() + 1) && dayMatches(date);

  const nextAfter = (date: Date): Date => {
    const t = new Date(date.getTime());
    t.setUTCSeconds(0, 0);
    t.setUTCMinutes(t.getUTCMinutes() + 1);
    // Skip whole months, days and hours that cannot match; bounded by a few years of search.
    const limit = date.getTime() + 5 * 366 * 86_400_000;
    while (t.getTime() <= limit) {
      if (!month.values.has(t.getUTCMonth() + 1)) {
        t.setUTCMonth(t.getUTCMonth() + 1, 1);
        t.setUTCHours(0, 0, 0, 0);
      } else if (!dayMatches(t)) {
        t.setUTCDate(t.getUTCDate() + 1);
        t.setUTCHours(0, 0, 0, 0);
      } else if (!hour.values.has(t.getUTCHours())) {
        t.setUTCHours(t.getUTCHours() + 1, 0, 0, 0);
      } else if (!minute.values.has(t.getUTCMinutes())) {
        t.setUTCMinutes(t.getUTCMinutes() + 1, 0, 0);
      } else {
        return t;
      }
    }
    throw new TypeError(`Cron expression "${expression}" never matches`);
  };

  return { expression, matches, nextAfter };
}
