import { Type } from '@sinclair/typebox';
import { errorResponses, listResponse, type App } from '../../platform/http/schemas.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { OrderBody, OrderIdParams, OrderListQuery, OrderSchema, UpdateOrderBody } from './orders.schemas.js';
import { API_SOURCE, checkOrderBody, type OrdersService } from './orders.service.js';
import { packingSlipRoute } from './orders.packing-slip.js';

/**
 * /api/admin/orders (session; the workspace and environment of X-Service-Workspace and
 * X-Service-Environment). Every change is audit-logged. generate, batch-generate and
 * batch-process come with the shipments and batches modules.
 */
export async function adminOrdersRoutes(app: App, opts: { orders: OrdersService }) {
  const { orders } = opts;
  app.addSchema(OrderSchema);
  const security = [{ session: [] }];
  const tags = ['admin'];

  app.get('/orders', {
    schema: {
      operationId: 'adminListOrders',
      summary: 'List orders, newest first (archived ones only with ?archived=true or all)',
      tags,
      security,
      querystring: OrderListQuery,
      response: { 200: listResponse(Type.Ref(OrderSchema)), ...errorResponses(401, 404) },
    },
    handler: async (request) => orders.listOrders(serviceContext(request), request.query),
  });

  // The dashboard's "new order" form: the same create-or-import as POST /v1/orders, with the
  // session instead of an API key (the browser never holds a secret key).
  app.post('/orders', {
    schema: {
      operationId: 'adminCreateOrder',
      summary: 'Create an order (a known external_id updates the open order: 200)',
      tags,
      security,
      body: OrderBody,
      response: {
        201: Type.Ref(OrderSchema, { description: 'Created' }),
        200: Type.Ref(OrderSchema, { description: 'An open order with this external_id was updated' }),
        ...errorResponses(401, 403, 404, 409, 422),
      },
    },
    config: { bodyChecks: checkOrderBody },
    handler: async (request, reply) => {
      const { order, created } = await orders.upsertOrder(serviceContext(request), API_SOURCE, request.body);
      return reply.code(created ? 201 : 200).send(order);
    },
  });

  app.get('/orders/:orderId', {
    schema: {
      operationId: 'adminGetOrder',
      summary: 'Read an order',
      tags,
      security,
      params: OrderIdParams,
      response: { 200: Type.Ref(OrderSchema), ...errorResponses(401, 404) },
    },
    handler: async (request) => orders.getOrder(serviceContext(request), request.params.orderId),
  });

  app.patch('/orders/:orderId', {
    schema: {
      operationId: 'adminUpdateOrder',
      summary: 'Update customer, addresses, line items, parcel, requested service, customs or notes (409 once shipped)',
      tags,
      security,
      params: OrderIdParams,
      body: UpdateOrderBody,
      response: { 200: Type.Ref(OrderSchema), ...errorResponses(401, 404, 409) },
    },
    config: { bodyChecks: checkOrderBody },
    handler: async (request) => orders.updateOrder(serviceContext(request), request.params.orderId, request.body),
  });

  const actions = [
    { path: 'process', operationId: 'adminProcessOrder', summary: 'Process an order (awaiting_fulfillment → processing)', run: orders.processOrder.bind(orders) },
    { path: 'cancel', operationId: 'adminCancelOrder', summary: 'Cancel an order that has not shipped', run: orders.cancelOrder.bind(orders) },
    { path: 'archive', operationId: 'adminArchiveOrder', summary: 'Archive an order (hidden from default lists)', run: (ctx: Parameters<typeof orders.processOrder>[0], id: string) => orders.setArchived(ctx, id, true) },
    { path: 'unarchive', operationId: 'adminUnarchiveOrder', summary: 'Unarchive an order', run: (ctx: Parameters<typeof orders.processOrder>[0], id: string) => orders.setArchived(ctx, id, false) },
  ];
  for (const action of actions) {
    app.post(`/orders/:orderId/${action.path}`, {
      schema: {
        operationId: action.operationId,
        summary: action.summary,
        tags,
        security,
        params: OrderIdParams,
        response: { 200: Type.Ref(OrderSchema), ...errorResponses(401, 404, 409) },
      },
      handler: async (request) => action.run(serviceContext(request), request.params.orderId),
    });
  }

  packingSlipRoute(app, orders, { operationId: 'adminGetOrderPackingSlip', security, tags });
}
