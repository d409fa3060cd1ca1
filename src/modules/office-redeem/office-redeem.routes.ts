import { Type } from '@sinclair/typebox';
import { errorResponses, type App } from '../../platform/http/schemas.js';
import { requestMeta } from '../../platform/http/request-context.js';
import {
  Config365Body,
  Config365Response,
  LookupBody,
  LookupResponse,
  MasterKeyBody,
  MasterKeyResponse,
  OfficePinSchema,
  PinListQuery,
  PinListResponse,
  PinParams,
  TestPinBody,
} from './office-redeem.schemas.js';
import type { OfficeRedeemService } from './office-redeem.service.js';

/**
 * /api/public/office-redeem: the customer's lookup and (outside production) the dev test-PIN
 * endpoint. Open, rate limited per client IP (the lookup has its own, stricter limit).
 */
export async function publicOfficeRedeemRoutes(app: App, opts: { perIpPerMinute: number; officeRedeem: OfficeRedeemService }) {
  const service = opts.officeRedeem;
  app.addHook('onRequest', app.identity.guards.perIp('public', opts.perIpPerMinute));
  app.addSchema(OfficePinSchema);
  const tags = ['public'];

  app.post('/office-redeem/lookup', {
    schema: {
      operationId: 'officeRedeemLookup',
      summary: 'Redeem page: what an office PIN unlocks (2024 product key and slip, or the 365 redeem links)',
      description:
        'Malformed (not 16 digits; spaces and dashes are ignored) → 400; unknown → 404; expired or revoked → 410 `gone` with ' +
        '`details [{field: "status", message: <status>}]`. Limited per IP (setting office_redeem.lookup_limit_per_minute) and by a global budget of failed ' +
        'lookups per minute (office_redeem.failed_lookup_budget_per_minute) → 429.',
      tags,
      body: LookupBody,
      response: { 200: LookupResponse, ...errorResponses(404, 410, 429) },
    },
    handler: async (request) => service.lookup(request.body.pin, request.ip),
  });

  app.post('/office-redeem/dev-create-test-pin', {
    schema: {
      operationId: 'officeRedeemDevCreateTestPin',
      summary: 'Create a test PIN (not in production: 403 not_available_in_production)',
      tags,
      body: TestPinBody,
      response: { 201: Type.Ref(OfficePinSchema), ...errorResponses(403, 429) },
    },
    // Refused in production before the body is even looked at.
    onRequest: async () => service.assertTestPinsAllowed('public'),
    handler: async (request, reply) =>
      reply.code(201).send(await service.createTestPin(request.body.product, { type: 'system', id: null, email: null }, requestMeta(request))),
  });
}

/** /api/super-admin/office-redeem: PINs, the 2024 master configuration, the 365 redeem page, test PINs. */
export async function superAdminOfficeRedeemRoutes(app: App, opts: { officeRedeem: OfficeRedeemService }) {
  const service = opts.officeRedeem;
  app.addHook('onRequest', app.identity.guards.superAdmin);
  app.addSchema(OfficePinSchema);
  const tags = ['super-admin'];
  const security = [{ session: [] }];

  app.get('/office-redeem/pins', {
    schema: {
      operationId: 'superAdminListOfficePins',
      summary: 'List PINs, newest first (filter by status or product, search digits; limit/offset with total)',
      tags,
      security,
      querystring: PinListQuery,
      response: { 200: PinListResponse, ...errorResponses(401, 403) },
    },
    handler: async (request) => service.listPins(request.query),
  });

  for (const move of ['renew', 'expire'] as const) {
    app.post(`/office-redeem/pins/:pin/${move}`, {
      schema: {
        operationId: move === 'renew' ? 'superAdminRenewOfficePin' : 'superAdminExpireOfficePin',
        summary: move === 'renew' ? 'Renew an expired or revoked PIN: active for 30 days from now' : 'Revoke a PIN (status revoked; 2024 and 365)',
        tags,
        security,
        params: PinParams,
        response: { 200: Type.Ref(OfficePinSchema), ...errorResponses(401, 403, 404, 409) },
      },
      handler: async (request) => service[move](request.params.pin, request.auth!.actor, requestMeta(request)),
    });
  }

  app.get('/office-redeem/2024-master-product-key', {
    schema: {
      operationId: 'superAdminGetOffice2024Config',
      summary: 'Read the Office 2024 product key and default slip fields',
      tags,
      security,
      response: { 200: MasterKeyResponse, ...errorResponses(401, 403) },
    },
    handler: async () => service.get2024Config(),
  });

  app.put('/office-redeem/2024-master-product-key', {
    schema: {
      operationId: 'superAdminPutOffice2024Config',
      summary: 'Set the Office 2024 product key (encrypted at rest) and default slip fields',
      tags,
      security,
      body: MasterKeyBody,
      response: { 200: MasterKeyResponse, ...errorResponses(401, 403) },
    },
    handler: async (request) => service.put2024Config(request.body, request.auth!.actor, requestMeta(request)),
  });

  app.get('/office-redeem/365-pin-configure', {
    schema: {
      operationId: 'superAdminGetOffice365Config',
      summary: 'Read the Office 365 redeem page (title, video, portal, installer and redeem URLs)',
      tags,
      security,
      response: { 200: Config365Response, ...errorResponses(401, 403) },
    },
    handler: async () => service.get365Config(),
  });

  app.put('/office-redeem/365-pin-configure', {
    schema: {
      operationId: 'superAdminPutOffice365Config',
      summary: 'Set the Office 365 redeem page (URLs must be http(s))',
      tags,
      security,
      body: Config365Body,
      response: { 200: Config365Response, ...errorResponses(401, 403) },
    },
    handler: async (request) => service.put365Config(request.body, request.auth!.actor, requestMeta(request)),
  });

  app.post('/office-redeem/create-test-pin', {
    schema: {
      operationId: 'superAdminCreateTestOfficePin',
      summary: 'Create a test PIN (in production only with ALLOW_OFFICE_REDEEM_TEST_PIN=1, else 403)',
      tags,
      security,
      body: TestPinBody,
      response: { 201: Type.Ref(OfficePinSchema), ...errorResponses(401, 403) },
    },
    preValidation: async () => service.assertTestPinsAllowed('super_admin'),
    handler: async (request, reply) => reply.code(201).send(await service.createTestPin(request.body.product, request.auth!.actor, requestMeta(request))),
  });
}
