import { Type } from '@sinclair/typebox';
import { errorResponses, type App } from '../../platform/http/schemas.js';
import type { ChannelDeliveries } from './channels.deliveries.js';

/** The receiver reads at most this much (DESIGN.md §10.5: a larger body is a 413). */
const MAX_DELIVERY_BYTES = 1024 * 1024;

/**
 * POST /api/integrations/:id/webhooks: a store platform's webhook deliveries. No session and
 * no key: the signature over the raw body is the credential, so this plugin reads the body as
 * bytes (its own parsers, encapsulated here) and verifies before it parses anything.
 */
export async function channelReceiverRoutes(app: App, opts: { deliveries: ChannelDeliveries }) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_DELIVERY_BYTES }, (_req, body, done) => done(null, body));

  app.post('/:id/webhooks', {
    bodyLimit: MAX_DELIVERY_BYTES,
    schema: {
      operationId: 'integrationReceiveWebhook',
      summary: "Receive a store platform's webhook delivery (signed by the platform)",
      description:
        'Shopify: `X-Shopify-Hmac-Sha256` (base64 HMAC-SHA256 of the raw body with the app’s client secret) and `X-Shopify-Shop-Domain` ' +
        'must match the integration. A good delivery is stored (deduplicated on `X-Shopify-Webhook-Id`) and answered at once; a job applies it.',
      tags: ['integrations'],
      security: [{ platformSignature: [] }],
      params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
      response: {
        200: Type.Object({ received: Type.Boolean(), duplicate: Type.Boolean({ description: 'This delivery id was received before: nothing was applied again.' }) }),
        ...errorResponses(400, 401, 413),
      },
    },
    handler: async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const { duplicate } = await opts.deliveries.receive(request.params.id, request.headers, raw);
      return { received: true, duplicate };
    },
  });
}
