import { deflateSync } from 'node:zlib';
import { Encodings, Font, FontNames } from '@pdf-lib/standard-fonts';
import type { Primitive } from './labels.layout.js';
import { DPI, LABEL_HEIGHT_PT, LABEL_WIDTH_PT, LETTER, LETTER_OFFSET } from './labels.page.js';
import { isWinAnsi, winAnsiByte } from './labels.text.js';

/**
 * The label PDF written directly, for labels whose every text is WinAnsi (the standard Helvetica
 * prints it; labels.pdf.ts sends the rest to pdfkit, which embeds fonts for other scripts). A
 * label is a few dozen boxes, lines of text and bars: pdfkit spent ~4 ms of CPU on one (most of
 * it looking up kerning pairs and turning each drawing operation into bytes), this ~1.2 ms with
 * the layout and barcode, and a label is drawn for every purchase and batch item
 * (docs/architecture.md "Labels"). What is drawn is the same: the same fonts (Helvetica and
 * Helvetica-Bold, not embedded, WinAnsiEncoding), the same positions, text set with the metrics
 * and kerning pdfkit uses (below).
 */
export interface PdfDocumentInfo {
  title: string;
  /** The document's creation date (fixed per label: the same label is the same bytes). */
  created?: Date;
}

export interface PdfPageSpec {
  prims: Primitive[];
  page: 'label_4x6' | 'letter';
}

/** Whether every text of the page can be written by this writer. */
function writable(prims: readonly Primitive[]): boolean {
  for (const p of prims) if (p.kind === 'text') for (const ch of p.text) if (!isWinAnsi(ch)) return false;
  return true;
}

/** The cut line's caption on a letter page (pdfkit's path in labels.pdf.ts draws it too). */
export const LETTER_CAPTION = 'Cut along the dashed line and attach the label to the largest side of the package.';

/**
 * Helvetica's metrics: each character's width and each pair's kerning, in thousandths of the font
 * size, from Adobe's metrics of the standard fonts as `@pdf-lib/standard-fonts` holds them (the
 * same numbers pdfkit sets text with: every WinAnsi character and pair compared equal). Not
 * pdfkit itself: loading it had made a new render thread's first label ~95 ms slower and the
 * thread ~12 MiB larger (docs/architecture.md "Labels").
 */
class StandardMetrics {
  private readonly widths = new Map<number, number>();
  private readonly kerns = new Map<number, number>();
  private readonly font: Font;

  constructor(name: 'Helvetica' | 'Helvetica-Bold') {
    this.font = Font.load(name === 'Helvetica' ? FontNames.Helvetica : FontNames.HelveticaBold);
  }

  width(code: number, ch: string): number {
    let w = this.widths.get(code);
    if (w === undefined) this.widths.set(code, (w = this.font.getWidthOfGlyph(glyphName(ch)) ?? 0));
    return w;
  }

  kern(a: number, aCh: string, b: number, bCh: string): number {
    const key = (a << 8) | b;
    let k = this.kerns.get(key);
    if (k === undefined) this.kerns.set(key, (k = this.font.getXAxisKerningForPair(glyphName(aCh), glyphName(bCh)) ?? 0));
    return k;
  }
}

/** The glyph a WinAnsi character prints (the writer only sets text that WinAnsi holds: `writable`). */
const glyphName = (ch: string) => Encodings.WinAnsi.encodeUnicodeCodePoint(ch.codePointAt(0)!).name;

let metrics: { regular: StandardMetrics; bold: StandardMetrics } | undefined;
const metricsOf = (bold: boolean) => {
  metrics ??= { regular: new StandardMetrics('Helvetica'), bold: new StandardMetrics('Helvetica-Bold') };
  return bold ? metrics.bold : metrics.regular;
};

/** Helvetica's (and Helvetica-Bold's) ascender: pdfkit puts a text's baseline this far below its top. */
const ASCENDER = 718;

/** A number as PDF operands are written (pdfkit rounds to 6 decimals too). */
const num = (n: number) => String(Math.round(n * 1e6) / 1e6);

