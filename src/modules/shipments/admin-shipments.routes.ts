import { Type } from '@sinclair/typebox';
import { checkOptionsOfBody } from '../shipment-options/index.js';
import { errorResponses, listResponse, type App } from '../../platform/http/schemas.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { OrderSchema } from '../orders/index.js';
import { purchaseUnprocessableResponse } from '../customs/index.js';
import { CreateReturnBody, CreateShipmentBody, LabelQuery, RefundListItemSchema, RefundListQuery, ShipmentIdParams, ShipmentListQuery, ShipmentSchema } from './shipments.schemas.js';
import type { ShipmentsService } from './shipments.service.js';
import { labelResponse, sendLabel } from './shipments.routes.js';
import { documentRoutes } from './shipments.documents.routes.js';
import { shipmentChangeRoutes } from './shipments.changes.routes.js';

/**
 * /api/admin/shipments and /api/admin/orders/:orderId/generate (session; the workspace and
 * environment of X-Service-Workspace and X-Service-Environment). Mutations are audit-logged.
 * Cancel and generate are shared with /v1 (shipments.changes.routes.ts).
 */
export async function adminShipmentsRoutes(app: App, opts: { shipments: ShipmentsService }) {
  const { shipments } = opts;
  app.addSchema(ShipmentSchema);
  app.addSchema(OrderSchema);
  const security = [{ session: [] }];
  const tags = ['admin'];

  app.post('/shipments', {
    schema: {
      operationId: 'adminCreateShipment',
      summary: 'Buy a label for an order (as POST /v1/shipments)',
      tags,
      security,
      body: CreateShipmentBody,
      response: { 201: Type.Ref(ShipmentSchema, { description: 'Created' }), ...errorResponses(401, 404, 409, 422), 422: purchaseUnprocessableResponse('no_rates, missing_ship_from, address_undeliverable, carrier_rejected, option_unavailable') },
    },
    config: { bodyChecks: checkOptionsOfBody },
    handler: async (request, reply) => reply.code(201).send(await shipments.purchase(serviceContext(request), request.body)),
  });

  app.get('/shipments', {
    schema: {
      operationId: 'adminListShipments',
      summary: 'List shipments, newest first',
      tags,
      security,
      querystring: ShipmentListQuery,
      response: { 200: listResponse(Type.Ref(ShipmentSchema)), ...errorResponses(401, 404) },
    },
    handler: async (request) => shipments.listShipments(serviceContext(request), request.query),
  });

  app.get('/shipments/:id', {
    schema: {
      operationId: 'adminGetShipment',
      summary: 'Read a shipment',
      tags,
      security,
      params: ShipmentIdParams,
      response: { 200: Type.Ref(ShipmentSchema), ...errorResponses(401, 404) },
    },
    handler: async (request) => shipments.getShipment(serviceContext(request), request.params.id),
  });

  app.get('/shipments/:id/label', {
    schema: {
      operationId: 'adminGetShipmentLabel',
      summary: 'Download the label (?format= renders another format)',
      tags,
      security,
      params: ShipmentIdParams,
      querystring: LabelQuery,
      response: { 200: labelResponse, ...errorResponses(401, 404) },
    },
    handler: async (request, reply) => sendLabel(reply, await shipments.label(serviceContext(request), request.params.id, request.query.format)),
  });

  app.post('/shipments/:id/return', {
    schema: {
      operationId: 'adminCreateReturnShipment',
      summary: 'Make a return label for a shipment (as POST /v1/shipments/{id}/return)',
      tags,
      security,
      params: ShipmentIdParams,
      body: CreateReturnBody,
      response: { 201: Type.Ref(ShipmentSchema, { description: 'Created' }), ...errorResponses(400, 401, 404, 409, 422) },
    },
    handler: async (request, reply) => reply.code(201).send(await shipments.createReturn(serviceContext(request), request.params.id, request.body)),
  });

  app.get('/refunds', {
    schema: {
      operationId: 'adminListRefunds',
      summary: 'List refunds of voided labels (as GET /v1/refunds)',
      tags,
      security,
      querystring: RefundListQuery,
      response: { 200: listResponse(RefundListItemSchema), ...errorResponses(400, 401) },
    },
    handler: async (request) => shipments.refunds.list(serviceContext(request), request.query),
  });

  documentRoutes(app, shipments, { security, tags, admin: true });

  app.post('/shipments/:id/force-delivery', {
    schema: {
      operationId: 'adminForceDeliverShipment',
      summary: 'Mark a shipment delivered (any state but voided), with a manual tracking event',
      tags,
      security,
      params: ShipmentIdParams,
      response: { 200: Type.Ref(ShipmentSchema), ...errorResponses(401, 404, 409) },
    },
    handler: async (request) => shipments.forceDelivery(serviceContext(request), request.params.id),
  });

  shipmentChangeRoutes(app, shipments, { surface: 'admin' });
}

