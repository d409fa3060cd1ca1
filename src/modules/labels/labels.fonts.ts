import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import bwipjs from 'bwip-js';

/**
 * The label fonts: DejaVu Sans (regular and bold, `dejavu-fonts-ttf`), and Noto Sans JP
 * (regular and bold, `@expo-google-fonts/noto-sans-jp`, SIL OFL) for what DejaVu lacks —
 * Japanese kana and kanji, and with them the CJK ideographs Chinese and Korean addresses use.
 * bwip-js's TrueType port rasterises them for the PNG, and gives the one width measure every
 * format lays text out with (DejaVu is wider than Helvetica and ZPL's font 0, so Latin text
 * that fits here fits there too); the PDF writers embed the same files (pdfkit subsets them:
 * only the glyphs a document uses are written). The TTF files are read at run time from
 * node_modules, so they work from the bundle unchanged; nothing is downloaded.
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

/** Which font draws a character: DejaVu Sans (`sans`) or, for what it lacks, Noto Sans JP (`cjk`). */
export type FontFace = 'sans' | 'cjk';

const FILES: Record<FontFace, { regular: string; bold: string }> = {
  sans: { regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf', bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf' },
  cjk: {
    regular: '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf',
  },
};

// bwip-js's typings say loadFont returns nothing; it returns the font id.
const loadFont = bwipjs.loadFont as unknown as (name: string, data: Uint8Array) => number;
const getglyph = bwipjs.FontLib.getglyph as unknown as (font: number, cp: number, w: number, h: number) => Glyph & { glyph?: number };

interface Loaded {
  id: number;
  /** bwip-js's size unit per em, so that "size" below means the em size. */
  pxPerEm: number;
}
const bytes = new Map<string, Buffer>();
const loaded = new Map<string, Loaded>();
const glyphCache = new Map<string, Glyph>();
const advanceCache = new Map<string, number>();
const faceCache = new Map<string, FontFace>();

/** The font file's bytes (read once per process): what the PDF writers embed. */
export function fontBytes(face: FontFace, bold: boolean): Buffer {
  const file = FILES[face][bold ? 'bold' : 'regular'];
  let b = bytes.get(file);
  if (!b) {
    b = readFileSync(createRequire(import.meta.url).resolve(file));
    bytes.set(file, b);
  }
  return b;
}

function font(face: FontFace, bold: boolean): Loaded {
  const key = `${face}${bold ? 'b' : 'r'}`;
  let f = loaded.get(key);
  if (!f) {
    const id = loadFont(`Label-${key}`, fontBytes(face, bold));
    // Calibrate bwip-js's size against a known advance: DejaVu Sans Bold "A" is 1583/2048 em,
    // DejaVu Sans "A" 1401/2048; a CJK ideograph ("東") is a full em in Noto Sans JP.
    const [cp, em] = face === 'cjk' ? [0x6771, 1] : [65, (bold ? 1583 : 1401) / 2048];
    f = { id, pxPerEm: getglyph(id, cp, 100, 100).advance / em / 100 };
    loaded.set(key, f);
  }
  return f;
}

/** The font a character is drawn in: DejaVu where it has the glyph, else Noto Sans JP where that has it, else DejaVu (its missing-glyph box). */
export function fontFace(ch: string): FontFace {
  let face = faceCache.get(ch);
  if (face === undefined) {
    const cp = ch.codePointAt(0)!;
    const has = (f: FontFace) => getglyph(font(f, false).id, cp, 20, 20).glyph !== 0;
    face = cp < 0x250 || has('sans') ? 'sans' : has('cjk') ? 'cjk' : 'sans';
    faceCache.set(ch, face);
  }
  return face;
}

/** A glyph rasterised for an em size in pixels (0–255 coverage, row-major), in the font that has it. */
export function glyph(ch: string, emPx: number, bold: boolean): Glyph {
  const key = `${bold ? 'b' : 'r'}${emPx}:${ch}`;
  let g = glyphCache.get(key);
  if (!g) {
    const f = font(fontFace(ch), bold);
    const size = emPx / f.pxPerEm;
    const raw = getglyph(f.id, ch.codePointAt(0)!, size, size);
    // bwip-js keeps an MRU of 250 glyphs and recycles the objects; keep our own copy.
    g = { width: raw.width, height: raw.height, top: raw.top, left: raw.left, advance: raw.advance, pixels: raw.pixels ? Uint8Array.from(raw.pixels) : null };
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
  const chars = [...text];
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (measureText(`${chars.slice(0, mid).join('')}…`, size, bold) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return `${chars.slice(0, lo).join('').trimEnd()}…`;
}
