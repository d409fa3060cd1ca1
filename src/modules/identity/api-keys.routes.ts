import { Type } from '@sinclair/typebox';
import { errorResponses, ErrorResponseSchema, listResponse, PageLimitSchema, type App } from '../../platform/http/schemas.js';
import { surfaceDocs, type Surface } from '../../platform/http/surface.js';
import { ApiKeySchema, CreateApiKeyBody, CreatedApiKeySchema, EnvironmentSchema, IdParams } from './workspaces.schemas.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { AppError } from '../../platform/errors.js';
import { keyEnvironmentRefusals } from './api-key-policy.js';
import { API_KEY_FORBIDDEN_EXAMPLE } from './workspaces.examples.js';

/**
 * /v1's refusal of a key it may not create (api-key-policy.ts): the common error body, inlined
 * so its example can be this refusal (an example beside a $ref is dropped by the generator).
 */
const CreateForbidden = Type.Object(ErrorResponseSchema.properties, {
  description:
    'Forbidden: the calling key may not create this key (another environment, or outliving the calling key); `details` names `environment` or `expires_at`',
  examples: [API_KEY_FORBIDDEN_EXAMPLE],
});

const ListQuery = Type.Object({
  environment: Type.Optional(EnvironmentSchema),
  limit: Type.Optional(PageLimitSchema),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
});

/**
 * API keys, mounted twice: under /api/admin (session; every environment of the workspace) and
 * under /v1 (an API key manages the keys of its own workspace and environment, and creates
 * none that outlives it: see api-key-policy.ts).
 */
export async function apiKeysRoutes(app: App, opts: { surface: Surface }) {
  const { workspaces } = app.identity;
  const { v1, security, tags, operationId: op } = surfaceDocs(opts.surface, 'api-keys');

  app.get('/api-keys', {
    schema: {
      operationId: op('listApiKeys'),
      summary: 'List live (unrevoked) API keys',
      description: v1
        ? "The keys of the calling key's environment. Naming the other environment in `environment` is 403 `forbidden` (a detail on `environment`)."
        : 'The keys of every environment of the workspace, or of the one named in `environment`.',
      tags,
      security,
      querystring: ListQuery,
      response: { 200: listResponse(Type.Ref(ApiKeySchema)), ...errorResponses(401, 403, 429) },
    },
    handler: async (request) => {
      const ctx = serviceContext(request);
      if (!v1) return workspaces.listApiKeys(ctx.workspaceId, request.query);
      const refusals = keyEnvironmentRefusals(ctx, request.query.environment);
      if (refusals.length) throw new AppError('forbidden', 'This API key may not list those keys.', { details: refusals });
      return workspaces.listApiKeys(ctx.workspaceId, { ...request.query, environment: ctx.environment });
    },
  });

  app.post('/api-keys', {
    schema: {
      operationId: op('createApiKey'),
      summary: 'Create an API key; the secret is shown once',
      description: v1
        ? "`environment` defaults to the calling key's. A key creates keys of its own environment only (a live key comes from the dashboard or another live key), and a key with an `expires_at` creates keys that expire no later than it: anything else is 403 `forbidden` with a detail on `environment` or `expires_at`. Every creation is audit-logged with its creator (the key's id and prefix), never the secret."
        : 'Any environment of the workspace. Every creation is audit-logged with its creator (the account), never the secret.',
      tags,
      security,
      body: CreateApiKeyBody,
      response: { 201: CreatedApiKeySchema, ...errorResponses(401, 403, 429), ...(v1 ? { 403: CreateForbidden } : {}) },
    },
    handler: async (request, reply) => {
      const ctx = serviceContext(request);
      const environment = request.body.environment ?? ctx.environment;
      const created = await workspaces.createApiKey(ctx.workspaceId, { ...request.body, environment }, ctx.actor, { ...ctx, role: request.auth?.role });
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
