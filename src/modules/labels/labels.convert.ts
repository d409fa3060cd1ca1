import type { GifReader as GifReaderClass } from 'omggif';
import type { PDFDocument as PdfLibDocumentClass } from 'pdf-lib';
import type PdfKitDocument from 'pdfkit';
import type { PNG as PngClass } from 'pngjs';

/**
 * The image and PDF libraries, loaded on first use rather than at start-up: pdf-lib alone is
 * ~135 ms of import, and only a carrier's label needs any of them (restart under 1.5 s).
 * Three are CommonJS: bundled, their exports arrive on `default`, so each is read from either.
 */
export async function libs() {
  const [omggif, pdfLib, pdfkit, pngjs] = await Promise.all([import('omggif'), import('pdf-lib'), import('pdfkit'), import('pngjs')]);
  const either = <T>(m: unknown, name: string): T =>
    ((m as Record<string, unknown>)[name] ?? (m as { default?: Record<string, unknown> }).default?.[name]) as T;
  return {
    GifReader: either<typeof GifReaderClass>(omggif, 'GifReader'),
    PdfLibDocument: either<typeof PdfLibDocumentClass>(pdfLib, 'PDFDocument'),
    PDFDocument: ((pdfkit as { default?: unknown }).default ?? pdfkit) as typeof PdfKitDocument,
    PNG: either<typeof PngClass>(pngjs, 'PNG'),
  };
}
import { LABEL_HEIGHT_PT, LABEL_WIDTH_PT, LETTER, LETTER_OFFSET } from './labels.page.js';
import { labelContentType, labelFileExtension, type LabelFormat, type RenderedLabel } from './labels.types.js';

/** A label exactly as a carrier issued it. */
export interface CarrierLabelImage {
  format: 'GIF' | 'PNG' | 'ZPL' | 'PDF';
  bytes: Buffer;
}

/**
 * A carrier's label in one of our formats, where that is lossless: the same
 * format as is; a GIF or PNG as a PNG (pixels copied) or placed whole on a PDF page (4×6, or
 * the top of a letter page); a PDF's pages placed whole on letter pages (copied as vectors,
 * never redrawn); null for anything that would need re-rasterising or re-encoding a printer
 * language (a PDF as PNG, an image as ZPL, ZPL as anything else).
 */
export async function convertCarrierLabel(label: CarrierLabelImage, wanted: LabelFormat): Promise<RenderedLabel | null> {
  const as = (body: Buffer): RenderedLabel => ({ body, content_type: labelContentType(wanted), file_extension: labelFileExtension(wanted) });
  const asOrNull = (body: Buffer | null) => (body ? as(body) : null);
  if (label.format === 'ZPL') return wanted === 'zpl_4x6' ? as(label.bytes) : null;
  if (label.format === 'PDF') return wanted === 'pdf_4x6' ? as(label.bytes) : wanted === 'pdf_letter' ? asOrNull(await pdfOnLetter(label.bytes)) : null;
  if (wanted === 'zpl_4x6') return null;
  const png = label.format === 'PNG' ? label.bytes : await gifToPng(label.bytes);
  if (wanted === 'png_4x6') return as(png);
  return as(await imagePdf(png, wanted === 'pdf_letter' ? 'letter' : 'label_4x6'));
}

/** The format a carrier's image is served as without any conversion (what a 422 can point to). */
export function issuedLabelFormat(format: CarrierLabelImage['format']): LabelFormat {
  return format === 'PDF' ? 'pdf_4x6' : format === 'ZPL' ? 'zpl_4x6' : 'png_4x6';
}

/**
 * Each page of a carrier's PDF label on a letter page where our own 4×6 sits (centred, near
 * the top), copied as it is (its content moved, never redrawn): at its own size, or scaled down
 * whole if it would not fit. Null when the carrier's file cannot be read as a PDF (a 422, never
 * a 500: a carrier's odd file is not our failure).
 */
async function pdfOnLetter(pdf: Buffer): Promise<Buffer | null> {
  try {
    const { PdfLibDocument } = await libs();
    const source = await PdfLibDocument.load(pdf);
    const out = await PdfLibDocument.create();
    out.setProducer('shipping-service');
    out.setCreator('shipping-service');
    for (const page of await out.copyPages(source, source.getPageIndices())) {
      const box = page.getMediaBox();
      const scale = Math.min(1, LETTER.w / box.width, (LETTER.h - 2 * LETTER_OFFSET.y) / box.height);
      if (scale < 1) page.scaleContent(scale, scale);
      // PDF measures from the bottom-left corner; the label hangs from the top offset.
      const x = (LETTER.w - box.width * scale) / 2;
      const y = LETTER.h - LETTER_OFFSET.y - box.height * scale;
      page.translateContent(x - box.x * scale, y - box.y * scale);
      page.setMediaBox(0, 0, LETTER.w, LETTER.h);
      page.setCropBox(0, 0, LETTER.w, LETTER.h);
      out.addPage(page);
    }
    return Buffer.from(await out.save());
  } catch {
    return null;
  }
}

/** The first frame of a GIF as a PNG, pixel for pixel. */
async function gifToPng(gif: Buffer): Promise<Buffer> {
  const { GifReader, PNG } = await libs();
  const reader = new GifReader(new Uint8Array(gif.buffer, gif.byteOffset, gif.byteLength));
  const png = new PNG({ width: reader.width, height: reader.height });
  const rgba = new Uint8Array(reader.width * reader.height * 4);
  reader.decodeAndBlitFrameRGBA(0, rgba);
  png.data = Buffer.from(rgba.buffer);
  return PNG.sync.write(png);
}

/**
 * The image on one PDF page, scaled to fit the 4×6 area and turned upright when it is landscape
 * (UPS issues its 4×6 GIF lying on its side).
 */
async function imagePdf(png: Buffer, page: 'label_4x6' | 'letter'): Promise<Buffer> {
  const { PDFDocument, PNG } = await libs();
  const { width, height } = PNG.sync.read(png, { skipRescale: true } as never);
  const landscape = width > height;
  const doc = new PDFDocument({ autoFirstPage: false, compress: true, info: { Producer: 'shipping-service', Creator: 'shipping-service' } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const origin = page === 'letter' ? LETTER_OFFSET : { x: 0, y: 0 };
  doc.addPage({ size: page === 'letter' ? [LETTER.w, LETTER.h] : [LABEL_WIDTH_PT, LABEL_HEIGHT_PT], margin: 0 });
  doc.save().translate(origin.x, origin.y);
  if (landscape) {
    // Turned a quarter clockwise: the image's width runs down the page.
    doc.translate(LABEL_WIDTH_PT, 0).rotate(90);
    doc.image(png, 0, 0, { fit: [LABEL_HEIGHT_PT, LABEL_WIDTH_PT] });
  } else {
    doc.image(png, 0, 0, { fit: [LABEL_WIDTH_PT, LABEL_HEIGHT_PT] });
  }
  doc.restore();
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
