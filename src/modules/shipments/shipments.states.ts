import type { TrackingStatus } from '../../carriers/types.js';
import { AppError, invalidState } from '../../platform/errors.js';

/**
 * Shipment states:
 *
 *   label_purchased ─▶ in_transit ─▶ out_for_delivery ─▶ delivered
 *        │                 └──────────────┴──▶ exception | returned
 *        ├─void─▶ voided
 *        └─expire─▶ expired   (a return label charged on scan, unused at its expires_at)
 *
 * Tracking drives every move but `void` (only from label_purchased) and force-delivery (any
 * state but voided → delivered). Nothing moves a delivered or voided shipment again.
 */
export const SHIPMENT_STATUSES = ['label_purchased', 'in_transit', 'out_for_delivery', 'delivered', 'exception', 'returned', 'voided', 'expired'] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];

/** States in which the label is still live (counts as the order's shipment). */
export const LIVE_STATUSES: readonly ShipmentStatus[] = SHIPMENT_STATUSES.filter((s) => s !== 'voided' && s !== 'expired');

/** States tracking no longer changes. */
export const FINAL_STATUSES: readonly ShipmentStatus[] = ['delivered', 'voided', 'expired'];

/** The shipment state a normalised tracking status puts it in. */
export function statusFromTracking(tracking: TrackingStatus, current: ShipmentStatus): ShipmentStatus {
  if (FINAL_STATUSES.includes(current)) return current;
  switch (tracking) {
    case 'in_transit':
    case 'available_for_pickup':
      return 'in_transit';
    case 'out_for_delivery':
      return 'out_for_delivery';
    case 'delivered':
      return 'delivered';
    case 'failure':
      return 'exception';
    case 'return_to_sender':
      return 'returned';
    // A label scan, a cancellation notice or an unknown code never moves a parcel back.
    case 'pre_transit':
    case 'cancelled':
    case 'unknown':
      return current;
  }
}

/** The moves a shipment allows: void while only the label exists; force_delivery (admin) unless voided. */
export function allowedShipmentMoves(status: ShipmentStatus): string[] {
  if (status === 'voided' || status === 'expired') return [];
  return status === 'label_purchased' ? ['void', 'force_delivery'] : ['force_delivery'];
}

/** 409 invalid_state naming the shipment's current state and the moves it allows. */
export function shipmentStateError(status: ShipmentStatus, attempted: string, reason?: string): AppError {
  return invalidState(reason ?? `The shipment is ${status}; it cannot ${attempted}.`, {
    current: status,
    allowedMoves: allowedShipmentMoves(status),
    detail: `is ${status}; cannot ${attempted}`,
  });
}
