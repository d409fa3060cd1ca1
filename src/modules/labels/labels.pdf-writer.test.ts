import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { carrier as uspsCarrier, uspsTrackingNumber } from '../../carriers/usps/index.js';
import { labelCarrierParts, type LabelData } from './index.js';
import { renderPdf } from './labels.pdf.js';

// Labels whose text Helvetica prints are written directly (labels.pdf-writer.ts), the rest
// through pdfkit. What must hold: the written file draws what pdfkit draws, pixel for pixel once
// rasterised (pdftoppm, as a printer driver would), and reads back as the same text; a label in
// another script still goes through pdfkit with its fonts embedded.
const has = (bin: string) => spawnSync(bin, ['-v']).status === 0;
const poppler = has('pdftoppm') && has('pdftotext');
const dir = mkdtempSync(path.join(tmpdir(), 'pdf-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let seq = 0;

/** The first page rasterised at the label printer's 203 dpi, as grey bytes (PGM), and its text. */
function rasterise(body: Buffer): { pixels: Buffer; text: string } {
  const base = path.join(dir, `p${++seq}`);
  writeFileSync(`${base}.pdf`, body);
  execFileSync('pdftoppm', ['-r', '203', '-gray', '-f', '1', '-l', '1', '-singlefile', `${base}.pdf`, base]);
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', `${base}.pdf`, '-'], { encoding: 'utf8' });
  return { pixels: readFileSync(`${base}.pgm`), text };
}

const differing = (a: Buffer, b: Buffer) => {
  expect(a.length).toBe(b.length);
  let n = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > 64) n++;
  return n;
};

const tracking = uspsTrackingNumber('shp_writer', 'usps_priority_mail');
const shipTo = {
  name: 'Zoë “AV” Tåvé — WAWA',
  street1: '1 Market St (rear) \\ back',
  street2: 'Apt 4½',
  city: 'San Francisco',
  state: 'CA',
  postal_code: '94105',
  country: 'US',
};
const label = (over: Partial<LabelData> = {}): LabelData => {
  const data = {
    shipment_id: 'shp_writer',
    tracking_number: tracking,
    carrier: 'usps',
    carrier_name: 'USPS',
    service_code: 'usps_priority_mail',
    service_name: 'Priority Mail',
    zone: '5',
    weight_oz: 35.2,
    ship_date: '2026-03-05',
    ship_from: { name: 'Acme Fulfilment', company: 'Acme Inc.', street1: '1 Main St', city: 'Palo Alto', state: 'CA', postal_code: '94301', country: 'US' },
    ship_to: shipTo,
    reference: 'ORD-1001 (gift)',
    sample: true,
    ...over,
  } as Omit<LabelData, 'carrier_parts'>;
  return { ...data, carrier_parts: labelCarrierParts(uspsCarrier.label, data.tracking_number, data.ship_to) } as LabelData;
};

describe.skipIf(!poppler)('the direct PDF writer', () => {
  it.each(['label_4x6', 'letter'] as const)('draws a %s label as pdfkit does, kerning, quotes and the sample band included', async (page) => {
    const data = [label(), label({ sample: false, ship_to: { ...shipTo, name: 'AVAVAV Toyota WAY' } })];
    const direct = await renderPdf(data, page);
    const viaPdfkit = await renderPdf(data, page, 'pdfkit');
    expect(direct.equals(viaPdfkit)).toBe(false);
    // Written directly: no embedded font, the two standard ones.
    expect(direct.toString('latin1')).not.toMatch(/FontFile/);
    const a = rasterise(direct);
    const b = rasterise(viaPdfkit);
    expect(a.text).toContain('Zoë “AV” Tåvé — WAWA');
    expect(a.text).toBe(b.text);
    // pdfkit places the letter page's label by a transformation of its own: a couple of edge pixels may round apart.
    expect(differing(a.pixels, b.pixels)).toBeLessThanOrEqual(page === 'letter' ? 10 : 0);
  });

  it('sends a label in another script to pdfkit, which embeds the font it needs', async () => {
    const body = await renderPdf([label({ ship_to: { ...shipTo, name: 'Иван Петров' } })], 'label_4x6');
    expect(body.toString('latin1')).toMatch(/FontFile2/);
    expect(rasterise(body).text).toContain('Иван Петров');
  });

  it('sends a whole set to pdfkit when a later label needs it, every page in order', async () => {
    // The writer lays out and writes one page at a time: it meets the Cyrillic label on page 3.
    const names = ['First Buyer', 'Second Buyer', 'Иван Петров', 'Fourth Buyer'];
    const body = await renderPdf(
      names.map((name) => label({ ship_to: { ...shipTo, name } })),
      'label_4x6',
    );
    expect(body.toString('latin1')).toMatch(/FontFile2/);
    const text = rasterise(body).text;
    const at = names.map((name) => text.indexOf(name));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });
});
