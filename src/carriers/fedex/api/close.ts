/**
 * Ground End-of-Day Close (`PUT /ship/v1/endofday/`, ground-end-of-day-close-v1): closes the
 * account's FedEx Ground shipments of a date (FedEx takes the date, not a list) and returns the
 * close report, asked for as the OP-950 pickup manifest in PDF on letter paper. Pure.
 */
import type { ApiCarrierDocument, ApiManifestRequest, ApiManifestResult, CarrierLabelImage } from '../../driver.js';
import { asList, LABEL_MIME, num, obj, str, type Json } from '../../http/json-read.js';
import { FEDEX_SERVICES, fedexServiceType } from './units.js';

export const CLOSE_PATH = '/ship/v1/endofday/';

export const NOT_GROUND_MESSAGE = 'Not a FedEx Ground shipment: only FedEx Ground and Home Delivery are closed at the end of the day (Express needs no close)';

/** FedEx Ground and Home Delivery (and any ground service type kept under its raw code). */
export function isGroundService(serviceCode: string): boolean {
  const type = fedexServiceType(serviceCode);
  if (!type) return false;
  return FEDEX_SERVICES.find((s) => s.fedex === type)?.ground ?? /GROUND|SMART_POST/.test(type);
}

/** Which of the manifest's shipments the close covers, and the others as rejected. */
export function splitForClose(req: ApiManifestRequest): { ground: string[]; rejected: ApiManifestResult['rejected'] } {
  const ground: string[] = [];
  const rejected: ApiManifestResult['rejected'] = [];
  for (const s of req.shipments) {
    if (isGroundService(s.service_code)) ground.push(s.tracking_number);
    else rejected.push({ tracking_number: s.tracking_number, message: NOT_GROUND_MESSAGE, carrier_code: 'not_ground' });
  }
  return { ground, rejected };
}

export function buildCloseRequest(accountNumber: string, shipDate: string): Json {
  return {
    closeReqType: 'GCDR',
    accountNumber: { value: accountNumber },
    groundServiceCategory: 'GROUND',
    closeDate: shipDate.slice(0, 10),
    closeDocumentSpecification: {
      closeDocumentTypes: ['OP_950'],
      op950Detail: { format: { imageType: 'PDF', stockType: 'PAPER_LETTER' } },
    },
  };
}

/** The image's own format from its first bytes (FedEx says only "graphic or printer commands"). */
function formatOf(bytes: Buffer): CarrierLabelImage | null {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'PDF';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'PNG';
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return 'GIF';
  if (/^\s*\^XA/.test(bytes.subarray(0, 16).toString('latin1'))) return 'ZPL';
  return null;
}

/**
 * The close report: the OP-950 (else the MANIFEST) document's first part in sequence order,
 * base64-decoded; a document FedEx sent only by reference (no image) or in a format we cannot
 * store is left out.
 */
export function closeReport(output: Json): ApiCarrierDocument | null {
  const docs = asList(output.closeDocuments).map(obj);
  const doc = docs.find((d) => str(d.type) === 'OP_950') ?? docs.find((d) => str(d.type) === 'MANIFEST') ?? docs[0];
  if (!doc) return null;
  const parts = asList(doc.parts)
    .map(obj)
    .sort((a, b) => (num(a.documentPartSequenceNumber) ?? 0) - (num(b.documentPartSequenceNumber) ?? 0));
  const image = parts.map((p) => str(p.image)).find((i): i is string => !!i);
  if (!image) return null;
  const bytes = Buffer.from(image, 'base64');
  const format = formatOf(bytes);
  if (!format) return null;
  return { type: 'close_report', artifact: { format, mime: LABEL_MIME[format], bytes } };
}

/** Null when the body is not a close answer (no `output`). */
export function parseCloseResponse(body: unknown, rejected: ApiManifestResult['rejected']): ApiManifestResult | null {
  const b = obj(body);
  if (!b.output || typeof b.output !== 'object') return null;
  return {
    // The close has no number of its own: FedEx's transaction id identifies it.
    carrier_manifest_id: str(b.transactionId),
    document: closeReport(obj(b.output)),
    rejected,
  };
}
