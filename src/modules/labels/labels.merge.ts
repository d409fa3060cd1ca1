import { libs } from './labels.convert.js';

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
