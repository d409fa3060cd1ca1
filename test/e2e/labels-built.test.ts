import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script without typings
import { ensureBuild } from '../../scripts/ensure-build.mjs';

// What users run is the bundle: pdfkit (external, reading its font metrics from node_modules),
// DejaVu read at run time, and the render pool's worker as an entry of its own. Render every
// format from dist/ in a separate process, directly and through the pool, from another cwd.
const data = {
  shipment_id: 'shp_01jbuilt',
  tracking_number: '1Z999AA10123456784',
  carrier: 'ups',
  carrier_name: 'UPS',
  service_code: 'ups_ground',
  service_name: 'UPS Ground',
  zone: '5',
  weight_oz: 35.2,
  ship_date: '2026-03-05',
  ship_from: { name: 'Jürgen Müller', street1: '1 Main St', city: 'Palo Alto', state: 'CA', postal_code: '94301', country: 'US' },
  ship_to: { name: 'Renée 東京', street1: '350 Fifth Avenue', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' },
  sample: true,
  // As UPS's carrier definition presents this shipment (labelDataOf works it out before a render).
  carrier_parts: {
    heading: 'UPS TRACKING #',
    routing_code: '421 840 10118',
    tracking_text: '1Z 999 AA1 01 2345 6784',
    barcode: { symbology: 'code128', text: '1Z999AA10123456784' },
  },
};

// A CN 23 with a Japanese recipient and a Cyrillic description: the fonts are found from the bundle too.
const customs = {
  type: 'cn23',
  shipment_id: 'shp_01jbuilt',
  tracking_number: 'LZ123456785US',
  carrier_name: 'USPS',
  service_name: 'Priority Mail International',
  date: '2026-03-05',
  ship_from: data.ship_from,
  ship_to: { name: '山田 太郎', street1: '221B Baker Street', city: 'London', postal_code: 'NW1 6XE', country: 'GB' },
  weight_oz: 30,
  postage: null,
  reference: null,
  sample: false,
  customs: {
    contents_type: 'merchandise',
    non_delivery: 'return',
    incoterm: 'DDU',
    eel_pfc: 'NOEEI 30.37(a)',
    signer: 'Grace Hopper',
    items: [
      {
        description: 'Шерстяной свитер',
        quantity: 1,
        unit_value: { amount: 4999, currency: 'USD' },
        weight_oz: 14.5,
        hs_tariff_number: '611011',
        origin_country: 'PT',
      },
    ],
  },
};

type Out = Record<string, { direct: string; pool: string; content_type: string }>;
let out: Out;
const dir = mkdtempSync(path.join(tmpdir(), 'labels-built-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(() => {
  ensureBuild();
  const bundle = pathToFileURL(path.resolve('dist/src/labels.bundle.js')).href;
  const script = `
    const m = await import(${JSON.stringify(bundle)});
    const data = ${JSON.stringify(data)};
    const pool = m.createLabelRenderPool({ threads: 2 });
    const out = {};
    for (const f of m.LABEL_FORMATS) {
      const [direct, pooled] = await Promise.all([m.renderLabel(data, f), pool.renderLabel(data, f)]);
      out[f] = { direct: direct.body.toString('base64'), pool: pooled.body.toString('base64'), content_type: pooled.content_type };
    }
    const doc = ${JSON.stringify(customs)};
    const [docDirect, docPooled] = await Promise.all([m.renderCustomsDocument(doc), pool.renderCustomsDocument(doc)]);
    out.cn23 = { direct: docDirect.body.toString('base64'), pool: docPooled.body.toString('base64'), content_type: docPooled.content_type };
    const set = await pool.renderLabelSet([data, data, data], 'pdf_4x6');
    out.set = { direct: '', pool: set.body.toString('base64'), content_type: set.content_type };
    await pool.close();
    process.stdout.write(JSON.stringify(out));
  `;
  out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20 }));
}, 300_000);

describe('labels from the built tree', () => {
  it('renders every format, the same bytes in the pool as in-process', () => {
    for (const f of ['pdf_4x6', 'pdf_letter', 'png_4x6', 'zpl_4x6']) {
      expect(out[f]!.pool.length, f).toBeGreaterThan(1000);
      expect(out[f]!.pool, f).toBe(out[f]!.direct);
    }
    const pdf = Buffer.from(out.pdf_4x6!.pool, 'base64').toString('latin1');
    expect(pdf.startsWith('%PDF')).toBe(true);
    expect(pdf).toContain('/MediaBox [0 0 288 432]');
    expect(Buffer.from(out.pdf_letter!.pool, 'base64').toString('latin1')).toContain('/MediaBox [0 0 612 792]');
    const png = Buffer.from(out.png_4x6!.pool, 'base64');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([812, 1218]);
    const zpl = Buffer.from(out.zpl_4x6!.pool, 'base64').toString('utf8');
    expect(zpl).toMatch(/^\^XA[\s\S]*\^BC[^^]*\^FD1Z999AA10123456784\^FS[\s\S]*\^XZ$/);
    expect(out.set!.content_type).toBe('application/pdf');
    expect(
      Buffer.from(out.set!.pool, 'base64')
        .toString('latin1')
        .match(/\/Type \/Page\b/g),
    ).toHaveLength(3);
  });

  it('renders a customs document, the same bytes in the pool as in-process', () => {
    expect(out.cn23!.content_type).toBe('application/pdf');
    expect(out.cn23!.pool).toBe(out.cn23!.direct);
    const body = Buffer.from(out.cn23!.pool, 'base64');
    expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    if (spawnSync('pdftotext', ['-v']).status !== 0) return;
    const file = path.join(dir, 'cn23.pdf');
    writeFileSync(file, body);
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    for (const s of ['CN 23', '山田 太郎', 'Шерстяной свитер', '611011', 'Grace Hopper', 'LZ123456785US']) expect(text, s).toContain(s);
  });

  it.runIf(spawnSync('zbarimg', ['--version']).status === 0)('a scanner reads the built PNG', () => {
    const file = path.join(dir, 'label.png');
    writeFileSync(file, Buffer.from(out.png_4x6!.pool, 'base64'));
    const read = execFileSync('zbarimg', ['--quiet', '--raw', file], { encoding: 'latin1', stdio: ['ignore', 'pipe', 'ignore'] });
    expect(read.trim()).toBe('1Z999AA10123456784');
  });
});
