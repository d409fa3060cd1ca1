import { Type } from '@sinclair/typebox';
import { errorResponses, listResponse, type App } from '../../platform/http/schemas.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { CHANNEL_PLATFORMS } from '../../channels/registry.js';
import {
  ChannelExchangeListSchema,
  ChannelTypeListSchema,
  ChannelTypeSchema,
  ChannelExchangeSchema,
  CreateIntegrationBody,
  IdParams,
  IntegrationListQuery,
  IntegrationSchema,
  IntegrationWithKeySchema,
  SyncBody,
  SyncHistorySchema,
  SyncRunListQuery,
  SyncRunSchema,
  UpdateIntegrationBody,
} from './integrations.schemas.js';
import type { IntegrationsService } from './integrations.service.js';
import type { ChannelSync } from './channels.sync.js';
import { toChannelExchange, toSyncEntry, toSyncRun, toWriteBack } from './channels.wire.js';
import { toChannelType } from './integrations.wire.js';
import { listChannelExchanges } from './channels.exchanges.js';
import type { OrdersService } from '../orders/index.js';
import { parseInstant } from '../orders/index.js';

/**
 * /api/admin/integrations (session): store and channel connections of the workspace and
 * environment named by X-Service-Workspace / X-Service-Environment. Every change is audited.
 */
export async function adminIntegrationsRoutes(app: App, opts: { integrations: IntegrationsService; sync: ChannelSync; orders: OrdersService }) {
  const { integrations, sync, orders } = opts;
  app.addSchema(IntegrationSchema);
  app.addSchema(SyncRunSchema);
  app.addSchema(ChannelExchangeSchema);
  app.addSchema(ChannelTypeSchema);
  const security = [{ session: [] }];
  const tags = ['admin'];

  app.get('/channel-types', {
    schema: {
      operationId: 'adminListChannelTypes',
      summary: 'The store platforms a connection can be made to: their store reference, credentials, OAuth and default settings',
      description:
        'One entry per platform folder the service found (docs/channels.md); `custom` integrations (orders pushed with the ingest key) are not listed.',
      tags,
      security,
      response: { 200: ChannelTypeListSchema, ...errorResponses(401, 404) },
    },
    handler: async () => ({ data: CHANNEL_PLATFORMS.map(toChannelType) }),
  });

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
      summary: 'Delete an integration (its ingest key stops working, a store connection’s webhooks are unregistered; its orders stay)',
      tags,
      security,
      params: IdParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 404) },
    },
    handler: async (request, reply) => {
      const ctx = serviceContext(request);
      // A store connection's webhooks are unregistered first, best effort: a store that cannot be
      // reached (or a revoked token) must not keep the integration from being deleted.
      await sync.unregister(ctx, request.params.id).catch((err: unknown) => request.log.warn({ err }, 'store webhooks could not be unregistered'));
      await integrations.deleteIntegration(ctx, request.params.id);
      return reply.code(204).send(null);
    },
  });

  app.post('/integrations/:id/test', {
    schema: {
      operationId: 'adminTestIntegration',
      summary: "Test a store connection now (the platform's cheapest authenticated read)",
      description: 'Answers the integration with a fresh `health` and the scopes the platform granted. 409 for push-intake integrations.',
      tags,
      security,
      params: IdParams,
      response: { 200: Type.Ref(IntegrationSchema), ...errorResponses(401, 404, 409) },
    },
    handler: async (request) => {
      const ctx = serviceContext(request);
      await sync.test(await sync.connected(ctx, request.params.id, { active: true }));
      return integrations.getIntegration(ctx, request.params.id);
    },
  });

  app.post('/integrations/:id/sync', {
    schema: {
      operationId: 'adminSyncIntegration',
      summary: 'Read the store for changed orders now (a manual sync run)',
      description: 'Answers 202 with the queued sync run; its entries in the orders’ sync history have source `manual`.',
      tags,
      security,
      params: IdParams,
      body: SyncBody,
      response: { 202: Type.Ref(SyncRunSchema), ...errorResponses(400, 401, 404, 409) },
    },
    handler: async (request, reply) => {
      const ctx = serviceContext(request);
      const row = await sync.connected(ctx, request.params.id, { active: true });
      const since = request.body?.since ? parseInstant(request.body.since, 'since') : null;
      return reply.code(202).send(toSyncRun(await sync.queueRun(row, 'manual', since)));
    },
  });

  app.get('/integrations/:id/sync-runs', {
    schema: {
      operationId: 'adminListSyncRuns',
      summary: "A store connection's sync runs (backfill, reconciliation, manual), newest first",
      tags,
      security,
      params: IdParams,
      querystring: SyncRunListQuery,
      response: { 200: listResponse(Type.Ref(SyncRunSchema)), ...errorResponses(401, 404, 409) },
    },
    handler: async (request) => {
      const ctx = serviceContext(request);
      const row = await sync.connected(ctx, request.params.id);
      const page = await sync.listRuns(ctx, row.id, request.query);
      return { ...page, data: page.data.map(toSyncRun) };
    },
  });

  app.get('/integrations/:id/logs', {
    schema: {
      operationId: 'adminListIntegrationLogs',
      summary: 'The last 100 exchanges with the store platform (kept 7 days), bodies redacted',
      tags,
      security,
      params: IdParams,
      response: { 200: ChannelExchangeListSchema, ...errorResponses(401, 404, 409) },
    },
    handler: async (request) => {
      const ctx = serviceContext(request);
      const row = await sync.connected(ctx, request.params.id);
      const rows = await listChannelExchanges(app.deps.db, ctx, row.id, app.deps.now());
      return { data: rows.map(toChannelExchange) };
    },
  });

  app.get('/orders/:id/sync-history', {
    schema: {
      operationId: 'adminOrderSyncHistory',
      summary: 'Why an imported order looks as it does: every version its store sent and what was decided, plus its write-backs',
      tags,
      security,
      params: IdParams,
      response: { 200: SyncHistorySchema, ...errorResponses(401, 404) },
    },
    handler: async (request) => {
      const ctx = serviceContext(request);
      const order = await orders.getOrder(ctx, request.params.id, { attachments: false });
      const { data, write_backs } = await sync.history(ctx, order);
      return { data: data.map(toSyncEntry), write_backs: write_backs.map(toWriteBack) };
    },
  });
}
