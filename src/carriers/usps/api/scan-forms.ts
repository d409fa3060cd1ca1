/**
 * SCAN Forms (`POST /scan-forms/v3/scan-form`, scan-forms.yaml): one PS Form 5630 linking the
 * day's labels, by tracking number (`shipment.trackingNumbers`, the LabelShipment method). The
 * answer is multipart by default (a JSON `SCANFormMetaData` part and a Base64 `SCANFormImage`
 * part), or JSON (`SCANForm`, or the vendor media type's flat `SCANFormVendorResponse`). Pure.
 */
import type { ApiManifestRequest, ApiManifestResult, CarrierLabelImage } from '../../driver.js';
import { asList, obj, str, type Json } from '../../http/json-read.js';
import { decodeBase64, parseMultipart, type MultipartPart } from './multipart.js';
import { LABEL_MIME } from './units.js';
import { domesticAddress } from './wire.js';

export const SCAN_FORM_PATH = '/scan-forms/v3/scan-form';

/** The message a tracking number USPS left off the form carries. */
export const LEFT_OFF_MESSAGE = 'USPS left this label off the SCAN form (not eligible: voided, already on a form, or another mailing date or entry ZIP Code)';

/** USPS tracking numbers as we keep them may hold spaces (`9200 1909 …`); USPS lists them without. */
export function compactTracking(n: string): string {
  return n.replace(/\s+/g, '');
}

/**
 * Every label of the manifest's shipments: a multi-package USPS shipment's id lists its labels
 * (`n1,n2,…`, behind `intl:` for international ones), each of which goes on the form.
 */
export function manifestTrackingNumbers(req: ApiManifestRequest): string[] {
  const numbers = req.shipments.flatMap((s) => {
    const own = s.carrier_shipment_id?.replace(/^intl:/, '') ?? '';
    const listed = own.includes(',') ? own.split(',').filter(Boolean) : [];
    return listed.length ? listed : [s.tracking_number];
  });
  return [...new Set(numbers.map(compactTracking))];
}

/** Null when the address has no 5-digit ZIP Code (the entry facility ZIP the form needs). */
export function buildScanFormRequest(req: ApiManifestRequest): Json | null {
  const zip = /^(\d{5})/.exec(req.address.postal_code ?? '')?.[1];
  if (!zip) return null;
  const from = domesticAddress(req.address);
  // SCANFormAddress is a DomesticAddress: no phone on the form.
  delete from.phone;
  return {
    imageInfo: { imageType: 'PDF', labelType: '8.5X11LABEL' },
    mailingDate: req.ship_date.slice(0, 10),
    overwriteMailingDate: false,
    entryFacilityZIPCode: zip,
    destinationEntryFacilityType: 'NONE',
    shipment: { trackingNumbers: manifestTrackingNumbers(req) },
    fromAddress: from,
  };
}

const IMAGE_BY_MIME: Readonly<Record<string, CarrierLabelImage>> = {
  'application/pdf': 'PDF',
  'image/png': 'PNG',
  'image/gif': 'GIF',
};

function imageOf(part: MultipartPart | null, b64: string | null): { format: CarrierLabelImage; bytes: Buffer } | null {
  const text = part ? part.body : b64;
  if (!text) return null;
  const bytes = decodeBase64(text);
  if (!bytes || bytes.length === 0) return null;
  const byMime = part?.contentType ? IMAGE_BY_MIME[part.contentType] : undefined;
  const ext = /\.([a-z]+)$/i.exec(part?.filename ?? '')?.[1]?.toUpperCase();
  const format: CarrierLabelImage = byMime ?? (ext === 'PNG' || ext === 'GIF' ? ext : 'PDF');
  return { format, bytes };
}

/**
 * The form: `manifestNumber` (the Electronic File Number) as `carrier_manifest_id`, the image as a
 * `scan_form` document, and every tracking number we sent that USPS's `trackingNumbers` does not
 * list in `rejected`. Null when the answer has neither metadata nor image.
 */
export function parseScanFormResponse(body: string, contentType: string | undefined, sent: readonly string[]): ApiManifestResult | null {
  let metadata: Json | null = null;
  let imagePart: MultipartPart | null = null;
  let imageB64: string | null = null;
  if (/multipart/i.test(contentType ?? '') || body.trimStart().startsWith('--')) {
    const parts = parseMultipart(body, contentType);
    if (!parts) return null;
    // By name as the description gives them, else (USPS's own example names them otherwise) by type.
    const isJson = (p: MultipartPart) => p.contentType?.includes('json') ?? p.body.trimStart().startsWith('{');
    const metaPart = parts.find((p) => p.name === 'SCANFormMetaData') ?? parts.find(isJson) ?? null;
    imagePart = parts.find((p) => p.name === 'SCANFormImage') ?? parts.find((p) => p !== metaPart && !isJson(p)) ?? null;
    if (metaPart) {
      try {
        metadata = obj(JSON.parse(metaPart.body));
      } catch {
        return null;
      }
    }
  } else {
    let parsed: Json;
    try {
      parsed = obj(JSON.parse(body));
    } catch {
      return null;
    }
    // SCANForm {SCANFormMetaData, SCANFormImage}, or the vendor answer's flat metadata + SCANFormImage.
    metadata = parsed.SCANFormMetaData ? obj(parsed.SCANFormMetaData) : parsed;
    imageB64 = str(parsed.SCANFormImage);
  }
  const image = imageOf(imagePart, imageB64);
  if (!metadata && !image) return null;
  const listed =
    metadata && Array.isArray(metadata.trackingNumbers) ? new Set(asList<string>(metadata.trackingNumbers).map((n) => compactTracking(String(n)))) : null;
  const rejected = listed
    ? [...new Set(sent.map(compactTracking))]
        .filter((n) => !listed.has(n))
        .map((n) => ({ tracking_number: n, message: LEFT_OFF_MESSAGE, carrier_code: 'not_on_scan_form' }))
    : [];
  return {
    carrier_manifest_id: metadata ? str(metadata.manifestNumber) : null,
    document: image ? { type: 'scan_form', artifact: { format: image.format, mime: LABEL_MIME[image.format], bytes: image.bytes } } : null,
    rejected,
  };
}
