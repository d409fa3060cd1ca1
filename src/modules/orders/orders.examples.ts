// Examples for the OpenAPI document (orders): real answers of the service,
// recorded and trimmed (secrets replaced), attached to the schemas with `examples`.
import { CUSTOMS_INPUT_EXAMPLE } from '../customs/index.js';
// test/platform/openapi-contract.test.ts validates each against its schema, so a schema change
// that breaks one fails there.

/** POST /v1/orders (also /api/admin/orders and integration intake). */
export const ORDER_BODY_EXAMPLE = {
  external_id: 'SHOP-1001',
  customer: { name: 'Grace Hopper', email: 'grace@example.com', phone: '+1 212 555 0199' },
  ship_to: {
    name: 'Grace Hopper',
    street1: '350 5th Ave',
    street2: 'Suite 4500',
    city: 'New York',
    state: 'NY',
    postal_code: '10118',
    country: 'US',
  },
  line_items: [
    {
      sku: 'MUG-BLUE',
      name: 'Blue mug',
      quantity: 2,
      unit_price: { amount: 1250, currency: 'USD' },
      weight_oz: 12,
    },
  ],
  requested_service: 'usps_ground_advantage',
  notes: 'Gift wrap, please.',
};

/** An order awaiting fulfilment (parcel derived from its line items). */
export const ORDER_EXAMPLE = {
  id: 'ord_01m855vv3fet5smbvfy0vdetyk',
  external_id: 'SHOP-1001',
  external_number: null,
  source: 'api',
  needs_review: null,
  environment: 'test',
  status: 'awaiting_fulfillment',
  archived: false,
  customer: { name: 'Grace Hopper', email: 'grace@example.com', phone: '+1 212 555 0199' },
  ship_to: {
    name: 'Grace Hopper',
    street1: '350 5th Ave',
    street2: 'Suite 4500',
    city: 'New York',
    state: 'NY',
    postal_code: '10118',
    country: 'US',
  },
  ship_from: null,
  location_id: 'loc_01jdx3c2v5f0b6k8m9n1p2q3r4',
  line_items: [
    {
      sku: 'MUG-BLUE',
      name: 'Blue mug',
      quantity: 2,
      unit_price: { amount: 1250, currency: 'USD' },
      weight_oz: 12,
    },
  ],
  parcel: { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 },
  parcels: null,
  parcel_derived: true,
  requested_service: 'usps_ground_advantage',
  customs: null,
  options: { signature: 'none', saturday_delivery: false, insurance: null, dangerous_goods: null, references: [], delivery_instructions: null },
  shipments: [],
  office_pins: [],
  notes: 'Gift wrap, please.',
  processed_at: null,
  shipped_at: null,
  delivered_at: null,
  cancelled_at: null,
  archived_at: null,
  created_at: '2026-11-23T21:44:17.263Z',
  updated_at: '2026-11-23T21:44:17.263Z',
};

/** PATCH /api/admin/orders/{orderId}. */
export const UPDATE_ORDER_BODY_EXAMPLE = {
  ship_to: {
    name: 'Grace Hopper',
    street1: '1 Market St',
    city: 'San Francisco',
    state: 'CA',
    postal_code: '94105',
    country: 'US',
  },
  notes: 'Leave at the front desk.',
};

/** An international order (US → GB, two items) with its customs declaration. */
export const INTERNATIONAL_ORDER_BODY_EXAMPLE = {
  external_id: 'SHOP-1002',
  customer: { name: 'Ada Lovelace', email: 'ada@example.co.uk' },
  ship_to: { name: 'Ada Lovelace', street1: '10 Downing St', city: 'London', postal_code: 'SW1A 2AA', country: 'GB' },
  line_items: [
    { sku: 'MUG-BLUE', name: 'Ceramic coffee mug', quantity: 2, unit_price: { amount: 1250, currency: 'USD' }, weight_oz: 12 },
    { sku: 'TOWEL-1', name: 'Cotton tea towel', quantity: 1, unit_price: { amount: 900, currency: 'USD' }, weight_oz: 3 },
  ],
  parcel: { weight_oz: 32, length_in: 10, width_in: 8, height_in: 6 },
  requested_service: 'usps_priority_mail_international',
  customs: CUSTOMS_INPUT_EXAMPLE,
};

/** The international order as answered: customs with its defaults applied (its rules are checked at purchase). */
export const INTERNATIONAL_ORDER_EXAMPLE = {
  ...ORDER_EXAMPLE,
  id: 'ord_01m855vv3fet5smbvfy0vdetym',
  external_id: 'SHOP-1002',
  customer: { name: 'Ada Lovelace', email: 'ada@example.co.uk', phone: null },
  ship_to: INTERNATIONAL_ORDER_BODY_EXAMPLE.ship_to,
  line_items: INTERNATIONAL_ORDER_BODY_EXAMPLE.line_items,
  parcel: INTERNATIONAL_ORDER_BODY_EXAMPLE.parcel,
  parcels: null,
  parcel_derived: false,
  requested_service: 'usps_priority_mail_international',
  notes: null,
  customs: {
    ...CUSTOMS_INPUT_EXAMPLE,
    contents_explanation: null,
    eel_pfc: null,
    aes_itn: null,
    importer: { tax_id: null, eori: 'GB123456789000', ioss: null, vat: null },
  },
};

/** GET /v1/orders/counts: the queue's tabs. */
export const ORDER_COUNTS_EXAMPLE = {
  data: [
    { status: 'awaiting_fulfillment', count: 12 },
    { status: 'processing', count: 3 },
    { status: 'shipped', count: 40 },
    { status: 'delivered', count: 118 },
    { status: 'cancelled', count: 2 },
  ],
  total: 175,
};
