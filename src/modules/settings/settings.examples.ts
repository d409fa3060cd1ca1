// Examples for the OpenAPI document (settings): real answers of the service,
// recorded and trimmed (secrets replaced), attached to the schemas with `examples`.
// test/platform/openapi-contract.test.ts validates each against its schema, so a schema change
// that breaks one fails there.

/** PUT /api/super-admin/settings/{key}. */
export const PUT_SETTING_BODY_EXAMPLE = { value: 10 };

/** A setting changed from its default. */
export const SETTING_EXAMPLE = {
  key: 'webhooks.max_attempts',
  value: 10,
  default: 8,
  schema: { minimum: 1, maximum: 50, type: 'integer' },
  description: 'Delivery attempts before a webhook delivery is dead-lettered.',
  updated_at: '2026-11-23T21:44:29.797Z',
  updated_by: 'acct_01m855vmyve62r5bfkzean5tsr',
};