/** One line of text as TJ operands (hex glyph codes, kerning between them) and its width in points. */
function setText(text: string, size: number, bold: boolean): { tj: string; width: number } {
  const m = metricsOf(bold);
  const chars = [...text];
  const codes = chars.map((ch) => winAnsiByte(ch) ?? 0x3f);
  let units = 0;
  let tj = '';
  let hex = '';
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i]!;
    units += m.width(code, chars[i]!);
    hex += code.toString(16).padStart(2, '0');
    if (i + 1 < codes.length) {
      const kern = m.kern(code, chars[i]!, codes[i + 1]!, chars[i + 1]!);
      if (kern !== 0) {
        units += kern;
        tj += `<${hex}> ${num(-kern)} `;
        hex = '';
      }
    }
  }
  if (hex) tj += `<${hex}> 0`;
  return { tj: tj.trimEnd(), width: (units * size) / 1000 };
}

/**
 * A text whose top is at (x, top) in page coordinates from the top-left, aligned in `width`;
 * `h` is the page height (PDF's origin is bottom-left).
 */
function textOps(text: string, x: number, top: number, size: number, bold: boolean, align: 'left' | 'center' | 'right', width: number, h: number): string {
  if (text.length === 0) return '';
  const { tj, width: w } = setText(text, size, bold);
  const at = align === 'center' ? x + (width - w) / 2 : align === 'right' ? x + width - w : x;
  const baseline = h - top - (ASCENDER / 1000) * size;
  return `BT\n1 0 0 1 ${num(at)} ${num(baseline)} Tm\n/${bold ? 'F2' : 'F1'} ${num(size)} Tf\n[${tj}] TJ\nET\n`;
}

/**
 * A rectangle given by its top-left corner in page coordinates, drawn from that corner rightwards
 * (a negative height), as pdfkit's flipped page draws it: a dashed outline starts its dashes there.
 */
const rect = (x: number, y: number, w: number, rh: number, h: number) => `${num(x)} ${num(h - y)} ${num(w)} ${num(-rh)} re\n`;

/** The label's drawing operations, on a page `h` high. */
function labelOps(prims: readonly Primitive[], h: number): string {
  let ops = '';
  for (const p of prims) {
    switch (p.kind) {
      case 'box':
        if (p.fill) ops += `0 0 0 rg\n${rect(p.x, p.y, p.w, p.h, h)}f\n`;
        else ops += `${num(p.line)} w\n0 0 0 RG\n${rect(p.x + p.line / 2, p.y + p.line / 2, p.w - p.line, p.h - p.line, h)}S\n`;
        break;
      case 'text':
        ops += `${p.inverse ? '1 1 1' : '0 0 0'} rg\n${textOps(p.text, p.x, p.y, p.size, p.bold, p.align, p.width, h)}`;
        break;
      case 'barcode': {
        const mw = (p.moduleDots * 72) / DPI;
        let pos = 0;
        ops += '0 0 0 rg\n';
        p.barcode.bars.forEach((width, i) => {
          if (i % 2 === 0) ops += rect(p.x + pos * mw, p.y, width * mw, p.h, h);
          pos += width;
        });
        ops += 'f\n';
        break;
      }
    }
  }
  return ops;
}

function pageOps(spec: PdfPageSpec): { ops: string; w: number; h: number } {
  if (spec.page === 'label_4x6') return { ops: labelOps(spec.prims, LABEL_HEIGHT_PT), w: LABEL_WIDTH_PT, h: LABEL_HEIGHT_PT };
  const h = LETTER.h;
  const cut = `0.75 w\n[4 3] 0 d\n0 0 0 RG\n${rect(LETTER_OFFSET.x - 6, LETTER_OFFSET.y - 6, LABEL_WIDTH_PT + 12, LABEL_HEIGHT_PT + 12, h)}S\n[] 0 d\n`;
  const caption = `0 0 0 rg\n${textOps(LETTER_CAPTION, 72, LETTER_OFFSET.y + LABEL_HEIGHT_PT + 18, 9, false, 'center', LETTER.w - 144, h)}`;
  // The label moved to its place on the page by a transformation, as pdfkit's translate does.
  const label = `q\n1 0 0 1 ${num(LETTER_OFFSET.x)} ${num(-LETTER_OFFSET.y)} cm\n${labelOps(spec.prims, h)}Q\n`;
  return { ops: label + cut + caption, w: LETTER.w, h };
}

