import type { ManifestDocumentData } from './labels.manifest.js';
import type { PackingSlipData } from './labels.packing-slip.js';
import { labelContentType, labelFileExtension, type CustomsDocumentData, type LabelData, type LabelFormat, type RenderedLabel } from './labels.types.js';

// The writers and the other documents drawn with the label fonts (and with them pdfkit and
// bwip-js, ~1.6 MB of code) are imported on first use, so a process that never renders one does
// not pay for them at start-up (docs/architecture.md, "Start-up").
const pdfWriter = () => import('./labels.pdf.js');
const pngWriter = () => import('./labels.png.js');
const zplWriter = () => import('./labels.zpl.js');
const customsWriter = () => import('./labels.customs.js');
const manifestWriter = () => import('./labels.manifest.js');
const voidStamp = () => import('./labels.stamp.js');
const packingSlipWriter = () => import('./labels.packing-slip.js');

function rendered(body: Buffer, format: LabelFormat): RenderedLabel {
  return { body, content_type: labelContentType(format), file_extension: labelFileExtension(format) };
}

/** One label in one format. */
export async function renderLabel(data: LabelData, format: LabelFormat): Promise<RenderedLabel> {
  switch (format) {
    case 'pdf_4x6':
    case 'pdf_letter':
      return rendered(await (await pdfWriter()).renderPdf([data], format === 'pdf_4x6' ? 'label_4x6' : 'letter'), format);
    case 'png_4x6':
      return rendered((await pngWriter()).renderPng(data), format);
    case 'zpl_4x6':
      return rendered(Buffer.from((await zplWriter()).renderZpl(data), 'utf8'), format);
    default:
      throw new TypeError(`unknown label format ${String(format)}`);
  }
}

/**
 * A multi-piece shipment's label file: one page per package in every format (PDF pages, one
 * ^XA…^XZ format per package in ZPL; a PNG, having one page, stacks the labels top to bottom).
 */
export async function renderPackageLabels(data: LabelData[], format: LabelFormat): Promise<RenderedLabel> {
  if (data.length === 0) throw new RangeError('renderPackageLabels needs at least one label');
  if (data.length === 1) return renderLabel(data[0]!, format);
  if (format === 'png_4x6') return rendered((await pngWriter()).renderPngStack(data), format);
  return renderLabelSet(data, format);
}

/**
 * Many labels in one file (batches): PDF formats one page per label; ZPL the formats one after
 * the other; PNG — an image holds one label — the 4×6 in multi-page PDF of the same labels
 * (so the answer's content_type is application/pdf, extension pdf). An empty list is an error.
 */
export async function renderLabelSet(data: LabelData[], format: LabelFormat): Promise<RenderedLabel> {
  if (data.length === 0) throw new RangeError('renderLabelSet needs at least one label');
  switch (format) {
    case 'pdf_4x6':
    case 'png_4x6':
      return rendered(await (await pdfWriter()).renderPdf(data, 'label_4x6'), 'pdf_4x6');
    case 'pdf_letter':
      return rendered(await (await pdfWriter()).renderPdf(data, 'letter'), format);
    case 'zpl_4x6': {
      const { renderZpl } = await zplWriter();
      return rendered(Buffer.from(`${data.map(renderZpl).join('\n')}\n`, 'utf8'), format);
    }
    default:
      throw new TypeError(`unknown label format ${String(format)}`);
  }
}

/** A customs document (CN 22, CN 23, commercial invoice) as a PDF. */
export async function renderCustomsDocument(data: CustomsDocumentData): Promise<RenderedLabel> {
  return { body: await (await customsWriter()).renderCustomsPdf(data), content_type: 'application/pdf', file_extension: 'pdf' };
}

/** A manifest's SCAN form (PDF). */
export async function renderManifestDocument(data: ManifestDocumentData): Promise<Buffer> {
  return (await manifestWriter()).renderManifestDocument(data);
}

/** The same label file with VOID across every page. */
export async function stampVoid(body: Buffer, contentType: string): Promise<Buffer> {
  return (await voidStamp()).stampVoid(body, contentType);
}

/** An order's packing slip (PDF). */
export async function renderPackingSlip(data: PackingSlipData): Promise<Buffer> {
  return (await packingSlipWriter()).renderPackingSlip(data);
}
