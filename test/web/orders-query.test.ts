import { describe, expect, it } from 'vitest';
import { apiFilters, queueUrl, readQueue, withFilter } from '../../web/src/pages/orders-query.js';

// The order queue's URL is its whole state: read back, it is the same queue (reload, Back).
const read = (url: string) => readQueue(new URL(url, 'http://x').searchParams);

describe('the order queue URL', () => {
  it('round-trips filters, sort and page, defaults left out', () => {
    expect(queueUrl(read('/dashboard/orders'))).toBe('/dashboard/orders');
    const url =
      '/dashboard/orders?status=processing&q=ada&from=2026-03-01&to=2026-03-31&carrier=ups&service=ups_ground&country=US&source=api&archived=all&sort=order_number&cursor=c2&back=c1';
    const state = read(url);
    expect(state).toMatchObject({ status: 'processing', carrier: 'ups', sort: 'order_number', cursor: 'c2', back: ['c1'] });
    expect(read(queueUrl(state))).toEqual(state);
  });

  it('an unknown sort reads as the default; a changed filter starts at the first page', () => {
    expect(read('/dashboard/orders?sort=total').sort).toBe('-created_at');
    const paged = read('/dashboard/orders?carrier=ups&cursor=c2&back=c1');
    expect(withFilter(paged, { service: 'ups_ground' })).toMatchObject({ carrier: 'ups', service: 'ups_ground', cursor: '', back: [] });
  });

  it('asks the API for the dates as an inclusive range', () => {
    expect(apiFilters(read('/dashboard/orders?from=2026-03-01&to=2026-03-31'))).toMatchObject({ created_after: '2026-03-01', created_before: '2026-04-01' });
    expect(apiFilters(read('/dashboard/orders?to=2026-12-31')).created_before).toBe('2027-01-01');
  });

  it('keeps the location filter in the URL and asks the API for location_id', () => {
    const state = read('/dashboard/orders?location=loc_abc&cursor=c2');
    expect(state.location).toBe('loc_abc');
    expect(queueUrl(state)).toBe('/dashboard/orders?location=loc_abc&cursor=c2');
    expect(apiFilters(state).location_id).toBe('loc_abc');
    expect(apiFilters(read('/dashboard/orders')).location_id).toBeUndefined();
  });
});
