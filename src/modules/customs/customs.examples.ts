// Examples for the OpenAPI document (customs): a US → GB order of two items.
// test/platform/openapi-contract.test.ts validates the schemas' examples against them.

/** The `customs` of a request (order or shipment): a US → GB parcel of two items. */
export const CUSTOMS_INPUT_EXAMPLE = {
  contents_type: 'merchandise',
  non_delivery: 'return',
  incoterm: 'DDU',
  signer: 'Grace Hopper',
  importer: { eori: 'GB123456789000' },
  items: [
    {
      description: 'Ceramic coffee mug',
      quantity: 2,
      unit_value: { amount: 1250, currency: 'USD' },
      weight_oz: 12,
      hs_tariff_number: '6912.00.48',
      origin_country: 'US',
      sku: 'MUG-BLUE',
    },
    {
      description: 'Cotton tea towel',
      quantity: 1,
      unit_value: { amount: 900, currency: 'USD' },
      weight_oz: 3,
      hs_tariff_number: '6302.60',
      origin_country: 'PT',
      sku: 'TOWEL-1',
    },
  ],
};

/** The declaration as a shipment keeps it: defaults applied, HS numbers without dots, eel_pfc derived, totals. */
export const CUSTOMS_EXAMPLE = {
  contents_type: 'merchandise',
  contents_explanation: null,
  non_delivery: 'return',
  incoterm: 'DDU',
  eel_pfc: 'NOEEI 30.37(a)',
  aes_itn: null,
  signer: 'Grace Hopper',
  importer: { tax_id: null, eori: 'GB123456789000', ioss: null, vat: null },
  items: [
    {
      description: 'Ceramic coffee mug',
      quantity: 2,
      unit_value: { amount: 1250, currency: 'USD' },
      weight_oz: 12,
      hs_tariff_number: '69120048',
      origin_country: 'US',
      sku: 'MUG-BLUE',
    },
    {
      description: 'Cotton tea towel',
      quantity: 1,
      unit_value: { amount: 900, currency: 'USD' },
      weight_oz: 3,
      hs_tariff_number: '630260',
      origin_country: 'PT',
      sku: 'TOWEL-1',
    },
  ],
  derived: false,
  declared_value: { amount: 3400, currency: 'USD' },
};

/** 422 customs_invalid: one detail per problem. */
export const CUSTOMS_INVALID_EXAMPLE = {
  code: 'customs_invalid',
  message: 'The customs declaration is invalid: 2 problems.',
  details: [
    { field: 'customs.items[0].description', message: 'is too vague ("gift"); say what the item is, e.g. "cotton T-shirt"' },
    { field: 'customs.items[1].hs_tariff_number', message: 'must be 6 to 10 digits (dots allowed)' },
  ],
  request_id: 'req_0cebcef5141540549db804e2bb73cd2d',
};

/** 422 customs_required: the order's lines cannot make a declaration. */
export const CUSTOMS_REQUIRED_EXAMPLE = {
  code: 'customs_required',
  message:
    "This parcel crosses a border (or goes to a US military address): it needs a customs declaration, and the order's line items cannot make one. Send customs, or complete the line items.",
  details: [
    { field: 'line_items[1].unit_price', message: 'is required to declare the line to customs' },
    { field: 'line_items[1].weight_oz', message: 'is required to declare the line to customs' },
  ],
  request_id: 'req_0cebcef5141540549db804e2bb73cd2d',
};
