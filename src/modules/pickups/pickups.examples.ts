// Examples for the OpenAPI document (pickups): answers of the service, trimmed.
// test/platform/openapi-contract.test.ts validates each against its schema.

/** POST /v1/pickups: two labels, picked up at the workspace origin on a weekday afternoon. */
export const CREATE_PICKUP_BODY_EXAMPLE = {
  carrier: 'ups',
  location_id: 'loc_01jdx3c2v5f0b6k8m9n1p2q3r4',
  window: { start: '2026-03-03T13:00:00-05:00', end: '2026-03-03T17:00:00-05:00' },
  shipment_ids: ['shp_01m855vxgqem0szrmwkjs6ghzy', 'shp_01m855w0d4e8xb4sy0xqf3r3tq'],
  instructions: 'Loading dock at the back; ring twice.',
};

export const PICKUP_EXAMPLE = {
  id: 'pck_01m856c4d2e3f4g5h6j7k8m9n0',
  carrier: 'ups',
  carrier_account_id: 'ca_01m855vx0ups00000000000001',
  status: 'scheduled',
  confirmation_number: 'UPS2929602917',
  location_id: 'loc_01jdx3c2v5f0b6k8m9n1p2q3r4',
  address: { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' },
  window: { start: '2026-03-03T13:00:00-05:00', end: '2026-03-03T17:00:00-05:00' },
  price: { amount: 1605, currency: 'USD' },
  cancel_by: '2026-03-03T16:00:00.000Z',
  shipment_ids: ['shp_01m855vxgqem0szrmwkjs6ghzy', 'shp_01m855w0d4e8xb4sy0xqf3r3tq'],
  package_count: 2,
  instructions: 'Loading dock at the back; ring twice.',
  cancelled_at: null,
  completed_at: null,
  created_at: '2026-03-02T15:00:00.120Z',
};
