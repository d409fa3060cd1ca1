// Examples for the OpenAPI document (rate quotes): real answers of the service,
// recorded and trimmed (secrets replaced), attached to the schemas with `examples`.
// test/platform/openapi-contract.test.ts validates each against its schema, so a schema change
// that breaks one fails there.

/** POST /v1/rates/query. */
export const RATE_QUERY_EXAMPLE = {
  ship_from: { postal_code: '94301', country: 'US' },
  ship_to: { postal_code: '10118', country: 'US' },
  parcel: { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 },
};

/** A multi-piece shipment: two boxes priced as one shipment (services without multi-piece are dropped with a message). */
export const MULTI_PIECE_RATE_QUERY_EXAMPLE = {
  ship_from: { postal_code: '94301', country: 'US' },
  ship_to: { postal_code: '10118', country: 'US' },
  parcels: [
    { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 },
    { weight_oz: 80, length_in: 16, width_in: 12, height_in: 10 },
  ],
};

/** Options sorted by price (three of them here), and the services that cannot carry the parcel. */
export const RATE_QUERY_RESPONSE_EXAMPLE = {
  ship_date: '2026-11-23',
  residential: true,
  requires_customs: false,
  rate_table_versions: {
    dhl_express: 'dhl_express-2026-01',
    fedex: 'fedex-2026-01',
    ups: 'ups-2026-01',
    usps: 'usps-2026-01',
  },
  data: [
    {
      id: 'rate_01m855vxcke5ts1w9g6ztg97b9',
      service_code: 'usps_ground_advantage',
      carrier: 'usps',
      carrier_account_id: 'ca_01m855vx0usps0000000000001',
      service_name: 'USPS Ground Advantage',
      price: { amount: 1380, currency: 'USD' },
      base_price: { amount: 1380, currency: 'USD' },
      zone: 8,
      billable_weight_oz: 32,
      dim_weight_oz: null,
      dim_divisor: null,
      dim_divisor_unit: null,
      surcharges: [],
      delivery: { business_days: 5, estimated_delivery_date: '2026-12-01', guaranteed: false },
      tags: ['cheapest'],
      rate_table_version: 'usps-2026-01',
      requires_customs: false,
    },
    {
      id: 'rate_01m855vxcke5ts1w9g6ztg97ba',
      service_code: 'usps_priority_mail',
      carrier: 'usps',
      carrier_account_id: 'ca_01m855vx0usps0000000000001',
      service_name: 'USPS Priority Mail',
      price: { amount: 2220, currency: 'USD' },
      base_price: { amount: 2220, currency: 'USD' },
      zone: 8,
      billable_weight_oz: 32,
      dim_weight_oz: null,
      dim_divisor: null,
      dim_divisor_unit: null,
      surcharges: [],
      delivery: { business_days: 3, estimated_delivery_date: '2026-11-27', guaranteed: false },
      tags: ['best_value'],
      rate_table_version: 'usps-2026-01',
      requires_customs: false,
    },
    {
      id: 'rate_01m855vwdte46a2akzmypthzmd',
      service_code: 'fedex_home_delivery',
      carrier: 'fedex',
      carrier_account_id: 'ca_01m855vx0fedex000000000001',
      service_name: 'FedEx Home Delivery',
      price: { amount: 2879, currency: 'USD' },
      base_price: { amount: 1953, currency: 'USD' },
      zone: 8,
      billable_weight_oz: 48,
      dim_weight_oz: 37,
      dim_divisor: 139,
      dim_divisor_unit: 'in3_per_lb',
      surcharges: [
        { code: 'fuel', amount: { amount: 371, currency: 'USD' } },
        { code: 'residential', amount: { amount: 555, currency: 'USD' } },
      ],
      delivery: { business_days: 5, estimated_delivery_date: '2026-12-01', guaranteed: false },
      tags: [],
      rate_table_version: 'fedex-2026-01',
      requires_customs: false,
    },
  ],
  unavailable: [
    {
      carrier: 'dhl_express',
      service_code: 'dhl_express_worldwide',
      reason: 'DHL Express offers no US-to-US service',
    },
    {
      carrier: 'dhl_express',
      service_code: 'dhl_express_domestic',
      reason: 'DHL Express offers no US-to-US service',
    },
  ],
  messages: [],
};
