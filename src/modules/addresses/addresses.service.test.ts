import { describe, expect, it } from 'vitest';
import { checkCountryAndPostalCode, checkShippingAddress, validateAddress } from './addresses.service.js';

const whiteHouse = { street1: '1600 Pennsylvania Avenue Northwest', city: 'Washington', state: 'DC', postal_code: '20500', country: 'US' };
const codes = (r: ReturnType<typeof validateAddress>) => r.messages.map((m) => `${m.field}:${m.code}`);

describe('validateAddress: US', () => {
  it('verified when only formatting changed', () => {
    const r = validateAddress({ ...whiteHouse, street1: '1600 pennsylvania ave. nw', city: 'washington', state: 'dc', country: 'us' });
    expect(r.status).toBe('verified');
    expect(r.messages).toEqual([]);
    expect(r.normalized).toEqual({ street1: '1600 PENNSYLVANIA AVE NW', city: 'WASHINGTON', state: 'DC', postal_code: '20500', country: 'US' });
  });

  it('corrects a city and a state that disagree with the ZIP', () => {
    const r = validateAddress({ street1: '9450 Wilshire Blvd', city: 'Los Angeles', state: 'NY', postal_code: '90210', country: 'US' });
    expect(r.status).toBe('corrected');
    expect(r.normalized.city).toBe('BEVERLY HILLS');
    expect(r.normalized.state).toBe('CA');
    expect(codes(r)).toEqual(['city:city_corrected', 'state:state_corrected']);
    expect(r.messages[0].message).toMatch(/Los Angeles.*90210.*BEVERLY HILLS/);
  });

  it('fills a missing city and state from the ZIP (corrected)', () => {
    const r = validateAddress({ street1: '1 Main St', postal_code: '02108', country: 'US' });
    expect(r.status).toBe('corrected');
    expect(r.normalized).toMatchObject({ city: 'BOSTON', state: 'MA' });
  });

  it('accepts a full state name and Saint/St spellings without a correction', () => {
    const r = validateAddress({ street1: '1 Market St', city: 'St. Louis', state: 'Missouri', postal_code: '63101', country: 'US' });
    expect(r.status).toBe('verified');
    expect(r.normalized).toMatchObject({ city: 'SAINT LOUIS', state: 'MO' });
  });

  it('keeps ZIP+4 and formats a 9-digit ZIP', () => {
    expect(validateAddress({ ...whiteHouse, postal_code: '20500-0003' }).normalized.postal_code).toBe('20500-0003');
    expect(validateAddress({ ...whiteHouse, postal_code: '205000003' }).normalized.postal_code).toBe('20500-0003');
  });

  it('an unknown ZIP is invalid', () => {
    const r = validateAddress({ ...whiteHouse, postal_code: '00000' });
    expect(r.status).toBe('invalid');
    expect(codes(r)).toEqual(['postal_code:unknown_postal_code']);
  });

  it('a malformed ZIP is invalid (a result, not an error)', () => {
    const r = validateAddress({ ...whiteHouse, postal_code: '2050' });
    expect(r.status).toBe('invalid');
    expect(codes(r)).toEqual(['postal_code:invalid_postal_code']);
  });

  it('missing street1 or ZIP are invalid with one message each', () => {
    const r = validateAddress({ city: 'Washington', state: 'DC', country: 'US' });
    expect(r.status).toBe('invalid');
    expect(codes(r)).toEqual(['street1:missing_field', 'postal_code:missing_field']);
  });

  it('an unknown state without a usable ZIP is invalid', () => {
    const r = validateAddress({ street1: '1 Main St', city: 'Nowhere', state: 'ZZ', postal_code: '00000', country: 'US' });
    expect(codes(r)).toContain('state:invalid_state');
  });

  it('a territory code must match the ZIP', () => {
    expect(validateAddress({ street1: '1 Calle Luna', city: 'Adjuntas', state: 'PR', postal_code: '00601', country: 'PR' }).status).toBe('verified');
    const wrong = validateAddress({ street1: '1 Main St', city: 'New York', postal_code: '10001', country: 'PR' });
    expect(codes(wrong)).toContain('postal_code:postal_code_country_mismatch');
  });

  it('standardises street2 as a secondary unit', () => {
    const r = validateAddress({ ...whiteHouse, street2: 'Suite #200' });
    expect(r.normalized.street2).toBe('STE 200');
  });
});

