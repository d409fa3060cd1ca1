/** The webhooks module's import surface. */
export { webhooksRoutes } from './webhooks.routes.js';
export { WebhooksService, checkTargetUrl } from './webhooks.service.js';
export { setupWebhooks, registerWebhookJobs, webhookDispatcher, type WebhooksRuntimeOptions } from './webhooks.jobs.js';
export { WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE, WebhookEndpointSchema, DeliverySchema } from './webhooks.schemas.js';
export { signatureHeader, SIGNATURE_HEADER, DELIVERY_ID_HEADER, EVENT_TYPE_HEADER } from './webhooks.signing.js';
