import { libs } from './labels.convert.js';
import { fitText } from './labels.fonts.js';
import { drawPdfText } from './labels.pdf-text.js';
import { formatWeight, labelText } from './labels.text.js';
import type { LabelAddress } from './labels.types.js';

/**
 * The packing slip that goes in the box: the order's number and date, who it ships to, and each
 * line with its quantity, so a packer can check the box against it and a buyer can read what
 * should be inside. US Letter, standard Helvetica, as many pages as the lines need.
 */
export interface PackingSlipData {
  order_id: string;
  /** What the buyer knows the order by: the store's number, else its external id, else ours. */
  order_number: string;
  /** YYYY-MM-DD. */
  order_date: string;
  ship_from: LabelAddress | null;
  ship_to: LabelAddress;
  lines: { sku: string | null; name: string | null; quantity: number; weight_oz: number | null }[];
  notes: string | null;
}

const PAGE = { width: 612, height: 792, margin: 48 } as const;
const ROW_PT = 16;

function addressLines(a: LabelAddress): string[] {
  return [a.company, a.name, a.street1, a.street2, [a.city, a.state, a.postal_code].filter(Boolean).join(' '), a.country].filter((l): l is string =>
    Boolean(l),
  );
}

export async function renderPackingSlip(data: PackingSlipData): Promise<Buffer> {
  const { PDFDocument } = await libs();
  const doc = new PDFDocument({ size: 'LETTER', margin: PAGE.margin, info: { Title: `Packing slip ${data.order_number}`, Producer: 'shipping service' } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = PAGE.margin;
  const width = PAGE.width - 2 * PAGE.margin;
  // Names and addresses in any script (labels.pdf-text.ts), each cut to its column.
  const text = (s: string, x: number, y: number, size = 10, bold = false, maxWidth = width) => {
    doc.fillColor('black');
    drawPdfText(doc, fitText(labelText(s), size, bold, maxWidth), x, y, size, bold);
  };

  text('PACKING SLIP', left, PAGE.margin, 18, true);
  text(`Order ${data.order_number}`, left, PAGE.margin + 24, 12, true);
  text(`Date ${data.order_date}`, left + 300, PAGE.margin + 24, 10);
  let y = PAGE.margin + 52;
  const blocks: [string, string[]][] = [['SHIP TO', addressLines(data.ship_to)]];
  if (data.ship_from) blocks.push(['FROM', addressLines(data.ship_from)]);
  blocks.forEach(([heading, lines], i) => {
    const x = left + i * 300;
    text(heading, x, y, 8, true);
    lines.forEach((line, j) => text(line, x, y + 11 + j * 12, 10, false, 260));
  });
  y += 11 + Math.max(...blocks.map(([, l]) => l.length)) * 12 + 20;

  const cols = { qty: left, sku: left + 50, name: left + 180, weight: left + 440 } as const;
  const header = () => {
    text('QTY', cols.qty, y, 8, true);
    text('SKU', cols.sku, y, 8, true);
    text('ITEM', cols.name, y, 8, true);
    text('UNIT WEIGHT', cols.weight, y, 8, true);
    doc
      .moveTo(left, y + 11)
      .lineTo(left + width, y + 11)
      .lineWidth(0.5)
      .stroke('black');
    y += 16;
  };
  header();
  for (const line of data.lines) {
    if (y + ROW_PT > PAGE.height - PAGE.margin - 40) {
      doc.addPage();
      y = PAGE.margin;
      text(`Packing slip ${data.order_number} (continued)`, left, y, 9, true);
      y += 18;
      header();
    }
    text(String(line.quantity), cols.qty, y, 10, true);
    text(line.sku ?? '—', cols.sku, y, 9, false, 120);
    text(line.name ?? '—', cols.name, y, 9, false, 250);
    text(line.weight_oz == null ? '—' : formatWeight(line.weight_oz), cols.weight, y, 9);
    y += ROW_PT;
  }
  y += 8;
  text(`Items: ${data.lines.reduce((n, l) => n + l.quantity, 0)}`, left, y, 10, true);
  if (data.notes) text(`Notes: ${data.notes}`, left, y + 18, 9, false, width);
  doc.end();
  return done;
}
