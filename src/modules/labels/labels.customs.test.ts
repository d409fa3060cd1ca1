import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { DECLARATION, documentData } from '../../../test/helpers/customs.js';
import { CUSTOMS_DOCUMENT_TYPES, renderCustomsDocument, renderLabel, stampVoid, type LabelData } from './index.js';
import { createLabelRenderPool } from './labels.pool.js';

// pdftotext reads the text back as a customs officer's software would (apt-get install
// poppler-utils), pdftoppm rasterises a page for zbarimg to scan; CI may lack them.
const has = (bin: string) => spawnSync(bin, ['-v']).status === 0 || spawnSync(bin, ['--version']).status === 0;
const poppler = has('pdftotext') && has('pdftoppm');
const zbar = has('zbarimg');

const dir = mkdtempSync(path.join(tmpdir(), 'customs-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let seq = 0;
function file(body: Buffer, ext: string): string {
  const f = path.join(dir, `doc-${++seq}.${ext}`);
  writeFileSync(f, body);
  return f;
}

/** The text of a PDF as pdftotext extracts it, in UTF-8, spaces squeezed. */
export function pdfText(body: Buffer): string {
  return execFileSync('pdftotext', ['-enc', 'UTF-8', '-layout', file(body, 'pdf'), '-'], { encoding: 'utf8' }).replace(/[ \t]+/g, ' ');
}

/** Code 128 symbols zbarimg reads on the PDF's first page, rasterised at 200 dpi. */
function scanPdf(body: Buffer): string[] {
  const base = path.join(dir, `page-${++seq}`);
  execFileSync('pdftoppm', ['-r', '200', '-gray', '-png', '-f', '1', '-l', '1', '-singlefile', file(body, 'pdf'), base]);
  const out = execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Scode128.enable', `${base}.png`], {
    encoding: 'latin1',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return out.split('\n').filter(Boolean);
}

describe('customs documents (PDF)', () => {
  it.each(CUSTOMS_DOCUMENT_TYPES)("%s is a PDF of the form's page size, the same bytes every time", async (type) => {
    const a = await renderCustomsDocument(documentData(type));
    const b = await renderCustomsDocument(documentData(type));
    expect(a.content_type).toBe('application/pdf');
    expect(a.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(a.body.equals(b.body)).toBe(true);
    const pdf = await PDFDocument.load(a.body);
    const { width, height } = pdf.getPage(0).getSize();
    expect([width, height]).toEqual(type === 'cn22' ? [288, 432] : [612, 792]);
    // Fonts are embedded as subsets: a document stays small though it prints kanji and Cyrillic.
    expect(a.body.length).toBeLessThan(120_000);
  });

  it('many items continue on further pages, every item printed', async () => {
    const items = Array.from({ length: 60 }, (_, i) => ({ ...DECLARATION.items[0]!, description: `Numbered item ${i + 1}` }));
    for (const type of CUSTOMS_DOCUMENT_TYPES) {
      const body = (await renderCustomsDocument(documentData(type, { customs: { ...DECLARATION, items } }))).body;
      expect((await PDFDocument.load(body)).getPageCount(), type).toBeGreaterThan(1);
      if (poppler) {
        const text = pdfText(body);
        for (let i = 1; i <= 60; i++) expect(text, `${type} item ${i}`).toContain(`Numbered item ${i}`);
      }
    }
  });

  it('a declaration with fields missing (no items, an item without value or weight) still renders', async () => {
    const odd = { ...DECLARATION, items: [{ description: 'Loose item' } as never] };
    for (const type of CUSTOMS_DOCUMENT_TYPES) {
      expect((await renderCustomsDocument(documentData(type, { customs: odd, weight_oz: Number.NaN, tracking_number: '' }))).body.length, type).toBeGreaterThan(
        1000,
      );
      expect((await renderCustomsDocument(documentData(type, { customs: { ...DECLARATION, items: [] } }))).body.length, type).toBeGreaterThan(1000);
    }
  });

  it('renders in the pool (worker thread) to the same bytes as in-process', async () => {
    const pool = createLabelRenderPool({ threads: 1 });
    try {
      const data = documentData('cn23');
      expect((await pool.renderCustomsDocument(data)).body.equals((await renderCustomsDocument(data)).body)).toBe(true);
    } finally {
      await pool.close();
    }
  });
});

describe.runIf(poppler)('customs documents read back (pdftotext)', () => {
  it.each(CUSTOMS_DOCUMENT_TYPES)(
    '%s: parties, items, HS codes, totals, contents, incoterm, EEL/PFC, signer, date, tracking number, in UTF-8',
    async (type) => {
      const text = pdfText((await renderCustomsDocument(documentData(type))).body);
      if (type === 'commercial_invoice') expect(text).toContain('COMMERCIAL INVOICE');
      else expect(text).toContain(type === 'cn22' ? 'CN 22' : 'CN 23');
      for (const s of [
        'Acme Fulfilment',
        'Palo Alto',
        '山田 太郎',
        '株式会社サンプル',
        'London',
        'NW1 6XE',
        'Cotton T-shirt',
        'Шерстяной свитер',
        '610910',
        '6110.11.0010',
        '12.50 USD',
        '25.00 USD',
        '49.99 USD',
        '74.99 USD',
        'DDU',
        'NOEEI 30.37(a)',
        'Grace Hopper',
        '2026-03-05',
        'GB123456789000',
      ])
        expect(text, `${type}: ${s}`).toContain(s);
      expect(text).toContain(type === 'commercial_invoice' ? '1Z999AA10123456784' : 'LZ123456785US');
      expect(text).toMatch(/Sale of goods/);
      if (type === 'commercial_invoice') expect(text).toContain('117.14 USD'); // 74.99 goods + 42.15 freight
    },
  );

  it('an ITN takes the place of the EEL/PFC; other contents print their explanation; the sample banner in test', async () => {
    const text = pdfText(
      (
        await renderCustomsDocument(
          documentData('cn23', {
            sample: true,
            customs: {
              ...DECLARATION,
              eel_pfc: null,
              aes_itn: 'X20260305123456',
              contents_type: 'other',
              contents_explanation: 'Replacement parts under warranty',
            },
          }),
        )
      ).body,
    );
    expect(text).toContain('AES ITN');
    expect(text).toContain('X20260305123456');
    expect(text).toContain('Other: Replacement parts under warranty');
    expect(text).toContain('SAMPLE - DO NOT MAIL');
  });

  it('a label prints a Japanese or Cyrillic address as it is (PDF), not as ? or missing glyphs', async () => {
    const label: LabelData = {
      shipment_id: 'shp_1',
      tracking_number: '1Z999AA10123456784',
      carrier: 'ups',
      carrier_name: 'UPS',
      service_code: 'ups_worldwide_saver',
      service_name: 'UPS Worldwide Saver',
      zone: null,
      weight_oz: 30,
      ship_date: '2026-03-05',
      sample: false,
      ship_from: { name: 'Иван Петров', street1: 'ул. Тверская, 7', city: 'Москва', postal_code: '125009', country: 'RU' },
      ship_to: { name: '山田 太郎', street1: '千代田区丸の内1-1', city: '東京都', postal_code: '100-0005', country: 'JP' },
      carrier_parts: {
        heading: 'UPS TRACKING #',
        routing_code: 'JPN 100',
        tracking_text: '1Z 999 AA1 01 2345 6784',
        barcode: { symbology: 'code128', text: '1Z999AA10123456784' },
      },
    };
    for (const format of ['pdf_4x6', 'pdf_letter'] as const) {
      const text = pdfText((await renderLabel(label, format)).body);
      for (const s of ['山田 太郎', '千代田区丸の内1-1', '東京都', 'Иван Петров', 'ул. Тверская, 7', 'Москва']) expect(text, `${format}: ${s}`).toContain(s);
      expect(text).not.toContain('?');
    }
  });
});

describe.runIf(poppler && zbar)('the tracking number scans (zbarimg)', () => {
  it.each(CUSTOMS_DOCUMENT_TYPES)('%s', async (type) => {
    const data = documentData(type);
    expect(scanPdf((await renderCustomsDocument(data)).body)).toEqual([data.tracking_number]);
  });

  it("a voided sample PDF label says both marks and still scans; a carrier's PDF stamped VOID too", async () => {
    const label: LabelData = {
      shipment_id: 'shp_1',
      tracking_number: '1Z999AA10123456784',
      carrier: 'ups',
      carrier_name: 'UPS',
      service_code: 'ups_ground',
      service_name: 'UPS Ground',
      zone: '5',
      weight_oz: 30,
      ship_date: '2026-03-05',
      sample: true,
      voided: true,
      ship_from: { name: 'Sender', street1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
      ship_to: { name: 'Buyer', street1: '2 Elm St', city: 'Denver', state: 'CO', postal_code: '80202', country: 'US' },
      carrier_parts: {
        heading: 'UPS TRACKING #',
        routing_code: 'CO 802',
        tracking_text: '1Z 999 AA1 01 2345 6784',
        barcode: { symbology: 'code128', text: '1Z999AA10123456784' },
      },
    };
    const ours = (await renderLabel(label, 'pdf_4x6')).body;
    expect(pdfText(ours)).toMatch(/VOID[\s\S]*SAMPLE - DO NOT MAIL/);
    expect(scanPdf(ours)).toEqual([label.tracking_number]);
    const stamped = await stampVoid((await renderLabel({ ...label, sample: false, voided: false }, 'pdf_letter')).body, 'application/pdf');
    expect(pdfText(stamped).match(/VOID/g)).toHaveLength(2);
    expect(scanPdf(stamped)).toEqual([label.tracking_number]);
  });
});

describe('PNG text in any script', () => {
  it('kanji, kana and Cyrillic are drawn from a font that has them, not as the missing-glyph box', async () => {
    const { fontFace, glyph } = await import('./labels.fonts.js');
    const missing = glyph('\u{E000}', 40, false); // a private-use code point: neither font has it
    for (const [ch, face] of [
      ['東', 'cjk'],
      ['タ', 'cjk'],
      ['Ж', 'sans'],
      ['é', 'sans'],
    ] as const) {
      expect(fontFace(ch), ch).toBe(face);
      const g = glyph(ch, 40, false);
      expect(g.pixels, ch).not.toBeNull();
      expect(Buffer.from(g.pixels!).equals(Buffer.from(missing.pixels ?? [])), ch).toBe(false);
    }
  });
});
