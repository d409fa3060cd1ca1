import type { Address, CustomsDeclaration, LabelBarcodeSpec, LabelPresentation, Money } from '../../carriers/types.js';

/** The label formats a shipment is printed in (`label_format`). */
export type LabelFormat = 'pdf_4x6' | 'pdf_letter' | 'png_4x6' | 'zpl_4x6';
export const LABEL_FORMATS: readonly LabelFormat[] = Object.freeze(['pdf_4x6', 'pdf_letter', 'png_4x6', 'zpl_4x6'] as const);

export interface LabelAddress {
  name?: string | null;
  company?: string | null;
  street1?: string | null;
  street2?: string | null;
  city?: string | null;
  state?: string | null;
  postal_code?: string | null;
  country: string;
  phone?: string | null;
}

/**
 * The carrier-specific parts of a label, worked out from the carrier's definition before
 * rendering (a render runs in a worker thread, which receives data, not the carrier's functions).
 */
export interface LabelCarrierParts {
  /** The line above the barcode. */
  heading: string;
  /** Printed large above the barcode. */
  routing_code: string;
  /** The tracking number as printed under the barcode. */
  tracking_text: string;
  barcode: LabelBarcodeSpec;
}

/** The carrier parts of a label from the carrier's label presentation. */
export function labelCarrierParts(label: LabelPresentation, trackingNumber: string, shipTo: LabelAddress): LabelCarrierParts {
  const to: Address = {
    name: shipTo.name ?? undefined,
    company: shipTo.company ?? undefined,
    street1: shipTo.street1 ?? undefined,
    street2: shipTo.street2 ?? undefined,
    city: shipTo.city ?? undefined,
    state: shipTo.state ?? undefined,
    postal_code: shipTo.postal_code ?? '',
    country: shipTo.country ?? '',
  };
  return {
    heading: label.heading,
    routing_code: label.routingCode(to),
    tracking_text: label.displayTrackingNumber(trackingNumber),
    barcode: label.barcode(trackingNumber, to),
  };
}

export interface LabelData {
  shipment_id: string;
  tracking_number: string;
  /** Carrier slug. */
  carrier: string;
  /** Display name, e.g. "USPS". */
  carrier_name: string;
  service_code: string;
  service_name: string;
  /** "5", "8", "INTL-2"…; null when the carrier has no zone for the lane. */
  zone: string | null;
  /** Billable or actual weight, as given. */
  weight_oz: number;
  /** YYYY-MM-DD. */
  ship_date: string;
  ship_from: LabelAddress;
  ship_to: LabelAddress;
  /** Order id / external id. */
  reference?: string | null;
  /** A simulated carrier's label (any environment) or a test one: it says "SAMPLE - DO NOT MAIL". */
  sample: boolean;
  /** A voided label: it says "VOID". */
  voided?: boolean;
  /** A return label: the recipient block is headed RETURN TO:. */
  is_return?: boolean;
  /** What the handler must see (labels.marks.ts), each printed as a black band under the header. */
  marks?: readonly string[];
  /** The shipper's references (options.references, up to two), printed above the footer. */
  references?: readonly string[];
  /** Heading, routing code, barcode and printed tracking number, as the carrier presents them. */
  carrier_parts: LabelCarrierParts;
  /** One package of a multi-piece shipment: printed "index of count" (1-based); absent = a single parcel. */
  piece?: { index: number; count: number };
}

export interface RenderedLabel {
  body: Buffer;
  content_type: string;
  file_extension: string;
}

export function labelContentType(format: LabelFormat): string {
  switch (format) {
    case 'pdf_4x6':
    case 'pdf_letter':
      return 'application/pdf';
    case 'png_4x6':
      return 'image/png';
    case 'zpl_4x6':
      return 'application/x-zpl';
  }
}

export function labelFileExtension(format: LabelFormat): string {
  return format === 'png_4x6' ? 'png' : format === 'zpl_4x6' ? 'zpl' : 'pdf';
}

export function isLabelFormat(value: unknown): value is LabelFormat {
  return typeof value === 'string' && (LABEL_FORMATS as readonly string[]).includes(value);
}

/** The customs documents the platform prints. */
export type CustomsDocumentType = 'cn22' | 'cn23' | 'commercial_invoice';
export const CUSTOMS_DOCUMENT_TYPES: readonly CustomsDocumentType[] = Object.freeze(['cn22', 'cn23', 'commercial_invoice'] as const);

export function isCustomsDocumentType(value: unknown): value is CustomsDocumentType {
  return typeof value === 'string' && (CUSTOMS_DOCUMENT_TYPES as readonly string[]).includes(value);
}

/** What a customs document prints: the shipment's parties and parcel, and its declaration. */
export interface CustomsDocumentData {
  type: CustomsDocumentType;
  shipment_id: string;
  tracking_number: string;
  /** Display name of the carrier (the CN 22/23 "designated operator"). */
  carrier_name: string;
  service_name: string;
  /** YYYY-MM-DD: the date the sender signs (the ship date). */
  date: string;
  ship_from: LabelAddress & { email?: string | null };
  ship_to: LabelAddress & { email?: string | null };
  /** Gross weight of the parcel, in ounces. */
  weight_oz: number;
  /** What the label cost (the commercial invoice's freight line); null when unknown. */
  postage?: Money | null;
  /** Order reference (external id or order id). */
  reference?: string | null;
  /** A simulated carrier's or a test shipment: the document says "SAMPLE - DO NOT MAIL". */
  sample: boolean;
  customs: CustomsDeclaration;
}
