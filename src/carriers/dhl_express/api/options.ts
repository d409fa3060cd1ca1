/**
 * Shipment options in DHL Express's own fields (mydhl-api.yaml): `valueAddedServices` entries
 * (insurance `II` with its value, Saturday delivery `AA`, direct signature `SF`, adult signature
 * `SD`, the dangerous-goods service codes with their `dangerousGoods` content ids), and
 * `customerReferences`; and the option charges DHL itemises back under those codes. See NOTES.md.
 */
import { optionsAsked } from '../../api-options.js';
import { clip, type Json } from '../../http/json-read.js';
import type { DangerousGoodsCategory, ShipmentOptions, SurchargeCode } from '../../types.js';

/**
 * The dangerous-goods service code and content id per category, as the yaml pairs them
 * (`valueAddedServices.dangerousGoods`): HC/901 dry ice (UN1845), HD/966 lithium ion packed with
 * equipment (PI966), HV/967 lithium ion contained in equipment (PI967), HW/970 lithium metal
 * contained in equipment (PI970). DHL Express carries no ground-only limited quantities.
 */
const DANGEROUS_GOODS: Partial<Record<DangerousGoodsCategory, { serviceCode: string; contentId: string; unCode?: string }>> = {
  dry_ice: { serviceCode: 'HC', contentId: '901' },
  lithium_ion_with_equipment: { serviceCode: 'HD', contentId: '966', unCode: '3481' },
  lithium_ion_in_equipment: { serviceCode: 'HV', contentId: '967', unCode: '3481' },
  lithium_metal_in_equipment: { serviceCode: 'HW', contentId: '970', unCode: '3091' },
};

/** Dry ice in pounds (the shipment's `unitOfMeasurement` is imperial), three decimals. */
function dryIcePounds(oz: number): number {
  return Math.max(0.001, Math.round((oz / 16) * 1000) / 1000);
}

/**
 * `valueAddedServices` entries for the options. The rate request's entries (`…ValueAddedServicesRates`)
 * take no `dangerousGoods` detail, so only the shipment's carry the content id.
 */
export function optionValueAddedServices(options: ShipmentOptions | undefined, document: 'rates' | 'shipments'): Json[] {
  const asked = optionsAsked(options);
  if (!asked) return [];
  const out: Json[] = [];
  if (asked.insurance) out.push({ serviceCode: 'II', value: asked.insurance.amount.amount / 100, currency: asked.insurance.amount.currency });
  if (asked.saturday_delivery) out.push({ serviceCode: 'AA' });
  if (asked.signature === 'standard') out.push({ serviceCode: 'SF' });
  if (asked.signature === 'adult') out.push({ serviceCode: 'SD' });
  const dg = asked.dangerous_goods ? DANGEROUS_GOODS[asked.dangerous_goods.category] : undefined;
  if (dg && asked.dangerous_goods) {
    if (document === 'rates') out.push({ serviceCode: dg.serviceCode });
    else {
      const content: Json = { contentId: dg.contentId };
      // The schema wants exactly one of dryIceTotalNetWeight and unCodes on every entry.
      if (asked.dangerous_goods.category === 'dry_ice') content.dryIceTotalNetWeight = dryIcePounds(asked.dangerous_goods.dry_ice_weight_oz ?? 0);
      else if (dg.unCode) content.unCodes = [dg.unCode];
      out.push({ serviceCode: dg.serviceCode, dangerousGoods: [content] });
    }
  }
  return out;
}

/**
 * The shipment's `customerReferences`: the caller's first reference as the consignor reference
 * (`CU`, printed on the label; our shipment id when none), the second as `CID` (customer identifier).
 */
export function shipmentReferences(options: ShipmentOptions | undefined, shipmentId: string): Json[] {
  const [first, second] = (options?.references ?? []).map((r) => clip(r, 35)).filter((r): r is string => !!r);
  const out: Json[] = [{ value: first ?? shipmentId.slice(0, 35), typeCode: 'CU' }];
  if (second) out.push({ value: second, typeCode: 'CID' });
  return out;
}

/** The option charges in a rate's `breakdown[].serviceCode` or a shipment's `serviceBreakdown[].typeCode`. */
export const DHL_OPTION_SURCHARGES: Readonly<Record<string, SurchargeCode>> = {
  II: 'insurance',
  AA: 'saturday_delivery',
  SF: 'signature',
  SD: 'adult_signature',
  HC: 'dangerous_goods',
  HD: 'dangerous_goods',
  HV: 'dangerous_goods',
  HW: 'dangerous_goods',
};
