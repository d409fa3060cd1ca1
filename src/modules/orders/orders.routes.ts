import { Type } from '@sinclair/typebox';
import { listResponse, type App } from '../../platform/http/schemas.js';
import { serviceContext } from '../../platform/http/request-context.js';
import type { Surface } from '../../platform/http/surface.js';
import { OrderBody, OrderListQuery, OrderSchema, type Order } from './orders.schemas.js';
import { API_SOURCE, checkOrderBody, type OrdersService } from './orders.service.js';
import { packingSlipRoute } from './orders.packing-slip.js';
import { orderQueueRoutes } from './orders.queue.routes.js';
import { orderChangeRoutes } from './orders.changes.routes.js';
import { orderSurface } from './orders.surface.js';

/**
 * /v1/orders (an integration's key) and /api/admin/orders (the dashboard's session), one set of
 * routes: list, create or import (external_id upsert), the queue's counts and export, read, the
 * packing slip and the changes. Only what orderSurface names differs between the two.
 */
export async function ordersRoutes(app: App, opts: { surface: Surface; orders: OrdersService }) {
  const { orders } = opts;
  const surface = orderSurface(opts.surface);
  const { path, params, idOf, errors, security, tags, operationId: op } = surface;
  app.addSchema(OrderSchema);

  app.get('/orders', {
    schema: {
      operationId: op('listOrders'),
      summary: 'List orders, newest first unless sorted (archived ones only with ?archived=true or all)',
      tags,
      security,
      querystring: OrderListQuery,
      response: { 200: listResponse(Type.Ref(OrderSchema)), ...errors() },
    },
    handler: async (request) => orders.listOrders(serviceContext(request), request.query),
  });

  // The browser never holds a secret key: the dashboard's "new order" form creates through the session.
  app.post('/orders', {
    schema: {
      operationId: op('createOrder'),
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
        ...errors(409, 422),
      },
    },
    config: { bodyChecks: checkOrderBody },
    handler: async (request, reply) => {
      const { order, created } = await orders.upsertOrder(serviceContext(request), API_SOURCE, request.body);
      return reply.code(created ? 201 : 200).send(order);
    },
  });

  orderQueueRoutes(app, orders, surface);

  app.get(path, {
    schema: {
      operationId: op('getOrder'),
      summary: 'Read an order',
      tags,
      security,
      params,
      response: { 200: Type.Ref(OrderSchema), ...errors(404) },
    },
    handler: async (request, reply) => {
      // The route's own serializer, once per kept read; the text is sent as is.
      const serialize = reply.getSerializationFunction('200') as (order: Order) => string;
      const json = await orders.getOrderJson(serviceContext(request), idOf(request), serialize);
      return reply.type('application/json; charset=utf-8').send(json as never);
    },
  });

  packingSlipRoute(app, orders, surface);
  orderChangeRoutes(app, orders, surface);
}
