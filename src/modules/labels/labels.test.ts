import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { carrier as dhlExpress, dhlTrackingNumber } from '../../carriers/dhl_express/index.js';
import { carrier as fedexCarrier, fedexTrackingNumber } from '../../carriers/fedex/index.js';
import { carrier as upsCarrier, upsTrackingNumber } from '../../carriers/ups/index.js';
import { carrier as uspsCarrier, uspsTrackingNumber } from '../../carriers/usps/index.js';
import type { CarrierDefinition } from '../../carriers/types.js';
import { LABEL_FORMATS, labelCarrierParts, labelContentType, renderLabel, renderLabelSet, stampVoid, type LabelData } from './index.js';
import { labelText, latinText } from './labels.text.js';

const definitions: Record<string, CarrierDefinition> = { usps: uspsCarrier, ups: upsCarrier, fedex: fedexCarrier, dhl_express: dhlExpress };

/** The label's carrier parts, as the carrier's definition presents them (as labelDataOf does). */
function presented(data: Omit<LabelData, 'carrier_parts'> & { carrier_parts?: unknown }): LabelData {
  return { ...data, carrier_parts: labelCarrierParts(definitions[data.carrier]!.label, data.tracking_number, data.ship_to) };
}

const base: LabelData = presented({
  shipment_id: 'shp_01jtestlabel0000000000000',
  tracking_number: uspsTrackingNumber('shp_1', 'usps_priority_mail'),
  carrier: 'usps',
  carrier_name: 'USPS',
  service_code: 'usps_priority_mail',
  service_name: 'Priority Mail',
  zone: '5',
  weight_oz: 35.2,
  ship_date: '2026-03-05',
  ship_from: {
    name: 'Acme Fulfilment',
    company: 'Acme Inc.',
    street1: '1 Main St',
    city: 'Palo Alto',
    state: 'CA',
    postal_code: '94301',
    country: 'US',
    phone: '+1 650 555 0100',
  },
  ship_to: {
    name: 'Ada Lovelace',
    street1: '350 Fifth Avenue',
    street2: 'Suite 4500',
    city: 'New York',
    state: 'NY',
    postal_code: '10118-0001',
    country: 'US',
  },
  reference: 'ord_123',
  sample: false,
});

