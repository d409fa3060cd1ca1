import { Type } from '@sinclair/typebox';
import { errorResponses, listResponse, PageLimitSchema, type App } from '../../platform/http/schemas.js';
import { ApiKeySchema, CreateApiKeyBody, CreatedApiKeySchema, EnvironmentSchema, IdParams } from './workspaces.schemas.js';
import { serviceContext } from '../../platform/http/request-context.js';

const ListQuery = Type.Object({
  environment: Type.Optional(EnvironmentSchema),
  limit: Type.Optional(PageLimitSchema),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
});

/**
 * API keys, mounted twice: under /api/admin (session; every environment of the workspace) and
 * under /v1 (an API key manages the keys of its own workspace and environment).
 */
export async function apiKeysRoutes(app: App, opts: { surface: 'admin' | 'v1' }) {
  const { workspaces } = app.identity;
  const v1 = opts.surface === 'v1';
  const security = v1 ? [{ apiKey: [], workspace: [] }] : [{ session: [] }];
  const tags = [v1 ? 'api-keys' : 'admin'];
  const op = (name: string) => (v1 ? name : `admin${name[0].toUpperCase()}${name.slice(1)}`);

  app.get('/api-keys', {
    schema: {
      operationId: op('listApiKeys'),
      summary: 'List live (unrevoked) API keys',
      tags,
      security,
      querystring: ListQuery,
      response: { 200: listResponse(Type.Ref(ApiKeySchema)), ...errorResponses(401, 403, 429) },
    },
    handler: async (request) => {
      const ctx = serviceContext(request);
      return workspaces.listApiKeys(ctx.workspaceId, { ...request.query, environment: v1 ? ctx.environment : request.query.environment });
    },
  });

  app.post('/api-keys', {
    schema: {
      operationId: op('createApiKey'),
      summary: 'Create an API key; the secret is shown once',
      tags,
      security,
      body: CreateApiKeyBody,
      response: { 201: CreatedApiKeySchema, ...errorResponses(401, 403, 429) },
    },
    handler: async (request, reply) => {
      const ctx = serviceContext(request);
      const environment = request.body.environment ?? ctx.environment;
      const created = await workspaces.createApiKey(ctx.workspaceId, { ...request.body, environment }, ctx.actor, ctx);
      return reply.code(201).send(created);
    },
  });

  app.delete('/api-keys/:id', {
    schema: {
      operationId: op('revokeApiKey'),
      summary: 'Revoke an API key (refused at once everywhere)',
      tags,
      security,
      params: IdParams,
      response: { 204: Type.Null({ description: 'Revoked' }), ...errorResponses(401, 403, 404, 429) },
    },
    handler: async (request, reply) => {
      const ctx = serviceContext(request);
      await workspaces.revokeApiKey(ctx.workspaceId, request.params.id, ctx.actor, ctx, v1 ? ctx.environment : undefined);
      return reply.code(204).send(null);
    },
  });
}
