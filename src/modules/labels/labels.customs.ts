import PDFDocument from 'pdfkit';
import type { CustomsContentsType, CustomsItem, Money } from '../../carriers/types.js';
import { code128Barcode } from './labels.barcode.js';
import { fitText, measureText } from './labels.fonts.js';
import { SAMPLE_TEXT } from './labels.layout.js';
import { LABEL_HEIGHT_PT, LABEL_WIDTH_PT, LETTER } from './labels.page.js';
import { drawPdfText } from './labels.pdf-text.js';
import { formatWeight, labelText } from './labels.text.js';
import type { CustomsDocumentData, CustomsDocumentType, LabelAddress } from './labels.types.js';

/**
 * Customs documents as PDF, drawn with pdfkit like the labels (and, like them,
 * in any script: labels.pdf-text.ts embeds the fonts a name or a description needs):
 * - CN 22 (UPU, the compact declaration of a small postal item): a 4×6 in page, to print beside
 *   the label on the same thermal printer.
 * - CN 23 (UPU, the full declaration with the sender's certification): a letter page.
 * - A commercial invoice (courier carriers): a letter page.
 * Each prints the sender and recipient, every item (description, quantity, HS code, origin,
 * unit and total value, weight), the totals, the contents type (and explanation), incoterm,
 * EEL/PFC or AES ITN, non-delivery instruction, importer references, signer and date, and the
 * tracking number as a Code 128 barcode. Items that do not fit one page continue on the next,
 * under the table's header again. The same data renders to the same bytes.
 */

interface Page {
  w: number;
  h: number;
  margin: number;
}

const PAGES: Record<CustomsDocumentType, Page> = {
  cn22: { w: LABEL_WIDTH_PT, h: LABEL_HEIGHT_PT, margin: 10 },
  cn23: { w: LETTER.w, h: LETTER.h, margin: 36 },
  commercial_invoice: { w: LETTER.w, h: LETTER.h, margin: 36 },
};

const TITLES: Record<CustomsDocumentType, { title: string; code: string }> = {
  cn22: { title: 'CUSTOMS DECLARATION', code: 'CN 22' },
  cn23: { title: 'CUSTOMS DECLARATION', code: 'CN 23' },
  commercial_invoice: { title: 'COMMERCIAL INVOICE', code: '' },
};

/** The contents categories as the UPU forms name them, in their order. */
const CONTENTS: Array<[CustomsContentsType, string]> = [
  ['gift', 'Gift'],
  ['documents', 'Documents'],
  ['sample', 'Commercial sample'],
  ['return_merchandise', 'Returned goods'],
  ['merchandise', 'Sale of goods'],
  ['humanitarian_donation', 'Humanitarian donation'],
  ['other', 'Other'],
];

const CERTIFICATION =
  'I, the undersigned, whose name and address are given on the item, certify that the particulars given in this declaration are correct ' +
  'and that this item does not contain any dangerous article or articles prohibited by legislation or by postal or customs regulations.';
const INVOICE_DECLARATION =
  'I declare that all the information contained in this invoice is true and correct, and that the goods are of the origin shown. ' +
  'These commodities, technology or software were exported in accordance with the Export Administration Regulations.';

/** Digits after the decimal point of a currency (JPY 0, USD 2, KWD 3), 2 when unknown. */
function fractionDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** "1,234.50 USD" from minor units. */
export function formatMoney(m: Money): string {
  const digits = fractionDigits(m.currency);
  const value = (Number.isFinite(m.amount) ? m.amount : 0) / 10 ** digits;
  return `${value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${labelText(m.currency)}`;
}

function formatOz(oz: number): string {
  const v = Number.isFinite(oz) ? oz : 0;
  return `${Math.round(v * 10) / 10} oz / ${(v * 0.028349523125).toFixed(3)} kg`;
}

/** Totals per currency (one, unless the items mix currencies). */
function totalsByCurrency(items: readonly CustomsItem[]): Money[] {
  const sums = new Map<string, number>();
  for (const i of items) sums.set(i.unit_value.currency, (sums.get(i.unit_value.currency) ?? 0) + i.unit_value.amount * i.quantity);
  return [...sums].map(([currency, amount]) => ({ amount, currency }));
}

