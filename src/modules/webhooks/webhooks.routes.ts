import { Type } from '@sinclair/typebox';
import { errorResponses, listResponse, type App } from '../../platform/http/schemas.js';
import { surfaceDocs, type Surface } from '../../platform/http/surface.js';
import { serviceContext } from '../../platform/http/request-context.js';
import {
  AllDeliveriesQuery,
  CreateWebhookBody,
  DeliveryListQuery,
  DeliverySchema,
  IdParams,
  ListQuery,
  UpdateWebhookBody,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
} from './webhooks.schemas.js';
import type { WebhooksService } from './webhooks.service.js';

/**
 * Webhook endpoints and their deliveries, mounted twice: under /v1 (API key) and under
 * /api/admin (session; the workspace and environment of X-Service-Workspace /
 * X-Service-Environment) for the dashboard. Same handlers, distinct operation ids.
 */
export async function webhooksRoutes(app: App, opts: { surface: Surface; webhooks: WebhooksService }) {
  const { webhooks } = opts;
  app.addSchema(WebhookEndpointSchema);
  app.addSchema(DeliverySchema);
  const { security, tags, operationId: op } = surfaceDocs(opts.surface, 'webhooks');
  const errors = (...s: number[]) => errorResponses(401, 403, 404, 429, ...s);

  app.get('/webhooks', {
    schema: {
      operationId: op('listWebhooks'),
      summary: 'List webhook endpoints, newest first',
      tags,
      security,
      querystring: ListQuery,
      response: { 200: listResponse(Type.Ref(WebhookEndpointSchema)), ...errors() },
    },
    handler: async (request) => webhooks.listEndpoints(serviceContext(request), request.query),
  });

  app.post('/webhooks', {
    schema: {
      operationId: op('createWebhook'),
      summary: 'Register a webhook endpoint; its signing secret (whsec_…) is returned once',
      description:
        'Deliveries are POSTed to `url` with `X-Service-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>` ' +
        'and `X-Service-Delivery-Id`. https is required in live; private, loopback and link-local targets are refused.',
      tags,
      security,
      body: CreateWebhookBody,
      response: { 201: WebhookEndpointWithSecretSchema, ...errors() },
    },
    handler: async (request, reply) => reply.code(201).send(await webhooks.createEndpoint(serviceContext(request), request.body)),
  });

  app.get('/webhooks/:id', {
    schema: {
      operationId: op('getWebhook'),
      summary: 'Read a webhook endpoint',
      tags,
      security,
      params: IdParams,
      response: { 200: Type.Ref(WebhookEndpointSchema), ...errors() },
    },
    handler: async (request) => webhooks.getEndpoint(serviceContext(request), request.params.id),
  });

  app.patch('/webhooks/:id', {
    schema: {
      operationId: op('updateWebhook'),
      summary: 'Change a webhook endpoint (url, events, description, enabled)',
      tags,
      security,
      params: IdParams,
      body: UpdateWebhookBody,
      response: { 200: Type.Ref(WebhookEndpointSchema), ...errors() },
    },
    handler: async (request) => webhooks.updateEndpoint(serviceContext(request), request.params.id, request.body),
  });

  app.delete('/webhooks/:id', {
    schema: {
      operationId: op('deleteWebhook'),
      summary: 'Delete a webhook endpoint and its delivery log',
      tags,
      security,
      params: IdParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...errors() },
    },
    handler: async (request, reply) => {
      await webhooks.deleteEndpoint(serviceContext(request), request.params.id);
      return reply.code(204).send(null);
    },
  });

  app.post('/webhooks/:id/rotate-secret', {
    schema: {
      operationId: op('rotateWebhookSecret'),
      summary: 'Issue a new signing secret (returned once); the old one keeps signing for the overlap',
      description: 'During the overlap (setting webhooks.secret_overlap_hours, default 24) each delivery carries one v1= per valid secret.',
      tags,
      security,
      params: IdParams,
      response: { 200: WebhookEndpointWithSecretSchema, ...errors() },
    },
    handler: async (request) => webhooks.rotateSecret(serviceContext(request), request.params.id),
  });

  app.post('/webhooks/:id/test', {
    schema: {
      operationId: op('testWebhook'),
      summary: 'Send a webhook.test event to this endpoint (queued; answers the delivery)',
      tags,
      security,
      params: IdParams,
      response: { 202: Type.Ref(DeliverySchema, { description: 'Queued' }), ...errors(409) },
    },
    handler: async (request, reply) => reply.code(202).send(await webhooks.sendTestEvent(serviceContext(request), request.params.id)),
  });

  app.get('/webhooks/:id/deliveries', {
    schema: {
      operationId: op('listWebhookDeliveries'),
      summary: "List an endpoint's deliveries with their attempts (?status=dead lists dead letters)",
      tags,
      security,
      params: IdParams,
      querystring: DeliveryListQuery,
      response: { 200: listResponse(Type.Ref(DeliverySchema)), ...errors() },
    },
    handler: async (request) => webhooks.listEndpointDeliveries(serviceContext(request), request.params.id, request.query),
  });

  app.get('/webhook-deliveries', {
    schema: {
      operationId: op('listAllWebhookDeliveries'),
      summary: 'List deliveries of every endpoint (?status=dead: the dead letters; ?webhook_id=)',
      tags,
      security,
      querystring: AllDeliveriesQuery,
      response: { 200: listResponse(Type.Ref(DeliverySchema)), ...errors() },
    },
    handler: async (request) => webhooks.listDeliveries(serviceContext(request), request.query),
  });

  app.get('/webhook-deliveries/:id', {
    schema: {
      operationId: op('getWebhookDelivery'),
      summary: 'Read a delivery with every attempt (time, status code, latency, response excerpt, error)',
      tags,
      security,
      params: IdParams,
      response: { 200: Type.Ref(DeliverySchema), ...errors() },
    },
    handler: async (request) => webhooks.getDelivery(serviceContext(request), request.params.id),
  });

  app.post('/webhook-deliveries/:id/retry', {
    schema: {
      operationId: op('retryWebhookDelivery'),
      summary: 'Send a dead or failed delivery again now (same delivery id)',
      description: 'One more attempt; a delivered delivery is never sent again (409 invalid_state).',
      tags,
      security,
      params: IdParams,
      response: { 200: Type.Ref(DeliverySchema), ...errors(409) },
    },
    handler: async (request) => webhooks.retryDelivery(serviceContext(request), request.params.id),
  });
}
