import type { Updateable } from 'kysely';
import type { CarrierRegistry } from '../../carriers/registry.js';
import type { CarrierDefinition, CustomsDeclaration } from '../../carriers/types.js';
import { AppError, validationError } from '../../platform/errors.js';
import type { Order } from '../orders/index.js';
import type { ShipmentStatus } from './shipments.states.js';
import type { ShipmentAddress, ShipmentRow, ShipmentsTable } from './shipments.tables.js';

/**
 * Return labels. A return is a shipment like any other (bought through the
 * same purchase saga, tracked, voidable, printed) with its return facts beside it:
 *
 * - `charge`: `on_scan` (nothing billed until the carrier's first scan; unused at
 *   `expires_at` the label becomes `expired` and `not_charged`) or `on_creation` (billed at
 *   once, like an outbound label; `expires_at` is informative only). The default is the
 *   carrier's first `return_charges` entry (usps, ups, fedex: on_scan; DHL Express: on_creation
 *   only, so asking it for on_scan is 422 `return_charge_unavailable`).
 * - A return never moves its order (purchase, void, delivery and force-delivery all skip it).
 * - Its addresses are the outbound's swapped (or, standalone, the order's swapped).
 */

export type ReturnCharge = 'on_creation' | 'on_scan';

export const DEFAULT_RETURN_EXPIRY_DAYS = 30;
const DAY_MS = 86_400_000;

/** What a return label purchase settles before the saga runs. */
export interface ReturnSpec {
  /** The outbound shipment it returns (null: a standalone return for an order). */
  returnOf: string | null;
  charge: ReturnCharge;
  expiresAt: Date;
  rmaNumber: string | null;
  reason: string | null;
  /** Where the parcel comes back from (the outbound's ship_to) and goes to (the outbound's ship_from). */
  shipFrom: ShipmentAddress;
  shipTo: ShipmentAddress;
  /** The outbound customs as a return (international returns), else null. */
  customs: CustomsDeclaration | null;
}

export interface ReturnInput {
  service_code?: string;
  rma_number?: string;
  reason?: string;
  charge?: ReturnCharge;
  expires_in_days?: number;
}

/**
 * The service a return of an outbound shipment is bought with when the caller names none: the
 * one the carrier's service table gives for returns of it (FedEx Home Delivery delivers to homes
 * only, so its returns travel FedEx Ground), else the outbound's own.
 */
export function returnServiceOf(carriers: Pick<CarrierRegistry, 'byServiceCode'>, outboundServiceCode: string): string {
  const service = carriers.byServiceCode(outboundServiceCode)?.services.find((s) => s.code === outboundServiceCode);
  return service?.return_service_code ?? outboundServiceCode;
}

/** The charge asked for, or the carrier's default; 422 when the carrier does not offer it. */
export function resolveReturnCharge(carrier: CarrierDefinition, requested: ReturnCharge | undefined): ReturnCharge {
  const offered = carrier.return_charges ?? [];
  if (offered.length === 0) {
    throw new AppError('return_charge_unavailable', `${carrier.name} does not sell return labels.`, {
      details: [{ field: 'service_code', message: `${carrier.slug} offers no return labels` }],
    });
  }
  if (requested === undefined) return offered[0];
  if (!offered.includes(requested)) {
    throw new AppError('return_charge_unavailable', `${carrier.name} does not offer ${requested} return labels (return_charges: ${offered.join(', ')}).`, {
      details: [{ field: 'charge', message: `${carrier.slug} return_charges capability is ${offered.join(', ')}; ${requested} is not offered` }],
    });
  }
  return requested;
}

export function returnExpiry(now: Date, days: number | undefined): Date {
  const n = days ?? DEFAULT_RETURN_EXPIRY_DAYS;
  if (!Number.isInteger(n) || n < 1 || n > 90) throw validationError([{ field: 'expires_in_days', message: 'must be an integer from 1 to 90' }]);
  return new Date(now.getTime() + n * DAY_MS);
}

/**
 * The order as the saga sees it for a return: the return's addresses, the outbound parcel, and
 * a text the sandbox scenario is read from (the order notes, the return's reason and RMA).
 */
export function returnOrderView(order: Order, spec: ReturnSpec, parcel: Order['parcel']): Order {
  return {
    ...order,
    ship_to: spec.shipTo as Order['ship_to'],
    ship_from: spec.shipFrom as Order['ship_from'],
    parcel,
    notes: [order.notes, spec.reason, spec.rmaNumber].filter(Boolean).join(' ') || null,
  };
}

/** The return's columns on its shipment row (an outbound row keeps the defaults). */
export function returnColumns(spec: ReturnSpec) {
  return {
    is_return: true,
    return_of: spec.returnOf,
    return_charge: spec.charge,
    return_expires_at: spec.expiresAt,
    rma_number: spec.rmaNumber,
    return_reason: spec.reason,
    billing_status: spec.charge === 'on_creation' ? ('charged' as const) : ('pending' as const),
  };
}

/** A return label not billed yet is looked at again no later than its expiry. */
export function nextCheckWithExpiry(row: ShipmentRow, next: Date | string | null): Date | string | null {
  if (!row.is_return || row.billing_status !== 'pending' || !row.return_expires_at) return next;
  const expiry = new Date(row.return_expires_at);
  if (next === null) return expiry;
  return new Date(next).getTime() < expiry.getTime() ? next : expiry;
}

/**
 * What a tracking update does to a return's billing: the first carrier scan (any move out of
 * label_purchased) charges a pending label; a pending label still unscanned at its expiry
 * becomes `expired` and `not_charged`. An outbound shipment is left as it is.
 */
export function returnBillingOnSync(row: ShipmentRow, status: ShipmentStatus, now: Date): { status: ShipmentStatus; patch: Updateable<ShipmentsTable> } {
  if (!row.is_return || row.billing_status !== 'pending') return { status, patch: {} };
  if (status !== 'label_purchased') return { status, patch: { billing_status: 'charged' } };
  if (row.return_expires_at && new Date(row.return_expires_at).getTime() <= now.getTime()) {
    return {
      status: 'expired',
      patch: { billing_status: 'not_charged', tracking_status: 'cancelled', tracking_status_detail: 'return_label_expired', next_check_at: null },
    };
  }
  return { status, patch: {} };
}

/** A return as its outbound shipment lists it. */
export function toReturnSummary(row: Pick<ShipmentRow, 'id' | 'tracking_number' | 'status' | 'billing_status'>) {
  return { id: row.id, tracking_number: row.tracking_number, status: row.status, billing_status: row.billing_status };
}
