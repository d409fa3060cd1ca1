/**
 * FedEx codes ↔ ours, one table each. Service types: Rate/Ship `serviceType`. Tracking: Track
 * `latestStatusDetail.code|derivedCode` and `scanEvents[].eventType|derivedStatusCode`. Label
 * images: Ship `labelSpecification.imageType`. Surcharges: Rate `surCharges[].type`.
 */
import type { CarrierLabelImage } from '../../driver.js';
import type { SurchargeCode, TrackingMilestone, TrackingStatus } from '../../types.js';

/** Our FedEx services (src/carriers/fedex/rates.v2026-01.ts) ↔ FedEx service types. */
export const FEDEX_SERVICES: readonly { ours: string; fedex: string; name: string; ground: boolean }[] = [
  { ours: 'fedex_ground', fedex: 'FEDEX_GROUND', name: 'FedEx Ground', ground: true },
  { ours: 'fedex_home_delivery', fedex: 'GROUND_HOME_DELIVERY', name: 'FedEx Home Delivery', ground: true },
  { ours: 'fedex_express_saver', fedex: 'FEDEX_EXPRESS_SAVER', name: 'FedEx Express Saver', ground: false },
  { ours: 'fedex_2day', fedex: 'FEDEX_2_DAY', name: 'FedEx 2Day', ground: false },
  { ours: 'fedex_standard_overnight', fedex: 'STANDARD_OVERNIGHT', name: 'FedEx Standard Overnight', ground: false },
  { ours: 'fedex_international_priority', fedex: 'FEDEX_INTERNATIONAL_PRIORITY', name: 'FedEx International Priority', ground: false },
];

/** Older FedEx names of the same services (FedEx renamed International Priority in 2022). */
const FEDEX_ALIASES: Readonly<Record<string, string>> = {
  INTERNATIONAL_PRIORITY: 'fedex_international_priority',
};

const UNKNOWN_PREFIX = 'fedex_';

/** FedEx service type → ours; an unknown one is kept as `fedex_<raw, lower case>`, never dropped. */
export function ourServiceCode(fedexType: string): string {
  return FEDEX_SERVICES.find((s) => s.fedex === fedexType)?.ours ?? FEDEX_ALIASES[fedexType] ?? `${UNKNOWN_PREFIX}${fedexType.toLowerCase()}`;
}

/** Our service code (or `fedex_<raw>`) → FedEx's; null when it is neither. */
export function fedexServiceType(ours: string): string | null {
  const known = FEDEX_SERVICES.find((s) => s.ours === ours);
  if (known) return known.fedex;
  if (!ours.startsWith(UNKNOWN_PREFIX)) return null;
  const raw = ours.slice(UNKNOWN_PREFIX.length).toUpperCase();
  return /^[A-Z0-9]+(_[A-Z0-9]+)*$/.test(raw) ? raw : null;
}

export function fedexServiceName(fedexType: string, fedexName?: string | null): string {
  const known = FEDEX_SERVICES.find((s) => s.fedex === fedexType)?.name;
  if (known) return known;
  // FedEx names carry trademark signs ("FedEx Ground®"); ours do not.
  const given = fedexName?.replace(/[®™]/g, '').trim();
  return given || `FedEx ${fedexType}`;
}

/** FedEx Ground (FDXG) or FedEx Express (FDXE): pickups are booked per operating company. */
export function fedexCarrierCode(fedexType: string): 'FDXG' | 'FDXE' {
  return FEDEX_SERVICES.find((s) => s.fedex === fedexType)?.ground || /GROUND|SMART_POST/.test(fedexType) ? 'FDXG' : 'FDXE';
}

/** Rate `surCharges[].type` with a surcharge code of ours; the rest are kept as `other_charges`. */
export const FEDEX_SURCHARGES: Readonly<Record<string, SurchargeCode>> = {
  FUEL: 'fuel',
  RESIDENTIAL_DELIVERY: 'residential',
  ADDITIONAL_HANDLING: 'additional_handling',
  OVERSIZE: 'oversize',
  DELIVERY_AREA: 'remote_area',
};

const TRANSIT_WORDS = [
  'ONE',
  'TWO',
  'THREE',
  'FOUR',
  'FIVE',
  'SIX',
  'SEVEN',
  'EIGHT',
  'NINE',
  'TEN',
  'ELEVEN',
  'TWELVE',
  'THIRTEEN',
  'FOURTEEN',
  'FIFTEEN',
  'SIXTEEN',
  'SEVENTEEN',
  'EIGHTEEN',
  'NINETEEN',
  'TWENTY',
];

