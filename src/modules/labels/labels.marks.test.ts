import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { carrier as upsCarrier, upsTrackingNumber } from '../../carriers/ups/index.js';
import { carrier as uspsCarrier, uspsTrackingNumber } from '../../carriers/usps/index.js';
import { labelCarrierParts, labelMarks, renderLabel, type LabelData } from './index.js';
import { layoutLabel } from './labels.layout.js';

const shipTo = {
  name: 'Ada Lovelace',
  street1: '350 Fifth Avenue',
  street2: 'Suite 4500',
  city: 'New York',
  state: 'NY',
  postal_code: '10118-0001',
  country: 'US',
};
const ups = (): LabelData => {
  const tn = upsTrackingNumber('shp_marks', 'ups_next_day_air');
  return {
    shipment_id: 'shp_01jtestmarks0000000000000',
    tracking_number: tn,
    carrier: 'ups',
    carrier_name: 'UPS',
    service_code: 'ups_next_day_air',
    service_name: 'UPS Next Day Air',
    zone: '5',
    weight_oz: 35,
    ship_date: '2026-03-05',
    ship_from: { name: 'Acme', street1: '1 Main St', city: 'Palo Alto', state: 'CA', postal_code: '94301', country: 'US' },
    ship_to: shipTo,
    reference: 'ord_123',
    sample: false,
    marks: labelMarks({ signature: 'adult', saturday_delivery: true, dangerous_goods: { category: 'dry_ice', dry_ice_weight_oz: 80 } }),
    references: ['PO-1042', 'INV-77'],
    carrier_parts: labelCarrierParts(upsCarrier.label, tn, shipTo),
  };
};

const texts = (data: LabelData) => layoutLabel(data).flatMap((p) => (p.kind === 'text' ? [p.text] : []));

describe('handling marks and references on the label', () => {
  it('the marks of each option, in print order; none for a parcel that asked for nothing', () => {
    expect(labelMarks({ signature: 'standard', saturday_delivery: false, dangerous_goods: null })).toEqual(['SIGNATURE REQUIRED']);
    expect(labelMarks({ signature: 'adult', saturday_delivery: true, dangerous_goods: { category: 'lithium_ion_in_equipment' } })).toEqual([
      'ADULT SIGNATURE REQUIRED',
      'SATURDAY DELIVERY',
      'LITHIUM ION BATTERIES IN EQUIPMENT UN3481 PI967',
    ]);
    // 80 oz of dry ice is 2.3 kg.
    expect(labelMarks({ signature: 'none', saturday_delivery: false, dangerous_goods: { category: 'dry_ice', dry_ice_weight_oz: 80 } })).toEqual([
      'DRY ICE UN1845 NET 2.3 KG',
    ]);
    expect(labelMarks({ signature: 'none', saturday_delivery: false, dangerous_goods: null })).toEqual([]);
    expect(labelMarks(null)).toEqual([]);
  });

  it('the layout every format draws prints each mark white on black and the references', () => {
    const layout = layoutLabel(ups());
    for (const mark of ['ADULT SIGNATURE REQUIRED', 'SATURDAY DELIVERY', 'DRY ICE UN1845 NET 2.3 KG']) {
      const t = layout.find((p) => p.kind === 'text' && p.text === mark);
      expect(t, mark).toMatchObject({ inverse: true, bold: true });
    }
    expect(texts(ups())).toContain('REFERENCE: PO-1042 / INV-77');
    expect(texts({ ...ups(), marks: [], references: [] }).some((t) => /SIGNATURE|REFERENCE:/.test(t))).toBe(false);
  });

  it('ZPL prints them as reversed fields; PDF and PNG render', async () => {
    const zpl = (await renderLabel(ups(), 'zpl_4x6')).body.toString('utf8');
    expect(zpl).toMatch(/\^FR\^FH\^FDADULT SIGNATURE REQUIRED\^FS/);
    expect(zpl).toMatch(/\^FR\^FH\^FDSATURDAY DELIVERY\^FS/);
    expect(zpl).toContain('^FDREFERENCE: PO-1042 / INV-77^FS');
    expect((await renderLabel(ups(), 'pdf_4x6')).body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect((await renderLabel(ups(), 'png_4x6')).content_type).toBe('image/png');
  });
});

const zbar = spawnSync('zbarimg', ['--version']).status === 0;
describe.runIf(zbar)('with every mark the barcode still scans (zbarimg)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'label-marks-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let seq = 0;
  const scan = (image: Buffer) => {
    const file = path.join(dir, `m-${++seq}.png`);
    writeFileSync(file, image);
    return execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Scode128.enable', file], {
      encoding: 'latin1',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).replace(/\n$/, '');
  };
  // Four marks (a long one) and references on a test label: the most a label carries.
  const crowded = (): LabelData => ({ ...ups(), sample: true, marks: [...ups().marks!, 'LIMITED QUANTITY - GROUND ONLY'] });

  it('PNG', async () => {
    expect(scan((await renderLabel(crowded(), 'png_4x6')).body)).toBe(crowded().tracking_number);
  });

  it('ZPL printed at 203 dpi (zpl-renderer-js)', async () => {
    const { zplToBase64MultipleAsync } = await import('zpl-renderer-js');
    const [image] = await zplToBase64MultipleAsync((await renderLabel(crowded(), 'zpl_4x6')).body.toString('utf8'), 812 / 8, 1218 / 8, 8);
    expect(scan(Buffer.from(image!, 'base64'))).toBe(crowded().tracking_number);
  });

  it('USPS IMpb with a signature mark', async () => {
    const tn = uspsTrackingNumber('shp_m2', 'usps_priority_mail');
    const data: LabelData = {
      ...ups(),
      carrier: 'usps',
      carrier_name: 'USPS',
      service_code: 'usps_priority_mail',
      service_name: 'Priority Mail',
      tracking_number: tn,
      marks: ['SIGNATURE REQUIRED'],
      carrier_parts: labelCarrierParts(uspsCarrier.label, tn, shipTo),
    };
    expect(scan((await renderLabel(data, 'png_4x6')).body)).toBe(`42010118\x1d${tn}`);
  });
});
