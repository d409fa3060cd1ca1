import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { checkPostalCodeFormat, countryUsesPostalCode, lookupUsZip, normalizeCountry } from './postal-codes.js';

const require = createRequire(import.meta.url);

/** [country, valid code as typed, canonical form, invalid code] for 25 countries. */
const CASES: [string, string, string, string][] = [
  ['US', '10001', '10001', '1000'],
  ['US', '10001-1234', '10001-1234', '10001-12'],
  ['CA', 'k1a0b1', 'K1A 0B1', 'K1A 0B'],
  ['GB', 'sw1a1aa', 'SW1A 1AA', 'SW1A'],
  ['GB', 'EC1A 1BB', 'EC1A 1BB', '123 456'],
  ['DE', '10117', '10117', '1011'],
  ['FR', '75008', '75008', '7500A'],
  ['IT', '00184', '00184', '001845'],
  ['ES', '28013', '28013', '2801'],
  ['NL', '1012ab', '1012 AB', '1012A'],
  ['BE', '1000', '1000', '10000'],
  ['CH', '8001', '8001', '80010'],
  ['AT', '1010', '1010', '101'],
  ['SE', '11455', '114 55', '1145'],
  ['DK', '1050', '1050', '105'],
  ['NO', '0150', '0150', '01500'],
  ['PL', '00-950', '00-950', '0095'],
  ['PT', '1000-001', '1000-001', '1000-01'],
  ['IE', 'D02 X285', 'D02 X285', 'D02 X28'],
  ['JP', '100-0001', '100-0001', '100-001'],
  ['AU', '2000', '2000', '200'],
  ['NZ', '6011', '6011', '60111'],
  ['IN', '110001', '110001', '11001'],
  ['BR', '01310-100', '01310-100', '01310-10'],
  ['MX', '06600', '06600', '0660'],
  ['CN', '100000', '100000', '10000'],
  ['KR', '04524', '04524', '0452'],
  ['SG', '018956', '018956', '01895'],
];

describe('postal-code formats', () => {
  it('covers at least 20 countries', () => {
    expect(new Set(CASES.map((c) => c[0])).size).toBeGreaterThanOrEqual(20);
  });

  it.each(CASES)('%s: %j is valid (→ %j), %j is not', (country, valid, canonical, invalid) => {
    expect(checkPostalCodeFormat(country, valid)).toEqual({ ok: true, normalized: canonical });
    const bad = checkPostalCodeFormat(country, invalid);
    expect(bad.ok).toBe(false);
  });

  it('writes a 9-digit ZIP back as ZIP+4', () => {
    expect(checkPostalCodeFormat('US', '123456789')).toEqual({ ok: true, normalized: '12345-6789' });
    expect(checkPostalCodeFormat('US', ' 12345 6789 ')).toEqual({ ok: true, normalized: '12345-6789' });
    expect(checkPostalCodeFormat('US', '1 2345').ok).toBe(false);
  });

  it('countries without postal codes accept anything (even empty)', () => {
    expect(countryUsesPostalCode('HK')).toBe(false);
    expect(countryUsesPostalCode('AE')).toBe(false);
    expect(countryUsesPostalCode('GB')).toBe(true);
    expect(checkPostalCodeFormat('HK', '')).toEqual({ ok: true, normalized: '' });
  });

  it('an empty code where one is used is refused', () => {
    expect(checkPostalCodeFormat('DE', '  ')).toEqual({ ok: false, message: 'is required' });
  });
});

describe('countries and ZIP data', () => {
  it.each([
    ['US', 'US'],
    ['us', 'US'],
    [' gb ', 'GB'],
    ['USA', null],
    ['XX', null],
    ['U.S.', null],
    ['', null],
  ])('normalizeCountry(%j) → %j', (input, expected) => {
    expect(normalizeCountry(input)).toBe(expected);
  });

  it('looks up a ZIP with its city and state', () => {
    expect(lookupUsZip('90210')).toMatchObject({ city: 'Beverly Hills', state: 'CA' });
    expect(lookupUsZip('00601')).toMatchObject({ state: 'PR' });
    expect(lookupUsZip('00000')).toBeUndefined();
    expect(lookupUsZip('T0A')).toBeUndefined();
  });

  it('reads the ZIP data as JSON, never compiling the 5 MB module as code', () => {
    expect(lookupUsZip('94105')).toMatchObject({ city: 'San Francisco', state: 'CA', latitude: expect.any(Number) });
    // Requiring it would leave it in the module cache (and ~50 MiB of parser memory in the process).
    expect(require.cache[require.resolve('zipcodes/lib/codes.js')]).toBeUndefined();
    expect(require.cache[require.resolve('zipcodes')]).toBeUndefined();
  });
});
