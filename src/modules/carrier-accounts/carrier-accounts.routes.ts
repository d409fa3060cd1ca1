import { Type } from '@sinclair/typebox';
import { errorResponses, listResponse, type App } from '../../platform/http/schemas.js';
import { serviceContext } from '../../platform/http/request-context.js';
import {
  CarrierAccountListQuery,
  CarrierAccountSchema,
  CarrierExchangeListSchema,
  CarrierExchangeSchema,
  CarrierTypeListSchema,
  CarrierTypeSchema,
  CreateCarrierAccountBody,
  IdParams,
  UpdateCarrierAccountBody,
} from './carrier-accounts.schemas.js';
import type { CarrierAccountsService } from './carrier-accounts.service.js';

/**
 * Carrier types and carrier accounts, mounted twice: under /v1 (API key) and
 * under /api/admin (session, the workspace and environment of X-Service-Workspace /
 * X-Service-Environment) for the dashboard. Same handlers, distinct operation ids.
 */
export async function carrierAccountsRoutes(app: App, opts: { surface: 'admin' | 'v1'; service: CarrierAccountsService }) {
  const accounts = opts.service;
  const v1 = opts.surface === 'v1';
  for (const schema of [CarrierAccountSchema, CarrierExchangeSchema, CarrierTypeSchema]) app.addSchema(schema);
  const security = v1 ? [{ apiKey: [], workspace: [] }] : [{ session: [] }];
  const tags = [v1 ? 'carrier-accounts' : 'admin'];
  const op = (name: string) => (v1 ? name : `admin${name[0].toUpperCase()}${name.slice(1)}`);
  const errors = (...s: number[]) => errorResponses(401, 403, 404, 429, ...s);
  const Account = Type.Ref(CarrierAccountSchema);

  app.get('/carrier-types', {
    schema: {
      operationId: op('listCarrierTypes'),
      summary: 'Carriers, their drivers and services, and the credentials each api driver takes',
      tags,
      security,
      response: { 200: CarrierTypeListSchema, ...errors() },
    },
    handler: async () => ({ data: accounts.types() }),
  });

  app.get('/carrier-accounts', {
    schema: {
      operationId: op('listCarrierAccounts'),
      summary: 'List carrier accounts, newest first (every workspace starts with a simulated default per carrier)',
      tags,
      security,
      querystring: CarrierAccountListQuery,
      response: { 200: listResponse(Account), ...errors() },
    },
    handler: async (request) => accounts.list(serviceContext(request), request.query),
  });

  app.post('/carrier-accounts', {
    schema: {
      operationId: op('createCarrierAccount'),
      summary: 'Connect a carrier account; its credentials are tested, sealed and never returned',
      description:
        'A failing connection test does not refuse the create: `health` says so. `base_url` is accepted only with CARRIER_ALLOW_BASE_URL_OVERRIDE=1 outside production.',
      tags,
      security,
      body: CreateCarrierAccountBody,
      response: { 201: Account, ...errors(409) },
    },
    handler: async (request, reply) => reply.code(201).send(await accounts.create(serviceContext(request), request.body)),
  });

  app.get('/carrier-accounts/:id', {
    schema: {
      operationId: op('getCarrierAccount'),
      summary: 'Read a carrier account',
      tags,
      security,
      params: IdParams,
      response: { 200: Account, ...errors() },
    },
    handler: async (request) => accounts.get(serviceContext(request), request.params.id),
  });

  app.patch('/carrier-accounts/:id', {
    schema: {
      operationId: op('updateCarrierAccount'),
      summary: 'Change a carrier account (description, credentials replaced whole, is_default, enabled, mode)',
      tags,
      security,
      params: IdParams,
      body: UpdateCarrierAccountBody,
      response: { 200: Account, ...errors(409) },
    },
    handler: async (request) => accounts.update(serviceContext(request), request.params.id, request.body),
  });

  app.delete('/carrier-accounts/:id', {
    schema: {
      operationId: op('deleteCarrierAccount'),
      summary: 'Delete a carrier account: it stops rating and buying; its shipments stay readable, trackable and voidable',
      tags,
      security,
      params: IdParams,
      response: { 204: Type.Null({ description: 'Deleted' }), ...errors() },
    },
    handler: async (request, reply) => {
      await accounts.remove(serviceContext(request), request.params.id);
      return reply.code(204).send(null);
    },
  });

  app.post('/carrier-accounts/:id/test', {
    schema: {
      operationId: op('testCarrierAccount'),
      summary: 'Test the connection (a token, or the carrier’s cheapest authenticated call): the account with fresh health',
      tags,
      security,
      params: IdParams,
      response: { 200: Account, ...errors() },
    },
    handler: async (request) => accounts.test(serviceContext(request), request.params.id),
  });

  app.get('/carrier-accounts/:id/logs', {
    schema: {
      operationId: op('listCarrierAccountLogs'),
      summary: 'The last 100 exchanges with the carrier (kept 7 days), bodies redacted',
      tags,
      security,
      params: IdParams,
      response: { 200: CarrierExchangeListSchema, ...errors() },
    },
    handler: async (request) => accounts.logs(serviceContext(request), request.params.id),
  });
}
