/**
 * Shipment options in USPS's own fields (domestic-prices.yaml and domestic-labels.yaml): extra
 * service codes (921 Signature Confirmation, 922 Adult Signature Required, 930 / 931 Insurance,
 * the 8xx HAZMAT package codes), the insured value (`itemValue` in prices, `packageOptions.packageValue`
 * on labels), `physicalSignatureRequired`, and `customerReference`; and the charges USPS lists
 * back for them. USPS delivers on Saturdays without an extra service, so Saturday delivery sends
 * nothing. See NOTES.md, "Shipment options".
 */
import { optionsAsked } from '../../api-options.js';
import { asList, clip, obj, str, type Json } from '../../http/json-read.js';
import type { DangerousGoodsCategory, ShipmentOptions, SurchargeCode } from '../../types.js';

/** USPS insures up to 500 USD under 930; above it, 931. */
const INSURANCE_THRESHOLD_CENTS = 50_000;

/**
 * The HAZMAT package code per category (the yaml's ExtraService list): 820 lithium batteries in
 * equipment (unmarked package), 818 lithium batteries packed with equipment (marked package),
 * 831 limited quantity by ground, 819 dry ice.
 */
const HAZMAT_CODES: Readonly<Record<DangerousGoodsCategory, number>> = {
  lithium_ion_in_equipment: 820,
  lithium_metal_in_equipment: 820,
  lithium_ion_with_equipment: 818,
  limited_quantity_ground: 831,
  dry_ice: 819,
};

/** The extra service codes for the options (signature, insurance, hazmat); empty when none. */
export function extraServiceCodes(options: ShipmentOptions | undefined): number[] {
  const asked = optionsAsked(options);
  if (!asked) return [];
  const codes: number[] = [];
  if (asked.signature === 'standard') codes.push(921);
  if (asked.signature === 'adult') codes.push(922);
  if (asked.insurance) codes.push(asked.insurance.amount.amount > INSURANCE_THRESHOLD_CENTS ? 931 : 930);
  if (asked.dangerous_goods) codes.push(HAZMAT_CODES[asked.dangerous_goods.category]);
  return codes;
}

/** The insured value in dollars, or null. */
export function insuredDollars(options: ShipmentOptions | undefined): number | null {
  return options?.insurance ? options.insurance.amount.amount / 100 : null;
}

/** Signature services and insurance above 500 USD need `physicalSignatureRequired` on the label. */
export function needsSignatureField(codes: readonly number[]): boolean {
  return codes.some((c) => c === 921 || c === 922 || c === 931);
}

/**
 * `customerReference` of a label: the caller's references printed on it, then our shipment id
 * (not printed). A label with a customs form takes two references at most.
 */
export function labelReferences(options: ShipmentOptions | undefined, shipmentId: string, withCustomsForm: boolean): Json[] {
  const printed = (options?.references ?? [])
    .map((r) => clip(r, 30))
    .filter((r): r is string => !!r)
    .map((referenceNumber) => ({ referenceNumber, printReferenceNumber: true }));
  const ours = { referenceNumber: clip(shipmentId, 30) ?? shipmentId.slice(0, 30), printReferenceNumber: false };
  return [...printed, ours].slice(0, withCustomsForm ? 2 : 4);
}

/** A price answer's `extraServices[].extraService` code → our surcharge code. */
export function surchargeOfExtraService(code: string): SurchargeCode | null {
  if (code === '921') return 'signature';
  if (code === '922') return 'adult_signature';
  if (code === '930' || code === '931') return 'insurance';
  if (/^8\d\d$/.test(code)) return 'dangerous_goods';
  return null;
}

/** Label metadata lists extra services by name only (`{name, price, SKU}`). */
export function surchargeOfExtraServiceName(name: string): SurchargeCode | null {
  if (/adult signature/i.test(name)) return 'adult_signature';
  if (/signature/i.test(name)) return 'signature';
  if (/insurance/i.test(name)) return 'insurance';
  if (/hazmat|hazardous/i.test(name)) return 'dangerous_goods';
  return null;
}

/** The priced extra services of one total-rates option, as `{code, amount (dollars)}`. */
export function extraServicesOf(option: Json): { code: string; name: string | null; price: unknown; sku: string | null }[] {
  return asList(option.extraServices)
    .map(obj)
    .flatMap((e) => {
      const code = str(e.extraService);
      return code ? [{ code, name: str(e.name), price: e.price, sku: str(e.SKU) }] : [];
    });
}
