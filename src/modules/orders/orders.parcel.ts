import type { ParcelInput, StoredLineItem, StoredParcel } from './orders.tables.js';

export interface Box {
  length_in: number;
  width_in: number;
  height_in: number;
}

/** Used when the setting is unset or not a valid box. */
export const FALLBACK_BOX: Box = { length_in: 10, width_in: 8, height_in: 4 };

/** Σ weight_oz × quantity over the items that carry a weight, to 0.01 oz. */
export function itemsWeightOz(items: readonly StoredLineItem[]): number {
  const total = items.reduce((sum, item) => sum + (item.weight_oz ?? 0) * item.quantity, 0);
  return Math.round(total * 100) / 100;
}

/**
 * The order's parcel: each field the client gave is kept; a missing weight is the items'
 * weight, missing dimensions come from the default box. `derived` is true when any field was
 * filled in, so a later change of the items re-derives the weight.
 */
export function deriveParcel(input: ParcelInput | null | undefined, items: readonly StoredLineItem[], box: Box): { parcel: StoredParcel; derived: boolean } {
  const given = input ?? {};
  const parcel: StoredParcel = {
    weight_oz: given.weight_oz ?? itemsWeightOz(items),
    length_in: given.length_in ?? box.length_in,
    width_in: given.width_in ?? box.width_in,
    height_in: given.height_in ?? box.height_in,
  };
  return { parcel, derived: isParcelDerived(input) };
}

/** True unless the client gave all four parcel fields. */
export function isParcelDerived(input: ParcelInput | null | undefined): boolean {
  if (input?.package_id !== undefined) return input.weight_oz === undefined;
  return !input || input.weight_oz === undefined || input.length_in === undefined || input.width_in === undefined || input.height_in === undefined;
}

/** Whether deriving needs the default box (any dimension missing). */
export function needsBox(input: ParcelInput | null | undefined): boolean {
  return !input || input.length_in === undefined || input.width_in === undefined || input.height_in === undefined;
}
