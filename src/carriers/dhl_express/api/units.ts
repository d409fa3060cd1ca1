/**
 * DHL Express codes ↔ ours, one table each. Products: MyDHL global `productCode`. Tracking:
 * checkpoint event `typeCode`s. Charges: `detailedPriceBreakdown[].breakdown[].serviceCode`.
 * Labels: `outputImageProperties.encodingFormat`.
 */
import type { CarrierLabelImage } from '../../driver.js';
import type { SurchargeCode, TrackingMilestone, TrackingStatus } from '../../types.js';

/**
 * Our DHL Express services (src/carriers/dhl_express/index.ts) ↔ DHL global product codes, one
 * entry each way: P = EXPRESS WORLDWIDE (non-documents, the parcels we ship), N = EXPRESS
 * DOMESTIC. Every other product DHL quotes is kept as `dhl_express_<code>`.
 */
export const DHL_PRODUCTS: readonly { ours: string; dhl: string; name: string }[] = [
  { ours: 'dhl_express_worldwide', dhl: 'P', name: 'DHL Express Worldwide' },
  { ours: 'dhl_express_domestic', dhl: 'N', name: 'DHL Express Domestic' },
];

const UNKNOWN_PREFIX = 'dhl_express_';
/** Global product codes are 1 character in practice; the schemas allow up to 6. */
const RAW_PRODUCT = /^[0-9A-Z]{1,6}$/;

export function ourServiceCode(productCode: string): string {
  return DHL_PRODUCTS.find((p) => p.dhl === productCode)?.ours ?? `${UNKNOWN_PREFIX}${productCode}`;
}

/** Our service code (or `dhl_express_<raw>`) → DHL's product code; null when it is neither. */
export function dhlProductCode(ours: string): string | null {
  const known = DHL_PRODUCTS.find((p) => p.ours === ours);
  if (known) return known.dhl;
  if (!ours.startsWith(UNKNOWN_PREFIX)) return null;
  const raw = ours.slice(UNKNOWN_PREFIX.length);
  return RAW_PRODUCT.test(raw) ? raw : null;
}

export function dhlServiceName(productCode: string, productName?: string | null): string {
  const known = DHL_PRODUCTS.find((p) => p.dhl === productCode)?.name;
  if (known) return known;
  const name = productName?.trim();
  return name ? `DHL ${name}` : `DHL Express product ${productCode}`;
}

/** Breakdown service codes with a surcharge code of ours; other priced charges are `other_charges`. */
export const DHL_SURCHARGES: Readonly<Record<string, SurchargeCode>> = {
  FF: 'fuel', // FUEL SURCHARGE
  OO: 'remote_area', // REMOTE AREA DELIVERY
  OB: 'remote_area', // REMOTE AREA PICKUP
};

type Mapped = { status: TrackingStatus; detail: string; milestone: TrackingMilestone };

/**
 * Checkpoint `typeCode` → our status. The yaml's example shows PU, AF, PL, DF, RR, CR, AR, WC
 * and OK; the rest come from DHL Express's checkpoint list (reference-data `trackingEventCode`).
 */
