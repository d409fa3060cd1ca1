/** The label formats of DESIGN.md §5 (`label_format`). */
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

export interface LabelData {
  shipment_id: string;
  tracking_number: string;
  /** Carrier slug: usps | ups | fedex | dhl_express. */
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
  /** Test environment: the label says "SAMPLE — NOT FOR SHIPPING". */
  sample: boolean;
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
