import { Type } from '@sinclair/typebox';
import type { FastifyError, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors.js';
import { schemaFailureDetails } from '../../platform/http/error-handler.js';
import { errorResponses, type App } from '../../platform/http/schemas.js';
import { bearer, serviceContext } from '../../platform/http/request-context.js';
import { checkOrderBody, OrderBody, OrderIdParams, OrderSchema, type OrdersService } from '../orders/index.js';
import type { IntegrationsService, VerifiedIngestKey } from './integrations.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    ingestKey?: VerifiedIngestKey;
  }
}

/** Intake failures that say the integration sends bad data (they drive its health). */
function intakeFailure(request: FastifyRequest, error: FastifyError): { code: string; details?: unknown } | null {
  if (error.validation) return { code: 'validation_failed', details: schemaFailureDetails(request, error).slice(0, 20) };
  if (error instanceof AppError && (error.code === 'validation_failed' || error.code === 'invalid_json')) {
    return { code: error.code, details: Array.isArray(error.details) ? error.details.slice(0, 20) : undefined };
  }
  return null;
}

/**
 * /api/integrations: order intake for a connected store, authenticated by the integration's
 * own ingest key (`Authorization: Bearer ik_…`). The key names the workspace, the environment
 * (the one the integration was created in) and the source of the orders. Same body and upsert
 * rules as POST /v1/orders; external_id is unique per integration.
 */
export async function integrationIntakeRoutes(app: App, opts: { perIpPerMinute: number; orders: OrdersService; integrations: IntegrationsService }) {
  const { integrations } = opts;
  const { orders } = opts;
  const { now } = app.deps;
  app.addSchema(OrderSchema);

  app.addHook('onRequest', app.identity.guards.perIp('integrations', opts.perIpPerMinute));
  app.addHook('onRequest', async (request) => {
    const token = bearer(request);
    if (!token) throw new AppError('unauthorized', 'An ingest key is required (Authorization: Bearer ik_…).');
    const key = await integrations.verifyIngestKey(token);
    if (!key) throw new AppError('unauthorized', 'The ingest key is invalid or its integration was deleted.');
    if (key.suspended) throw new AppError('account_suspended', 'The account that owns this workspace is suspended.');
    request.ingestKey = key;
    request.auth = {
      actor: { type: 'integration', id: key.integrationId },
      scope: { workspaceId: key.workspaceId, environment: key.environment },
      integrationId: key.integrationId,
    };
  });
  // Runs before the error handler answers, so the failure is recorded when the client sees the 400.
  app.addHook('onError', async (request, _reply, error) => {
    if (!request.ingestKey || request.method !== 'POST') return;
    const failure = intakeFailure(request, error);
    if (!failure) return;
    await integrations.recordIntakeFailure(request.ingestKey, failure, now()).catch((err: unknown) => {
      request.log.error({ err }, 'recording an intake failure failed');
    });
  });

  const security = [{ ingestKey: [] }];
  const tags = ['integrations'];

  app.post('/orders', {
    schema: {
      operationId: 'integrationCreateOrder',
      summary: 'Send an order from a connected store (create 201, or update the open order with this external_id 200)',
      description:
        'Same body as POST /v1/orders. Orders land in the integration’s workspace and environment with source = the ' +
        'integration id. A known external_id of this integration updates the order while it is awaiting_fulfillment or ' +
        'processing (200), else 409 invalid_state. Repeated validation failures degrade the integration’s health.',
      tags,
      security,
      body: OrderBody,
      response: {
        201: Type.Ref(OrderSchema, { description: 'Created' }),
        200: Type.Ref(OrderSchema, { description: 'An open order with this external_id was updated' }),
        ...errorResponses(401, 403, 409, 429),
      },
    },
    config: { bodyChecks: checkOrderBody },
    handler: async (request, reply) => {
      const key = request.ingestKey!;
      const { order, created } = await orders.upsertOrder(serviceContext(request), key.integrationId, request.body);
      // Health bookkeeping must not turn an accepted order into an error for the store.
      await integrations.recordIntakeSuccess(key, now()).catch((err: unknown) => request.log.error({ err }, 'recording an intake success failed'));
      return reply.code(created ? 201 : 200).send(order);
    },
  });

  app.get('/orders/:orderId', {
    schema: {
      operationId: 'integrationGetOrder',
      summary: 'Read an order this integration sent',
      tags,
      security,
      params: OrderIdParams,
      response: { 200: Type.Ref(OrderSchema), ...errorResponses(401, 403, 404, 429) },
    },
    handler: async (request) => orders.getOrder(serviceContext(request), request.params.orderId, { source: request.ingestKey!.integrationId }),
  });
}
