/** The orders module's import surface for other modules (integrations, shipments, batches). */
export {
  OrdersService,
  moveOrder,
  orderOrigin,
  checkOrderBody,
  parseInstant,
  API_SOURCE,
  type AttachmentsProvider,
  type OrderExtension,
  type ChannelOrderVersion,
  type ChannelApplyResult,
} from './orders.service.js';
export { OrderSchema, OrderBody, OrderIdParams, type Order, type OrderInput } from './orders.schemas.js';
export { ORDER_STATUSES, ORDER_MOVES, allowedMoves, nextStatus, type OrderMove, type OrderStatus } from './orders.states.js';
export { toOrder, type OrderAttachments } from './orders.wire.js';
export type { OrderRow } from './orders.tables.js';
export { ordersRoutes } from './orders.routes.js';
export { packingSlipOf } from './orders.packing-slip.js';
