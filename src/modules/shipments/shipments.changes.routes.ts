import { Type } from '@sinclair/typebox';
import { checkOptionsOfBody } from '../shipment-options/index.js';
import { errorResponses, type App } from '../../platform/http/schemas.js';
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
export function shipmentChangeRoutes(app: App, shipments: ShipmentsService, opts: { surface: 'admin' | 'v1' }) {
  const v1 = opts.surface === 'v1';
  // generate answers the order: its schema, once per scope (the admin scope adds it already).
  if (!app.getSchema('Order')) app.addSchema(OrderSchema);
  const security = v1 ? [{ apiKey: [], workspace: [] }] : [{ session: [] }];
  const tags = [v1 ? 'shipments' : 'admin'];
  const op = (name: string) => (v1 ? name : `admin${name[0].toUpperCase()}${name.slice(1)}`);
  // /v1 answers 403 for a key of another workspace and 429 past the plan's burst.
  const errors = (...statuses: number[]) => errorResponses(401, 404, ...statuses, ...(v1 ? [403, 429] : []));

  app.post('/shipments/:id/cancel', {
    schema: {
      operationId: op('cancelShipment'),
      summary: 'Cancel (void) a label: only label_purchased, else 409',
      tags,
      security,
      params: ShipmentIdParams,
      response: { 200: Type.Ref(ShipmentSchema), ...errors(409) },
    },
    handler: async (request) => shipments.voidShipment(serviceContext(request), request.params.id, 'shipment.cancelled'),
  });

  app.post(v1 ? '/orders/:id/generate' : '/orders/:orderId/generate', {
    schema: {
      operationId: op('generateOrderLabel'),
      summary: 'Rate-shop the order and buy its label (requested service, else the shipping rules\' choice)',
      description: 'From awaiting_fulfillment or processing; the order becomes shipped and carries the tracking number in `shipments`.',
      tags,
      security,
      params: v1 ? ShipmentIdParams : OrderIdParams,
      body: GenerateBody,
      response: { 200: Type.Ref(OrderSchema), ...errors(409, 422), 422: purchaseUnprocessableResponse('no_rates, missing_ship_from, address_undeliverable, carrier_rejected, option_unavailable') },
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