export const DHL_EVENT_CODES: Readonly<Record<string, Mapped>> = {
  PU: { status: 'in_transit', detail: 'picked_up', milestone: 'picked_up' }, // Shipment picked up
  SA: { status: 'in_transit', detail: 'picked_up', milestone: 'picked_up' }, // Shipment acceptance
  PL: { status: 'in_transit', detail: 'processed_at_facility', milestone: 'in_transit' }, // Processed at
  AF: { status: 'in_transit', detail: 'arrived_at_facility', milestone: 'in_transit' }, // Arrived at sort facility
  DF: { status: 'in_transit', detail: 'departed_facility', milestone: 'in_transit' }, // Departed facility
  AR: { status: 'in_transit', detail: 'arrived_at_facility', milestone: 'in_transit' }, // Arrived at delivery facility
  TP: { status: 'in_transit', detail: 'forwarded', milestone: 'in_transit' }, // Forwarded to a third party
  RR: { status: 'in_transit', detail: 'customs', milestone: 'in_transit' }, // Customs status updated
  IC: { status: 'in_transit', detail: 'customs', milestone: 'in_transit' }, // In clearance processing
  CR: { status: 'in_transit', detail: 'customs', milestone: 'in_transit' }, // Clearance processing complete
  CD: { status: 'in_transit', detail: 'delayed', milestone: 'in_transit' }, // Clearance delay
  TD: { status: 'in_transit', detail: 'delayed', milestone: 'in_transit' }, // Transport delay
  MD: { status: 'in_transit', detail: 'delayed', milestone: 'in_transit' }, // Missed delivery cycle
  OH: { status: 'in_transit', detail: 'on_hold', milestone: 'in_transit' }, // On hold
  SM: { status: 'in_transit', detail: 'delivery_scheduled', milestone: 'in_transit' }, // Scheduled for delivery
  AD: { status: 'in_transit', detail: 'delivery_scheduled', milestone: 'in_transit' }, // Agreed delivery
  WC: { status: 'out_for_delivery', detail: 'out_for_delivery', milestone: 'out_for_delivery' }, // With courier for delivery
  CC: { status: 'available_for_pickup', detail: 'available_for_pickup', milestone: 'out_for_delivery' }, // Awaiting collection
  NH: { status: 'failure', detail: 'delivery_attempted', milestone: 'out_for_delivery' }, // Not home
  CA: { status: 'failure', detail: 'delivery_attempted', milestone: 'out_for_delivery' }, // Closed on arrival
  BA: { status: 'failure', detail: 'address_issue', milestone: 'in_transit' }, // Bad address
  RD: { status: 'failure', detail: 'refused', milestone: 'out_for_delivery' }, // Refused delivery
  RT: { status: 'return_to_sender', detail: 'returned_to_sender', milestone: 'in_transit' }, // Returned to shipper
  OK: { status: 'delivered', detail: 'delivered', milestone: 'delivered' }, // Delivered
  DD: { status: 'delivered', detail: 'delivered_damaged', milestone: 'delivered' }, // Delivered damaged
};

export function mapDhlEvent(typeCode: string | null | undefined): Mapped {
  return DHL_EVENT_CODES[(typeCode ?? '').toUpperCase()] ?? { status: 'unknown', detail: 'unknown', milestone: 'in_transit' };
}

/**
 * The image we ask DHL for, per image the platform wants. MyDHL's `encodingFormat` is one of
 * pdf, zpl, lp2, epl: it issues no raster image, so PNG and GIF requests get DHL's PDF (the
 * platform converts where lossless, else answers `label_format_unavailable`).
 */
export const DHL_ENCODING: Readonly<Record<CarrierLabelImage, { encoding: 'pdf' | 'zpl'; image: CarrierLabelImage }>> = {
  PDF: { encoding: 'pdf', image: 'PDF' },
  ZPL: { encoding: 'zpl', image: 'ZPL' },
  PNG: { encoding: 'pdf', image: 'PDF' },
  GIF: { encoding: 'pdf', image: 'PDF' },
};

/** Our label_format → the image DHL issues (PDF unless thermal ZPL is asked for). */
export function dhlLabelImage(labelFormat: string): CarrierLabelImage {
  return labelFormat.startsWith('zpl') ? 'ZPL' : 'PDF';
}

export { LABEL_MIME } from '../../http/json-read.js';

/**
 * Our customs contents type → MyDHL `exportDeclaration.exportReasonType` (and each line's):
 * DHL's list has no documents, donation or "other": those are `permanent` exports, and `other`
 * sends its explanation as `exportReason`.
 */
export const DHL_EXPORT_REASON_TYPES: Readonly<Record<string, string>> = {
  merchandise: 'commercial_purpose_or_sale',
  gift: 'gift',
  sample: 'sample',
  return_merchandise: 'return',
  documents: 'permanent',
  humanitarian_donation: 'permanent',
  other: 'permanent',
};

/** Our incoterm → `content.incoterm` (MyDHL lists DAP, DDP and DDU by name). */
export const DHL_INCOTERMS: Readonly<Record<string, string>> = {
  DDU: 'DDU',
  DAP: 'DAP',
  DDP: 'DDP',
};

/** The importer's ids → receiver `registrationNumbers[].typeCode` (SDT covers IOSS, per MyDHL's list). */
export const DHL_REGISTRATION_TYPES: Readonly<Record<'vat' | 'eori' | 'ioss' | 'tax_id', string>> = {
  vat: 'VAT',
  eori: 'EOR',
  ioss: 'SDT',
  tax_id: 'FED',
};

/** MyDHL `documents[].typeCode` → our document type; others become the snake_case of theirs. */
export const DHL_DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  invoice: 'commercial_invoice',
  waybillDoc: 'waybill',
  receipt: 'receipt',
  shipmentReceipt: 'receipt',
};