/** `THREE_DAYS` → 3 (Commit.daysInTransit's enum); `UNKNOWN`, `SMARTPOST_TRANSIT_DAYS` → null. */
export function transitDays(value: string | null | undefined): number | null {
  const m = /^([A-Z]+)_DAYS?$/.exec(value ?? '');
  const i = m ? TRANSIT_WORDS.indexOf(m[1]) : -1;
  return i >= 0 ? i + 1 : null;
}

type Mapped = { status: TrackingStatus; detail: string; milestone: TrackingMilestone };
const m = (status: TrackingStatus, detail: string, milestone: TrackingMilestone): Mapped => ({ status, detail, milestone });

/**
 * FedEx Track status and scan codes → ours. The JSON gives only examples (PU, DE, DP, HL, OC);
 * the codes are FedEx's Track API status code list. The return-label link notices (RP, LP, RG,
 * RD) and CDO requests (RR, RM, RC) say nothing of where the parcel is: left unmapped (`unknown`,
 * raw code kept).
 */
export const FEDEX_STATUS_CODES: Readonly<Record<string, Mapped>> = {
  OC: m('pre_transit', 'label_created', 'label_created'), // shipment information sent to FedEx
  IN: m('pre_transit', 'label_created', 'label_created'), // initiated
  AP: m('pre_transit', 'awaiting_pickup', 'label_created'), // at pickup
  EP: m('pre_transit', 'awaiting_pickup', 'label_created'), // enroute to pickup
  DS: m('pre_transit', 'awaiting_pickup', 'label_created'), // vehicle dispatched
  DR: m('pre_transit', 'awaiting_pickup', 'label_created'), // vehicle furnished but not used
  PD: m('pre_transit', 'pickup_delayed', 'label_created'),
  PU: m('in_transit', 'picked_up', 'picked_up'),
  PX: m('in_transit', 'picked_up', 'picked_up'),
  AA: m('in_transit', 'arrived_at_facility', 'in_transit'), // at airport
  AC: m('in_transit', 'arrived_at_facility', 'in_transit'), // at Canada Post facility
  AF: m('in_transit', 'arrived_at_facility', 'in_transit'), // at local FedEx facility
  AR: m('in_transit', 'arrived_at_facility', 'in_transit'),
  AX: m('in_transit', 'arrived_at_facility', 'in_transit'), // at USPS facility
  FD: m('in_transit', 'arrived_at_facility', 'in_transit'), // at FedEx destination
  OF: m('in_transit', 'arrived_at_facility', 'in_transit'), // at FedEx origin facility
  SF: m('in_transit', 'arrived_at_facility', 'in_transit'), // at sort facility
  DP: m('in_transit', 'departed_facility', 'in_transit'),
  LO: m('in_transit', 'departed_facility', 'in_transit'), // left origin
  IT: m('in_transit', 'in_transit', 'in_transit'),
  IX: m('in_transit', 'in_transit', 'in_transit'),
  EA: m('in_transit', 'in_transit', 'in_transit'), // enroute to airport
  EO: m('in_transit', 'in_transit', 'in_transit'), // enroute to origin airport
  PF: m('in_transit', 'in_transit', 'in_transit'), // plane in flight
  PL: m('in_transit', 'in_transit', 'in_transit'), // plane landed
  PM: m('in_transit', 'in_transit', 'in_transit'), // in progress
  TR: m('in_transit', 'in_transit', 'in_transit'), // transfer
  SP: m('in_transit', 'in_transit', 'in_transit'), // split status
  CH: m('in_transit', 'in_transit', 'in_transit'), // location changed
  OX: m('in_transit', 'handed_to_usps', 'in_transit'), // shipment information sent to USPS
  CC: m('in_transit', 'customs_cleared', 'in_transit'),
  CP: m('in_transit', 'in_customs', 'in_transit'),
  CD: m('in_transit', 'customs_delay', 'in_transit'),
  DD: m('in_transit', 'delayed', 'in_transit'),
  DY: m('in_transit', 'delayed', 'in_transit'),
  OD: m('out_for_delivery', 'out_for_delivery', 'out_for_delivery'),
  ED: m('out_for_delivery', 'out_for_delivery', 'out_for_delivery'), // enroute to delivery
  AD: m('out_for_delivery', 'out_for_delivery', 'out_for_delivery'), // at delivery
  DL: m('delivered', 'delivered', 'delivered'),
  HL: m('available_for_pickup', 'available_for_pickup', 'out_for_delivery'), // hold at location
  HP: m('available_for_pickup', 'available_for_pickup', 'out_for_delivery'), // ready for recipient pickup
  RS: m('return_to_sender', 'returned_to_sender', 'in_transit'),
  DE: m('failure', 'delivery_exception', 'in_transit'),
  SE: m('failure', 'exception', 'in_transit'),
  CA: m('cancelled', 'label_voided', 'label_created'),
};

