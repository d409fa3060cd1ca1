import { api, call, type Order } from '../api/client';

export type OrderAction = 'process' | 'generate' | 'cancel' | 'archive' | 'unarchive';

/** The state moves the API allows from an order's current state (the order state machine). */
export function allowedActions(order: Pick<Order, 'status' | 'archived'>): OrderAction[] {
  const out: OrderAction[] = [];
  if (order.status === 'awaiting_fulfillment') out.push('process');
  if (order.status === 'awaiting_fulfillment' || order.status === 'processing') out.push('generate');
  if (order.status === 'awaiting_fulfillment' || order.status === 'processing') out.push('cancel');
  out.push(order.archived ? 'unarchive' : 'archive');
  return out;
}

export const actionLabel: Record<OrderAction, string> = {
  process: 'Process',
  generate: 'Generate label',
  cancel: 'Cancel order',
  archive: 'Archive',
  unarchive: 'Unarchive',
};

/** A state move. A label is not one of them: it is bought from the order page's buy card, after its rates. */
export function runOrderAction(orderId: string, action: Exclude<OrderAction, 'generate'>): Promise<Order> {
  const params = { params: { path: { orderId } } };
  switch (action) {
    case 'process':
      return call(api.POST('/api/admin/orders/{orderId}/process', params));
    case 'cancel':
      return call(api.POST('/api/admin/orders/{orderId}/cancel', params));
    case 'archive':
      return call(api.POST('/api/admin/orders/{orderId}/archive', params));
    case 'unarchive':
      return call(api.POST('/api/admin/orders/{orderId}/unarchive', params));
  }
}
