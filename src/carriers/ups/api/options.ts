/**
 * Shipment options in UPS's own fields (Rating.yaml and Shipping.yaml, `PackageServiceOptions`
 * and `ShipmentServiceOptions`), and the option charges UPS itemises back. The two documents
 * shape the same containers differently (Rating's `HazMat` holds `HazMatChemicalRecord[]` with
 * two-digit transport modes; Shipping's is a list of records with named modes), so each has its
 * builder. See NOTES.md, "Shipment options".
 */
import type { ApiRateRequest } from '../../driver.js';
import { optionsAsked } from '../../api-options.js';
import type { DangerousGoodsCategory, ShipmentOptions, SurchargeCode } from '../../types.js';
import { clip, type Json } from './wire.js';

/** `DeliveryConfirmation.DCISType`: 2 signature required, 3 adult signature required. */
const DCIS_TYPE = { standard: '2', adult: '3' } as const;

/** The hazmat record for each category (dry ice travels in its own `DryIce` container). */
const HAZMAT: Readonly<Record<Exclude<DangerousGoodsCategory, 'dry_ice'>, { level: string; id: string; name: string }>> = {
  // LR: lightly regulated (Section II lithium batteries); LQ: limited quantity.
  lithium_ion_in_equipment: { level: 'LR', id: 'UN3481', name: 'Lithium ion batteries contained in equipment' },
  lithium_ion_with_equipment: { level: 'LR', id: 'UN3481', name: 'Lithium ion batteries packed with equipment' },
  lithium_metal_in_equipment: { level: 'LR', id: 'UN3091', name: 'Lithium metal batteries contained in equipment' },
  limited_quantity_ground: { level: 'LQ', id: 'ID8000', name: 'Consumer commodity' },
};

/** CFR within the US by ground; IATA for air and international movements. */
function regulation(domestic: boolean, ground: boolean): { set: string; air: boolean } {
  return domestic && ground ? { set: 'CFR', air: false } : { set: 'IATA', air: true };
}

/** Pounds with one decimal (DryIceWeight.Weight: at most 5 characters), at least 0.1. */
function dryIcePounds(oz: number): string {
  return Math.min(999.9, Math.max(0.1, Math.ceil((oz / 16) * 10 - 1e-9) / 10)).toFixed(1);
}

/** Rating's DeclaredValue.MonetaryValue is exactly 8 characters (minLength = maxLength = 8): zero-padded. */
function ratingMoney(minor: number): string {
  return (minor / 100).toFixed(2).padStart(8, '0');
}

function dryIce(options: ShipmentOptions, set: string): Json | null {
  const dg = options.dangerous_goods;
  if (dg?.category !== 'dry_ice') return null;
  return {
    RegulationSet: set,
    DryIceWeight: { UnitOfMeasurement: { Code: '01', Description: 'LBS' }, Weight: dryIcePounds(dg.dry_ice_weight_oz ?? 0) },
  };
}

/** `PackageServiceOptions` of a Rating package; null when nothing is asked. */
export function ratingPackageOptions(req: ApiRateRequest): Json | null {
  const options = optionsAsked(req.options);
  if (!options) return null;
  const out: Json = {};
  if (options.signature !== 'none') out.DeliveryConfirmation = { DCISType: DCIS_TYPE[options.signature] };
  if (options.insurance) out.DeclaredValue = { CurrencyCode: options.insurance.amount.currency, MonetaryValue: ratingMoney(options.insurance.amount.amount) };
  // A Shop request rates every service at once: ground rules within the US, air rules abroad.
  const reg = regulation(req.route.domestic, true);
  const dg = options.dangerous_goods;
  if (dg && dg.category !== 'dry_ice') {
    const h = HAZMAT[dg.category];
    out.HazMat = {
      HazMatChemicalRecord: [
        {
          ChemicalRecordIdentifier: '1',
          CommodityRegulatedLevelCode: h.level,
          ClassDivisionNumber: '9',
          IDNumber: h.id,
          // Rating's modes: 02 Ground, 03 Passenger Aircraft.
          TransportationMode: reg.air ? '03' : '02',
          RegulationSet: reg.set,
          ProperShippingName: h.name,
        },
      ],
    };
  }
  const ice = dryIce(options, reg.set);
  if (ice) out.DryIce = ice;
  return Object.keys(out).length ? out : null;
}

/** `PackageServiceOptions` of a Shipping package; null when nothing is asked. */
export function shippingPackageOptions(options: ShipmentOptions | undefined, domestic: boolean, upsService: string): Json | null {
  const asked = optionsAsked(options);
  if (!asked) return null;
  const out: Json = {};
  if (asked.signature !== 'none') out.DeliveryConfirmation = { DCISType: DCIS_TYPE[asked.signature] };
  if (asked.insurance)
    out.DeclaredValue = {
      Type: { Code: '01' },
      CurrencyCode: asked.insurance.amount.currency,
      MonetaryValue: (asked.insurance.amount.amount / 100).toFixed(2),
    };
  // 03 = UPS Ground: the only service that moves hazmat by road.
  const reg = regulation(domestic, upsService === '03');
  const dg = asked.dangerous_goods;
  if (dg && dg.category !== 'dry_ice') {
    const h = HAZMAT[dg.category];
    out.HazMat = [
      {
        ChemicalRecordIdentifier: '1',
        CommodityRegulatedLevelCode: h.level,
        ClassDivisionNumber: '9',
        IDNumber: h.id,
        // Shipping's modes are words: Ground, PAX (passenger aircraft).
        TransportationMode: reg.air ? 'PAX' : 'Ground',
        RegulationSet: reg.set,
        ProperShippingName: h.name,
      },
    ];
  }
  const ice = dryIce(asked, reg.set);
  if (ice) out.DryIce = ice;
  return Object.keys(out).length ? out : null;
}

/** `ShipmentServiceOptions` fields for the options (Rating and Shipping alike): Saturday delivery, an empty tag. */
export function shipmentServiceOptions(options: ShipmentOptions | undefined): Json {
  return options?.saturday_delivery ? { SaturdayDeliveryIndicator: '' } : {};
}

/** The caller's references first (UPS prints the first two on the label), then our shipment id. */
export function packageReferences(options: ShipmentOptions | undefined, shipmentId: string): Json[] {
  const refs = (options?.references ?? []).map((r) => clip(r, 35)).filter((r): r is string => !!r);
  return [...refs, shipmentId.slice(0, 35)].map((Value) => ({ Value }));
}

/**
 * UPS's accessorial codes for the options' charges in `ItemizedCharges` (UPS's Rating developer
 * guide, appendix "Accessorial codes"; the yaml lists no codes): 120 delivery confirmation
 * (signature or adult signature, by what was asked), 199 hazardous materials, 200 dry ice,
 * 300 Saturday delivery. UPS folds the declared value charge into `ServiceOptionsCharges` without
 * an itemised code, so insurance is not broken out (NOTES.md).
 */
export function optionSurchargeOf(code: string, options: ShipmentOptions | undefined): SurchargeCode | null {
  switch (code) {
    case '120':
      return options?.signature === 'adult' ? 'adult_signature' : 'signature';
    case '199':
    case '200':
      return 'dangerous_goods';
    case '300':
      return 'saturday_delivery';
    default:
      return null;
  }
}
