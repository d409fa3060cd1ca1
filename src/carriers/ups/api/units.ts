/**
 * UPS codes ↔ ours, one table each. Service codes: UPS Rating/Shipping `Service.Code`.
 * Tracking: UPS Track `status.type` (and a few `status.code`s). Label formats: Shipping
 * `LabelImageFormat.Code`.
 */
import type { CarrierLabelImage } from '../../driver.js';
import type { SurchargeCode, TrackingMilestone, TrackingStatus } from '../../types.js';

/** Our UPS services (src/carriers/ups/index.ts) ↔ UPS service codes. */
export const UPS_SERVICES: readonly { ours: string; ups: string; name: string }[] = [
  { ours: 'ups_next_day_air', ups: '01', name: 'UPS Next Day Air' },
  { ours: 'ups_2nd_day_air', ups: '02', name: 'UPS 2nd Day Air' },
  { ours: 'ups_ground', ups: '03', name: 'UPS Ground' },
  { ours: 'ups_3_day_select', ups: '12', name: 'UPS 3 Day Select' },
  { ours: 'ups_worldwide_saver', ups: '65', name: 'UPS Worldwide Saver' },
];

/** UPS services we have no code for yet: rated and shown under `ups_code_<raw>`, never dropped. */
export const UPS_OTHER_SERVICE_NAMES: Readonly<Record<string, string>> = {
  '07': 'UPS Worldwide Express',
  '08': 'UPS Worldwide Expedited',
  '11': 'UPS Standard',
  '13': 'UPS Next Day Air Saver',
  '14': 'UPS Next Day Air Early',
  '54': 'UPS Worldwide Express Plus',
  '59': 'UPS 2nd Day Air A.M.',
  '71': 'UPS Worldwide Express Freight Midday',
  '74': 'UPS Express 12:00',
  '75': 'UPS Heavy Goods',
  '92': 'UPS SurePost Less than 1 lb',
  '93': 'UPS SurePost 1 lb or greater',
  '96': 'UPS Worldwide Express Freight',
};

const UNKNOWN_PREFIX = 'ups_code_';

export function ourServiceCode(upsCode: string): string {
  return UPS_SERVICES.find((s) => s.ups === upsCode)?.ours ?? `${UNKNOWN_PREFIX}${upsCode}`;
}

/** Our service code (or `ups_code_<raw>`) → UPS's; null when it is neither. */
export function upsServiceCode(ours: string): string | null {
  const known = UPS_SERVICES.find((s) => s.ours === ours);
  if (known) return known.ups;
  if (ours.startsWith(UNKNOWN_PREFIX)) {
    const raw = ours.slice(UNKNOWN_PREFIX.length);
    return /^[0-9A-Z]{2,3}$/.test(raw) ? raw : null;
  }
  return null;
}

export function upsServiceName(upsCode: string, upsDescription?: string | null): string {
  return (
    UPS_SERVICES.find((s) => s.ups === upsCode)?.name ??
    UPS_OTHER_SERVICE_NAMES[upsCode] ??
    (upsDescription?.trim() ? upsDescription.trim() : `UPS service ${upsCode}`)
  );
}

/** UPS ItemizedCharges codes with a surcharge code of ours; the rest are kept as `other_charges`. */
export const UPS_SURCHARGES: Readonly<Record<string, SurchargeCode>> = {
  '100': 'additional_handling',
  '190': 'oversize', // Large Package Surcharge
  '270': 'residential',
  '375': 'fuel',
  '376': 'remote_area', // Delivery Area Surcharge
};

/**
 * UPS Track `status.type` → our status. From UPS's Track API reference (the yaml gives only the
 * example `X`): D delivered, I in transit, M manifest (label created), MV manifest voided,
 * P pickup, X exception, RS returned to shipper, DO/DD delivered to origin/destination CFS
 * (freight hand-offs, not the consignee), W warehousing, NA not available.
 */