/** A PDF literal string of ASCII text (the document's information). */
const pdfString = (s: string) => `(${s.replace(/[^\x20-\x7e]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`)})`;

/** `D:YYYYMMDDHHmmssZ`, as pdfkit writes dates. */
const pdfDate = (d: Date) => `D:${d.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;

/**
 * The whole file: catalog, pages, the two fonts, information, then each page and its content;
 * null when a page holds text this writer cannot set (labels.pdf.ts then uses pdfkit). Each page
 * is asked for (`page(i)`) when it is written and kept only as its bytes, each content stream
 * copied out of the 16 KB buffer zlib returns it in: a merged file of 10,000 labels had held
 * every page's layout and a 16 KB buffer per ~1 KB stream (docs/architecture.md "Labels").
 */
export function writeLabelPdf(count: number, page: (i: number) => PdfPageSpec, info: PdfDocumentInfo): Buffer | null {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (b: Buffer) => {
    parts.push(b);
    length += b.length;
  };
  push(Buffer.from('%PDF-1.3\n%\xff\xff\xff\xff\n', 'latin1'));
  /** An object; with `stream`, a stream object whose dictionary is `body` (one exact-size copy: zlib returns a stream as a view of a 16 KB buffer). */
  const object = (id: number, body: string, stream?: Buffer) => {
    offsets[id] = length;
    if (!stream) push(Buffer.from(`${id} 0 obj\n${body}\nendobj\n`, 'latin1'));
    else push(Buffer.concat([Buffer.from(`${id} 0 obj\n${body}\nstream\n`, 'latin1'), stream, Buffer.from('\nendstream\nendobj\n', 'latin1')]));
  };
  const FIRST_PAGE = 6;
  const kids = Array.from({ length: count }, (_, i) => `${FIRST_PAGE + 2 * i} 0 R`).join(' ');
  object(1, '<<\n/Type /Catalog\n/Pages 2 0 R\n>>');
  object(2, `<<\n/Type /Pages\n/Count ${count}\n/Kids [${kids}]\n>>`);
  object(3, '<<\n/Type /Font\n/BaseFont /Helvetica\n/Subtype /Type1\n/Encoding /WinAnsiEncoding\n>>');
  object(4, '<<\n/Type /Font\n/BaseFont /Helvetica-Bold\n/Subtype /Type1\n/Encoding /WinAnsiEncoding\n>>');
  const created = info.created ? `\n/CreationDate (${pdfDate(info.created)})` : '';
  object(5, `<<\n/Producer (shipping-service)\n/Creator (shipping-service)\n/Title ${pdfString(info.title)}${created}\n>>`);
  for (let i = 0; i < count; i++) {
    const spec = page(i);
    if (!writable(spec.prims)) return null;
    const id = FIRST_PAGE + 2 * i;
    const { ops, w, h } = pageOps(spec);
    object(
      id,
      `<<\n/Type /Page\n/Parent 2 0 R\n/MediaBox [0 0 ${w} ${h}]\n/Contents ${id + 1} 0 R\n/Resources <<\n/ProcSet [/PDF /Text]\n/Font <<\n/F1 3 0 R\n/F2 4 0 R\n>>\n>>\n>>`,
    );
    const stream = deflateSync(Buffer.from(ops, 'latin1'));
    object(id + 1, `<<\n/Length ${stream.length}\n/Filter /FlateDecode\n>>`, stream);
  }
  const size = FIRST_PAGE + 2 * count;
  const xrefAt = length;
  let xref = `xref\n0 ${size}\n0000000000 65535 f \n`;
  for (let id = 1; id < size; id++) xref += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  push(Buffer.from(`${xref}trailer\n<<\n/Size ${size}\n/Root 1 0 R\n/Info 5 0 R\n>>\nstartxref\n${xrefAt}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts, length);
}