const carriers: Array<{ name: string; data: LabelData; decodes: string }> = (() => {
  const usps = base;
  const uspsIntl: LabelData = presented({
    ...base,
    tracking_number: uspsTrackingNumber('shp_2', 'usps_first_class_international'),
    service_code: 'usps_first_class_international',
    service_name: 'First-Class Package International',
    zone: 'INTL-2',
    ship_to: { name: 'Jürgen Müller', street1: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117', country: 'DE' },
  });
  const ups: LabelData = presented({
    ...base,
    carrier: 'ups',
    carrier_name: 'UPS',
    service_code: 'ups_ground',
    service_name: 'UPS Ground',
    tracking_number: upsTrackingNumber('shp_3', 'ups_ground'),
  });
  const fedex: LabelData = presented({
    ...base,
    carrier: 'fedex',
    carrier_name: 'FedEx',
    service_code: 'fedex_2day',
    service_name: 'FedEx 2Day',
    tracking_number: fedexTrackingNumber('shp_4', 'fedex_2day'),
  });
  const dhl: LabelData = presented({
    ...uspsIntl,
    carrier: 'dhl_express',
    carrier_name: 'DHL Express',
    service_code: 'dhl_express_worldwide',
    service_name: 'Express Worldwide',
    tracking_number: dhlTrackingNumber('shp_5', 'dhl_express_worldwide'),
  });
  return [
    // IMpb: GS1-128 (420)ZIP5 FNC1 (9x)…; scanners hand back FNC1 as the group separator.
    { name: 'usps', data: usps, decodes: `42010118\x1d${usps.tracking_number}` },
    { name: 'usps international', data: uspsIntl, decodes: uspsIntl.tracking_number },
    { name: 'ups', data: ups, decodes: ups.tracking_number },
    { name: 'fedex', data: fedex, decodes: fedex.tracking_number },
    { name: 'dhl_express', data: dhl, decodes: dhl.tracking_number },
  ];
})();

/** Page sizes and count of a PDF (pdfkit writes page dictionaries uncompressed). */
function pdfPages(body: Buffer): Array<[number, number]> {
  const text = body.toString('latin1');
  return [...text.matchAll(/\/Type \/Page\b[\s\S]*?\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)].map((m) => [Number(m[1]), Number(m[2])]);
}

/** The decompressed content streams of a PDF, to look at what was drawn. */
function pdfContent(body: Buffer): string {
  const text = body.toString('latin1');
  let out = '';
  for (const m of text.matchAll(/stream\n([\s\S]*?)\nendstream/g)) {
    try {
      out += inflateSync(Buffer.from(m[1]!, 'latin1')).toString('latin1');
    } catch {
      /* not a deflated stream */
    }
  }
  return out;
}

describe('PDF labels', () => {
  it('pdf_4x6 is one 288×432 pt page starting %PDF', async () => {
    const r = await renderLabel(base, 'pdf_4x6');
    expect(r.content_type).toBe('application/pdf');
    expect(r.file_extension).toBe('pdf');
    expect(r.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(r.body.subarray(-6).toString('latin1')).toMatch(/%%EOF\n?$/);
    expect(pdfPages(r.body)).toEqual([[288, 432]]);
  });

  it('pdf_letter is one 612×792 pt page', async () => {
    const r = await renderLabel(base, 'pdf_letter');
    expect(r.body.subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(pdfPages(r.body)).toEqual([[612, 792]]);
  });

  it('draws the barcode as bars (many filled rectangles) and the same label renders to the same bytes', async () => {
    const a = await renderLabel(base, 'pdf_4x6');
    const b = await renderLabel(base, 'pdf_4x6');
    expect(a.body.equals(b.body)).toBe(true);
    expect((pdfContent(a.body).match(/ re\b/g) ?? []).length).toBeGreaterThan(40);
  });

  it('a set has one page per label, in the label size', async () => {
    const set = Array.from({ length: 7 }, (_, i) =>
      presented({ ...base, shipment_id: `shp_${i}`, tracking_number: uspsTrackingNumber(`shp_${i}`, 'usps_priority_mail') }),
    );
    expect(pdfPages((await renderLabelSet(set, 'pdf_4x6')).body)).toHaveLength(7);
    const letter = await renderLabelSet(set, 'pdf_letter');
    expect(pdfPages(letter.body)).toEqual(Array.from({ length: 7 }, () => [612, 792]));
    // PNG sets come back as the 4×6 multi-page PDF.
    const png = await renderLabelSet(set, 'png_4x6');
    expect(png.content_type).toBe('application/pdf');
    expect(png.file_extension).toBe('pdf');
    expect(pdfPages(png.body)).toEqual(Array.from({ length: 7 }, () => [288, 432]));
  });

  it('an empty set is an error, not an empty file', async () => {
    await expect(renderLabelSet([], 'pdf_4x6')).rejects.toThrow(RangeError);
  });
});

describe('PNG labels', () => {
  it('is a 812×1218 (4×6 in at 203 dpi) PNG that decodes', async () => {
    const r = await renderLabel(base, 'png_4x6');
    expect(r.content_type).toBe('image/png');
    expect(r.body.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(r.body.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect([r.body.readUInt32BE(16), r.body.readUInt32BE(20)]).toEqual([812, 1218]);
    const png = PNG.sync.read(r.body); // checks every CRC and the compressed data
    expect([png.width, png.height]).toEqual([812, 1218]);
  });

  it('prints the sample banner in test (black top rows), not in live', async () => {
    const inkAt = (body: Buffer, x: number, y: number) => {
      const png = PNG.sync.read(body);
      return png.data[(y * png.width + x) * 4] === 0;
    };
    expect(inkAt((await renderLabel({ ...base, sample: true }, 'png_4x6')).body, 5, 5)).toBe(true);
    expect(inkAt((await renderLabel(base, 'png_4x6')).body, 5, 5)).toBe(false);
  });
});

describe('ZPL labels', () => {
  it.each(carriers)('$name: ^XA … ^XZ at 203 dpi, UTF-8, with the tracking number in its ^BC field', async ({ data }) => {
    const r = await renderLabel(data, 'zpl_4x6');
    expect(r.content_type).toBe('application/x-zpl');
    const zpl = r.body.toString('utf8');
    expect(zpl.startsWith('^XA')).toBe(true);
    expect(zpl.trimEnd().endsWith('^XZ')).toBe(true);
    expect(zpl).toContain('^CI28');
    expect(zpl).toContain('^PW812');
    expect(zpl).toContain('^LL1218');
    const field = zpl.match(/\^BC[^^]*\^FD([^^]*)\^FS/);
    expect(field?.[1]).toContain(data.tracking_number);
    // One field per command: every ^FD is closed before the next ^FO.
    for (const line of zpl.split('\n').filter((l) => l.includes('^FD'))) expect(line).toMatch(/\^FD[^^]*\^FS$/);
  });

  it('USPS is GS1-128: FNC1, (420) ZIP, FNC1, the IMpb number', async () => {
    const zpl = (await renderLabel(base, 'zpl_4x6')).body.toString('utf8');
    expect(zpl).toContain(`^FD>;>842010118>8${base.tracking_number}^FS`);
  });

  it('says SAMPLE - DO NOT MAIL on a sample and escapes ^ ~ _ in data', async () => {
    const zpl = (await renderLabel({ ...base, sample: true, reference: 'a^b~c_d' }, 'zpl_4x6')).body.toString('utf8');
    expect(zpl.match(/\^FDSAMPLE - DO NOT MAIL\^FS/g)).toHaveLength(2);
    expect(zpl).toContain('a_5Eb_7Ec_5Fd');
    expect((await renderLabel(base, 'zpl_4x6')).body.toString('utf8')).not.toContain('SAMPLE');
  });

  it('says VOID on a voided label: VOID above and SAMPLE below when it is both', async () => {
    const voided = (await renderLabel({ ...base, voided: true }, 'zpl_4x6')).body.toString('utf8');
    expect(voided.match(/\^FDVOID\^FS/g)).toHaveLength(2);
    const both = (await renderLabel({ ...base, voided: true, sample: true }, 'zpl_4x6')).body.toString('utf8');
    expect(both.indexOf('^FDVOID^FS')).toBeGreaterThan(-1);
    expect(both.indexOf('^FDVOID^FS')).toBeLessThan(both.indexOf('^FDSAMPLE - DO NOT MAIL^FS'));
    expect(both.match(/\^FDVOID\^FS/g)).toHaveLength(1);
  });

  it('heads the recipient RETURN TO: on a return label, SHIP TO: otherwise', async () => {
    const zpl = (await renderLabel({ ...base, is_return: true }, 'zpl_4x6')).body.toString('utf8');
    expect(zpl).toContain('^FDRETURN TO:^FS');
    expect(zpl).not.toContain('SHIP TO:');
    expect((await renderLabel(base, 'zpl_4x6')).body.toString('utf8')).not.toContain('RETURN');
  });

  it('a set is the labels one after the other', async () => {
    const set = carriers.map((c) => c.data);
    const zpl = (await renderLabelSet(set, 'zpl_4x6')).body.toString('utf8');
    expect(zpl.match(/\^XA/g)).toHaveLength(set.length);
    expect(zpl.match(/\^XZ/g)).toHaveLength(set.length);
  });
});

describe('text', () => {
  it.each(LABEL_FORMATS)('%s: non-ASCII names, NUL and very long lines do not crash', async (format) => {
    const data: LabelData = presented({
      ...base,
      ship_to: { ...base.ship_to, name: 'Jürgen Müller-Lüdenscheidt', company: 'Café Renée 東京 🚚', street1: `Straße\u0000 ${'x'.repeat(500)}` },
      ship_from: { ...base.ship_from, name: 'Łódź Ωmega Москва' },
    });
    const r = await renderLabel(data, format);
    expect(r.body.length).toBeGreaterThan(500);
    expect(r.content_type).toBe(labelContentType(format));
  });

  it.each(LABEL_FORMATS)('%s: missing fields (no country, no tracking number, NaN weight) still render', async (format) => {
    const data = presented({
      ...base,
      tracking_number: '',
      weight_oz: Number.NaN,
      zone: null,
      reference: null,
      ship_to: { country: null },
    } as unknown as LabelData);
    expect((await renderLabel(data, format)).body.length).toBeGreaterThan(500);
  });

  it('PDF and PNG text keeps every script; controls become spaces', () => {
    expect(labelText('Jürgen Müller, Renée')).toBe('Jürgen Müller, Renée');
    expect(labelText('Ő Ș 東京 Москва')).toBe('Ő Ș 東京 Москва');
    expect(labelText('a\u0000b\nc')).toBe('a b c');
    expect(labelText('— “x” €')).toBe('— “x” €');
  });

  it('ZPL text keeps Latin-1 and WinAnsi, strips accents it cannot show, transliterates Cyrillic and prints ? for the rest', () => {
    expect(latinText('Jürgen Müller, Renée')).toBe('Jürgen Müller, Renée');
    expect(latinText('Ő Ș')).toBe('O S');
    expect(latinText('東京')).toBe('??');
    expect(latinText('Москва, Щукина ул. Ёлка')).toBe('Moskva, Shchukina ul. Elka');
    expect(latinText('a\u0000b\nc')).toBe('a b c');
  });
});

// zbarimg reads the barcode back like a scanner would (apt-get install zbar-tools); CI may lack it.
const zbar = spawnSync('zbarimg', ['--version']).status === 0;
describe.runIf(zbar)('a scanner reads the tracking number back (zbarimg)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'labels-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let seq = 0;

  function scan(image: Buffer): string {
    const file = path.join(dir, `label-${++seq}.png`);
    writeFileSync(file, image);
    const out = execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Scode128.enable', file], {
      encoding: 'latin1',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return out.replace(/\n$/, '');
  }

  /**
   * Prints ZPL the way a 203 dpi Zebra would, with an independent renderer (zpl-renderer-js,
   * Zebrash compiled to WebAssembly and inlined in the package: nothing is fetched), one PNG of
   * exactly 812 × 1218 dots per ^XA … ^XZ, and checks each barcode lies wholly on the label
   * with its quiet zones (10 modules each side) before a scanner reads it.
   */
  async function printZpl(zpl: string): Promise<string[]> {
    const formats = zpl
      .split('^XZ')
      .filter((f) => f.includes('^XA'))
      .map((f) => `${f}^XZ`);
    // ~9 MB of JavaScript and WebAssembly: loaded only where a scanner can read its output.
    const { zplToBase64MultipleAsync } = await import('zpl-renderer-js');
    const images = await zplToBase64MultipleAsync(zpl, 812 / 8, 1218 / 8, 8);
    expect(images).toHaveLength(formats.length);
    return images.map((b64, i) => {
      const image = Buffer.from(b64, 'base64');
      const png = PNG.sync.read(image);
      expect([png.width, png.height]).toEqual([812, 1218]);
      const field = formats[i]!.match(/\^FO(\d+),(\d+)\^BY(\d+)\^BCN,(\d+),/);
      expect(field).not.toBeNull();
      const [x, y, moduleDots, h] = field!.slice(1).map(Number) as [number, number, number, number];
      const row = y + Math.floor(h / 2);
      let first = -1;
      let last = -1;
      for (let px = 0; px < png.width; px++) {
        if (png.data[(row * png.width + px) * 4]! < 128) {
          if (first < 0) first = px;
          last = px;
        }
      }
      expect(first).toBe(x);
      expect(last + 1 + 10 * moduleDots).toBeLessThanOrEqual(812);
      expect(first - 10 * moduleDots).toBeGreaterThanOrEqual(0);
      return scan(image);
    });
  }

  it.each(carriers)('$name PNG', async ({ data, decodes }) => {
    expect(scan((await renderLabel(data, 'png_4x6')).body)).toBe(decodes);
  });

  it.each(carriers)('$name ZPL, printed at 203 dpi', async ({ data, decodes }) => {
    expect(await printZpl((await renderLabel(data, 'zpl_4x6')).body.toString('utf8'))).toEqual([decodes]);
  });

  it('ZPL barcodes of 10 UPS numbers (every service, 1Z… letters and digits mixed) fit and scan', async () => {
    // Only the ^BC field of each label (text takes most of a render's time), at its own place.
    const services = ['ups_ground', 'ups_3_day_select', 'ups_2nd_day_air', 'ups_next_day_air', 'ups_worldwide_saver', 'ups_ground'];
    const labels = Array.from({ length: 10 }, (_, i) => {
      const service = services[i % services.length]!;
      return presented({
        ...base,
        carrier: 'ups',
        carrier_name: 'UPS',
        service_code: service,
        service_name: service,
        tracking_number: upsTrackingNumber(`shp_sweep_${i}`, service),
        sample: i % 2 === 1,
      });
    });
    const zpl = (await renderLabelSet(labels, 'zpl_4x6')).body
      .toString('utf8')
      .split('\n')
      .filter((line) => /^\^(XA|XZ|PW|LL|LH|CI)|\^BC/.test(line))
      .join('\n');
    expect(await printZpl(zpl)).toEqual(labels.map((l) => l.tracking_number));
  });

  it.each(['png_4x6', 'zpl_4x6'] as const)('a voided sample label (both bands) still scans: %s', async (format) => {
    const body = (await renderLabel({ ...base, sample: true, voided: true }, format)).body;
    const decoded = format === 'png_4x6' ? [scan(body)] : await printZpl(body.toString('utf8'));
    expect(decoded).toEqual([carriers[0]!.decodes]);
  });

  it('a carrier-issued label stamped VOID still scans (PNG and ZPL)', async () => {
    const png = (await renderLabel(base, 'png_4x6')).body;
    const stamped = await stampVoid(png, 'image/png');
    const image = PNG.sync.read(stamped);
    expect(image.data[(5 * image.width + 5) * 4]).toBe(0); // the band's black corner
    expect(scan(stamped)).toBe(carriers[0]!.decodes);
    const zpl = (await stampVoid((await renderLabel(base, 'zpl_4x6')).body, 'application/x-zpl')).toString('utf8');
    expect(zpl.match(/\^FR\^FDVOID\^FS/g)).toHaveLength(2);
    expect(await printZpl(zpl)).toEqual([carriers[0]!.decodes]);
  });

  it('a ZPL set (test labels: the banners move the barcode up) prints every label, each with its own barcode', async () => {
    const zpl = (
      await renderLabelSet(
        carriers.map((c) => ({ ...c.data, sample: true })),
        'zpl_4x6',
      )
    ).body.toString('utf8');
    expect(await printZpl(zpl)).toEqual(carriers.map((c) => c.decodes));
  });
});
