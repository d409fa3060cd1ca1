import { scope } from '../api/client';

export const LABEL_FORMATS = ['pdf_4x6', 'pdf_letter', 'png_4x6', 'zpl_4x6'] as const;
export type LabelFormat = (typeof LABEL_FORMATS)[number];
export const LABEL_EXT: Record<LabelFormat, string> = { pdf_4x6: 'pdf', pdf_letter: 'pdf', png_4x6: 'png', zpl_4x6: 'zpl' };

/**
 * A file from an /api/admin route (a label, a batch's merged label). Those routes need the
 * workspace/environment headers, which an <img src> or a plain link cannot send: fetch with
 * them and hand the page a Blob (shown through a blob: URL, which the CSP's img-src allows).
 */
export async function fetchAdminFile(path: string, post?: unknown): Promise<Blob> {
  let res: Response;
  try {
    res = await fetch(path, {
      credentials: 'same-origin',
      ...(post === undefined ? {} : { method: 'POST', body: JSON.stringify(post) }),
      headers: {
        ...(scope.workspaceId ? { 'X-Service-Workspace': scope.workspaceId } : {}),
        'X-Service-Environment': scope.environment,
        ...(post === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
    });
  } catch {
    throw new Error('Could not reach the service. Check your connection and try again.');
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message ?? `The file could not be loaded (${res.status}).`);
  }
  return res.blob();
}

export function fetchLabel(shipmentId: string, format: LabelFormat): Promise<Blob> {
  return fetchAdminFile(`/api/admin/shipments/${encodeURIComponent(shipmentId)}/label?format=${format}`);
}

/** Save a Blob under a file name (a temporary <a download>, the URL freed soon after). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Print a PDF (a label, a packing slip): opened in a tab of its own, where the browser's PDF
 * viewer prints it (Ctrl+P). A hidden frame calling print() would save that keystroke, but it
 * crashes browsers without a PDF viewer (headless ones), so the file is shown instead.
 */
export function printBlob(blob: Blob): void {
  const url = URL.createObjectURL(blob);
  window.open(url, '_blank', 'noopener');
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The formats a print of many labels comes in (an image holds one label). */
export const PRINT_FORMATS = ['pdf_4x6', 'pdf_letter', 'zpl_4x6'] as const;
export type PrintFormat = (typeof PRINT_FORMATS)[number];

/**
 * Selected shipments' labels as one file (POST /api/admin/labels/merge), saved under a name
 * that says how many: the operator opens it and prints once. Packing slips are PDF pages.
 */
export async function printLabels(shipmentIds: readonly string[], format: PrintFormat, packingSlips: boolean): Promise<void> {
  const blob = await fetchAdminFile('/api/admin/labels/merge', {
    shipment_ids: shipmentIds,
    format,
    ...(packingSlips && format !== 'zpl_4x6' ? { packing_slips: true } : {}),
  });
  saveBlob(blob, `labels-${shipmentIds.length}-${new Date().toISOString().slice(0, 10)}.${format === 'zpl_4x6' ? 'zpl' : 'pdf'}`);
}

export function fetchPackingSlip(orderId: string): Promise<Blob> {
  return fetchAdminFile(`/api/admin/orders/${encodeURIComponent(orderId)}/packing-slip`);
}

export async function downloadLabel(shipmentId: string, trackingNumber: string, format: LabelFormat): Promise<void> {
  saveBlob(await fetchLabel(shipmentId, format), `label-${trackingNumber}-${format}.${LABEL_EXT[format]}`);
}

/** A customs document of a shipment, as GET /api/admin/shipments/:id/documents lists it. */
export interface ShipmentDocument {
  type: string;
  format: string;
  source: 'platform' | 'carrier';
  url: string;
}

const DOCUMENT_NAMES: Record<string, string> = {
  cn22: 'CN 22 customs declaration',
  cn23: 'CN 23 customs declaration',
  commercial_invoice: 'Commercial invoice',
};

/** "CN 22 customs declaration", "Commercial invoice", or a carrier's type in words ("Waybill"). */
export function documentName(type: string): string {
  const words = type.replace(/_/g, ' ');
  return DOCUMENT_NAMES[type] ?? words.charAt(0).toUpperCase() + words.slice(1);
}

const documentsPath = (shipmentId: string) => `/api/admin/shipments/${encodeURIComponent(shipmentId)}/documents`;

// A plain fetch with the scope headers (the route is newer than the generated client's schema:
// once that is regenerated, api.GET('/api/admin/shipments/{id}/documents') reads the same).
export async function fetchDocuments(shipmentId: string): Promise<ShipmentDocument[]> {
  const blob = await fetchAdminFile(documentsPath(shipmentId));
  return (JSON.parse(await blob.text()) as { data: ShipmentDocument[] }).data ?? [];
}

export function fetchDocument(shipmentId: string, type: string): Promise<Blob> {
  return fetchAdminFile(`${documentsPath(shipmentId)}/${encodeURIComponent(type)}`);
}

export async function downloadDocument(shipmentId: string, trackingNumber: string, doc: ShipmentDocument): Promise<void> {
  saveBlob(await fetchDocument(shipmentId, doc.type), `${doc.type}-${trackingNumber}.${doc.format}`);
}

/** Opens the document in a new tab (a blob: URL: the browser's own PDF viewer shows it). */
export async function previewDocument(shipmentId: string, type: string): Promise<void> {
  const url = URL.createObjectURL(await fetchDocument(shipmentId, type));
  const a = document.createElement('a');
  a.href = url;
  a.target = '_blank';
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
