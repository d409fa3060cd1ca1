/**
 * USPS codes ↔ ours, one table each: mail classes ↔ our service codes, tracking event codes →
 * our statuses, our label formats → USPS `imageType`, price fee names → our surcharge codes.
 */
import { packagingOf } from '../../api-packaging.js';
import { uspsPackages } from '../packages.js';
import type { CarrierLabelImage } from '../../driver.js';
import type { Parcel, SurchargeCode, TrackingMilestone, TrackingStatus } from '../../types.js';

/**
 * Our USPS services (src/carriers/usps/index.ts) ↔ USPS `mailClass` (Domestic Prices,
 * Domestic Labels and, for the international one, International Labels).
 */
export const USPS_SERVICES: readonly { ours: string; usps: string; name: string; domestic: boolean }[] = [
  { ours: 'usps_ground_advantage', usps: 'USPS_GROUND_ADVANTAGE', name: 'USPS Ground Advantage', domestic: true },
  { ours: 'usps_priority_mail', usps: 'PRIORITY_MAIL', name: 'Priority Mail', domestic: true },
  { ours: 'usps_priority_mail_express', usps: 'PRIORITY_MAIL_EXPRESS', name: 'Priority Mail Express', domestic: true },
  {
    ours: 'usps_first_class_international',
    usps: 'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE',
    name: 'First-Class Package International Service',
    domestic: false,
  },
];

const PREFIX = 'usps_';
/** USPS mail classes are upper case letters, digits, `_` and `-` (`FIRST-CLASS_PACKAGE_SERVICE`). */
const MAIL_CLASS = /^[A-Z0-9_-]+$/;

/** A mail class we have no code for is kept as `usps_<mail class in lower case>`, never dropped. */
export function ourServiceCode(mailClass: string): string {
  return USPS_SERVICES.find((s) => s.usps === mailClass)?.ours ?? `${PREFIX}${mailClass.toLowerCase()}`;
}

/** Our service code (or `usps_<raw>`) → USPS's mail class; null when it is neither. */
export function uspsMailClass(ours: string): string | null {
  const known = USPS_SERVICES.find((s) => s.ours === ours);
  if (known) return known.usps;
  if (!ours.startsWith(PREFIX)) return null;
  const raw = ours.slice(PREFIX.length).toUpperCase();
  return MAIL_CLASS.test(raw) ? raw : null;
}

