import { Type } from '@sinclair/typebox';
import { errorResponses, listResponse, type App } from '../../platform/http/schemas.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { IdParams, OrderBody, OrderListQuery, OrderSchema } from './orders.schemas.js';
import { API_SOURCE, checkOrderBody, type OrdersService } from './orders.service.js';
import { packingSlipRoute } from './orders.packing-slip.js';
import { orderQueueRoutes } from './orders.queue.routes.js';
import { orderChangeRoutes } from './admin-orders.routes.js';

/** /v1/orders: list, create or import (external_id upsert), read, and the dashboard's changes (orderChangeRoutes). */
export async function ordersRoutes(app: App, opts: { orders: OrdersService }) {
  const { orders } = opts;
  app.addSchema(OrderSchema);
  const security = [{ apiKey: [], workspace: [] }];
  const tags = ['orders'];

  app.get('/orders', {
    schema: {
      operationId: 'listOrders',
      summary: 'List orders, newest first unless sorted (archived ones only with ?archived=true or all)',
      tags,
      security,
      querystring: OrderListQuery,
      response: { 200: listResponse(Type.Ref(OrderSchema)), ...errorResponses(401, 403, 429) },
    },
    handler: async (request) => orders.listOrders(serviceContext(request), request.query),
  });

  app.post('/orders', {
    schema: {
      operationId: 'createOrder',
      summary: 'Create or import an order; a known external_id updates the open order (200)',
      description:
        'Requires ship_to and at least one line item. With an external_id already used by an API-created order of ' +
        'this workspace and environment, the order is updated (200) while it is awaiting_fulfillment or processing, ' +
        'and refused with 409 invalid_state after that. A missing parcel is derived from the line items and the ' +
        'default box (setting orders.default_box).',
      tags,
      security,
      body: OrderBody,
      response: {
        201: Type.Ref(OrderSchema, { description: 'Created' }),
        200: Type.Ref(OrderSchema, { description: 'An open order with this external_id was updated' }),
        ...errorResponses(401, 403, 409, 422, 429),
      },
    },
    config: { bodyChecks: checkOrderBody },
    handler: async (request, reply) => {
      const { order, created } = await orders.upsertOrder(serviceContext(request), API_SOURCE, request.body);
      return reply.code(created ? 201 : 200).send(order);
    },
  });

  orderQueueRoutes(app, orders, { surface: 'v1' });

  app.get('/orders/:id', {
    schema: {
      operationId: 'getOrder',
      summary: 'Read an order',
      tags,
      security,
      params: IdParams,
      response: { 200: Type.Ref(OrderSchema), ...errorResponses(401, 403, 404, 429) },
    },
    handler: async (request) => orders.getOrder(serviceContext(request), request.params.id),
  });

  packingSlipRoute(app, orders, { operationId: 'getOrderPackingSlip', security, tags });
  orderChangeRoutes(app, orders, { surface: 'v1' });
}
