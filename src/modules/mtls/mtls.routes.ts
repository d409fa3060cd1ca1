import { Type } from '@sinclair/typebox';
import { errorResponses, listResponse, type App } from '../../platform/http/schemas.js';
import { requestMeta, serviceContext } from '../../platform/http/request-context.js';
import { CreateMtlsCertificateBody, IdParams, MtlsCertificateListQuery, MtlsCertificateSchema } from './mtls.schemas.js';
import type { MtlsService } from './mtls.service.js';

/** /api/admin/mtls-certificates (session): client certificates allowed to call /v1 for the workspace. */
export async function adminMtlsRoutes(app: App, opts: { mtls: MtlsService }) {
  const { mtls } = opts;
  app.addSchema(MtlsCertificateSchema);
  const security = [{ session: [] }];
  const tags = ['admin'];

  app.get('/mtls-certificates', {
    schema: {
      operationId: 'adminListMtlsCertificates',
      summary: 'List the client certificates registered for mutual TLS',
      tags,
      security,
      querystring: MtlsCertificateListQuery,
      response: { 200: listResponse(Type.Ref(MtlsCertificateSchema)), ...errorResponses(401, 404) },
    },
    handler: async (request) => mtls.list(serviceContext(request).workspaceId, request.query),
  });

  app.post('/mtls-certificates', {
    schema: {
      operationId: 'adminCreateMtlsCertificate',
      summary: 'Register a client certificate (SHA-256 fingerprint or PEM) for mutual TLS',
      tags,
      security,
      body: CreateMtlsCertificateBody,
      response: { 201: Type.Ref(MtlsCertificateSchema), ...errorResponses(401, 404, 409) },
    },
    handler: async (request, reply) => {
      const ctx = serviceContext(request);
      return reply.code(201).send(await mtls.create(ctx.workspaceId, request.body, ctx.actor, requestMeta(request)));
    },
  });

  app.delete('/mtls-certificates/:id', {
    schema: {
      operationId: 'adminDeleteMtlsCertificate',
      summary: 'Remove a client certificate (connections presenting it are refused at once)',
      tags,
      security,
      params: IdParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 404) },
    },
    handler: async (request, reply) => {
      const ctx = serviceContext(request);
      await mtls.delete(ctx.workspaceId, request.params.id, ctx.actor, requestMeta(request));
      return reply.code(204).send(null);
    },
  });
}
