import { Type } from '@sinclair/typebox';
import { checkOptionsOfBody } from '../shipment-options/index.js';
import type { App } from '../../platform/http/schemas.js';
import { surfaceDocs, type Surface } from '../../platform/http/surface.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { OrderIdParams, OrderSchema } from '../orders/index.js';
import { purchaseUnprocessableResponse } from '../customs/index.js';
import { GenerateBody, ShipmentIdParams, ShipmentSchema } from './shipments.schemas.js';
import type { ShipmentsService } from './shipments.service.js';

/**
 * Cancelling a label and generating an order's label, one set of routes for both surfaces (the
 * dashboard's session under /api/admin, an integration's key under /v1): the same bodies,
 * answers, errors and service calls; only the order's path parameter, the operation ids, tags
 * and credentials differ.
 */
export function shipmentChangeRoutes(app: App, shipments: ShipmentsService, opts: { surface: Surface }) {
  // generate answers the order: its schema, once per scope (the admin scope adds it already).
  if (!app.getSchema('Order')) app.addSchema(OrderSchema);
  const { v1, security, tags, operationId: op, errors } = surfaceDocs(opts.surface, 'shipments');

  app.post('/shipments/:id/cancel', {
    schema: {
      operationId: op('cancelShipment'),
      summary: 'Cancel (void) a label: only label_purchased, else 409',
      tags,
      security,
      params: ShipmentIdParams,
      response: { 200: Type.Ref(ShipmentSchema), ...errors(404, 409) },
    },
    handler: async (request) => shipments.voidShipment(serviceContext(request), request.params.id, 'shipment.cancelled'),
  });

  app.post(v1 ? '/orders/:id/generate' : '/orders/:orderId/generate', {
    schema: {
      operationId: op('generateOrderLabel'),
      summary: "Rate-shop the order and buy its label (requested service, else the shipping rules' choice)",
      description: 'From awaiting_fulfillment or processing; the order becomes shipped and carries the tracking number in `shipments`.',
      tags,
      security,
      params: v1 ? ShipmentIdParams : OrderIdParams,
      body: GenerateBody,
      response: {
        200: Type.Ref(OrderSchema),
        ...errors(404, 409, 422),
        422: purchaseUnprocessableResponse('no_rates, missing_ship_from, address_undeliverable, carrier_rejected, option_unavailable'),
      },
    },
    config: { bodyChecks: checkOptionsOfBody },
    // The body is optional: no body means the order's requested service, else the shipping rules' choice.
    preValidation: async (request) => {
      request.body ??= {};
    },
    handler: async (request) => {
      const params = request.params as { id?: string; orderId?: string };
      return shipments.generate(serviceContext(request), (v1 ? params.id : params.orderId)!, request.body);
    },
  });
}