function addressLines(a: LabelAddress & { email?: string | null }): string[] {
  const city = [labelText(a.city), [labelText(a.state), labelText(a.postal_code)].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [
    labelText(a.name),
    labelText(a.company),
    labelText(a.street1),
    labelText(a.street2),
    city,
    labelText(a.country).toUpperCase(),
    a.phone ? `Tel. ${labelText(a.phone)}` : '',
    a.email ? labelText(a.email) : '',
  ].filter((l) => l.length > 0);
}

/** Words to lines of at most `width` points (a word longer than the width is cut to fit). */
function wrap(text: string, size: number, bold: boolean, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (measureText(next, size, bold) <= width || !line) line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines.map((l) => fitText(l, size, bold, width));
}

interface Column {
  title: string;
  /** Share of the table's width. */
  share: number;
  align: 'left' | 'right' | 'center';
  cell: (item: CustomsItem, n: number) => string;
}

const money = (i: CustomsItem) => formatMoney({ amount: i.unit_value.amount * i.quantity, currency: i.unit_value.currency });

const COLUMNS: Column[] = [
  { title: '#', share: 0.04, align: 'left', cell: (_, n) => String(n) },
  { title: 'Description of contents', share: 0.28, align: 'left', cell: (i) => labelText(i.description) },
  { title: 'Qty', share: 0.05, align: 'right', cell: (i) => String(i.quantity) },
  { title: 'HS tariff no.', share: 0.12, align: 'center', cell: (i) => labelText(i.hs_tariff_number) || '—' },
  { title: 'Origin', share: 0.06, align: 'center', cell: (i) => labelText(i.origin_country).toUpperCase() },
  { title: 'Unit value', share: 0.13, align: 'right', cell: (i) => formatMoney(i.unit_value) },
  { title: 'Total value', share: 0.14, align: 'right', cell: money },
  { title: 'Net weight', share: 0.18, align: 'right', cell: (i) => formatOz(i.weight_oz * i.quantity) },
];

/**
 * The CN 22's compact table (a 4×6 in page has no room for eight columns): a first line with
 * the description, quantity, value and weight, a second with the HS code, origin and unit value.
 */
const COMPACT_COLUMNS: Column[] = [
  { title: '#', share: 0.05, align: 'left', cell: (_, n) => String(n) },
  { title: 'Description of contents', share: 0.43, align: 'left', cell: (i) => labelText(i.description) },
  { title: 'Qty', share: 0.07, align: 'right', cell: (i) => String(i.quantity) },
  { title: 'Value', share: 0.2, align: 'right', cell: money },
  { title: 'Weight', share: 0.25, align: 'right', cell: (i) => formatOz(i.weight_oz * i.quantity) },
];
const compactDetail = (i: CustomsItem) =>
  `HS tariff no. ${labelText(i.hs_tariff_number) || '—'} · Origin ${labelText(i.origin_country).toUpperCase()} · ${formatMoney(i.unit_value)} each`;

/** Draws one document page after page; `y` is where the next thing goes. */
class Writer {
  y: number;
  readonly x0: number;
  readonly width: number;
  constructor(
    readonly doc: PDFKit.PDFDocument,
    readonly page: Page,
    readonly data: CustomsDocumentData,
    /** Base text size: 6 pt on the CN 22, 8 pt on letter pages. */
    readonly size: number,
  ) {
    this.x0 = page.margin;
    this.width = page.w - 2 * page.margin;
    this.y = page.margin;
  }

  text(value: string, x: number, y: number, width: number, size = this.size, bold = false, align: 'left' | 'right' | 'center' = 'left', white = false): void {
    this.doc.fillColor(white ? 'white' : 'black');
    drawPdfText(this.doc, fitText(value, size, bold, width), x, y, size, bold, align, width);
    this.doc.fillColor('black');
  }

  rule(y: number, line = 0.75): void {
    this.doc.rect(this.x0, y, this.width, line).fill('black');
  }

  box(x: number, y: number, w: number, h: number, line = 0.75): void {
    this.doc.lineWidth(line).rect(x, y, w, h).stroke('black');
  }

  newPage(): void {
    this.doc.addPage({ size: [this.page.w, this.page.h], margin: 0 });
    this.y = this.page.margin;
    if (this.data.sample) this.banner();
  }

  banner(): void {
    const h = this.size + 8;
    this.doc.rect(0, this.y - this.page.margin, this.page.w, h + this.page.margin - 4).fill('black');
    this.text(SAMPLE_TEXT, this.x0, this.y - 2, this.width, this.size + 2, true, 'center', true);
    this.y += h;
  }

  /** Room for `h` more points on this page, else a new page (continuation heading first). */
  ensure(h: number, continued: () => void): void {
    if (this.y + h <= this.page.h - this.page.margin) return;
    this.newPage();
    continued();
  }

  checkbox(x: number, y: number, checked: boolean, label: string, width: number): void {
    const s = this.size;
    this.box(x, y, s, s, 0.6);
    if (checked) {
      this.doc
        .lineWidth(0.9)
        .moveTo(x + 1.2, y + 1.2)
        .lineTo(x + s - 1.2, y + s - 1.2)
        .moveTo(x + s - 1.2, y + 1.2)
        .lineTo(x + 1.2, y + s - 1.2)
        .stroke('black');
    }
    this.text(label, x + s + 3, y + 0.5, width - s - 3);
  }

  /** The tracking number as Code 128 (quiet zones of 10 modules kept clear), its text under it. */
  barcode(x: number, y: number, maxWidth: number, height: number): number {
    const code = code128Barcode(this.data.tracking_number || '?');
    const module = Math.min(1.5, maxWidth / (code.modules + 20));
    const w = code.modules * module;
    const left = x + (maxWidth - w) / 2;
    let pos = 0;
    code.bars.forEach((bar, i) => {
      if (i % 2 === 0) this.doc.rect(left + pos * module, y, bar * module, height);
      pos += bar;
    });
    this.doc.fill('black');
    this.text(labelText(this.data.tracking_number), x, y + height + 2, maxWidth, this.size + 1, true, 'center');
    return height + this.size + 5;
  }
}

function tableHeader(w: Writer, cols: Array<Column & { x: number; w: number }>): void {
  const h = w.size + 5;
  w.doc.rect(w.x0, w.y, w.width, h).fill('#dddddd');
  w.doc.fill('black');
  for (const c of cols) w.text(c.title, c.x + 1.5, w.y + 2.5, c.w - 3, w.size, true, c.align);
  w.y += h;
}

function itemsTable(w: Writer, heading: string, compact: boolean): void {
  const items = w.data.customs.items;
  let x = w.x0;
  const cols = (compact ? COMPACT_COLUMNS : COLUMNS).map((c) => {
    const col = { ...c, x, w: w.width * c.share };
    x += col.w;
    return col;
  });
  const col = (title: string) => cols.find((c) => c.title === title)!;
  const [qCol, vCol, wCol] = compact ? [col('Qty'), col('Value'), col('Weight')] : [col('Qty'), col('Total value'), col('Net weight')];
  const lineH = w.size + 5;
  const rowH = compact ? 2 * lineH - 3 : lineH;
  const continued = () => {
    w.text(`${heading} (continued) — ${labelText(w.data.tracking_number)}`, w.x0, w.y, w.width, w.size + 2, true);
    w.y += w.size + 6;
    tableHeader(w, cols);
  };
  tableHeader(w, cols);
  items.forEach((item, i) => {
    w.ensure(rowH, continued);
    for (const c of cols) w.text(c.cell(item, i + 1), c.x + 1.5, w.y + 2.5, c.w - 3, w.size, false, c.align);
    if (compact) w.text(compactDetail(item), cols[1]!.x + 1.5, w.y + lineH - 0.5, w.width - (cols[1]!.x - w.x0) - 3, w.size - 0.5);
    w.y += rowH;
    w.doc.rect(w.x0, w.y - 0.25, w.width, 0.5).fill('#999999');
    w.doc.fill('black');
  });
  // Totals under the quantity, value and weight columns (a line per currency if the items mix them).
  const totals = totalsByCurrency(items);
  const qty = items.reduce((n, i) => n + i.quantity, 0);
  const net = items.reduce((n, i) => n + i.weight_oz * i.quantity, 0);
  for (const [k, total] of (totals.length ? totals : [{ amount: 0, currency: 'USD' }]).entries()) {
    w.ensure(lineH, continued);
    if (k === 0) {
      w.text('Totals', w.x0 + 1.5, w.y + 2.5, qCol.x - w.x0 - 3, w.size, true, 'right');
      w.text(String(qty), qCol.x + 1.5, w.y + 2.5, qCol.w - 3, w.size, true, 'right');
      w.text(formatOz(net), wCol.x + 1.5, w.y + 2.5, wCol.w - 3, w.size, true, 'right');
    }
    w.text(formatMoney(total), vCol.x + 1.5, w.y + 2.5, vCol.w - 3, w.size, true, 'right');
    w.y += lineH;
  }
  w.rule(w.y, 1);
  w.y += 4;
}

/** "label: value" pairs, two to a row. */
function facts(w: Writer, pairs: Array<[string, string]>, columns: number): void {
  const colW = w.width / columns;
  const lineH = w.size + 4;
  for (let i = 0; i < pairs.length; i += columns) {
    w.ensure(lineH, () => undefined);
    pairs.slice(i, i + columns).forEach(([k, v], j) => {
      const x = w.x0 + j * colW;
      const kw = Math.min(colW * 0.45, measureText(`${k}:`, w.size, true) + 3);
      w.text(`${k}:`, x, w.y, kw, w.size, true);
      w.text(v, x + kw, w.y, colW - kw - 4);
    });
    w.y += lineH;
  }
}

function declarationFacts(d: CustomsDocumentData): Array<[string, string]> {
  const c = d.customs;
  const pairs: Array<[string, string]> = [
    ['Incoterm', labelText(c.incoterm)],
    [c.aes_itn ? 'AES ITN' : 'EEL/PFC', labelText(c.aes_itn || c.eel_pfc) || '—'],
    ['If undeliverable', c.non_delivery === 'abandon' ? 'Treat as abandoned' : 'Return to sender'],
    ['Gross weight', formatWeight(d.weight_oz)],
  ];
  const imp = c.importer;
  if (imp?.tax_id) pairs.push(['Importer tax id', labelText(imp.tax_id)]);
  if (imp?.eori) pairs.push(['Importer EORI', labelText(imp.eori)]);
  if (imp?.ioss) pairs.push(['IOSS', labelText(imp.ioss)]);
  if (imp?.vat) pairs.push(['Importer VAT', labelText(imp.vat)]);
  if (d.reference) pairs.push(['Reference', labelText(d.reference)]);
  return pairs;
}

function contentsBoxes(w: Writer, columns: number): void {
  const c = w.data.customs;
  const colW = w.width / columns;
  const lineH = w.size + 4;
  CONTENTS.forEach(([type, name], i) => {
    const x = w.x0 + (i % columns) * colW;
    if (i % columns === 0 && i > 0) w.y += lineH;
    const label = type === 'other' && c.contents_type === 'other' && c.contents_explanation ? `Other: ${labelText(c.contents_explanation)}` : name;
    w.checkbox(x, w.y, c.contents_type === type, label, type === 'other' ? w.width - (x - w.x0) : colW);
  });
  w.y += lineH;
  if (c.contents_explanation && c.contents_type !== 'other') {
    w.text(`Explanation: ${labelText(c.contents_explanation)}`, w.x0, w.y, w.width);
    w.y += lineH;
  }
}

/** Two address blocks side by side (or stacked on the CN 22), each boxed with its heading. */
function parties(w: Writer, left: [string, LabelAddress], right: [string, LabelAddress], stacked: boolean): void {
  const lineH = w.size + 3;
  const blocks = [left, right].map(([title, a]) => ({ title, lines: addressLines(a) }));
  if (stacked) {
    for (const b of blocks) {
      const h = (b.lines.length + 1) * lineH + 4;
      w.box(w.x0, w.y, w.width, h);
      w.text(b.title, w.x0 + 3, w.y + 2, w.width - 6, w.size, true);
      b.lines.forEach((l, i) => w.text(l, w.x0 + 3, w.y + 2 + (i + 1) * lineH, w.width - 6));
      w.y += h + 3;
    }
    return;
  }
  const colW = (w.width - 8) / 2;
  const h = (Math.max(...blocks.map((b) => b.lines.length)) + 1) * lineH + 6;
  blocks.forEach((b, k) => {
    const x = w.x0 + k * (colW + 8);
    w.box(x, w.y, colW, h);
    w.text(b.title, x + 4, w.y + 3, colW - 8, w.size, true);
    b.lines.forEach((l, i) => w.text(l, x + 4, w.y + 3 + (i + 1) * lineH, colW - 8, w.size + (k === 1 ? 1 : 0), k === 1 && i === 0));
  });
  w.y += h + 6;
}

function signature(w: Writer, statement: string): void {
  const d = w.data;
  const lines = wrap(statement, w.size - (d.type === 'cn22' ? 0.5 : 0), false, w.width);
  const lineH = w.size + 2;
  w.ensure(lines.length * lineH + 3 * (w.size + 6), () => undefined);
  for (const l of lines) {
    w.text(l, w.x0, w.y, w.width, w.size - (d.type === 'cn22' ? 0.5 : 0));
    w.y += lineH;
  }
  w.y += 4;
  const signer = labelText(d.customs.signer) || labelText(d.ship_from.name) || labelText(d.ship_from.company);
  const half = w.width / 2;
  w.text('Date:', w.x0, w.y, 30, w.size, true);
  w.text(labelText(d.date), w.x0 + measureText('Date: ', w.size, true) + 2, w.y, half - 40);
  w.text("Sender's signature:", w.x0 + half, w.y, half, w.size, true);
  w.y += w.size + 4;
  w.text(signer, w.x0 + half, w.y, half, w.size + 3, true);
  w.y += w.size + 5;
  w.doc.rect(w.x0 + half, w.y, half, 0.5).fill('black');
  w.y += 3;
  w.text(signer ? `Signed by ${signer}` : 'Signature', w.x0 + half, w.y, half, w.size - 1);
  w.y += w.size + 3;
}

function header(w: Writer): void {
  const d = w.data;
  const t = TITLES[d.type];
  const big = d.type === 'cn22' ? 10 : 16;
  if (d.type === 'commercial_invoice') {
    w.text(t.title, w.x0, w.y, w.width * 0.55, big, true);
  } else {
    w.text(t.title, w.x0, w.y, w.width * 0.6, big, true);
    w.text(t.code, w.x0 + w.width * 0.6, w.y - (d.type === 'cn22' ? 1 : 2), w.width * 0.4, big + 3, true, 'right');
  }
  w.y += big + 4;
  const line = [
    d.type === 'commercial_invoice' ? `Carrier: ${labelText(d.carrier_name)}` : `Designated operator: ${labelText(d.carrier_name)}`,
    labelText(d.service_name),
  ]
    .filter(Boolean)
    .join(' — ');
  w.text(line, w.x0, w.y, w.width * 0.65);
  w.text(
    d.type === 'commercial_invoice' ? `Date: ${labelText(d.date)}` : 'May be opened officially',
    w.x0 + w.width * 0.65,
    w.y,
    w.width * 0.35,
    w.size,
    d.type !== 'commercial_invoice',
    'right',
  );
  w.y += w.size + 5;
  w.rule(w.y, 1.5);
  w.y += 5;
}

/** A declaration as stored, whatever a caller left out: never a crash on a missing number. */
function normalised(data: CustomsDocumentData): CustomsDocumentData {
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const items = (Array.isArray(data.customs?.items) ? data.customs.items : []).map((i) => ({
    ...i,
    description: String(i?.description ?? ''),
    quantity: num(i?.quantity),
    weight_oz: num(i?.weight_oz),
    unit_value: { amount: num(i?.unit_value?.amount), currency: String(i?.unit_value?.currency ?? 'USD') },
    origin_country: String(i?.origin_country ?? ''),
  }));
  return { ...data, weight_oz: num(data.weight_oz), customs: { ...data.customs, items } };
}

/** One customs document as a PDF (see above). */
export async function renderCustomsPdf(input: CustomsDocumentData): Promise<Buffer> {
  const data = normalised(input);
  const page = PAGES[data.type];
  const created = new Date(`${data.date}T00:00:00Z`);
  const doc = new PDFDocument({
    autoFirstPage: false,
    compress: true,
    info: {
      Title: `${data.type === 'commercial_invoice' ? 'Commercial invoice' : TITLES[data.type].code} ${data.tracking_number}`,
      Producer: 'shipping-service',
      Creator: 'shipping-service',
      // A fixed date makes the same document the same bytes.
      CreationDate: Number.isNaN(created.getTime()) ? undefined : created,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const w = new Writer(doc, page, data, data.type === 'cn22' ? 6 : 8);
  w.newPage();
  header(w);
  const c = data.customs;

  if (data.type === 'cn22') {
    const top = w.y;
    w.y += w.barcode(w.x0, top, w.width, 34) + 4;
    contentsBoxes(w, 2);
    w.y += 2;
    parties(w, ['From (sender)', data.ship_from], ['To (addressee)', data.ship_to], false);
    itemsTable(w, 'CN 22', true);
    facts(w, declarationFacts(data), 2);
    w.y += 2;
    signature(w, CERTIFICATION);
  } else if (data.type === 'cn23') {
    parties(w, ['From (sender)', data.ship_from], ['To (addressee)', data.ship_to], false);
    w.text('Category of item', w.x0, w.y, w.width, w.size, true);
    w.y += w.size + 4;
    contentsBoxes(w, 4);
    w.y += 4;
    itemsTable(w, 'CN 23', false);
    facts(w, [...declarationFacts(data), ['Postal charges', data.postage ? formatMoney(data.postage) : '—']], 2);
    w.y += 4;
    signature(w, CERTIFICATION);
    w.y += 8;
    w.ensure(60, () => undefined);
    w.barcode(w.x0 + w.width / 4, w.y, w.width / 2, 40);
  } else {
    facts(
      w,
      [
        ['Invoice no.', labelText(data.shipment_id)],
        ['Tracking no.', labelText(data.tracking_number)],
        ['Terms of sale', labelText(c.incoterm)],
        ['Reason for export', CONTENTS.find(([t]) => t === c.contents_type)?.[1] ?? labelText(c.contents_type)],
      ],
      2,
    );
    w.y += 4;
    parties(w, ['Shipper / exporter', data.ship_from], ['Consignee', data.ship_to], false);
    if (c.contents_explanation) {
      w.text(`Contents: ${labelText(c.contents_explanation)}`, w.x0, w.y, w.width);
      w.y += w.size + 4;
    }
    itemsTable(w, 'Commercial invoice', false);
    const totals = totalsByCurrency(c.items);
    const sameCurrency = data.postage && totals.length === 1 && totals[0]!.currency === data.postage.currency;
    facts(
      w,
      [
        ...declarationFacts(data),
        ['Freight', data.postage ? formatMoney(data.postage) : '—'],
        [
          'Invoice total',
          sameCurrency
            ? formatMoney({ amount: totals[0]!.amount + data.postage!.amount, currency: data.postage!.currency })
            : totals.map(formatMoney).join(' + ') || '—',
        ],
      ],
      2,
    );
    w.y += 4;
    signature(w, INVOICE_DECLARATION);
    w.y += 8;
    w.ensure(60, () => undefined);
    w.barcode(w.x0 + w.width / 4, w.y, w.width / 2, 40);
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
