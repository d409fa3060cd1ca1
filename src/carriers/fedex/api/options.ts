/**
 * Shipment options in FedEx's own fields (rates-transit-times and ship resources):
 * `packageSpecialServices` (`signatureOptionType`, `dangerousGoodsDetail`, `batteryDetails`,
 * `dryIceWeight`), `declaredValue`, the `SATURDAY_DELIVERY` shipment special service and
 * `customerReferences`; and the option charges FedEx itemises back. The two documents name the
 * battery fields differently (rates: `material`/`packing`/`regulatorySubType`; ship:
 * `batteryMaterialType`/`batteryPackingType`/`batteryRegulatoryType`). See NOTES.md.
 */
import { optionsAsked } from '../../api-options.js';
import { clip, type Json } from '../../http/json-read.js';
import type { DangerousGoodsCategory, ShipmentOptions, SurchargeCode } from '../../types.js';

type Battery = { material: 'LITHIUM_ION' | 'LITHIUM_METAL'; packing: 'CONTAINED_IN_EQUIPMENT' | 'PACKED_WITH_EQUIPMENT' };

/** Section II lithium batteries, by category. */
const BATTERIES: Partial<Record<DangerousGoodsCategory, Battery>> = {
  lithium_ion_in_equipment: { material: 'LITHIUM_ION', packing: 'CONTAINED_IN_EQUIPMENT' },
  lithium_ion_with_equipment: { material: 'LITHIUM_ION', packing: 'PACKED_WITH_EQUIPMENT' },
  lithium_metal_in_equipment: { material: 'LITHIUM_METAL', packing: 'CONTAINED_IN_EQUIPMENT' },
};

/** Dry ice in kilograms, three decimals, at least 0.001. */
function dryIceKg(oz: number): number {
  return Math.max(0.001, Math.round(oz * 0.028349523125 * 1000) / 1000);
}

/** `packageSpecialServices` and `declaredValue` of one package line; empty when nothing is asked. */
export function packageOptionFields(options: ShipmentOptions | undefined, document: 'rates' | 'ship'): Json {
  const asked = optionsAsked(options);
  if (!asked) return {};
  const out: Json = {};
  const types: string[] = [];
  const special: Json = {};
  if (asked.signature !== 'none') {
    types.push('SIGNATURE_OPTION');
    // DIRECT: a signature at the recipient's address; ADULT: an adult's, there.
    special.signatureOptionType = asked.signature === 'adult' ? 'ADULT' : 'DIRECT';
  }
  const dg = asked.dangerous_goods;
  if (dg?.category === 'dry_ice') {
    types.push('DRY_ICE');
    special.dryIceWeight = { units: 'KG', value: dryIceKg(dg.dry_ice_weight_oz ?? 0) };
  } else if (dg) {
    types.push('DANGEROUS_GOODS');
    const battery = BATTERIES[dg.category];
    if (battery) {
      special.dangerousGoodsDetail = { options: ['BATTERY'] };
      special.batteryDetails = [
        document === 'rates'
          ? { material: battery.material, packing: battery.packing, regulatorySubType: 'IATA_SECTION_II' }
          : { batteryMaterialType: battery.material, batteryPackingType: battery.packing, batteryRegulatoryType: 'IATA_SECTION_II' },
      ];
    } else {
      // Limited quantities by ground, under US DOT rules.
      special.dangerousGoodsDetail = { regulation: 'DOT', options: ['LIMITED_QUANTITIES_COMMODITIES'] };
    }
  }
  if (types.length) out.packageSpecialServices = { specialServiceTypes: types, ...special };
  if (asked.insurance) out.declaredValue = { amount: asked.insurance.amount.amount / 100, currency: asked.insurance.amount.currency };
  return out;
}

/** Shipment-level special service types for the options (Saturday delivery). */
export function shipmentSpecialServiceTypes(options: ShipmentOptions | undefined): string[] {
  return options?.saturday_delivery ? ['SATURDAY_DELIVERY'] : [];
}

/**
 * `customerReferences` of a package: the caller's first reference as CUSTOMER_REFERENCE (else our
 * shipment id), the second as DEPARTMENT_NUMBER (FedEx takes one of each type). CUSTOMER_REFERENCE
 * holds 40 characters by Express, 30 by Ground; DEPARTMENT_NUMBER 30.
 */
export function customerReferences(options: ShipmentOptions | undefined, shipmentId: string, ground: boolean): Json[] {
  const [first, second] = options?.references ?? [];
  const out: Json[] = [];
  const customer = clip(first ?? shipmentId, ground ? 30 : 40);
  if (customer) out.push({ customerReferenceType: 'CUSTOMER_REFERENCE', value: customer });
  const department = clip(second, 30);
  if (department) out.push({ customerReferenceType: 'DEPARTMENT_NUMBER', value: department });
  return out;
}

/**
 * FedEx surcharge types of the options' charges (FedEx's "Surcharges" reference, which the
 * published documents link to but do not include): SIGNATURE_OPTION (signature or adult
 * signature, by what was asked), SATURDAY_DELIVERY, DANGEROUS_GOODS and DRY_ICE, INSURED_VALUE.
 */
export function optionSurchargeOf(type: string, options: ShipmentOptions | undefined): SurchargeCode | null {
  switch (type) {
    case 'SIGNATURE_OPTION':
      return options?.signature === 'adult' ? 'adult_signature' : 'signature';
    case 'SATURDAY_DELIVERY':
      return 'saturday_delivery';
    case 'DANGEROUS_GOODS':
    case 'DRY_ICE':
      return 'dangerous_goods';
    case 'INSURED_VALUE':
      return 'insurance';
    default:
      return null;
  }
}
