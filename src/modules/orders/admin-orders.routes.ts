import { Type } from '@sinclair/typebox';
import { errorResponses, listResponse, type App } from '../../platform/http/schemas.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { IdParams, OrderBody, OrderIdParams, OrderListQuery, OrderSchema, UpdateOrderBody } from './orders.schemas.js';
import { API_SOURCE, checkOrderBody, type OrdersService } from './orders.service.js';
import { packingSlipRoute } from './orders.packing-slip.js';
import { orderQueueRoutes } from './orders.queue.routes.js';

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
      summary: 'List orders, newest first unless sorted (archived ones only with ?archived=true or all)',
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

  orderQueueRoutes(app, orders, { surface: 'admin' });

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

  orderChangeRoutes(app, orders, { surface: 'admin' });
  packingSlipRoute(app, orders, { operationId: 'adminGetOrderPackingSlip', security, tags });
}

/**
 * The changes of an order, one set of routes for both surfaces (the dashboard's session under
 * /api/admin, an integration's key under /v1): the same bodies, answers, errors and service
 * calls; only the path parameter's name, the operation ids, tags and credentials differ.
 */
export function orderChangeRoutes(app: App, orders: OrdersService, opts: { surface: 'admin' | 'v1' }) {
  const v1 = opts.surface === 'v1';
  const security = v1 ? [{ apiKey: [], workspace: [] }] : [{ session: [] }];
  const tags = [v1 ? 'orders' : 'admin'];
  const params = v1 ? IdParams : OrderIdParams;
  const path = v1 ? '/orders/:id' : '/orders/:orderId';
  const idOf = (request: { params: unknown }) => (request.params as { id?: string; orderId?: string })[v1 ? 'id' : 'orderId']!;
  const op = (name: string) => (v1 ? name : `admin${name[0].toUpperCase()}${name.slice(1)}`);
  // /v1 answers 403 for a key of another workspace and 429 past the plan's burst.
  const errors = (...statuses: number[]) => errorResponses(401, 404, ...statuses, ...(v1 ? [403, 429] : []));

  app.patch(path, {
    schema: {
      operationId: op('updateOrder'),
      summary: 'Update customer, addresses, line items, parcel, requested service, customs or notes (409 once shipped)',
      tags,
      security,
      params,
      body: UpdateOrderBody,
      response: { 200: Type.Ref(OrderSchema), ...errors(409) },
    },
    config: { bodyChecks: checkOrderBody },
    handler: async (request) => orders.updateOrder(serviceContext(request), idOf(request), request.body),
  });

  type Ctx = Parameters<typeof orders.processOrder>[0];
  const actions = [
    { path: 'process', operationId: 'processOrder', summary: 'Process an order (awaiting_fulfillment → processing)', run: (ctx: Ctx, id: string) => orders.processOrder(ctx, id) },
    { path: 'cancel', operationId: 'cancelOrder', summary: 'Cancel an order that has not shipped', run: (ctx: Ctx, id: string) => orders.cancelOrder(ctx, id) },
    { path: 'archive', operationId: 'archiveOrder', summary: 'Archive an order (hidden from default lists)', run: (ctx: Ctx, id: string) => orders.setArchived(ctx, id, true) },
    { path: 'unarchive', operationId: 'unarchiveOrder', summary: 'Unarchive an order', run: (ctx: Ctx, id: string) => orders.setArchived(ctx, id, false) },
  ];
  for (const action of actions) {
    app.post(`${path}/${action.path}`, {
      schema: {
        operationId: op(action.operationId),
        summary: action.summary,
        tags,
        security,
        params,
        response: { 200: Type.Ref(OrderSchema), ...errors(409) },
      },
      handler: async (request) => action.run(serviceContext(request), idOf(request)),
    });
  }
}
