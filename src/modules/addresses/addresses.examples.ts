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
};
