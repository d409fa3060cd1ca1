import bwipjs from 'bwip-js';
import { libs } from './labels.convert.js';
import { formatWeight, labelText } from './labels.text.js';
import type { LabelAddress } from './labels.types.js';

/**
 * The end-of-day forms the platform prints itself when a carrier's API issues
 * none: a SCAN form in the style of USPS PS Form 5630 (one scannable Code 128 of the form number
 * stands for every parcel listed), or a close report for the other carriers. US Letter, the same
 * standard Helvetica and vector Code 128 bars as the PDF labels; as many pages as the list needs.
 */
export interface ManifestDocumentData {
  kind: 'scan_form' | 'close_report';
  /** What the barcode encodes (the SCAN form number), printed under it. */
  form_number: string;
  manifest_id: string;
  carrier: string;
  carrier_name: string;
  /** The carrier account, as printed (its number, else our id). */
  account: string;
  ship_date: string;
  origin: LabelAddress | null;
  created_at: string;
  shipments: { tracking_number: string; service_name: string; weight_oz: number }[];
  /** Test environment: marked as a sample, not for tender. */
  sample: boolean;
}

const PAGE = { width: 612, height: 792, margin: 48 } as const;
const ROW_PT = 15;
/** 2 pt modules: ~5.5 dots at 200 dpi, which a scanner (and zbarimg on a 150 dpi raster) reads. */
const MODULE_PT = 2;

export async function renderManifestDocument(data: ManifestDocumentData): Promise<Buffer> {
  const { PDFDocument } = await libs();
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: PAGE.margin,
    info: { Title: `${data.kind === 'scan_form' ? 'SCAN Form' : 'Close report'} ${data.form_number}`, Producer: 'shipping service' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = PAGE.margin;
  const width = PAGE.width - 2 * PAGE.margin;
  const text = (s: string, x: number, y: number, size = 10, bold = false) => {
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(size)
      .fillColor('black')
      .text(labelText(s), x, y, { lineBreak: false });
  };

  const title = data.kind === 'scan_form' ? 'USPS SCAN FORM - PS Form 5630' : `${data.carrier_name.toUpperCase()} CLOSE REPORT`;
  text(title, left, PAGE.margin, 16, true);
  text(
    data.kind === 'scan_form' ? 'Shipment Confirmation Acceptance Notice' : 'End-of-day close: every label listed below is tendered together',
    left,
    PAGE.margin + 22,
    10,
  );
  if (data.sample) text('SAMPLE - TEST ENVIRONMENT - NOT FOR TENDER', left, PAGE.margin + 36, 10, true);

  let y = PAGE.margin + 58;
  const origin = data.origin;
  const from = origin
    ? [
        origin.company,
        origin.name,
        origin.street1,
        origin.street2,
        [origin.city, origin.state, origin.postal_code].filter(Boolean).join(' '),
        origin.country,
      ].filter((l): l is string => Boolean(l))
    : ['(no origin address on file)'];
  text('MAILER / ORIGIN', left, y, 8, true);
  from.forEach((line, i) => text(line, left, y + 11 + i * 12, 10));
  const facts: [string, string][] = [
    ['CARRIER', data.carrier_name],
    ['ACCOUNT', data.account],
    ['SHIP DATE', data.ship_date],
    ['TOTAL PIECES', String(data.shipments.length)],
    ['MANIFEST', data.manifest_id],
    ['PRINTED', data.created_at],
  ];
  facts.forEach(([k, v], i) => {
    text(k, left + 300, y + i * 14, 8, true);
    text(v, left + 380, y + i * 14, 9);
  });
  y += Math.max(11 + from.length * 12, facts.length * 14) + 16;

  // The barcode: Code 128 of the form number, drawn as vector bars (whole modules).
  const sbs = (bwipjs.raw({ bcid: 'code128', text: data.form_number }) as Array<{ sbs: number[] }>)[0]!.sbs;
  const modules = sbs.reduce((a, b) => a + b, 0);
  const barHeight = 64;
  let x = left + 10 * MODULE_PT;
  sbs.forEach((w, i) => {
    if (i % 2 === 0) doc.rect(x, y, w * MODULE_PT, barHeight);
    x += w * MODULE_PT;
  });
  doc.fill('black');
  text(data.form_number, left + 10 * MODULE_PT, y + barHeight + 4, 11, true);
  text(
    data.kind === 'scan_form' ? 'Scan this barcode once to accept every parcel on this form.' : 'Close number',
    left + 10 * MODULE_PT + modules * MODULE_PT + 20,
    y + 24,
    9,
  );
  y += barHeight + 30;

  const cols = { n: left, tracking: left + 34, service: left + 250, weight: left + 410 } as const;
  const header = () => {
    text('#', cols.n, y, 8, true);
    text('TRACKING NUMBER', cols.tracking, y, 8, true);
    text('SERVICE', cols.service, y, 8, true);
    text('WEIGHT', cols.weight, y, 8, true);
    doc
      .moveTo(left, y + 11)
      .lineTo(left + width, y + 11)
      .lineWidth(0.5)
      .stroke('black');
    y += 16;
  };
  header();
  data.shipments.forEach((s, i) => {
    if (y + ROW_PT > PAGE.height - PAGE.margin) {
      doc.addPage();
      y = PAGE.margin;
      text(`${title} ${data.form_number} (continued)`, left, y, 9, true);
      y += 18;
      header();
    }
    text(String(i + 1), cols.n, y, 9);
    text(s.tracking_number, cols.tracking, y, 9);
    text(s.service_name.length > 34 ? `${s.service_name.slice(0, 33)}.` : s.service_name, cols.service, y, 9);
    text(formatWeight(s.weight_oz), cols.weight, y, 9);
    y += ROW_PT;
  });
  y += 8;
  if (y + 40 > PAGE.height - PAGE.margin) {
    doc.addPage();
    y = PAGE.margin;
  }
  text(`Total pieces: ${data.shipments.length}`, left, y, 10, true);
  const totalOz = data.shipments.reduce((a, s) => a + s.weight_oz, 0);
  text(`Total weight: ${formatWeight(totalOz)}`, left + 200, y, 10, true);
  doc.end();
  return done;
}
