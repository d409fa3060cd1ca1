import { Type } from '@sinclair/typebox';
import { errorResponses, listResponse, type App } from '../../platform/http/schemas.js';
import { serviceContext } from '../../platform/http/request-context.js';
import {
  CreateIntegrationBody,
  IdParams,
  IntegrationListQuery,
  IntegrationSchema,
  IntegrationWithKeySchema,
  UpdateIntegrationBody,
} from './integrations.schemas.js';
import { integrationsService } from './integrations.service.js';

/**
 * /api/admin/integrations (session): store and channel connections of the workspace and
 * environment named by X-Service-Workspace / X-Service-Environment. Every change is audited.
 */
export async function adminIntegrationsRoutes(app: App) {
  const integrations = integrationsService(app.deps);
  app.addSchema(IntegrationSchema);
  const security = [{ session: [] }];
  const tags = ['admin'];

  app.get('/integrations', {
    schema: {
      operationId: 'adminListIntegrations',
      summary: 'List integrations (filter by health or platform)',
      tags,
      security,
      querystring: IntegrationListQuery,
      response: { 200: listResponse(Type.Ref(IntegrationSchema)), ...errorResponses(401, 404) },
    },
    handler: async (request) => integrations.listIntegrations(serviceContext(request), request.query),
  });

  app.get('/integrations/:id', {
    schema: {
      operationId: 'adminGetIntegration',
      summary: 'Read an integration',
      tags,
      security,
      params: IdParams,
      response: { 200: Type.Ref(IntegrationSchema), ...errorResponses(401, 404) },
    },
    handler: async (request) => integrations.getIntegration(serviceContext(request), request.params.id),
  });

  app.post('/integrations', {
    schema: {
      operationId: 'adminCreateIntegration',
      summary: 'Connect a store or channel; the ingest key is returned once',
      description: 'The integration belongs to the environment of X-Service-Environment: the orders it sends land there.',
      tags,
      security,
      body: CreateIntegrationBody,
      response: { 201: IntegrationWithKeySchema, ...errorResponses(401, 404) },
    },
    handler: async (request, reply) => {
      const created = await integrations.createIntegration(serviceContext(request), request.body);
      return reply.code(201).send(created);
    },
  });

  app.put('/integrations/:id', {
    schema: {
      operationId: 'adminUpdateIntegration',
      summary: 'Update an integration (fields given), replace credentials or rotate the ingest key',
      tags,
      security,
      params: IdParams,
      body: UpdateIntegrationBody,
      response: { 200: IntegrationWithKeySchema, ...errorResponses(401, 404) },
    },
    handler: async (request) => integrations.updateIntegration(serviceContext(request), request.params.id, request.body),
  });

  app.delete('/integrations/:id', {
    schema: {
      operationId: 'adminDeleteIntegration',
      summary: 'Delete an integration (its ingest key stops working; its orders stay)',
      tags,
      security,
      params: IdParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 404) },
    },
    handler: async (request, reply) => {
      await integrations.deleteIntegration(serviceContext(request), request.params.id);
      return reply.code(204).send(null);
    },
  });
}
