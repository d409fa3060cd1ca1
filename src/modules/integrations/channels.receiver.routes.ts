import { Type } from '@sinclair/typebox';
import { errorResponses, type App } from '../../platform/http/schemas.js';
import type { ChannelDeliveries } from './channels.deliveries.js';
import type { ChannelCredentials } from './channels.credentials.js';

/** The receiver reads at most this much (docs/channels.md: a larger body is a 413). */
const MAX_DELIVERY_BYTES = 1024 * 1024;

/**
 * POST /api/integrations/:id/webhooks: a store platform's webhook deliveries. No session and
 * no key: the signature over the raw body is the credential, so this plugin reads the body as
 * bytes (its own parsers, encapsulated here) and verifies before it parses anything.
 */
export async function channelReceiverRoutes(app: App, opts: { deliveries: ChannelDeliveries; credentials: ChannelCredentials }) {
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
        200: Type.Object(
          { received: Type.Boolean(), duplicate: Type.Boolean({ description: 'This delivery id was received before: nothing was applied again.' }) },
          { examples: [{ received: true, duplicate: false }] },
        ),
        ...errorResponses(400, 401, 413),
      },
    },
    handler: async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const { duplicate } = await opts.deliveries.receive(request.params.id, request.headers, raw);
      return { received: true, duplicate };
    },
  });

  app.get('/oauth/shopify/callback', {
    schema: {
      operationId: 'integrationShopifyOauthCallback',
      summary: 'Where Shopify sends the merchant back after approving the app (OAuth)',
      description:
        'Verifies `hmac` (hex HMAC-SHA256 of the sorted query without it, keyed with the client secret), the single-use `state` bound to ' +
        'the integration and the `shop`, exchanges `code` for the token, activates the connection and redirects (302) to ' +
        '`/dashboard/integrations/{id}`. A bad hmac, state or shop → 400 oauth_invalid, nothing stored (the state is consumed).',
      tags: ['integrations'],
      security: [],
      querystring: Type.Object(
        {
          code: Type.Optional(Type.String({ maxLength: 512 })),
          hmac: Type.Optional(Type.String({ maxLength: 128 })),
          shop: Type.Optional(Type.String({ maxLength: 255 })),
          state: Type.Optional(Type.String({ maxLength: 128 })),
          timestamp: Type.Optional(Type.String({ maxLength: 32 })),
          host: Type.Optional(Type.String({ maxLength: 512 })),
        },
        { additionalProperties: Type.String({ maxLength: 512 }) },
      ),
      response: { 302: Type.Null({ description: 'To the dashboard page of the connected integration' }), ...errorResponses(400) },
    },
    handler: async (request, reply) => {
      const id = await opts.credentials.completeOAuth(request.query as Record<string, string>);
      return reply.redirect(`/dashboard/integrations/${id}`, 302);
    },
  });
}
