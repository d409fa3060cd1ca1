import { surfaceDocs, type Surface } from '../../platform/http/surface.js';
import { IdParams, OrderIdParams } from './orders.schemas.js';

/**
 * What the orders routes differ by between /v1 (a key) and /api/admin (the dashboard's
 * session): the surface's docs, and the name of the order's path parameter on its own routes
 * (`id`, `orderId` on the admin twin).
 */
export function orderSurface(surface: Surface) {
  const docs = surfaceDocs(surface, 'orders');
  const { v1 } = docs;
  return {
    ...docs,
    path: v1 ? '/orders/:id' : '/orders/:orderId',
    params: v1 ? IdParams : OrderIdParams,
    idOf: (request: { params: unknown }) => (request.params as { id?: string; orderId?: string })[v1 ? 'id' : 'orderId']!,
  };
}

export type OrderSurface = ReturnType<typeof orderSurface>;
