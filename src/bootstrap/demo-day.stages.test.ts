import { describe, expect, it } from 'vitest';
import { trackAt } from '../carriers/simulation/tracking-sim.js';
import type { SandboxScenario, TrackingStatus } from '../carriers/types.js';
import { purchaseForStage } from './demo-day.js';

// The demo day backdates a few labels so tracking reads a given stage on the first start,
// whenever that start happens: every half hour of a week (weekend and nights included).

const sf = { name: 'Demo Store', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const ny = { name: 'Ada Lovelace', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const cases: [TrackingStatus, SandboxScenario][] = [
  ['in_transit', 'normal'],
  ['out_for_delivery', 'normal'],
  ['delivered', 'normal'],
  ['failure', 'exception'],
];

describe('purchaseForStage', () => {
  it.each(cases)('finds a purchase time that reads %s (%s) at every half hour of a week', (target, scenario) => {
    const monday = Date.parse('2026-03-02T00:00:00Z');
    for (let i = 0; i < 7 * 48; i++) {
      const now = new Date(monday + i * 1_800_000);
      // As bought now: promised three days out.
      const journey = { purchased_at: now.toISOString(), estimated_delivery_date: new Date(now.getTime() + 3 * 86_400_000).toISOString().slice(0, 10), ship_from: sf, ship_to: ny, sandbox: { time_scale: 1, scenario } };
      const found = purchaseForStage(journey, target, now);
      expect(found, `${target} at ${now.toISOString()}`).toBeDefined();
      expect(new Date(found!.purchased_at).getTime()).toBeLessThan(now.getTime());
      const read = trackAt({ carrier_name: 'USPS', purchased_at: found!.purchased_at, estimated_delivery_date: found!.estimated_delivery_date, ship_from: sf, ship_to: ny, sandbox: { time_scale: found!.time_scale, scenario } }, now.toISOString());
      expect(read.status, now.toISOString()).toBe(target);
    }
  });
});
