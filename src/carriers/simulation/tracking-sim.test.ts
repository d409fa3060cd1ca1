import { describe, expect, it } from 'vitest';
import { firstScanAtScaled, trackAt } from './tracking-sim.js';

const input = {
  carrier_name: 'USPS',
  purchased_at: '2026-03-02T15:00:00.000Z',
  estimated_delivery_date: '2026-03-05',
  ship_from: { city: 'New York', state: 'NY', postal_code: '10118', country: 'US' },
  ship_to: { city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' },
};

describe('the sandbox scenario unused (a label never handed over)', () => {
  it('has the label scan only, nothing to come, and no first scan to stop a void', () => {
    const later = trackAt({ ...input, sandbox: { time_scale: 1, scenario: 'unused' } }, '2026-06-01T00:00:00.000Z');
    expect(later.events.map((e) => e.status_detail)).toEqual(['label_created']);
    expect(later.status).toBe('pre_transit');
    expect(later.next_event_at).toBeNull();
    expect(firstScanAtScaled(input.purchased_at, { time_scale: 1, scenario: 'unused' }).getTime()).toBeGreaterThan(Date.parse('9999-01-01'));
  });

  it('a normal label is picked up at 18:00 the same weekday', () => {
    const at = trackAt(input, '2026-03-02T18:00:00.000Z');
    expect(at.events.map((e) => e.status_detail)).toEqual(['label_created', 'picked_up']);
    expect(firstScanAtScaled(input.purchased_at).toISOString()).toBe('2026-03-02T18:00:00.000Z');
  });
});
