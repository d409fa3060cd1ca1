import type { DangerousGoodsCategory, ShipmentOptions } from '../../carriers/types.js';

/**
 * What the handler must see on the label, from the shipment's options (docs/carriers.md,
 * "Shipment options"): each mark is printed as a black band under the header, in every format.
 * The dangerous-goods marks name the UN number and the packing instruction the parcel ships under.
 */
export const SIGNATURE_MARK = 'SIGNATURE REQUIRED';
export const ADULT_SIGNATURE_MARK = 'ADULT SIGNATURE REQUIRED';
export const SATURDAY_MARK = 'SATURDAY DELIVERY';

const DANGEROUS_GOODS_MARKS: Record<DangerousGoodsCategory, string> = {
  lithium_ion_in_equipment: 'LITHIUM ION BATTERIES IN EQUIPMENT UN3481 PI967',
  lithium_ion_with_equipment: 'LITHIUM ION BATTERIES PACKED WITH EQUIPMENT UN3481 PI966',
  lithium_metal_in_equipment: 'LITHIUM METAL BATTERIES IN EQUIPMENT UN3091 PI970',
  limited_quantity_ground: 'LIMITED QUANTITY - GROUND ONLY',
  dry_ice: 'DRY ICE UN1845',
};

/** The dry-ice mark carries the net weight in kilograms, as the regulations ask. */
export function dangerousGoodsMark(dg: NonNullable<ShipmentOptions['dangerous_goods']>): string {
  const mark = DANGEROUS_GOODS_MARKS[dg.category];
  if (dg.category !== 'dry_ice' || dg.dry_ice_weight_oz === undefined) return mark;
  return `${mark} NET ${(dg.dry_ice_weight_oz * 0.028349523125).toFixed(1)} KG`;
}

/** The marks of a shipment's options, in print order (none for a parcel that asked for nothing). */
export function labelMarks(options: Pick<ShipmentOptions, 'signature' | 'saturday_delivery' | 'dangerous_goods'> | null | undefined): string[] {
  if (!options) return [];
  const marks: string[] = [];
  if (options.signature === 'standard') marks.push(SIGNATURE_MARK);
  if (options.signature === 'adult') marks.push(ADULT_SIGNATURE_MARK);
  if (options.saturday_delivery) marks.push(SATURDAY_MARK);
  if (options.dangerous_goods) marks.push(dangerousGoodsMark(options.dangerous_goods));
  return marks;
}
