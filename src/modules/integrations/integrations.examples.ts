// Examples for the OpenAPI document (store integrations): real answers of the service,
// recorded and trimmed (secrets replaced), attached to the schemas with `examples`.
// test/platform/openapi-contract.test.ts validates each against its schema, so a schema change
// that breaks one fails there.

/** POST /api/admin/integrations (credentials are write-only, encrypted at rest). */
export const CREATE_INTEGRATION_BODY_EXAMPLE = {
  name: 'Shopify store',
  platform: 'shopify',
  store_ref: 'acme.myshopify.com',
  credentials: { access_token: 'shpat_example_custom_app_token', client_secret: 'shpss_example_client_secret' },
  settings: { notify_customer: true },
};

/** An integration after its first order came in. */
export const INTEGRATION_EXAMPLE = {
  id: 'int_01m855w6xses490s9118mbhj7y',
  name: 'Shopify store',
  platform: 'shopify',
  environment: 'test',
  config: {},
  has_credentials: true,
  token_expires_at: null,
  health: 'healthy',
  health_reason: null,
  health_checked_at: '2026-11-23T21:44:29.436Z',
  last_intake_at: '2026-11-23T21:44:29.436Z',
  ingest_key_last4: 'cSct',
  store_ref: 'acme.myshopify.com',
  base_url: null,
  credentials: { access_token: '••••oken', client_secret: '••••cret' },
  connection: {
    state: 'active',
    authorize_url: null,
    connected_at: '2026-11-23T21:44:29.369Z',
    scopes: ['read_orders', 'read_merchant_managed_fulfillment_orders', 'write_merchant_managed_fulfillment_orders'],
  },
  settings: {
    import_statuses: ['paid:unfulfilled', 'paid:partial', 'partially_paid:unfulfilled', 'partially_paid:partial'],
    write_back: true,
    notify_customer: true,
    backfill_days: 14,
    reconcile_interval_minutes: 5,
  },
  sync: { last_webhook_at: '2026-11-23T21:44:29.436Z', last_reconciled_at: '2026-11-23T21:44:29.400Z', lag_seconds: 12 },
  health_since: '2026-11-23T21:44:29.369Z',
  created_at: '2026-11-23T21:44:29.369Z',
  updated_at: '2026-11-23T21:44:29.369Z',
};

/** A created integration: the ingest key appears in this response only (and after a rotation). */
export const INTEGRATION_WITH_KEY_EXAMPLE = {
  id: 'int_01m855w6xses490s9118mbhj7y',
  name: 'Shopify store',
  platform: 'shopify',
  environment: 'test',
  config: {},
  has_credentials: true,
  token_expires_at: null,
  health: 'healthy',
  health_reason: null,
  health_checked_at: '2026-11-23T21:44:29.369Z',
  last_intake_at: null,
  ingest_key_last4: 'cSct',
  store_ref: 'acme.myshopify.com',
  base_url: null,
  credentials: { access_token: '••••oken', client_secret: '••••cret' },
  connection: {
    state: 'active',
    authorize_url: null,
    connected_at: '2026-11-23T21:44:29.369Z',
    scopes: ['read_orders', 'read_merchant_managed_fulfillment_orders', 'write_merchant_managed_fulfillment_orders'],
  },
  settings: {
    import_statuses: ['paid:unfulfilled', 'paid:partial', 'partially_paid:unfulfilled', 'partially_paid:partial'],
    write_back: true,
    notify_customer: true,
    backfill_days: 14,
    reconcile_interval_minutes: 5,
  },
  sync: { last_webhook_at: '2026-11-23T21:44:29.436Z', last_reconciled_at: '2026-11-23T21:44:29.400Z', lag_seconds: 12 },
  health_since: '2026-11-23T21:44:29.369Z',
  created_at: '2026-11-23T21:44:29.369Z',
  updated_at: '2026-11-23T21:44:29.369Z',
  ingest_key: 'ik_ExampleIngestKeyShownOnceOnly00000000000cSct',
};

/** PUT /api/admin/integrations/{id}: a new store token and a fresh ingest key. */
export const UPDATE_INTEGRATION_BODY_EXAMPLE = {
  credentials: { access_token: 'shpat_example_rotated_token', client_secret: 'shpss_example_client_secret' },
  settings: { reconcile_interval_minutes: 10 },
};