describe('validateAddress: residential', () => {
  it('a company means commercial', () => {
    expect(validateAddress({ ...whiteHouse, company: 'Acme', street2: 'Apt 4' }).residential).toBe('no');
  });
  it('an APT or UNIT secondary means residential', () => {
    expect(validateAddress({ ...whiteHouse, street2: 'Apartment 4' }).residential).toBe('yes');
    expect(validateAddress({ ...whiteHouse, street1: '10 Elm St Unit 5' }).residential).toBe('yes');
  });
  it('otherwise unknown (a suite is not evidence either way)', () => {
    expect(validateAddress(whiteHouse).residential).toBe('unknown');
    expect(validateAddress({ ...whiteHouse, street2: 'Suite 100' }).residential).toBe('unknown');
  });
});

describe('validateAddress: international', () => {
  it('valid country and postal code: unverified, with the postcode in canonical form', () => {
    const r = validateAddress({ street1: ' 10  Downing Street ', city: 'London', postal_code: 'sw1a2aa', country: 'gb' });
    expect(r.status).toBe('unverified');
    expect(r.normalized).toEqual({ street1: '10 Downing Street', city: 'London', postal_code: 'SW1A 2AA', country: 'GB' });
    expect(codes(r)).toEqual(['street1:not_verified']);
  });

  it('Canadian postal code gets its space and the province is upper-cased', () => {
    const r = validateAddress({ street1: '24 Sussex Dr', city: 'Ottawa', state: 'on', postal_code: 'k1m1m4', country: 'CA' });
    expect(r.normalized).toMatchObject({ postal_code: 'K1M 1M4', state: 'ON', country: 'CA' });
  });

  it('a malformed postal code is invalid', () => {
    const r = validateAddress({ street1: 'Unter den Linden 1', city: 'Berlin', postal_code: '1011', country: 'DE' });
    expect(r.status).toBe('invalid');
    expect(codes(r)).toEqual(['postal_code:invalid_postal_code']);
  });

  it('a non-ISO country is invalid', () => {
    for (const country of ['XX', 'USA', 'Germany', '1']) {
      const r = validateAddress({ street1: '1 Main St', city: 'X', postal_code: '12345', country });
      expect(r.status, country).toBe('invalid');
      expect(codes(r)).toContain('country:invalid_country');
    }
  });

  it('a country without postal codes needs none', () => {
    const r = validateAddress({ street1: '1 Queen’s Road Central', city: 'Hong Kong', country: 'HK' });
    expect(r.status).toBe('unverified');
  });

  it('a missing postal code where the country uses one is invalid', () => {
    expect(codes(validateAddress({ street1: '1 Rue de Rivoli', city: 'Paris', country: 'FR' }))).toContain('postal_code:missing_field');
  });
});

describe('validateAddress: original is verbatim', () => {
  it('returns the input strings exactly, without Unicode normalisation', () => {
    const decomposed = 'Zoe\u0308 Mu\u0308ller'; // e + combining diaeresis
    const input = { name: decomposed, street1: '  1 main st  ', city: 'boston', postal_code: '02108', country: 'us', phone: ' +1 555 ' };
    const r = validateAddress(input);
    expect(r.original).toEqual(input);
    expect(r.original.name).toBe(decomposed);
    expect(r.original.name!.normalize('NFC')).not.toBe(r.original.name);
    expect(r.normalized.name).toBe(decomposed);
  });
});

describe('checkShippingAddress', () => {
  it('is empty for a shippable address', () => {
    expect(checkShippingAddress(whiteHouse, 'ship_to')).toEqual([]);
    expect(checkShippingAddress({ street1: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117', country: 'de' }, 'ship_to')).toEqual([]);
  });

  it('names every missing or bad field with the prefix', () => {
    expect(checkShippingAddress({ country: 'US', postal_code: '00000' }, 'ship_to')).toEqual([
      { field: 'ship_to.street1', message: 'is required' },
      { field: 'ship_to.city', message: 'is required' },
      { field: 'ship_to.postal_code', message: 'ZIP code 00000 does not exist' },
    ]);
    expect(checkShippingAddress({ street1: 'a', city: 'b', country: 'Germany', postal_code: '10117' }, 'ship_from')).toEqual([
      { field: 'ship_from.country', message: '"Germany" is not an ISO 3166-1 alpha-2 country code' },
    ]);
    expect(checkShippingAddress({ street1: 'a', city: 'b', country: 'GB', postal_code: 'nope' }, 'ship_to')).toEqual([
      { field: 'ship_to.postal_code', message: 'is not a valid postal code for GB' },
    ]);
    expect(checkShippingAddress({ street1: 'a', city: 'b', country: 'CA' }, 'to')).toEqual([{ field: 'to.postal_code', message: 'is required for CA' }]);
  });

  it('checkCountryAndPostalCode returns the canonical code and ZIP record', () => {
    const r = checkCountryAndPostalCode({ country: 'us', postal_code: '90210-1234' }, 'ship_to');
    expect(r).toMatchObject({ details: [], country: 'US', postal_code: '90210-1234', zip: { state: 'CA' } });
  });
});
