import { deflateSync } from 'node:zlib';
import { glyph, measureText } from './labels.fonts.js';
import { layoutLabel, type Primitive } from './labels.layout.js';
import { DPI, LABEL_HEIGHT_PT, LABEL_WIDTH_PT } from './labels.page.js';
import type { LabelData } from './labels.types.js';

/**
 * The 4×6 in label as a 203 dpi PNG (812 × 1218 px), drawn pixel by pixel from the same layout
 * as the PDF: bars in whole dots, text from DejaVu glyphs thresholded to black and white.
 * Written as a 1-bit greyscale PNG, a thermal printer's own depth (~15 KB; pngjs cannot write
 * bit depths below 8, hence the small encoder below).
 */
export const PNG_WIDTH = Math.round((LABEL_WIDTH_PT / 72) * DPI); // 812
export const PNG_HEIGHT = Math.round((LABEL_HEIGHT_PT / 72) * DPI); // 1218
const S = DPI / 72;
/** Helvetica's ascender (pdfkit puts the baseline there below the text's y), kept for the same look. */
const ASCENT = 0.718;

class Raster {
  /** 1 = ink. */
  readonly ink = new Uint8Array(PNG_WIDTH * PNG_HEIGHT);

  fill(x0: number, y0: number, x1: number, y1: number, value: 0 | 1): void {
    const xa = Math.max(0, Math.round(x0));
    const xb = Math.min(PNG_WIDTH, Math.round(x1));
    const ya = Math.max(0, Math.round(y0));
    const yb = Math.min(PNG_HEIGHT, Math.round(y1));
    for (let y = ya; y < yb; y++) this.ink.fill(value, y * PNG_WIDTH + xa, y * PNG_WIDTH + xb);
  }

  text(p: Extract<Primitive, { kind: 'text' }>): void {
    const em = Math.round(p.size * S);
    const w = measureText(p.text, p.size, p.bold) * S;
    let pen = p.x * S + (p.align === 'center' ? (p.width * S - w) / 2 : p.align === 'right' ? p.width * S - w : 0);
    const baseline = Math.round((p.y + ASCENT * p.size) * S);
    const value = p.inverse ? 0 : 1;
    for (const ch of p.text) {
      const g = glyph(ch, em, p.bold);
      if (g.pixels) {
        const gx = Math.round(pen) + g.left;
        const gy = baseline - g.top;
        for (let row = 0; row < g.height; row++) {
          const y = gy + row;
          if (y < 0 || y >= PNG_HEIGHT) continue;
          for (let col = 0; col < g.width; col++) {
            const x = gx + col;
            if (x >= 0 && x < PNG_WIDTH && g.pixels[row * g.width + col]! >= 128) this.ink[y * PNG_WIDTH + x] = value;
          }
        }
      }
      pen += g.advance;
    }
  }
}

function draw(r: Raster, prims: Primitive[]): void {
  for (const p of prims) {
    switch (p.kind) {
      case 'box': {
        const [x0, y0, x1, y1] = [p.x * S, p.y * S, (p.x + p.w) * S, (p.y + p.h) * S];
        if (p.fill) r.fill(x0, y0, x1, y1, 1);
        else {
          const t = Math.max(1, Math.round(p.line * S));
          r.fill(x0, y0, x1, y0 + t, 1);
          r.fill(x0, y1 - t, x1, y1, 1);
          r.fill(x0, y0, x0 + t, y1, 1);
          r.fill(x1 - t, y0, x1, y1, 1);
        }
        break;
      }
      case 'text':
        r.text(p);
        break;
      case 'barcode': {
        let x = Math.round(p.x * S);
        const y0 = Math.round(p.y * S);
        const y1 = y0 + Math.round(p.h * S);
        p.barcode.bars.forEach((width, i) => {
          const px = width * p.moduleDots;
          if (i % 2 === 0) r.fill(x, y0, x + px, y1, 1);
          x += px;
        });
        break;
      }
    }
  }
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

function encodePng1Bit(ink: Uint8Array, height = PNG_HEIGHT): Buffer {
  const rowBytes = Math.ceil(PNG_WIDTH / 8);
  const raw = Buffer.alloc((rowBytes + 1) * height, 0);
  const full = PNG_WIDTH >> 3; // whole bytes per row; the rest (812 = 101·8 + 4) is padded white
  for (let y = 0; y < height; y++) {
    const out = y * (rowBytes + 1) + 1; // after the row's filter byte 0 (none)
    let i = y * PNG_WIDTH;
    for (let xb = 0; xb < full; xb++, i += 8) {
      // Greyscale 1-bit: 1 = white, so a byte is the inverted ink bits.
      raw[out + xb] =
        ~(
          (ink[i]! << 7) |
          (ink[i + 1]! << 6) |
          (ink[i + 2]! << 5) |
          (ink[i + 3]! << 4) |
          (ink[i + 4]! << 3) |
          (ink[i + 5]! << 2) |
          (ink[i + 6]! << 1) |
          ink[i + 7]!
        ) & 0xff;
    }
    if (full < rowBytes) {
      let byte = 0xff;
      for (let bit = 0; bit < PNG_WIDTH - full * 8; bit++) if (ink[i + bit]) byte &= ~(0x80 >> bit);
      raw[out + full] = byte;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(PNG_WIDTH, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const dpm = Math.round(DPI / 0.0254); // pixels per metre, so viewers and printers know it is 203 dpi
  const phys = Buffer.alloc(9);
  phys.writeUInt32BE(dpm, 0);
  phys.writeUInt32BE(dpm, 4);
  phys[8] = 1;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('pHYs', phys),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export function renderPng(data: LabelData): Buffer {
  const r = new Raster();
  draw(r, layoutLabel(data));
  return encodePng1Bit(r.ink);
}

/**
 * The labels of a multi-piece shipment's packages in one PNG: an image has one page, so the
 * 4×6 labels are stacked top to bottom (812 × 1218·N px), each to be cut apart or printed on
 * its own label of a continuous roll.
 */
export function renderPngStack(labels: readonly LabelData[]): Buffer {
  const ink = new Uint8Array(PNG_WIDTH * PNG_HEIGHT * labels.length);
  labels.forEach((data, i) => {
    const r = new Raster();
    draw(r, layoutLabel(data));
    ink.set(r.ink, i * PNG_WIDTH * PNG_HEIGHT);
  });
  return encodePng1Bit(ink, PNG_HEIGHT * labels.length);
}
