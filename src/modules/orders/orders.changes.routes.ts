import { Type } from '@sinclair/typebox';
import type { App } from '../../platform/http/schemas.js';
import { serviceContext } from '../../platform/http/request-context.js';
import { OrderSchema, UpdateOrderBody } from './orders.schemas.js';
import { checkOrderBody, type OrdersService } from './orders.service.js';
import type { OrderSurface } from './orders.surface.js';

/** The changes of an order (update, process, cancel, archive, unarchive), every one audit-logged. */
export function orderChangeRoutes(app: App, orders: OrdersService, surface: OrderSurface) {
  const { path, params, idOf, errors, security, tags, operationId: op } = surface;

  app.patch(path, {
    schema: {
      operationId: op('updateOrder'),
      summary: 'Update customer, addresses, line items, parcel, requested service, customs or notes (409 once shipped)',
      tags,
      security,
      params,
      body: UpdateOrderBody,
      response: { 200: Type.Ref(OrderSchema), ...errors(404, 409) },
    },
    config: { bodyChecks: checkOrderBody },
    handler: async (request) => orders.updateOrder(serviceContext(request), idOf(request), request.body),
  });

  type Ctx = Parameters<typeof orders.processOrder>[0];
  const actions = [
    {
      path: 'process',
      operationId: 'processOrder',
      summary: 'Process an order (awaiting_fulfillment → processing)',
      run: (ctx: Ctx, id: string) => orders.processOrder(ctx, id),
    },
    { path: 'cancel', operationId: 'cancelOrder', summary: 'Cancel an order that has not shipped', run: (ctx: Ctx, id: string) => orders.cancelOrder(ctx, id) },
    {
      path: 'archive',
      operationId: 'archiveOrder',
      summary: 'Archive an order (hidden from default lists)',
      run: (ctx: Ctx, id: string) => orders.setArchived(ctx, id, true),
    },
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
        response: { 200: Type.Ref(OrderSchema), ...errors(404, 409) },
      },
      handler: async (request) => action.run(serviceContext(request), idOf(request)),
    });
  }
}
