// Examples for the OpenAPI document (analytics): real answers of the service,
// recorded and trimmed (secrets replaced), attached to the schemas with `examples`.
// test/platform/openapi-contract.test.ts validates each against its schema, so a schema change
// that breaks one fails there.

/** The last 30 days, daily (two of the per-period buckets shown). */
export const ANALYTICS_EXAMPLE = {
  from: '2026-10-24T21:44:29.944Z',
  to: '2026-11-23T21:44:29.944Z',
  interval: 'day',
  accounts_by_status: { pending: 0, active: 2, suspended: 0 },
  workspaces_by_plan: { starter: 1, professional: 0, enterprise: 1 },
  orders: {
    created: 3,
    by_status: { awaiting_fulfillment: 2, processing: 0, shipped: 1, delivered: 0, cancelled: 0 },
    per_period: [
      { period: '2026-11-22', created: 0 },
      { period: '2026-11-23', created: 3 },
    ],
  },
  labels: {
    purchased: 1,
    voided: 0,
    spend: { amount: 1380, currency: 'USD' },
    per_period: [
      { period: '2026-11-22', purchased: 0, spend: { amount: 0, currency: 'USD' }, by_carrier: {} },
      {
        period: '2026-11-23',
        purchased: 1,
        spend: { amount: 1380, currency: 'USD' },
        by_carrier: { usps: 1 },
      },
    ],
    by_carrier: [{ carrier: 'usps', purchased: 1, voided: 0, spend: { amount: 1380, currency: 'USD' } }],
  },
  webhooks: { delivered: 0, failed: 0, dead: 0, pending: 0, success_rate: null },
  batches: { created: 1, by_status: { queued: 1 } },
  api_requests: {
    total: 17,
    per_period: [
      { period: '2026-11-22', requests: 0 },
      { period: '2026-11-23', requests: 17 },
    ],
    by_workspace: [
      {
        workspace_id: 'ws_01m855vq01edv9y9wya31zz08a',
        name: 'Analytical Engines Ltd',
        requests: 17,
      },
    ],
  },
};
