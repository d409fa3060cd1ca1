import type { ManifestDocumentData } from './labels.manifest.js';
import type { PackingSlipData } from './labels.packing-slip.js';

// The documents drawn with the label fonts and the barcode encoder (bwip-js, ~1.6 MB of code)
// load on first use, as the label writers do (labels.render.ts): a process that never draws
// one does not pay for them at start-up (docs/architecture.md, "Start-up").

/** A manifest's SCAN form (PDF). */
export async function renderManifestDocument(data: ManifestDocumentData): Promise<Buffer> {
  return (await import('./labels.manifest.js')).renderManifestDocument(data);
}

/** The same label file with VOID across every page. */
export async function stampVoid(body: Buffer, contentType: string): Promise<Buffer> {
  return (await import('./labels.stamp.js')).stampVoid(body, contentType);
}

/** An order's packing slip (PDF). */
export async function renderPackingSlip(data: PackingSlipData): Promise<Buffer> {
  return (await import('./labels.packing-slip.js')).renderPackingSlip(data);
}
