// Examples for the OpenAPI document (shipments and tracking): real answers of the service,
// recorded and trimmed (secrets replaced), attached to the schemas with `examples`.
// test/platform/openapi-contract.test.ts validates each against its schema, so a schema change
// that breaks one fails there.
import { CUSTOMS_EXAMPLE, CUSTOMS_INPUT_EXAMPLE } from '../customs/index.js';

/** POST /v1/shipments. */
export const CREATE_SHIPMENT_BODY_EXAMPLE = {
  order_id: 'ord_01m855vv3fet5smbvfy0vdetyk',
  service_code: 'usps_ground_advantage',
  label_format: 'pdf_4x6',
};

/** A label just bought. */
export const SHIPMENT_EXAMPLE = {
  id: 'shp_01m855vxgqem0szrmwkjs6ghzy',
  order_id: 'ord_01m855vv3fet5smbvfy0vdetyk',
  environment: 'test',
  carrier: 'usps',
  service_code: 'usps_ground_advantage',
  service_name: 'USPS Ground Advantage',
  tracking_number: '9300155747967004000157',
  tracking_url: 'http://localhost:3000/track/9300155747967004000157',
  status: 'label_purchased',
  tracking_status: 'pre_transit',
  status_detail: 'label_created',
  estimated_delivery_date: '2026-12-01',
  price: { amount: 1380, currency: 'USD' },
  rate: {
    zone: 8,
    base_price: { amount: 1380, currency: 'USD' },
    surcharges: [],
    billable_weight_oz: 32,
    dim_weight_oz: null,
    dim_divisor: null,
    dim_divisor_unit: null,
    delivery: { business_days: 5, estimated_delivery_date: '2026-12-01', guaranteed: false },
    rate_table_version: 'usps-2026-01',
    ship_date: '2026-11-23',
    residential: true,
  },
  location_id: 'loc_01jdx3c2v5f0b6k8m9n1p2q3r4',
  ship_from: {
    name: 'Acme Fulfilment',
    company: 'Acme Inc.',
    street1: '1 Main St',
    city: 'Palo Alto',
    state: 'CA',
    postal_code: '94301',
    country: 'US',
    phone: '+1 650 555 0100',
  },
  ship_to: {
    name: 'Grace Hopper',
    street1: '350 5th Ave',
    street2: 'Suite 4500',
    city: 'New York',
    state: 'NY',
    postal_code: '10118',
    country: 'US',
  },
  parcel: { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 },
  parcels: null,
  packages: [
    { tracking_number: '9300155747967004000157', parcel: { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 }, tracking_status: 'pre_transit' },
  ],
  label: {
    format: 'pdf_4x6',
    url: 'http://localhost:3000/v1/shipments/shp_01m855vxgqem0szrmwkjs6ghzy/label',
    created_at: '2026-11-23T21:44:19.734Z',
  },
  carrier_account_id: 'ca_01m855vx0usps0000000000001',
  simulated: true,
  address_validation: { mode: 'validate', status: 'verified', messages: [], source: { type: 'built_in' } },
  ship_to_original: null,
  selection: {
    rule_id: 'rule_01m855vt0000000000000000',
    rule_name: 'Domestic: no DHL',
    strategy: 'cheapest',
    chosen: 'usps_ground_advantage',
    carrier_account_id: 'ca_01m855vx0usps0000000000001',
    considered: [
      {
        service_code: 'usps_ground_advantage',
        carrier_account_id: 'ca_01m855vx0usps0000000000001',
        price: { amount: 1380, currency: 'USD' },
        business_days: 5,
        excluded: false,
        reason: 'cheapest',
      },
      {
        service_code: 'ups_ground',
        carrier_account_id: 'ca_01m855vx0ups00000000000001',
        price: { amount: 1622, currency: 'USD' },
        business_days: 4,
        excluded: false,
        reason: null,
      },
      {
        service_code: 'dhl_express_domestic',
        carrier_account_id: 'ca_01m855vx0dhl00000000000001',
        price: { amount: 1290, currency: 'USD' },
        business_days: 2,
        excluded: true,
        reason: 'carrier dhl_express is excluded',
      },
    ],
  },
  customs: null,
  options: { signature: 'none', saturday_delivery: false, insurance: null, dangerous_goods: null, references: [], delivery_instructions: null },
  manifest_id: null,
  created_at: '2026-11-23T21:44:19.734Z',
  updated_at: '2026-11-23T21:44:19.734Z',
  voided_at: null,
  delivered_at: null,
  is_return: false,
  return_of: null,
  charge: null,
  expires_at: null,
  rma_number: null,
  reason: null,
  billing_status: 'charged',
  returns: [{ id: 'shp_01m856a2k7ep8t1v6w0d3c9h4b', tracking_number: '9300155747967004100159', status: 'label_purchased', billing_status: 'pending' }],
  write_back: {
    id: 'wbk_01m856a2k7ep8t1v6w0d3c9h4c',
    action: 'fulfill',
    status: 'succeeded',
    external_ref: 'gid://shopify/Fulfillment/5123456789',
    attempts: 1,
    last_error: null,
  },
  refund: null,
};

/** POST /v1/shipments for a US → GB order of two items, with the declaration given at purchase. */
export const INTERNATIONAL_SHIPMENT_BODY_EXAMPLE = {
  order_id: 'ord_01m855vv3fet5smbvfy0vdetym',
  service_code: 'usps_priority_mail_international',
  label_format: 'pdf_4x6',
  customs: CUSTOMS_INPUT_EXAMPLE,
};

