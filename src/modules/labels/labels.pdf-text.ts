import { fontBytes, fontFace, type FontFace } from './labels.fonts.js';
import { isWinAnsi } from './labels.text.js';

/**
 * Text on a pdfkit page in any script. What WinAnsi holds is set in the standard Helvetica
 * (not embedded: most labels stay ~3 KB); the rest in embedded DejaVu Sans or, for what that
 * lacks (Japanese, CJK), Noto Sans JP — registered in a document only when a text needs it,
 * and subset by pdfkit, so a label with a Japanese name grows by the few glyphs it prints.
 * Runs of one font are set one after the other on a common baseline (Helvetica's), so the
 * text extracts as one string (pdftotext) and reads as one line.
 */
type RunFont = 'std' | FontFace;
interface Run {
  font: RunFont;
  text: string;
}

/** Helvetica's ascender (AFM), where pdfkit puts the baseline below a text's top. */
const HELVETICA_ASCENDER = 0.718;

const registered = new WeakMap<PDFKit.PDFDocument, Set<string>>();
/**
 * The parsed fonts (fontkit objects, ~100 ms to parse Noto Sans JP's 5 MB), kept from the first
 * document that used them: pdfkit takes a parsed font in place of the file, and each document
 * still writes its own subset. Taken from pdfkit's current font (`_font.font`) so this module
 * does not import fontkit itself; if that field ever changes shape, each document parses anew.
 */
const parsed = new Map<string, object>();

function fontName(doc: PDFKit.PDFDocument, font: RunFont, bold: boolean): string {
  if (font === 'std') return bold ? 'Helvetica-Bold' : 'Helvetica';
  const name = `Label-${font}${bold ? '-Bold' : ''}`;
  let set = registered.get(doc);
  if (!set) registered.set(doc, (set = new Set()));
  if (!set.has(name)) {
    const cached = parsed.get(name);
    doc.registerFont(name, (cached ?? fontBytes(font, bold)) as Buffer);
    set.add(name);
    if (!cached) {
      doc.font(name);
      const f = (doc as unknown as { _font?: { font?: { layout?: unknown } } })._font?.font;
      if (f && typeof f.layout === 'function') parsed.set(name, f);
    }
  }
  return name;
}

function runsOf(text: string): Run[] {
  const runs: Run[] = [];
  for (const ch of text) {
    const font: RunFont = isWinAnsi(ch) ? 'std' : fontFace(ch);
    const last = runs[runs.length - 1];
    // A space between two runs of another font stays with them (no font switch for it).
    if (last && (last.font === font || (ch === ' ' && last.font !== 'std'))) last.text += ch;
    else runs.push({ font, text: ch });
  }
  return runs;
}

/** The width pdfkit will give the text at this size. */
export function pdfTextWidth(doc: PDFKit.PDFDocument, text: string, size: number, bold: boolean): number {
  let w = 0;
  for (const run of runsOf(text))
    w += doc
      .font(fontName(doc, run.font, bold))
      .fontSize(size)
      .widthOfString(run.text);
  return w;
}

/**
 * One line of text with its top at (x, y) (pdfkit's usual placement), aligned in `width`;
 * never wrapped. The fill colour is the caller's.
 */
export function drawPdfText(
  doc: PDFKit.PDFDocument,
  text: string,
  x: number,
  y: number,
  size: number,
  bold: boolean,
  align: 'left' | 'center' | 'right' = 'left',
  width = 0,
): void {
  const runs = runsOf(text);
  if (runs.length === 0) return;
  const only = runs.length === 1 && runs[0]!.font === 'std';
  const total = only
    ? doc
        .font(fontName(doc, 'std', bold))
        .fontSize(size)
        .widthOfString(text)
    : pdfTextWidth(doc, text, size, bold);
  let at = align === 'center' ? x + (width - total) / 2 : align === 'right' ? x + width - total : x;
  if (only) {
    doc.text(text, at, y, { lineBreak: false });
    return;
  }
  const baseline = y + HELVETICA_ASCENDER * size;
  for (const run of runs) {
    doc.font(fontName(doc, run.font, bold)).fontSize(size);
    const w = doc.widthOfString(run.text);
    doc.text(run.text, at, baseline, { lineBreak: false, baseline: 'alphabetic' });
    at += w;
  }
}
