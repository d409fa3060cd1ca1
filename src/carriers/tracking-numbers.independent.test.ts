import { allCouriers, getTracking } from 'ts-tracking-number';
import { describe, expect, it } from 'vitest';
import { dhlTrackingNumber } from './dhl_express/index.js';
import { fedexTrackingNumber } from './fedex/index.js';
import { upsTrackingNumber } from './ups/index.js';
import { uspsTrackingNumber } from './usps/index.js';

/**
 * Our generators checked by someone else's validator: `ts-tracking-number` (the open
 * tracking_number_data patterns and check-digit rules) must recognise 1,000 generated numbers
 * per carrier as that carrier's, and reject each with its check digit changed.
 */
const generators: Array<{ carrier: string; courier: string; services: string[]; generate: (ref: string, service: string) => string }> = [
  {
    carrier: 'usps',
    courier: 'usps',
    services: ['usps_ground_advantage', 'usps_priority_mail', 'usps_priority_mail_express', 'usps_first_class_international'],
    generate: uspsTrackingNumber,
  },
  {
    carrier: 'ups',
    courier: 'ups',
    services: ['ups_ground', 'ups_next_day_air', 'ups_2nd_day_air', 'ups_3_day_select', 'ups_worldwide_saver'],
    generate: upsTrackingNumber,
  },
  {
    carrier: 'fedex',
    courier: 'fedex',
    services: ['fedex_ground', 'fedex_home_delivery', 'fedex_2day', 'fedex_standard_overnight'],
    generate: fedexTrackingNumber,
  },
  { carrier: 'dhl_express', courier: 'dhl', services: ['dhl_express_worldwide'], generate: dhlTrackingNumber },
];

/** The same number with another last digit (the check digit, for all four formats). */
function wrongCheckDigit(n: string): string {
  const last = Number(n.at(-1));
  return `${n.slice(0, -1)}${(last + 1) % 10}`;
}

describe('generated tracking numbers pass an independent validator (ts-tracking-number)', () => {
  it.each(generators)('$carrier: 1,000 numbers', ({ courier, services, generate }) => {
    const only = allCouriers.filter((c) => c.courier_code === courier);
    expect(only).toHaveLength(1);
    const rejected: string[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const n = generate(`shp_independent_${i}`, services[i % services.length]!);
      seen.add(n);
      if (getTracking(n, only)?.courier.code !== courier) rejected.push(n);
      // The validator checks the check digit, so this test can fail.
      expect(getTracking(wrongCheckDigit(n), only), wrongCheckDigit(n)).toBeUndefined();
    }
    expect(rejected).toEqual([]);
    expect(seen.size).toBe(1000);
  });
});