export const UPS_STATUS_TYPES: Readonly<Record<string, { status: TrackingStatus; detail: string; milestone: TrackingMilestone }>> = {
  M: { status: 'pre_transit', detail: 'label_created', milestone: 'label_created' },
  MV: { status: 'cancelled', detail: 'label_voided', milestone: 'label_created' },
  P: { status: 'in_transit', detail: 'picked_up', milestone: 'picked_up' },
  I: { status: 'in_transit', detail: 'in_transit', milestone: 'in_transit' },
  DO: { status: 'in_transit', detail: 'arrived_at_facility', milestone: 'in_transit' },
  DD: { status: 'in_transit', detail: 'arrived_at_facility', milestone: 'in_transit' },
  W: { status: 'in_transit', detail: 'in_warehouse', milestone: 'in_transit' },
  X: { status: 'failure', detail: 'exception', milestone: 'in_transit' },
  RS: { status: 'return_to_sender', detail: 'returned_to_sender', milestone: 'in_transit' },
  D: { status: 'delivered', detail: 'delivered', milestone: 'delivered' },
};

/** `status.code`s that refine an `I` scan (UPS's activity codes). */
export const UPS_STATUS_CODES: Readonly<Record<string, { status: TrackingStatus; detail: string; milestone: TrackingMilestone }>> = {
  OT: { status: 'out_for_delivery', detail: 'out_for_delivery', milestone: 'out_for_delivery' },
};

export function mapUpsStatus(
  type: string | null | undefined,
  code: string | null | undefined,
): { status: TrackingStatus; detail: string; milestone: TrackingMilestone } {
  const t = (type ?? '').toUpperCase();
  const c = (code ?? '').toUpperCase();
  if (t === 'I' && UPS_STATUS_CODES[c]) return UPS_STATUS_CODES[c];
  return UPS_STATUS_TYPES[t] ?? { status: 'unknown', detail: 'unknown', milestone: 'in_transit' };
}

/**
 * Our label_format → the image UPS issues. UPS ships labels as GIF, PNG, ZPL (also EPL/SPL);
 * it has no PDF label, so the PDF formats get UPS's GIF, which the platform places losslessly on
 * a PDF page. Always 4x6 stock.
 */
export const UPS_LABEL_IMAGES: Readonly<Record<string, CarrierLabelImage>> = {
  pdf_4x6: 'GIF',
  pdf_letter: 'GIF',
  png_4x6: 'PNG',
  zpl_4x6: 'ZPL',
  gif_4x6: 'GIF',
};

export { LABEL_MIME } from '../../http/json-read.js';

/** The label image UPS is asked for: only GIF, PNG and ZPL (4x6). */
export function upsLabelImage(labelFormat: string): CarrierLabelImage {
  return UPS_LABEL_IMAGES[labelFormat] ?? 'GIF';
}

/**
 * Our customs contents type → InternationalForms `ReasonForExport` (Shipping.yaml lists SALE,
 * GIFT, SAMPLE, RETURN, REPAIR, INTERCOMPANYDATA "or any other reason", 20 characters): the
 * types UPS has no word for send ours in capitals; `other` sends its explanation instead.
 */
export const UPS_REASONS_FOR_EXPORT: Readonly<Record<string, string>> = {
  merchandise: 'SALE',
  gift: 'GIFT',
  sample: 'SAMPLE',
  return_merchandise: 'RETURN',
  documents: 'DOCUMENTS',
  humanitarian_donation: 'HUMANITARIAN',
  other: 'OTHER',
};

/**
 * Our incoterm → InternationalForms `TermsOfShipment`. UPS lists DAP and DDP but not DDU (the
 * Incoterms 2010 retired it; DAP is its successor with the same split of duties), so DDU goes as DAP.
 */
export const UPS_TERMS_OF_SHIPMENT: Readonly<Record<string, string>> = {
  DDU: 'DAP',
  DAP: 'DAP',
  DDP: 'DDP',
};

/**
 * The return service a return label asks for (`Shipment.ReturnService.Code`): 9, UPS Print Return
 * Label (the label is printed by us and handed to the customer). UPS bills return labels when
 * they are used (pay-per-use), not when they are printed.
 */
export const UPS_RETURN_SERVICE = { Code: '9', Description: 'UPS Print Return Label' } as const;

/** Shipping.yaml: "For shipment with return service, 05 or 10 are the only valid values": 05 Partial Invoice. */
export const UPS_RETURN_FORM_TYPE = '05';
