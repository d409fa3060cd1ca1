import { layoutLabel, type Primitive } from './labels.layout.js';
import { DPI, LABEL_HEIGHT_PT, LABEL_WIDTH_PT, LETTER, LETTER_OFFSET } from './labels.page.js';
import { drawPdfText } from './labels.pdf-text.js';
import { LETTER_CAPTION, writeLabelPdf, type PdfDocumentInfo, type PdfPageSpec } from './labels.pdf-writer.js';
import type { LabelData } from './labels.types.js';

/**
 * PDF labels in the standard Helvetica fonts (not embedded: a label is ~2 KB), written directly
 * (labels.pdf-writer.ts) when Helvetica shows every text, else with pdfkit, which sets the rest
 * in embedded, subset fonts (labels.pdf-text.ts). The barcode is drawn as vector bars whose
 * widths are whole printer dots at 203 dpi, so a thermal printer reproduces them without rounding.
 */
export type PdfPage = 'label_4x6' | 'letter';

function draw(doc: PDFKit.PDFDocument, prims: Primitive[]): void {
  for (const p of prims) {
    switch (p.kind) {
      case 'box':
        if (p.fill) doc.rect(p.x, p.y, p.w, p.h).fill('black');
        else
          doc
            .lineWidth(p.line)
            .rect(p.x + p.line / 2, p.y + p.line / 2, p.w - p.line, p.h - p.line)
            .stroke('black');
        break;
      case 'text':
        doc.fillColor(p.inverse ? 'white' : 'black');
        drawPdfText(doc, p.text, p.x, p.y, p.size, p.bold, p.align, p.width);
        break;
      case 'barcode': {
        const mw = (p.moduleDots * 72) / DPI;
        let pos = 0;
        p.barcode.bars.forEach((width, i) => {
          if (i % 2 === 0) doc.rect(p.x + pos * mw, p.y, width * mw, p.h);
          pos += width;
        });
        doc.fill('black');
        break;
      }
    }
  }
}

/**
 * pdfkit builds a standard font's metrics (its thousands of kerning pairs) anew in every
 * document — the largest single cost of a label. The metrics never change, so each later
 * document gets its own font objects (own id, own PDF reference) sharing the metrics parsed
 * for the first. This leans on pdfkit internals (`_fontFamilies`, `_fontCount`, StandardFont's
 * fields); should they change shape, the shortcut turns itself off and pdfkit parses as before.
 */
const FONTS = ['Helvetica', 'Helvetica-Bold'] as const;
interface StandardFontLike {
  document: unknown;
  name: string;
  id: string;
  font: object;
  ascender: number;
  descender: number;
  bbox: number[];
  lineGap: number;
  xHeight: number;
  capHeight: number;
}
interface DocFonts {
  _fontFamilies?: Record<string, StandardFontLike>;
  _fontCount?: number;
}
let sharedFonts: Record<string, StandardFontLike> | null | undefined;

function useSharedFonts(doc: PDFKit.PDFDocument): void {
  const d = doc as unknown as DocFonts;
  if (sharedFonts === null || !d._fontFamilies || typeof d._fontCount !== 'number') {
    for (const name of FONTS) doc.font(name);
    return;
  }
  if (sharedFonts === undefined) {
    for (const name of FONTS) doc.font(name);
    const found: Record<string, StandardFontLike> = {};
    for (const name of FONTS) {
      const f = d._fontFamilies[name];
      if (!f || f.document !== doc || typeof f.font !== 'object' || !Array.isArray(f.bbox)) {
        sharedFonts = null;
        return;
      }
      found[name] = f;
    }
    sharedFonts = found;
    return;
  }
  for (const name of FONTS) {
    const t = sharedFonts[name]!;
    const own: StandardFontLike = Object.assign(Object.create(Object.getPrototypeOf(t) as object) as StandardFontLike, {
      document: doc,
      name: t.name,
      id: `F${++d._fontCount}`,
      font: t.font,
      ascender: t.ascender,
      descender: t.descender,
      bbox: t.bbox,
      lineGap: t.lineGap,
      xHeight: t.xHeight,
      capHeight: t.capHeight,
    });
    d._fontFamilies[name] = own;
  }
}

function creationDate(data: LabelData): Date | undefined {
  // A fixed date makes the same label the same bytes (cacheable, comparable).
  const d = new Date(`${data.ship_date}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/**
 * One page per label: 4×6 in pages, or letter pages with the label at the top and a cut line.
 * Labels whose text Helvetica prints (nearly all) are written directly (labels.pdf-writer.ts);
 * the others through pdfkit, which embeds fonts for the scripts Helvetica lacks. `via` forces
 * pdfkit (the tests compare the two).
 */
export async function renderPdf(labels: LabelData[], page: PdfPage, via?: 'pdfkit'): Promise<Buffer> {
  const first = labels[0];
  const info = {
    title: labels.length === 1 && first ? `Shipping label ${first.tracking_number}` : `Shipping labels (${labels.length})`,
    created: first ? creationDate(first) : undefined,
  };
  const pageOf = (i: number): PdfPageSpec => ({ prims: layoutLabel(labels[i]!), page });
  if (via !== 'pdfkit') {
    const direct = writeLabelPdf(labels.length, pageOf, info);
    if (direct) return direct;
  }
  return renderWithPdfkit(
    labels.map((_, i) => pageOf(i)),
    info,
  );
}

async function renderWithPdfkit(pages: readonly PdfPageSpec[], { title, created }: PdfDocumentInfo): Promise<Buffer> {
  // Loaded for the labels that need it only: the render thread starts without it (docs/architecture.md "Labels").
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    autoFirstPage: false,
    // No default font: useSharedFonts below provides both.
    font: null as unknown as string,
    compress: true,
    info: { Title: title, Producer: 'shipping-service', Creator: 'shipping-service', CreationDate: created },
  });
  useSharedFonts(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  for (const { prims, page } of pages) {
    if (page === 'label_4x6') {
      doc.addPage({ size: [LABEL_WIDTH_PT, LABEL_HEIGHT_PT], margin: 0 });
      draw(doc, prims);
    } else {
      doc.addPage({ size: [LETTER.w, LETTER.h], margin: 0 });
      doc.save().translate(LETTER_OFFSET.x, LETTER_OFFSET.y);
      draw(doc, prims);
      doc.restore();
      doc
        .lineWidth(0.75)
        .dash(4, { space: 3 })
        .rect(LETTER_OFFSET.x - 6, LETTER_OFFSET.y - 6, LABEL_WIDTH_PT + 12, LABEL_HEIGHT_PT + 12)
        .stroke('black')
        .undash();
      doc
        .font('Helvetica')
        .fontSize(9)
        .fillColor('black')
        .text(LETTER_CAPTION, 72, LETTER_OFFSET.y + LABEL_HEIGHT_PT + 18, {
          width: LETTER.w - 144,
          align: 'center',
        });
    }
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
