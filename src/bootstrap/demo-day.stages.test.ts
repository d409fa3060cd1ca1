import { describe, expect, it } from 'vitest';
import { trackAt } from '../carriers/simulation/tracking-sim.js';
import type { SandboxScenario, TrackingStatus } from '../carriers/types.js';
import { purchaseForStage } from './demo-day.js';

// The demo day backdates a few labels so tracking reads a given stage on the first start,
// whenever that start happens: every half hour of a week (weekend and nights included).

const sf = { name: 'Demo Store', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const ny = { name: 'Ada Lovelace', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
// Promised 3 days out (priority) and 8 (a ground label across a weekend, whose short stages a
// coarse search of purchase times missed at night).
const cases: [TrackingStatus, SandboxScenario, number][] = [
  ['in_transit', 'normal', 3],
  ['out_for_delivery', 'normal', 3],
  ['out_for_delivery', 'normal', 8],
  ['delivered', 'normal', 3],
  ['failure', 'exception', 3],
];

describe('purchaseForStage', () => {
  it.each(cases)('finds a purchase time that reads %s (%s, promised in %i days) at every half hour of a week', (target, scenario, promisedDays) => {
    const monday = Date.parse('2026-03-02T00:00:00Z');
    for (let i = 0; i < 7 * 48; i++) {
      const now = new Date(monday + i * 1_800_000);
      // As bought now: promised that many days out.
      const journey = {
        purchased_at: now.toISOString(),
        estimated_delivery_date: new Date(now.getTime() + promisedDays * 86_400_000).toISOString().slice(0, 10),
        ship_from: sf,
        ship_to: ny,
        sandbox: { time_scale: 1, scenario },
      };
      const found = purchaseForStage(journey, target, now);
      expect(found, `${target} at ${now.toISOString()}`).toBeDefined();
      expect(new Date(found!.purchased_at).getTime()).toBeLessThan(now.getTime());
      const read = trackAt(
        {
          carrier_name: 'USPS',
          purchased_at: found!.purchased_at,
          estimated_delivery_date: found!.estimated_delivery_date,
          ship_from: sf,
          ship_to: ny,
          sandbox: { time_scale: found!.time_scale, scenario },
        },
        now.toISOString(),
      );
      expect(read.status, now.toISOString()).toBe(target);
    }
  });
});
