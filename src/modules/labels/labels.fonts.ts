import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import bwipjs from 'bwip-js';

/**
 * DejaVu Sans (regular and bold, from the `dejavu-fonts-ttf` package), rasterised by bwip-js's
 * TrueType port: the PNG's text, and the one width measure every format lays text out with
 * (DejaVu is wider than Helvetica and ZPL's font 0, so text that fits here fits there too).
 * The TTF files are read at run time from node_modules, so they work from the bundle unchanged.
 */
interface Glyph {
  width: number;
  height: number;
  /** Bitmap top above the baseline, in pixels. */
  top: number;
  left: number;
  advance: number;
  pixels: Uint8Array | null;
}

// bwip-js's typings say loadFont returns nothing; it returns the font id.
const loadFont = bwipjs.loadFont as unknown as (name: string, data: Uint8Array) => number;

let fontIds: { regular: number; bold: number; pxPerEm: number } | null = null;
const glyphCache = new Map<string, Glyph>();
const advanceCache = new Map<string, number>();

function fonts(): { regular: number; bold: number; pxPerEm: number } {
  if (fontIds) return fontIds;
  const require = createRequire(import.meta.url);
  const regular = loadFont('LabelSans', readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')));
  const bold = loadFont('LabelSansBold', readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')));
  // bwip-js sizes glyphs by its own pixel measure; calibrate it against a known advance
  // (DejaVu Sans Bold "A" is 1583/2048 em) so that "size" below means the em size.
  const probe = (bwipjs.FontLib.getglyph(bold, 65, 100, 100) as Glyph).advance;
  fontIds = { regular, bold, pxPerEm: probe / (1583 / 2048) / 100 };
  return fontIds;
}

/** A glyph rasterised for an em size in pixels (0–255 coverage, row-major). */
export function glyph(ch: string, emPx: number, bold: boolean): Glyph {
  const key = `${bold ? 'b' : 'r'}${emPx}:${ch}`;
  let g = glyphCache.get(key);
  if (!g) {
    const f = fonts();
    const size = emPx / f.pxPerEm;
    g = bwipjs.FontLib.getglyph(bold ? f.bold : f.regular, ch.codePointAt(0)!, size, size) as Glyph;
    // bwip-js keeps an MRU of 250 glyphs and recycles the objects; keep our own copy.
    g = { width: g.width, height: g.height, top: g.top, left: g.left, advance: g.advance, pixels: g.pixels ? Uint8Array.from(g.pixels) : null };
    glyphCache.set(key, g);
  }
  return g;
}

/** Width of a text in em units × size (so points in, points out). */
export function measureText(text: string, size: number, bold: boolean): number {
  let em = 0;
  for (const ch of text) {
    const key = `${bold ? 'b' : 'r'}:${ch}`;
    let adv = advanceCache.get(key);
    if (adv === undefined) {
      adv = glyph(ch, 200, bold).advance / 200;
      advanceCache.set(key, adv);
    }
    em += adv;
  }
  return em * size;
}

/** The longest prefix (with "…") that fits maxWidth. */
export function fitText(text: string, size: number, bold: boolean, maxWidth: number): string {
  if (measureText(text, size, bold) <= maxWidth) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (measureText(`${text.slice(0, mid)}…`, size, bold) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo).trimEnd()}…`;
}
