import { glyph, measureText } from './labels.fonts.js';
import { libs } from './labels.convert.js';
import { VOID_TEXT } from './labels.layout.js';

/**
 * A carrier-issued label (never redrawn by us) marked VOID once it is voided, so a download
 * cannot be mistaken for a live label: a black band with the word in white at the top and the
 * bottom of every page, as our own labels print it (labels.layout.ts), clear of the barcode.
 */
export async function stampVoid(body: Buffer, contentType: string): Promise<Buffer> {
  if (contentType === 'application/pdf') return stampPdf(body);
  if (contentType === 'image/png') return stampPng(body);
  if (contentType === 'application/x-zpl') return stampZpl(body);
  return body;
}

async function stampPdf(body: Buffer): Promise<Buffer> {
  // CommonJS: bundled, its exports arrive on `default` (labels.convert.ts).
  const pdfLib = await import('pdf-lib');
  const api = ((pdfLib as unknown as { default?: typeof pdfLib }).default ?? pdfLib) as typeof pdfLib;
  const doc = await api.PDFDocument.load(body);
  const font = await doc.embedFont(api.StandardFonts.HelveticaBold);
  for (const page of doc.getPages()) {
    const { width, height } = page.getSize();
    for (const y of [height - 18, 0]) {
      page.drawRectangle({ x: 0, y, width, height: 18, color: api.rgb(0, 0, 0) });
      const w = font.widthOfTextAtSize(VOID_TEXT, 12);
      page.drawText(VOID_TEXT, { x: (width - w) / 2, y: y + 4, size: 12, font, color: api.rgb(1, 1, 1) });
    }
  }
  return Buffer.from(await doc.save());
}

/** Each label (^XA … ^XZ) gets the bands before its end, the text reversed out of them (^FR). */
function stampZpl(body: Buffer): Buffer {
  const zpl = body.toString('latin1');
  const width = Number(/\^PW(\d+)/.exec(zpl)?.[1] ?? 812);
  const length = Number(/\^LL(\d+)/.exec(zpl)?.[1] ?? 1218);
  const band = (y: number) => `^FO0,${y}^GB${width},50,50^FS^FO0,${y + 8}^A0N,36,36^FB${width},1,0,C^FR^FD${VOID_TEXT}^FS`;
  return Buffer.from(zpl.replace(/\^XZ/g, `${band(0)}${band(length - 50)}^XZ`), 'latin1');
}

async function stampPng(body: Buffer): Promise<Buffer> {
  const { PNG } = await libs();
  const png = PNG.sync.read(body);
  const { width, height, data } = png;
  const bandH = Math.max(24, Math.round(height * 0.04));
  const set = (x: number, y: number, v: number) => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    const i = (y * width + x) * 4;
    data[i] = data[i + 1] = data[i + 2] = v;
    data[i + 3] = 255;
  };
  const em = Math.round(bandH * 0.7);
  const textW = measureText(VOID_TEXT, em, true);
  for (const top of [0, height - bandH]) {
    for (let y = top; y < top + bandH; y++) for (let x = 0; x < width; x++) set(x, y, 0);
    let pen = Math.round((width - textW) / 2);
    const baseline = top + Math.round(bandH * 0.8);
    for (const ch of VOID_TEXT) {
      const g = glyph(ch, em, true);
      if (g.pixels) {
        for (let r = 0; r < g.height; r++) {
          for (let c = 0; c < g.width; c++) if (g.pixels[r * g.width + c]! >= 128) set(pen + g.left + c, baseline - g.top + r, 255);
        }
      }
      pen += g.advance;
    }
  }
  return PNG.sync.write(png);
}
