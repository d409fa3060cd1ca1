import { convertCarrierLabel, libs, type CarrierLabelImage } from './labels.convert.js';
import type { LabelFormat, RenderedLabel } from './labels.types.js';

/**
 * One file from several labels, in order: PDFs page after page (a carrier's own PDF pages are
 * copied as they are, never redrawn), ZPL documents one after the other (a printer takes them
 * as a stream). Used where labels come from different sources (the platform's and carriers').
 */
export async function mergeLabelFiles(files: readonly Buffer[], kind: 'pdf' | 'zpl'): Promise<Buffer> {
  if (kind === 'zpl') return Buffer.concat(files.flatMap((f) => [f, Buffer.from('\n')]));
  // Loaded on first use, as for conversion: only a batch of carriers' labels needs pdf-lib.
  const { PdfLibDocument: PDFDocument } = await libs();
  const merged = await PDFDocument.create();
  merged.setProducer('shipping-service');
  merged.setCreator('shipping-service');
  for (const file of files) {
    const source = await PDFDocument.load(file);
    for (const page of await merged.copyPages(source, source.getPageIndices())) merged.addPage(page);
  }
  return Buffer.from(await merged.save());
}

/**
 * A multi-piece shipment's carrier labels (one image per package, the master first) as one
 * file of the wanted format, a page per package: each converted as a single label would be
 * (convertCarrierLabel), then PDFs merged page after page, ZPL documents one after the other,
 * PNGs stacked top to bottom (an image has one page, as our own multi-piece PNG:
 * labels.png.ts renderPngStack). Null when one of them cannot become that format without loss.
 */
export async function convertCarrierLabels(labels: readonly CarrierLabelImage[], wanted: LabelFormat): Promise<RenderedLabel | null> {
  if (labels.length === 0) throw new RangeError('convertCarrierLabels needs at least one label');
  if (labels.length === 1) return convertCarrierLabel(labels[0]!, wanted);
  const converted: RenderedLabel[] = [];
  for (const label of labels) {
    const one = await convertCarrierLabel(label, wanted);
    if (!one) return null;
    converted.push(one);
  }
  const bodies = converted.map((c) => c.body);
  try {
    const body =
      wanted === 'zpl_4x6' ? await mergeLabelFiles(bodies, 'zpl') : wanted === 'png_4x6' ? await stackPngs(bodies) : await mergeLabelFiles(bodies, 'pdf');
    return { ...converted[0]!, body };
  } catch {
    // A carrier's file we cannot read is a 422 (label_format_unavailable), never a 500.
    return null;
  }
}

/** PNG images one under the other, left-aligned on white where their widths differ (pixels copied, never scaled). */
async function stackPngs(images: readonly Buffer[]): Promise<Buffer> {
  const { PNG } = await libs();
  const decoded = images.map((b) => PNG.sync.read(b));
  const width = Math.max(...decoded.map((d) => d.width));
  const height = decoded.reduce((s, d) => s + d.height, 0);
  const out = new PNG({ width, height });
  out.data.fill(0xff);
  let top = 0;
  for (const d of decoded) {
    for (let row = 0; row < d.height; row++) d.data.copy(out.data, (top + row) * width * 4, row * d.width * 4, (row + 1) * d.width * 4);
    top += d.height;
  }
  return PNG.sync.write(out);
}