/** The US → GB label: its customs as validated (HS numbers without dots, eel_pfc derived) with the declared value. */
export const INTERNATIONAL_SHIPMENT_EXAMPLE = {
  ...SHIPMENT_EXAMPLE,
  id: 'shp_01m855vxgqem0szrmwkjs6gj00',
  order_id: 'ord_01m855vv3fet5smbvfy0vdetym',
  service_code: 'usps_priority_mail_international',
  service_name: 'USPS Priority Mail International',
  tracking_number: '9400155747967004000164',
  tracking_url: 'http://localhost:3000/track/9400155747967004000164',
  estimated_delivery_date: '2026-12-02',
  price: { amount: 6495, currency: 'USD' },
  rate: {
    ...SHIPMENT_EXAMPLE.rate,
    zone: 5,
    base_price: { amount: 6495, currency: 'USD' },
    delivery: { business_days: 7, estimated_delivery_date: '2026-12-02', guaranteed: false },
  },
  ship_to: { name: 'Ada Lovelace', street1: '10 Downing St', city: 'London', postal_code: 'SW1A 2AA', country: 'GB' },
  parcel: { weight_oz: 32, length_in: 10, width_in: 8, height_in: 6 },
  packages: [
    { tracking_number: '9400155747967004000164', parcel: { weight_oz: 32, length_in: 10, width_in: 8, height_in: 6 }, tracking_status: 'pre_transit' },
  ],
  label: { ...SHIPMENT_EXAMPLE.label, url: 'http://localhost:3000/v1/shipments/shp_01m855vxgqem0szrmwkjs6gj00/label' },
  selection: null,
  customs: CUSTOMS_EXAMPLE,
};

/** POST /api/admin/orders/{orderId}/generate. */
export const GENERATE_BODY_EXAMPLE = { service_code: 'cheapest', label_format: 'zpl_4x6' };

/** Tracking right after purchase: the first event and the estimated milestones. */
export const TRACKING_EXAMPLE = {
  id: 'shp_01m855vxgqem0szrmwkjs6ghzy',
  shipment_id: 'shp_01m855vxgqem0szrmwkjs6ghzy',
  tracker_id: null,
  tracking_number: '9300155747967004000157',
  master_tracking_number: null,
  package: null,
  carrier: 'usps',
  status: 'pre_transit',
  status_detail: 'label_created',
  estimated_delivery_date: '2026-12-01',
  events: [
    {
      id: 'tev_01m855w1kre63s1k0qxqfznbz7',
      occurred_at: '2026-11-23T21:44:19.734Z',
      status: 'pre_transit',
      status_detail: 'label_created',
      description: 'Shipping label created',
      location: { city: 'Palo Alto', state: 'CA', postal_code: '94301', country: 'US' },
      carrier_status_code: 'LC',
    },
  ],
  timeline: [
    { milestone: 'label_created', reached_at: '2026-11-23T21:44:19.734Z', estimated_at: null },
    { milestone: 'picked_up', reached_at: null, estimated_at: '2026-11-24T18:00:00.000Z' },
    { milestone: 'in_transit', reached_at: null, estimated_at: '2026-11-24T22:00:00.000Z' },
    { milestone: 'out_for_delivery', reached_at: null, estimated_at: '2026-12-01T08:00:00.000Z' },
    { milestone: 'delivered', reached_at: null, estimated_at: '2026-12-01T14:00:00.000Z' },
  ],
};

/** An event of GET /v1/tracking/events. */
export const TRACKING_EVENT_LIST_ITEM_EXAMPLE = {
  id: 'tev_01m855w1kre63s1k0qxqfznbz7',
  occurred_at: '2026-11-23T21:44:19.734Z',
  status: 'pre_transit',
  status_detail: 'label_created',
  description: 'Shipping label created',
  location: { city: 'Palo Alto', state: 'CA', postal_code: '94301', country: 'US' },
  carrier_status_code: 'LC',
  shipment_id: 'shp_01m855vxgqem0szrmwkjs6ghzy',
  tracking_number: '9300155747967004000157',
  carrier: 'usps',
  created_at: '2026-11-23T21:44:19.734Z',
};

/** Public tracking: no name, street, email or phone. */
export const PUBLIC_TRACKING_EXAMPLE = {
  tracking_number: '9300155747967004000157',
  master_tracking_number: null,
  package: null,
  carrier: 'usps',
  status: 'pre_transit',
  status_detail: 'label_created',
  estimated_delivery_date: '2026-12-01',
  timeline: [
    { milestone: 'label_created', reached_at: '2026-11-23T21:44:19.734Z', estimated_at: null },
    { milestone: 'picked_up', reached_at: null, estimated_at: '2026-11-24T18:00:00.000Z' },
    { milestone: 'in_transit', reached_at: null, estimated_at: '2026-11-24T22:00:00.000Z' },
    { milestone: 'out_for_delivery', reached_at: null, estimated_at: '2026-12-01T08:00:00.000Z' },
    { milestone: 'delivered', reached_at: null, estimated_at: '2026-12-01T14:00:00.000Z' },
  ],
  events: [
    {
      id: 'tev_01m855w1kre63s1k0qxqfznbz7',
      occurred_at: '2026-11-23T21:44:19.734Z',
      status: 'pre_transit',
      status_detail: 'label_created',
      description: 'Shipping label created',
      location: { city: 'Palo Alto', state: 'CA', postal_code: '94301', country: 'US' },
      carrier_status_code: 'LC',
    },
  ],
};