const UNKNOWN: Mapped = m('unknown', 'unknown', 'in_transit');

/** The derived code first (FedEx's own simplification of the status), else the code itself. */
export function mapFedexStatus(derived: string | null | undefined, code: string | null | undefined): Mapped {
  return FEDEX_STATUS_CODES[(derived ?? '').toUpperCase()] ?? FEDEX_STATUS_CODES[(code ?? '').toUpperCase()] ?? UNKNOWN;
}

/**
 * Our label_format → the image FedEx issues (imageType ZPLII, EPL2, PDF, PNG). FedEx has no
 * GIF: gif_4x6 gets PNG, which the platform converts losslessly. Always 4x6.
 */
export const FEDEX_LABEL_IMAGES: Readonly<Record<string, CarrierLabelImage>> = {
  pdf_4x6: 'PDF',
  pdf_letter: 'PDF',
  png_4x6: 'PNG',
  zpl_4x6: 'ZPL',
  gif_4x6: 'PNG',
};

export function fedexLabelImage(labelFormat: string): CarrierLabelImage {
  return FEDEX_LABEL_IMAGES[labelFormat] ?? 'PDF';
}

/** Our image → FedEx `imageType` and `labelStockType` (thermal stock for ZPL, paper otherwise). */
export function fedexImageSpec(image: CarrierLabelImage): { imageType: 'PDF' | 'PNG' | 'ZPLII'; labelStockType: 'PAPER_4X6' | 'STOCK_4X6' } {
  if (image === 'ZPL') return { imageType: 'ZPLII', labelStockType: 'STOCK_4X6' };
  return { imageType: image === 'PNG' || image === 'GIF' ? 'PNG' : 'PDF', labelStockType: 'PAPER_4X6' };
}

/** FedEx `docType` / `imageType` → our image format. */
export function imageFromFedex(docType: string | null, requested: CarrierLabelImage): CarrierLabelImage {
  switch ((docType ?? '').toUpperCase()) {
    case 'PDF':
      return 'PDF';
    case 'PNG':
      return 'PNG';
    case 'ZPLII':
    case 'ZPL':
      return 'ZPL';
    default:
      return requested;
  }
}

/**
 * Our customs contents type → `commercialInvoice.shipmentPurpose` (FedEx lists GIFT, NOT_SOLD,
 * PERSONAL_EFFECTS, REPAIR_AND_RETURN, SAMPLE, SOLD): what FedEx has no word for is NOT_SOLD.
 */
export const FEDEX_SHIPMENT_PURPOSES: Readonly<Record<string, string>> = {
  merchandise: 'SOLD',
  gift: 'GIFT',
  sample: 'SAMPLE',
  return_merchandise: 'REPAIR_AND_RETURN',
  documents: 'NOT_SOLD',
  humanitarian_donation: 'NOT_SOLD',
  other: 'NOT_SOLD',
};

/** Our incoterm → `commercialInvoice.termsOfSale` (3 characters; FedEx takes DDU, DAP, DDP as named). */
export const FEDEX_TERMS_OF_SALE: Readonly<Record<string, string>> = {
  DDU: 'DDU',
  DAP: 'DAP',
  DDP: 'DDP',
};

/** Who pays duties and taxes (`customsClearanceDetail.dutiesPayment.paymentType`) per incoterm. */
export const FEDEX_DUTIES_PAYERS: Readonly<Record<string, 'SENDER' | 'RECIPIENT'>> = {
  DDU: 'RECIPIENT',
  DAP: 'RECIPIENT',
  DDP: 'SENDER',
};

/**
 * A return label (`shipmentSpecialServices`): RETURN_SHIPMENT with `returnType:
 * PRINT_RETURN_LABEL` (printed by us, handed to the customer). FedEx bills a printed return
 * label when it is used (first scanned), not when it is created.
 */
export const FEDEX_RETURN_SERVICE = { specialServiceType: 'RETURN_SHIPMENT', returnType: 'PRINT_RETURN_LABEL' } as const;
