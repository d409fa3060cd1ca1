import { describe, expect, it } from 'vitest';
import { uspsZone, uspsZoneForDistance } from '../../carriers/simulation/rate-engine.js';
import { buildRoute, countryGroup, distanceBetweenZip3, greatCircleMiles, groundZoneForDistance, zip3Centroid } from './zones.js';

const us = (postal_code: string, state: string) => ({ country: 'US', postal_code, state });

describe('distance bands', () => {
  it.each([
    [0, 1],
    [50, 1],
    [50.1, 2],
    [150, 2],
    [151, 3],
    [300, 3],
    [301, 4],
    [600, 4],
    [601, 5],
    [1000, 5],
    [1001, 6],
    [1400, 6],
    [1401, 7],
    [1800, 7],
    [1801, 8],
    [6000, 8],
  ])('%s miles → USPS zone %s', (miles, zone) => {
    expect(uspsZoneForDistance(miles)).toBe(zone);
  });

  it('UPS/FedEx zones run 2–8 (local folds into 2)', () => {
    expect(groundZoneForDistance(0)).toBe(2);
    expect(groundZoneForDistance(120)).toBe(2);
    expect(groundZoneForDistance(250)).toBe(3);
    expect(groundZoneForDistance(5000)).toBe(8);
  });
});

describe('ZIP3 centroids and great-circle distance', () => {
  it('places ZIP3 centroids where the cities are', () => {
    const nyc = zip3Centroid('100')!;
    expect(nyc.latitude).toBeGreaterThan(40.6);
    expect(nyc.latitude).toBeLessThan(40.9);
    expect(nyc.longitude).toBeGreaterThan(-74.1);
    expect(nyc.longitude).toBeLessThan(-73.8);
    expect(zip3Centroid('000')).toBeUndefined();
  });

  it('haversine: one degree of latitude is ~69 miles', () => {
    expect(greatCircleMiles({ latitude: 0, longitude: 0 }, { latitude: 1, longitude: 0 })).toBeCloseTo(69.09, 1);
  });

  it('New York → Los Angeles is about 2,450 miles; New York → Boston about 190', () => {
    expect(distanceBetweenZip3('100', '902')).toBeGreaterThan(2350);
    expect(distanceBetweenZip3('100', '902')).toBeLessThan(2550);
    expect(distanceBetweenZip3('100', '021')).toBeGreaterThan(160);
    expect(distanceBetweenZip3('100', '021')).toBeLessThan(220);
  });
});

describe('buildRoute: US domestic zones from known ZIP pairs', () => {
  it.each([
    ['10001', 'NY', '10001', 'NY', 1, 2], // same ZIP3
    ['10001', 'NY', '19103', 'PA', 2, 2], // NYC → Philadelphia ~80 mi
    ['10001', 'NY', '02108', 'MA', 3, 3], // NYC → Boston ~190 mi
    ['10001', 'NY', '20500', 'DC', 3, 3], // NYC → Washington ~205 mi
    ['10001', 'NY', '60601', 'IL', 5, 5], // NYC → Chicago ~710 mi
    ['10001', 'NY', '33101', 'FL', 6, 6], // NYC → Miami ~1,090 mi
    ['10001', 'NY', '90210', 'CA', 8, 8], // NYC → Beverly Hills ~2,450 mi
    ['94105', 'CA', '90210', 'CA', 4, 4], // SF → LA ~350 mi
  ])('%s → %s: USPS zone %s, ground zone %s', (fromZip, fromState, toZip, toState, usps, ground) => {
    const route = buildRoute(us(fromZip, fromState), us(toZip, toState));
    expect(route.domestic).toBe(true);
    expect(uspsZone(route)).toBe(usps);
    expect(route.ground_zone).toBe(ground);
    expect(route.noncontiguous).toBe(false);
  });

  it('territories are USPS zone 9 and noncontiguous', () => {
    const pr = buildRoute(us('10001', 'NY'), { country: 'PR', postal_code: '00601', state: 'PR' });
    expect(pr.domestic).toBe(true);
    expect(pr.destination_country).toBe('US');
    expect(uspsZone(pr)).toBe(9);
    expect(pr.territory).toBe(true);
    expect(pr.noncontiguous).toBe(true);
    expect(uspsZone(buildRoute(us('96910', 'GU'), us('10001', 'NY')))).toBe(9);
  });

  it('Alaska and Hawaii are far zones and noncontiguous', () => {
    const ak = buildRoute(us('10001', 'NY'), us('99501', 'AK'));
    expect(uspsZone(ak)).toBe(8);
    expect(ak.noncontiguous).toBe(true);
    expect(ak.territory).toBe(false);
  });

  it('military addresses: USPS zone 8, no ground zone', () => {
    const apo = buildRoute(us('10001', 'NY'), us('09001', 'AE'));
    expect(apo.military).toBe(true);
    expect(uspsZone(apo)).toBe(8);
    expect(apo.ground_zone).toBeNull();
  });
});

describe('international zones by country group', () => {
  it.each([
    ['CA', 'ca_mx', 1],
    ['MX', 'ca_mx', 1],
    ['GB', 'europe', 2],
    ['DE', 'europe', 2],
    ['JP', 'asia_pacific', 3],
    ['AU', 'asia_pacific', 3],
    ['BR', 'rest_of_world', 4],
    ['ZA', 'rest_of_world', 4],
  ])('US → %s is %s (zone %s)', (country, group, zone) => {
    expect(countryGroup(country)).toBe(group);
    const route = buildRoute(us('10001', 'NY'), { country, postal_code: 'X', state: null });
    expect(route.domestic).toBe(false);
    expect(route.international_group).toBe(group);
    expect(route.international_zone).toBe(zone);
    expect(uspsZone(route)).toBeNull();
  });

  it('imports to the US are zoned by the origin country', () => {
    const route = buildRoute({ country: 'JP', postal_code: '1000001', state: null }, us('10001', 'NY'));
    expect(route.international_group).toBe('asia_pacific');
    expect(route.origin_country).toBe('JP');
  });

  it('a lane inside Europe is zone 1; a non-US domestic lane has no zone facts', () => {
    expect(buildRoute({ country: 'DE', postal_code: '10117', state: null }, { country: 'FR', postal_code: '75001', state: null }).international_zone).toBe(1);
    const de = buildRoute({ country: 'DE', postal_code: '10117', state: null }, { country: 'DE', postal_code: '80331', state: null });
    expect(de.domestic).toBe(true);
    expect(de.origin_country).toBe('DE');
    expect(de.international_zone).toBeNull();
  });
});
