// Examples for the OpenAPI document (address validation): real answers of the service,
// recorded and trimmed (secrets replaced), attached to the schemas with `examples`.
// test/platform/openapi-contract.test.ts validates each against its schema, so a schema change
// that breaks one fails there.

/** POST /v1/addresses/validate (also the items of a validate_addresses batch). */
export const ADDRESS_EXAMPLE = {
  name: 'Grace Hopper',
  street1: '350 fifth avenue',
  city: 'new york',
  state: 'ny',
  postal_code: '10118',
  country: 'US',
};

/** A US address standardised to USPS Publication 28. */
export const ADDRESS_VALIDATION_EXAMPLE = {
  status: 'verified',
  residential: 'unknown',
  original: {
    name: 'Grace Hopper',
    street1: '350 fifth avenue',
    city: 'new york',
    state: 'ny',
    postal_code: '10118',
    country: 'US',
  },
  normalized: {
    name: 'Grace Hopper',
    street1: '350 FIFTH AVE',
    city: 'NEW YORK',
    state: 'NY',
    postal_code: '10118',
    country: 'US',
  },
  messages: [],
  source: { type: 'built_in' },
};

/** The same endpoint asking a carrier account's validator (an api UPS account). */
export const CARRIER_ADDRESS_VALIDATION_REQUEST_EXAMPLE = {
  name: 'Jane Doe',
  street1: '26601 agoura road',
  city: 'calabasas',
  state: 'CA',
  postal_code: '91302',
  country: 'US',
  carrier_account_id: 'ca_01jx0000000000000000000000',
};

/** UPS Address Validation's answer for it: ZIP+4 and the street's directional added. */
export const CARRIER_ADDRESS_VALIDATION_EXAMPLE = {
  status: 'corrected',
  residential: 'yes',
  original: { name: 'Jane Doe', street1: '26601 agoura road', city: 'calabasas', state: 'CA', postal_code: '91302', country: 'US' },
  normalized: { name: 'Jane Doe', street1: '26601 W AGOURA RD', city: 'CALABASAS', state: 'CA', postal_code: '91302-1954', country: 'US' },
  messages: [
    { code: 'address_corrected', field: 'street1', message: 'UPS corrected street1' },
    { code: 'address_corrected', field: 'postal_code', message: 'UPS corrected postal_code' },
  ],
  candidates: [{ name: 'Jane Doe', street1: '26601 W AGOURA RD', city: 'CALABASAS', state: 'CA', postal_code: '91302-1954', country: 'US' }],
  source: { type: 'carrier', carrier: 'ups', carrier_account_id: 'ca_01jx0000000000000000000000' },
};
