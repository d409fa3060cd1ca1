// Examples for the OpenAPI document (batches): real answers of the service,
// recorded and trimmed (secrets replaced), attached to the schemas with `examples`.
// test/platform/openapi-contract.test.ts validates each against its schema, so a schema change
// that breaks one fails there.
import { SHIPMENT_EXAMPLE } from '../shipments/index.js';

/** POST /v1/batches: labels for two orders, the cheapest service each. */
export const CREATE_BATCH_BODY_EXAMPLE = {
  type: 'purchase_labels',
  order_ids: ['ord_01m855vv3fet5smbvfy0vdetyk', 'ord_01m855w251estbw8g2458c7cjx'],
  service_code: 'cheapest',
  label_format: 'zpl_4x6',
};

/** A finished batch. */
export const BATCH_EXAMPLE = {
  id: 'bat_01m855w25ve189mjy106t2h0b9',
  type: 'purchase_labels',
  status: 'completed',
  counts: { total: 2, pending: 0, succeeded: 2, failed: 0, cancelled: 0 },
  progress: 1,
  label_format: 'zpl_4x6',
  service_code: 'cheapest',
  location_id: null,
  eta_seconds: null,
  label: { url: 'http://localhost:3000/v1/batches/bat_01m855w25ve189mjy106t2h0b9/label' },
  started_at: '2026-11-23T21:44:24.612Z',
  finished_at: '2026-11-23T21:44:25.208Z',
  created_at: '2026-11-23T21:44:24.507Z',
};

/** A purchase_labels item: its result is the shipment bought. */
export const BATCH_ITEM_EXAMPLE = {
  id: 'bti_01m855w2bfer2av45qt2d3073d',
  index: 0,
  status: 'succeeded',
  result: { shipment: SHIPMENT_EXAMPLE },
  error: null,
  finished_at: '2026-11-23T21:44:25.101Z',
};

/** POST /api/admin/orders/batch-generate. */
export const ADMIN_BATCH_GENERATE_BODY_EXAMPLE = {
  order_ids: ['ord_01m855vv3fet5smbvfy0vdetyk', 'ord_01m855w251estbw8g2458c7cjx'],
  service_code: 'usps_ground_advantage',
  label_format: 'pdf_4x6',
};

/** POST /api/admin/orders/batch-process. */
export const ADMIN_BATCH_PROCESS_BODY_EXAMPLE = { order_ids: ['ord_01m855vv3fet5smbvfy0vdetyk', 'ord_01m855w251estbw8g2458c7cjx'] };
