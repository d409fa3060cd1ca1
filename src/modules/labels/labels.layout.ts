// One 4×6 in label as drawing primitives, in points from the top-left corner (288 × 432 pt).
// The PDF, PNG and ZPL writers each draw this same list, so the formats cannot drift apart.
// Text is already cut to fit its width (measured with the widest of the three fonts). The page
// geometry is labels.page.ts's.
import { barcodeHeading, humanReadableTracking, labelBarcode, routingCode, type LabelBarcode } from './labels.barcode.js';
import { fitText } from './labels.fonts.js';
import { formatWeight, labelText as unicodeText, latinText } from './labels.text.js';
import type { LabelAddress, LabelData } from './labels.types.js';
import { DPI, LABEL_HEIGHT_PT, LABEL_WIDTH_PT } from './labels.page.js';

/** Barcode modules at 3 dots (14.8 mil, inside USPS's 13–21 mil), 2 when the number is too long. */
const MAX_MODULE_DOTS = 3;

export type Align = 'left' | 'center' | 'right';
export type Primitive =
  | { kind: 'text'; x: number; y: number; width: number; size: number; bold: boolean; text: string; align: Align; inverse?: boolean }
  | { kind: 'box'; x: number; y: number; w: number; h: number; fill: boolean; line: number }
  | { kind: 'barcode'; x: number; y: number; h: number; moduleDots: number; barcode: LabelBarcode };

/** A label no carrier will accept: a simulated carrier's (any environment) or the test environment's. */
export const SAMPLE_TEXT = 'SAMPLE - DO NOT MAIL';
/** A voided label, still downloadable, so it cannot be mistaken for a live one. */
export const VOID_TEXT = 'VOID';
/** The recipient's heading on a return label. */
export const RETURN_TO_TEXT = 'RETURN TO:';
const M = 10; // margin
const W = LABEL_WIDTH_PT - 2 * M;

