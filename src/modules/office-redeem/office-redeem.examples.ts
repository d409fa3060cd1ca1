// Examples for the OpenAPI document (office-redeem PINs): real answers of the service,
// recorded and trimmed (secrets replaced), attached to the schemas with `examples`.
// test/platform/openapi-contract.test.ts validates each against its schema, so a schema change
// that breaks one fails there.

/** A test PIN for Office 2024. */
export const OFFICE_PIN_EXAMPLE = {
  id: 'pin_01m855w7rfespr1z8hr1nn90sf',
  pin: '9435170517625480',
  product: 'office_2024',
  status: 'active',
  expires_at: '2026-12-23T21:44:30.222Z',
  order_id: null,
  workspace_id: null,
  environment: null,
  test: true,
  lookup_count: 0,
  last_lookup_at: null,
  revoked_at: null,
  renewed_at: null,
  created_at: '2026-11-23T21:44:30.222Z',
  updated_at: '2026-11-23T21:44:30.222Z',
};

/** The PIN list (the spec's limit/offset paging with a total). */
export const PIN_LIST_EXAMPLE = {
  data: [
    {
      id: 'pin_01m855w7wnebas8kq02kkd3znh',
      pin: '2669852697870621',
      product: 'office_365',
      status: 'active',
      expires_at: '2026-12-23T21:44:30.352Z',
      order_id: null,
      workspace_id: null,
      environment: null,
      test: true,
      lookup_count: 1,
      last_lookup_at: '2026-11-23T21:44:30.375Z',
      revoked_at: null,
      renewed_at: null,
      created_at: '2026-11-23T21:44:30.352Z',
      updated_at: '2026-11-23T21:44:30.352Z',
    },
  ],
  total: 2,
  limit: 1,
  offset: 0,
};

/** POST /api/super-admin/office-redeem/create-test-pin. */
export const TEST_PIN_BODY_EXAMPLE = { product: 'office_2024' };

/** POST /api/public/office-redeem/lookup (spaces and dashes are ignored). */
export const LOOKUP_BODY_EXAMPLE = { pin: '9435 1705 1762 5480' };

/** The lookup of an active Office 2024 PIN: the master product key and slip. */
export const LOOKUP_2024_EXAMPLE = {
  product: 'office_2024',
  status: 'active',
  expires_at: '2026-12-23T21:44:30.222Z',
  product_key: 'ABCDE-12345-FGHIJ-67890-KLMNO',
  slip: { title: null, instructions: null, support_url: null, support_email: null, footer: null },
};

/** The lookup of an active Microsoft 365 PIN: the configured links. */
export const LOOKUP_365_EXAMPLE = {
  product: 'office_365',
  status: 'active',
  expires_at: '2026-12-23T21:44:30.352Z',
  title: 'Microsoft 365 Family',
  video_url: 'https://example.com/video',
  portal_url: 'https://example.com/portal',
  installer_url: 'https://example.com/install',
  redeem_url: 'https://example.com/redeem',
};

/** PUT /api/super-admin/office-redeem/2024-master-product-key. */
export const MASTER_KEY_BODY_EXAMPLE = {
  product_key: 'ABCDE-12345-FGHIJ-67890-KLMNO',
  slip: {
    title: 'Microsoft Office 2024 Professional Plus',
    instructions: 'Enter the key at setup.office.com.',
    support_url: 'https://example.com/support',
    support_email: 'support@example.com',
    footer: 'Thank you for your order.',
  },
};

/** The master product key and slip. */
export const MASTER_KEY_EXAMPLE = {
  product_key: 'ABCDE-12345-FGHIJ-67890-KLMNO',
  slip: { title: null, instructions: null, support_url: null, support_email: null, footer: null },
  updated_at: '2026-11-23T21:44:30.093Z',
  updated_by: 'acct_01m855vmyve62r5bfkzean5tsr',
};

/** PUT /api/super-admin/office-redeem/365-pin-configure. */
export const CONFIG_365_BODY_EXAMPLE = {
  title: 'Microsoft 365 Family',
  video_url: 'https://example.com/video',
  portal_url: 'https://example.com/portal',
  installer_url: 'https://example.com/install',
  redeem_url: 'https://example.com/redeem',
};

/** The Microsoft 365 redeem configuration. */
export const CONFIG_365_EXAMPLE = {
  title: 'Microsoft 365 Family',
  video_url: 'https://example.com/video',
  portal_url: 'https://example.com/portal',
  installer_url: 'https://example.com/install',
  redeem_url: 'https://example.com/redeem',
  updated_at: '2026-11-23T21:44:30.162Z',
  updated_by: 'acct_01m855vmyve62r5bfkzean5tsr',
};
