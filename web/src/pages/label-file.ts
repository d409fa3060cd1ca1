import { scope } from '../api/client';

export const LABEL_FORMATS = ['pdf_4x6', 'pdf_letter', 'png_4x6', 'zpl_4x6'] as const;
export type LabelFormat = (typeof LABEL_FORMATS)[number];
const EXT: Record<LabelFormat, string> = { pdf_4x6: 'pdf', pdf_letter: 'pdf', png_4x6: 'png', zpl_4x6: 'zpl' };

/**
 * The admin label route needs the workspace/environment headers, which an <img src> or a plain
 * link cannot send: fetch it with them and hand the page a blob: URL (allowed by the CSP's img-src).
 */
export async function fetchLabel(shipmentId: string, format: LabelFormat): Promise<Blob> {
  const res = await fetch(`/api/admin/shipments/${encodeURIComponent(shipmentId)}/label?format=${format}`, {
    credentials: 'same-origin',
    headers: { ...(scope.workspaceId ? { 'X-Service-Workspace': scope.workspaceId } : {}), 'X-Service-Environment': scope.environment },
  });
  if (!res.ok) throw new Error(`The label could not be loaded (${res.status}).`);
  return res.blob();
}

export async function downloadLabel(shipmentId: string, trackingNumber: string, format: LabelFormat): Promise<void> {
  const url = URL.createObjectURL(await fetchLabel(shipmentId, format));
  const a = document.createElement('a');
  a.href = url;
  a.download = `label-${trackingNumber}-${format}.${EXT[format]}`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
