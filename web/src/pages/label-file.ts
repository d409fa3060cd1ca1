import { scope } from '../api/client';

export const LABEL_FORMATS = ['pdf_4x6', 'pdf_letter', 'png_4x6', 'zpl_4x6'] as const;
export type LabelFormat = (typeof LABEL_FORMATS)[number];
export const LABEL_EXT: Record<LabelFormat, string> = { pdf_4x6: 'pdf', pdf_letter: 'pdf', png_4x6: 'png', zpl_4x6: 'zpl' };

/**
 * A file from an /api/admin route (a label, a batch's merged label). Those routes need the
 * workspace/environment headers, which an <img src> or a plain link cannot send: fetch with
 * them and hand the page a Blob (shown through a blob: URL, which the CSP's img-src allows).
 */
export async function fetchAdminFile(path: string): Promise<Blob> {
  let res: Response;
  try {
    res = await fetch(path, {
      credentials: 'same-origin',
      headers: { ...(scope.workspaceId ? { 'X-Service-Workspace': scope.workspaceId } : {}), 'X-Service-Environment': scope.environment },
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

export async function downloadLabel(shipmentId: string, trackingNumber: string, format: LabelFormat): Promise<void> {
  saveBlob(await fetchLabel(shipmentId, format), `label-${trackingNumber}-${format}.${LABEL_EXT[format]}`);
}