function addressLines(a: LabelAddress, withCountry: boolean, labelText: (v: string | null | undefined) => string): string[] {
  const cityLine = [labelText(a.city), [labelText(a.state), labelText(a.postal_code)].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [
    labelText(a.name),
    labelText(a.company),
    labelText(a.street1),
    labelText(a.street2),
    cityLine,
    withCountry ? labelText(a.country).toUpperCase() : '',
  ].filter((l) => l.length > 0);
}

/**
 * `latin`: the text as ZPL's Latin font prints it (Cyrillic transliterated, CJK as "?"; see
 * labels.text.ts), cut to fit in that form; otherwise every script as it is (PDF and PNG).
 */
export function layoutLabel(data: LabelData, options: { latin?: boolean } = {}): Primitive[] {
  const labelText = options.latin ? latinText : unicodeText;
  const out: Primitive[] = [];
  const text = (x: number, y: number, width: number, size: number, bold: boolean, value: string, align: Align = 'left', inverse = false) =>
    out.push({ kind: 'text', x, y, width, size, bold, text: fitText(value, size, bold, width), align, inverse });
  const box = (x: number, y: number, w: number, h: number, fill = false, line = 1) => out.push({ kind: 'box', x, y, w, h, fill, line });
  const rule = (y: number, line = 1) => box(M, y, W, line, true, line);

  let y = 6;
  // Marks print as black bands at the top and the bottom, clear of the barcode: with both, VOID
  // on top and SAMPLE below; with one, the same mark at both ends.
  const marks = labelMarks(data);
  const banner = (at: number, mark: string) => {
    box(0, at, LABEL_WIDTH_PT, 18, true);
    text(M, at + 4, W, 11, true, mark, 'center', true);
  };
  if (marks.length > 0) {
    banner(0, marks[0]);
    y = 24;
  }

  // Header: carrier and service on the left, the zone box on the right.
  const zoneW = 64;
  text(M, y, W - zoneW - 8, 20, true, labelText(data.carrier_name).toUpperCase());
  text(M, y + 24, W - zoneW - 8, 11, true, labelText(data.service_name).toUpperCase());
  box(LABEL_WIDTH_PT - M - zoneW, y, zoneW, 40, false, 2);
  text(LABEL_WIDTH_PT - M - zoneW, y + 4, zoneW, 7, false, 'ZONE', 'center');
  text(LABEL_WIDTH_PT - M - zoneW, y + 14, zoneW, data.zone && data.zone.length > 3 ? 12 : 20, true, labelText(data.zone) || '—', 'center');
  y += 46;
  text(M, y, W / 2, 8, false, `SHIP DATE: ${labelText(data.ship_date)}`);
  // A multi-piece shipment's page says which package it is, between the date and the weight.
  if (data.piece) text(M + W / 3, y, W / 3, 8, true, `${data.piece.index} of ${data.piece.count}`, 'center');
  text(M + W / 2, y, W / 2, 8, false, `WT: ${formatWeight(data.weight_oz)}`, 'right');
  y += 12;
  rule(y, 2);
  y += 6;
  // Handling marks (signature, Saturday, dangerous goods): white on black, full width.
  for (const mark of data.marks ?? []) {
    box(M, y, W, 14, true);
    text(M, y + 3, W, 9, true, labelText(mark), 'center', true);
    y += 17;
  }
  if ((data.marks ?? []).length > 0) y += 2;

  // The bottom block (routing, barcode, footer) is laid out upwards from the page end.
  const barcode = labelBarcode(data);
  const quietDots = 10 * MAX_MODULE_DOTS;
  const maxDots = Math.floor((W * DPI) / 72) - 2 * quietDots;
  const moduleDots = Math.max(1, Math.min(MAX_MODULE_DOTS, Math.floor(maxDots / barcode.modules)));
  const barcodeW = (barcode.modules * moduleDots * 72) / DPI;
  let bottom = LABEL_HEIGHT_PT - (marks.length > 0 ? 24 : 6);
  const footer = [`SHP ${labelText(data.shipment_id)}`, data.reference ? `REF ${labelText(data.reference)}` : ''].filter(Boolean).join('   ');
  bottom -= 9;
  text(M, bottom, W, 7, false, footer);
  const references = (data.references ?? []).map(labelText).filter(Boolean);
  if (references.length > 0) {
    bottom -= 9;
    text(M, bottom, W, 7, true, `REFERENCE: ${references.join(' / ')}`);
  }
  bottom -= 4;
  rule(bottom);
  bottom -= 16;
  text(M, bottom, W, 12, true, labelText(humanReadableTracking(data)), 'center');
  const barH = 72; // 1 in: USPS asks for at least 0.75 in
  bottom -= barH + 5;
  out.push({ kind: 'barcode', x: (LABEL_WIDTH_PT - barcodeW) / 2, y: bottom, h: barH, moduleDots, barcode });
  bottom -= 13;
  text(M, bottom, W, 9, true, labelText(barcodeHeading(data)), 'center');
  bottom -= 6;
  rule(bottom, 2);
  bottom -= 36;
  text(M, bottom + 3, 60, 7, false, 'ROUTING');
  text(M + 44, bottom + 4, W - 44, 22, true, labelText(routingCode(data)), 'center');
  bottom -= 4;
  rule(bottom, 2);

  // Sender (small), then the recipient (large) in the space left between.
  // Countries print only on international labels.
  const abroad = labelText(data.ship_from.country).toUpperCase() !== labelText(data.ship_to.country).toUpperCase();
  const fromLines = addressLines(data.ship_from, abroad, labelText);
  text(M, y, 40, 7, true, 'FROM:');
  for (const line of fromLines.slice(0, 5)) {
    text(M + 40, y, W - 40, 8, false, line);
    y += 10;
  }
  y = Math.max(y, y + 2);
  rule(y);
  y += 8;
  // A return label addresses the parcel back to the merchant.
  if (data.is_return) text(M, y, 80, 8, true, RETURN_TO_TEXT);
  else text(M, y, 60, 8, true, 'SHIP TO:');
  y += 12;
  const toLines = addressLines(data.ship_to, abroad, labelText);
  const room = bottom - 6 - y;
  const toSize = toLines.length * 17 <= room ? 14 : 11;
  const step = toSize + 3;
  for (const line of toLines.slice(0, Math.floor(room / step))) {
    text(M + 14, y, W - 14, toSize, true, line);
    y += step;
  }

  if (marks.length > 0) banner(LABEL_HEIGHT_PT - 18, marks[marks.length - 1]);
  return out;
}

/** What the label must say it is not: VOID once voided, SAMPLE when no carrier will take it. */
export function labelMarks(data: Pick<LabelData, 'sample' | 'voided'>): string[] {
  return [data.voided ? VOID_TEXT : null, data.sample ? SAMPLE_TEXT : null].filter((m): m is string => m !== null);
}
