// Examples for the OpenAPI document (returns and refunds), in the style of
// shipments.examples.ts: real answers of the service, trimmed.
import { SHIPMENT_EXAMPLE } from './shipments.examples.js';

/** POST /v1/shipments/{id}/return. */
export const CREATE_RETURN_BODY_EXAMPLE = { rma_number: 'RMA-1042', reason: 'Wrong size', charge: 'on_scan', expires_in_days: 30 };

/** A return label just made for SHIPMENT_EXAMPLE: its addresses swapped, billed on the first scan. */
export const RETURN_SHIPMENT_EXAMPLE = {
  ...SHIPMENT_EXAMPLE,
  id: 'shp_01m856a2k7ep8t1v6w0d3c9h4b',
  tracking_number: '9300155747967004100159',
  tracking_url: 'http://localhost:3000/track/9300155747967004100159',
  packages: [{ ...SHIPMENT_EXAMPLE.packages[0], tracking_number: '9300155747967004100159' }],
  ship_from: SHIPMENT_EXAMPLE.ship_to,
  ship_to: SHIPMENT_EXAMPLE.ship_from,
  label: { format: 'pdf_4x6', url: 'http://localhost:3000/v1/shipments/shp_01m856a2k7ep8t1v6w0d3c9h4b/label', created_at: '2026-11-25T10:02:11.120Z' },
  address_validation: { mode: 'none', status: null, messages: [], source: null },
  selection: null,
  created_at: '2026-11-25T10:02:11.120Z',
  updated_at: '2026-11-25T10:02:11.120Z',
  is_return: true,
  return_of: 'shp_01m855vxgqem0szrmwkjs6ghzy',
  charge: 'on_scan',
  expires_at: '2026-12-25T10:02:11.120Z',
  rma_number: 'RMA-1042',
  reason: 'Wrong size',
  billing_status: 'pending',
  returns: [],
  refund: null,
  write_back: null,
};

/** One item of GET /v1/refunds. */
export const REFUND_LIST_ITEM_EXAMPLE = {
  id: 'rfd_01m857c0vq9f3m7a2k4t8d6y1e',
  shipment_id: 'shp_01m855vxgqem0szrmwkjs6ghzy',
  tracking_number: '9300155747967004000157',
  carrier: 'usps',
  status: 'refunded',
  amount: { amount: 1380, currency: 'USD' },
  breakdown: [{ code: 'label', amount: { amount: 1380, currency: 'USD' } }],
  requested_at: '2026-11-23T22:01:05.210Z',
  decided_at: '2026-11-23T22:02:05.400Z',
  reason: 'The label was not used; the label is refunded.',
};