export function uspsServiceName(mailClass: string, productName?: string | null): string {
  const known = USPS_SERVICES.find((s) => s.usps === mailClass)?.name;
  if (known) return known;
  if (productName?.trim()) return productName.trim();
  return mailClass
    .toLowerCase()
    .split(/[_-]/)
    .map((w) => (w === 'usps' ? 'USPS' : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ');
}

/**
 * How a parcel in the shipper's own packaging is priced and labelled: single-piece rate
 * (`SP`), machinable unless it is larger or heavier than USPS's machinable parcel limits
 * (DMM 201.7: at most 22 × 18 × 15 in and 25 lb), else nonstandard. Rates and labels use the
 * same answer, so the price quoted is the price the label is bought at.
 */
export function packageCharacteristics(parcel: Parcel): { rateIndicator: 'SP'; processingCategory: 'MACHINABLE' | 'NONSTANDARD' } {
  const [l, w, h] = [parcel.length_in, parcel.width_in, parcel.height_in].sort((a, b) => b - a);
  const machinable = l <= 22 && w <= 18 && h <= 15 && parcel.weight_oz <= 25 * 16;
  return { rateIndicator: 'SP', processingCategory: machinable ? 'MACHINABLE' : 'NONSTANDARD' };
}

/**
 * Rate indicators that price a parcel in the shipper's own packaging (single piece, and the
 * dimensional rectangular / non-rectangular prices). The others (flat-rate envelopes and boxes,
 * cubic tiers, Connect and presort prices) need a USPS container or a contract: not offered.
 */
/**
 * A piece in a USPS flat-rate envelope or box (../packages.ts, `carrier_code` the rate indicator
 * FE, FA, FP, FS, FB, PL) sent by a mail class that prices it flat: that rate indicator, and
 * the processing category USPS gives it (envelopes FLATS, boxes MACHINABLE). Null for the
 * shipper's own packaging, or a class that rates the package by weight and size (Ground Advantage).
 */
export function flatRateShape(parcel: Parcel, mailClass: string): { rateIndicator: string; processingCategory: 'FLATS' | 'MACHINABLE' } | null {
  const pkg = packagingOf([parcel], uspsPackages)[0];
  if (!pkg || pkg.flat_rates[ourServiceCode(mailClass)] === undefined) return null;
  return { rateIndicator: pkg.carrier_code, processingCategory: FLAT_RATE_ENVELOPES.has(pkg.carrier_code) ? 'FLATS' : 'MACHINABLE' };
}

const FLAT_RATE_ENVELOPES: ReadonlySet<string> = new Set(['FE', 'FA', 'FP']);

export const OWN_PACKAGING_RATE_INDICATORS: ReadonlySet<string> = new Set(['SP', 'DR', 'DN']);

/** Price `fees[].name` → our surcharge code (USPS names them; they carry no fee code). */
export const USPS_FEE_SURCHARGES: readonly [RegExp, SurchargeCode][] = [
  [/nonstandard\s+length/i, 'nonstandard_length'],
  [/nonstandard\s+volume|cubic|cu\.?\s*ft/i, 'nonstandard_volume'],
];

export function surchargeOfFee(name: string): SurchargeCode | null {
  return USPS_FEE_SURCHARGES.find(([re]) => re.test(name))?.[1] ?? null;
}

type Mapped = { status: TrackingStatus; detail: string; milestone: TrackingMilestone };

/**
 * USPS tracking `eventCode` → our status. The v3 document gives the field but no list, and no
 * list is in the specs folder: these are USPS's event codes as its IMpb event list
 * (Publication 199) names them, kept to the ones whose meaning is common knowledge in
 * integrations. Anything else is `unknown` with the raw code kept on the event, so a missing
 * code costs a status, never a wrong one. Worth checking against a current Pub 199 copy.
 */
export const USPS_EVENT_CODES: Readonly<Record<string, Mapped>> = {
  MA: { status: 'pre_transit', detail: 'label_created', milestone: 'label_created' }, // Pre-Shipment Info Sent to USPS
  GX: { status: 'pre_transit', detail: 'label_created', milestone: 'label_created' }, // Shipping Label Created, USPS Awaiting Item
  '03': { status: 'in_transit', detail: 'picked_up', milestone: 'picked_up' }, // Accepted at USPS Origin Facility
  OA: { status: 'in_transit', detail: 'picked_up', milestone: 'picked_up' }, // Accepted at USPS Origin Facility (shipment acceptance)
  '80': { status: 'in_transit', detail: 'picked_up', milestone: 'picked_up' }, // Picked Up by Shipping Partner
  '81': { status: 'in_transit', detail: 'arrived_at_facility', milestone: 'in_transit' }, // Arrived Shipping Partner Facility
  '82': { status: 'in_transit', detail: 'departed_facility', milestone: 'in_transit' }, // Departed Shipping Partner Facility
  '10': { status: 'in_transit', detail: 'arrived_at_facility', milestone: 'in_transit' }, // Processed / Arrived at USPS facility
  NT: { status: 'in_transit', detail: 'in_transit', milestone: 'in_transit' }, // In Transit to Next Facility
  PC: { status: 'in_transit', detail: 'sorting_complete', milestone: 'in_transit' }, // Sorting Complete
  '07': { status: 'in_transit', detail: 'arrived_at_facility', milestone: 'in_transit' }, // Arrived at Post Office (delivery unit)
  '06': { status: 'in_transit', detail: 'forwarded', milestone: 'in_transit' }, // Forwarded
  '08': { status: 'in_transit', detail: 'missent', milestone: 'in_transit' }, // Missent
  OF: { status: 'out_for_delivery', detail: 'out_for_delivery', milestone: 'out_for_delivery' }, // Out for Delivery
  '02': { status: 'failure', detail: 'delivery_attempted', milestone: 'out_for_delivery' }, // Notice Left (No Authorized Recipient Available)
  '55': { status: 'failure', detail: 'delivery_attempted', milestone: 'out_for_delivery' }, // Receptacle Blocked
  '56': { status: 'failure', detail: 'delivery_attempted', milestone: 'out_for_delivery' }, // Receptacle Full / Item Oversized
  '53': { status: 'failure', detail: 'delivery_attempted', milestone: 'out_for_delivery' }, // No Secure Location Available
  '04': { status: 'failure', detail: 'refused', milestone: 'out_for_delivery' }, // Refused
  '05': { status: 'failure', detail: 'undeliverable', milestone: 'out_for_delivery' }, // Undeliverable as Addressed
  '21': { status: 'failure', detail: 'address_issue', milestone: 'out_for_delivery' }, // No Such Number
  '22': { status: 'failure', detail: 'address_issue', milestone: 'out_for_delivery' }, // Insufficient Address
  '23': { status: 'failure', detail: 'address_issue', milestone: 'out_for_delivery' }, // Moved, Left No Address
  '25': { status: 'failure', detail: 'address_issue', milestone: 'out_for_delivery' }, // Addressee Unknown
  '14': { status: 'available_for_pickup', detail: 'available_for_pickup', milestone: 'out_for_delivery' }, // Arrival at Pickup Point
  '16': { status: 'available_for_pickup', detail: 'available_for_pickup', milestone: 'out_for_delivery' }, // Available for Pickup
  '09': { status: 'return_to_sender', detail: 'returned_to_sender', milestone: 'in_transit' }, // Return to Sender
  '29': { status: 'return_to_sender', detail: 'returned_to_sender', milestone: 'in_transit' }, // Return to Sender - Not Picked Up
  '01': { status: 'delivered', detail: 'delivered', milestone: 'delivered' }, // Delivered
  '17': { status: 'delivered', detail: 'delivered', milestone: 'delivered' }, // Picked Up by Agent / at Post Office
  '43': { status: 'delivered', detail: 'delivered', milestone: 'delivered' }, // Picked Up (at Post Office)
};

export function mapUspsEvent(code: string | null | undefined): Mapped {
  return USPS_EVENT_CODES[(code ?? '').toUpperCase()] ?? { status: 'unknown', detail: 'unknown', milestone: 'in_transit' };
}

/**
 * Our label_format → the image USPS issues. USPS issues PDF itself (unlike UPS), 4x6 only on
 * international labels; letter-size PDF gets the 4x6 PDF, which the platform places on a page.
 */
export const USPS_LABEL_IMAGES: Readonly<Record<string, CarrierLabelImage>> = {
  pdf_4x6: 'PDF',
  pdf_letter: 'PDF',
  png_4x6: 'PNG',
  zpl_4x6: 'ZPL',
  gif_4x6: 'GIF',
};

export function uspsLabelImage(labelFormat: string): CarrierLabelImage {
  return USPS_LABEL_IMAGES[labelFormat] ?? 'PDF';
}

/** Our carrier image → Domestic Labels `imageInfo.imageType` (ZPL at 203 dpi, the 4x6 printers' resolution). */
export const DOMESTIC_IMAGE_TYPES: Readonly<Record<CarrierLabelImage, string>> = {
  PDF: 'PDF',
  PNG: 'PNG',
  GIF: 'GIF',
  ZPL: 'ZPL203DPI',
};

/** International Labels takes only PDF, TIFF and ZPL: PNG and GIF fall back to PDF. */
export const INTERNATIONAL_IMAGE_TYPES: Readonly<Record<CarrierLabelImage, string>> = {
  PDF: 'PDF',
  PNG: 'PDF',
  GIF: 'PDF',
  ZPL: 'ZPL203DPI',
};

export { LABEL_MIME } from '../../http/json-read.js';

/** Carrier Pickup `packages[].packageType` per mail class; anything else is `OTHER`. */
export const PICKUP_PACKAGE_TYPES: Readonly<Record<string, string>> = {
  USPS_GROUND_ADVANTAGE: 'USPS_GROUND_ADVANTAGE',
  PRIORITY_MAIL: 'PRIORITY_MAIL',
  PRIORITY_MAIL_EXPRESS: 'PRIORITY_MAIL_EXPRESS',
  'FIRST-CLASS_PACKAGE_SERVICE': 'FIRST-CLASS_PACKAGE_SERVICE',
  'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE': 'INTERNATIONAL',
  PRIORITY_MAIL_INTERNATIONAL: 'INTERNATIONAL',
  PRIORITY_MAIL_EXPRESS_INTERNATIONAL: 'INTERNATIONAL',
};

/** Our customs contents type → USPS `customsForm.customsContentType` (international and domestic forms). */
export const USPS_CUSTOMS_CONTENT_TYPES: Readonly<Record<string, string>> = {
  merchandise: 'MERCHANDISE',
  gift: 'GIFT',
  documents: 'DOCUMENT',
  sample: 'COMMERCIAL_SAMPLE',
  return_merchandise: 'RETURNED_GOODS',
  humanitarian_donation: 'HUMANITARIAN_DONATIONS',
  other: 'OTHER',
};

/** Our non-delivery choice → `packageOptions.nonDeliveryOption` (USPS also has REDIRECT, which we do not offer). */
export const USPS_NON_DELIVERY_OPTIONS: Readonly<Record<string, string>> = {
  return: 'RETURN',
  abandon: 'ABANDON',
};

/**
 * The importer's ids → the one `importersReference {referenceType, reference}` USPS takes,
 * first present wins: IOSS (the EU's VAT scheme for postal imports) and VAT as VAT_NUMBER,
 * EORI as IMPORTER_CODE, any other tax id as TAX_CODE.
 */
export const USPS_IMPORTER_REFERENCES: readonly { key: 'ioss' | 'vat' | 'eori' | 'tax_id'; type: string }[] = [
  { key: 'ioss', type: 'VAT_NUMBER' },
  { key: 'vat', type: 'VAT_NUMBER' },
  { key: 'eori', type: 'IMPORTER_CODE' },
  { key: 'tax_id', type: 'TAX_CODE' },
];

/**
 * The return mail class for an outbound one (Domestic Labels `/return-label`, BaseReturnsPackageDescription).
 * USPS Returns labels are pay-on-use: postage is charged when the label is first scanned, not
 * when it is printed. International mail classes have no return label (null).
 */
export const USPS_RETURN_MAIL_CLASSES: Readonly<Record<string, string>> = {
  USPS_GROUND_ADVANTAGE: 'USPS_GROUND_ADVANTAGE_RETURN_SERVICE',
  PRIORITY_MAIL: 'PRIORITY_MAIL_RETURN_SERVICE',
  PRIORITY_MAIL_EXPRESS: 'PRIORITY_MAIL_EXPRESS_RETURN_SERVICE',
};
