// Examples for the OpenAPI document (service descriptor and health): real answers of the service,
// recorded and trimmed (secrets replaced), attached to the schemas with `examples`.
// test/platform/openapi-contract.test.ts validates each against its schema, so a schema change
// that breaks one fails there.

/** GET / and GET /api. */
export const DESCRIPTOR_EXAMPLE = {
  name: 'shipping-service',
  version: '0.1.0',
  status: 'running',
  endpoints: {
    v1: {
      orders: '/v1/orders',
      shipments: '/v1/shipments',
      rates: '/v1/rates/query',
      tracking: '/v1/tracking/:id',
      tracking_events: '/v1/tracking/events',
      addresses: '/v1/addresses/validate',
      batches: '/v1/batches',
      webhooks: '/v1/webhooks',
      api_keys: '/v1/api-keys',
    },
    auth: {
      register: '/api/auth/register',
      login: '/api/auth/login',
      logout: '/api/auth/logout',
      me: '/api/auth/me',
    },
    admin: {
      orders: '/api/admin/orders',
      shipments: '/api/admin/shipments',
      integrations: '/api/admin/integrations',
      api_keys: '/api/admin/api-keys',
      workspace: '/api/admin/workspace',
    },
    integrations: { orders: '/api/integrations/orders' },
    public: {
      track: '/api/public/track/:trackingNumber',
      office_redeem_lookup: '/api/public/office-redeem/lookup',
    },
    super_admin: {
      accounts: '/api/super-admin/accounts',
      workspaces: '/api/super-admin/workspaces',
      settings: '/api/super-admin/settings',
      analytics: '/api/super-admin/analytics',
      audit_log: '/api/super-admin/audit-log',
      office_redeem: '/api/super-admin/office-redeem',
    },
    health: '/health',
    metrics: '/metrics',
    openapi: '/openapi.json',
  },
  documentation: '/docs',
};

/** GET /health when the database answers. */
export const HEALTH_EXAMPLE = { status: 'ok', checks: { database: { status: 'ok', latency_ms: 1.21 } } };

/** GET /health (503) when the database does not answer. */
export const HEALTH_UNAVAILABLE_EXAMPLE = { status: 'unavailable', checks: { database: { status: 'failing' } } };
