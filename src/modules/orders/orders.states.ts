import { AppError, invalidState } from '../../platform/errors.js';

/**
 * The order state machine, in one place:
 *
 *   awaiting_fulfillment ──process──▶ processing ──purchase_label──▶ shipped ──deliver──▶ delivered
 *          │  └───────────────purchase_label──────────────────────────▲   │
 *          │                                                             └─void_label─▶ processing
 *          └──cancel──▶ cancelled ◀──cancel── processing
 *
 * `purchase_label` (a label bought or `generate`), `void_label` (its only live label voided)
 * and `deliver` (tracking) are driven by the shipments and tracking modules; the admin API
 * drives `process` and `cancel`. `archived` is an orthogonal flag, not a state.
 */
export const ORDER_STATUSES = ['awaiting_fulfillment', 'processing', 'shipped', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_MOVES = {
  process: { from: ['awaiting_fulfillment'], to: 'processing' },
  purchase_label: { from: ['awaiting_fulfillment', 'processing'], to: 'shipped' },
  void_label: { from: ['shipped'], to: 'processing' },
  deliver: { from: ['shipped'], to: 'delivered' },
  cancel: { from: ['awaiting_fulfillment', 'processing'], to: 'cancelled' },
} as const satisfies Record<string, { from: readonly OrderStatus[]; to: OrderStatus }>;
export type OrderMove = keyof typeof ORDER_MOVES;

/** While an order is open its details can change (admin PATCH, intake / `external_id` upsert). */
export const EDITABLE_STATUSES: readonly OrderStatus[] = ['awaiting_fulfillment', 'processing'];

/** The moves that can be made from `status`, in table order. */
export function allowedMoves(status: OrderStatus): OrderMove[] {
  return (Object.keys(ORDER_MOVES) as OrderMove[]).filter((move) => (ORDER_MOVES[move].from as readonly OrderStatus[]).includes(status));
}

export function canMove(status: OrderStatus, move: OrderMove): boolean {
  return (ORDER_MOVES[move].from as readonly OrderStatus[]).includes(status);
}

/** 409 invalid_state naming the current state and the moves it allows. */
export function invalidStateError(status: OrderStatus, attempted: string): AppError {
  const moves = allowedMoves(status);
  return invalidState(
    `The order is ${status}; it cannot ${attempted.replaceAll('_', ' ')}. Allowed moves from ${status}: ${moves.length ? moves.join(', ') : 'none'}.`,
    { current: status, allowedMoves: moves, detail: `is ${status}; cannot ${attempted.replaceAll('_', ' ')}` },
  );
}

/** The state after `move`, or 409 invalid_state when the move is not allowed from `status`. */
export function nextStatus(status: OrderStatus, move: OrderMove): OrderStatus {
  if (!canMove(status, move)) throw invalidStateError(status, move);
  return ORDER_MOVES[move].to;
}

export function isEditable(status: OrderStatus): boolean {
  return EDITABLE_STATUSES.includes(status);
}

/** 409 invalid_state unless the order is still open (awaiting_fulfillment or processing). */
export function assertEditable(status: OrderStatus): void {
  if (!isEditable(status)) {
    throw invalidState(`The order is ${status}; it can only be changed while ${EDITABLE_STATUSES.join(' or ')}.`, {
      current: status,
      allowedMoves: allowedMoves(status),
      detail: `must be ${EDITABLE_STATUSES.join(' or ')} to be changed`,
    });
  }
}
