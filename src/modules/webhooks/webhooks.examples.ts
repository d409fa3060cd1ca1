// Examples for the OpenAPI document (webhook endpoints and deliveries): real answers of the service,
// recorded and trimmed (secrets replaced), attached to the schemas with `examples`.
// test/platform/openapi-contract.test.ts validates each against its schema, so a schema change
// that breaks one fails there.

/** POST /v1/webhooks. */
export const CREATE_WEBHOOK_BODY_EXAMPLE = {
  url: 'https://example.com/hooks/shipping',
  events: ['shipment.label_purchased', 'tracking.updated'],
  description: 'Order system',
};

/** An endpoint (the secret is never listed). */
export const WEBHOOK_ENDPOINT_EXAMPLE = {
  id: 'whk_01m855w668emtr9trm0mphb70c',
  url: 'https://example.com/hooks/shipping',
  description: 'Order system',
  events: ['shipment.label_purchased', 'tracking.updated'],
  enabled: true,
  disabled_reason: null,
  disabled_at: null,
  environment: 'test',
  secret_rotated_at: null,
  previous_secret_expires_at: null,
  created_at: '2026-11-23T21:44:28.633Z',
  updated_at: '2026-11-23T21:44:28.633Z',
};

/** A created endpoint: the signing secret appears in this response only. */
export const WEBHOOK_ENDPOINT_WITH_SECRET_EXAMPLE = {
  id: 'whk_01m855w668emtr9trm0mphb70c',
  url: 'https://example.com/hooks/shipping',
  description: 'Order system',
  events: ['shipment.label_purchased', 'tracking.updated'],
  enabled: true,
  disabled_reason: null,
  disabled_at: null,
  environment: 'test',
  secret_rotated_at: null,
  previous_secret_expires_at: null,
  created_at: '2026-11-23T21:44:28.633Z',
  updated_at: '2026-11-23T21:44:28.633Z',
  secret: 'whsec_ExampleSecretShownOnceOnly000000000000000',
};

/** After rotate-secret: the new secret, once; the previous one stays valid for 24 h. */
export const ROTATED_WEBHOOK_ENDPOINT_EXAMPLE = {
  id: 'whk_01m855w668emtr9trm0mphb70c',
  url: 'https://example.com/hooks/shipping',
  description: 'Order system',
  events: ['shipment.label_purchased', 'tracking.updated'],
  enabled: true,
  disabled_reason: null,
  disabled_at: null,
  environment: 'test',
  secret_rotated_at: '2026-11-23T21:44:28.929Z',
  previous_secret_expires_at: '2026-11-24T21:44:28.929Z',
  created_at: '2026-11-23T21:44:28.633Z',
  updated_at: '2026-11-23T21:44:28.929Z',
  secret: 'whsec_ExampleRotatedSecretShownOnceOnly0000000',
};

/** PATCH /v1/webhooks/{id}: pause deliveries. */
export const UPDATE_WEBHOOK_BODY_EXAMPLE = { enabled: false };

/** A delivery that succeeded on its second attempt. */
export const WEBHOOK_DELIVERY_EXAMPLE = {
  id: 'dlv_01m855w6ahe9sr1w4s3b2mdx7j',
  webhook_id: 'whk_01m855w668emtr9trm0mphb70c',
  event_id: 'evt_01m855vxh2e8b9w2kf4q3n6z0c',
  event_type: 'shipment.label_purchased',
  status: 'delivered',
  attempt_count: 2,
  next_attempt_at: null,
  last_attempt_at: '2026-11-23T21:45:20.117Z',
  last_status_code: 200,
  last_error: null,
  delivered_at: '2026-11-23T21:45:20.141Z',
  attempts: [
    {
      number: 1,
      attempted_at: '2026-11-23T21:44:20.301Z',
      status_code: 503,
      latency_ms: 41,
      response_body: 'Service Unavailable',
      error: null,
    },
    {
      number: 2,
      attempted_at: '2026-11-23T21:45:20.117Z',
      status_code: 200,
      latency_ms: 24,
      response_body: 'ok',
      error: null,
    },
  ],
  created_at: '2026-11-23T21:44:19.734Z',
  updated_at: '2026-11-23T21:45:20.141Z',
};
