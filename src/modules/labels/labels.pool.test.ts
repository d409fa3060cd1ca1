import { afterAll, describe, expect, it } from 'vitest';
import { upsTrackingNumber } from '../../carriers/ups/tracking-numbers.js';
import { carrier as ups } from '../../carriers/ups/index.js';
import { createLabelRenderPool, labelCarrierParts, renderLabel, type LabelData, type LabelFormat } from './index.js';
import { workerExecArgv } from './labels.pool.js';

const label = (i: number): LabelData =>
  withParts({
    shipment_id: `shp_${i}`,
    tracking_number: upsTrackingNumber(`shp_${i}`, 'ups_ground'),
    carrier: 'ups',
    carrier_name: 'UPS',
    service_code: 'ups_ground',
    service_name: 'UPS Ground',
    zone: '4',
    weight_oz: 12,
    ship_date: '2026-03-05',
    ship_from: { name: 'Acme', street1: '1 Main St', city: 'Palo Alto', state: 'CA', postal_code: '94301', country: 'US' },
    ship_to: { name: `Buyer ${i}`, street1: '350 Fifth Avenue', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' },
    sample: false,
  });

function withParts(data: Omit<LabelData, 'carrier_parts'>): LabelData {
  return { ...data, carrier_parts: labelCarrierParts(ups.label, data.tracking_number, data.ship_to) };
}

describe('label render pool (worker threads)', () => {
  const pool = createLabelRenderPool({ threads: 2 });
  afterAll(() => pool.close());

  it('renders the same bytes as the module does in-process', { timeout: 60_000 }, async () => {
    for (const format of ['pdf_4x6', 'png_4x6', 'zpl_4x6'] as const) {
      const [inPool, here] = await Promise.all([pool.renderLabel(label(1), format), renderLabel(label(1), format)]);
      expect(inPool.content_type).toBe(here.content_type);
      expect(inPool.body.equals(here.body)).toBe(true);
    }
  });

  it('runs many at once and keeps each answer with its request', { timeout: 60_000 }, async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => pool.renderLabel(label(i), 'zpl_4x6')));
    results.forEach((r, i) => expect(r.body.toString('utf8')).toContain(`^FD${label(i).tracking_number}^FS`));
  });

  it('splits a ZPL set across the workers and keeps the order', { timeout: 60_000 }, async () => {
    const set = Array.from({ length: 9 }, (_, i) => label(i));
    const zpl = (await pool.renderLabelSet(set, 'zpl_4x6')).body.toString('utf8');
    const order = [...zpl.matchAll(/\^BC[^^]*\^FD([^^]+)\^FS/g)].map((m) => m[1]);
    expect(order).toEqual(set.map((l) => l.tracking_number));
  });

  it('passes a render error back as a rejection, and keeps working', { timeout: 60_000 }, async () => {
    await expect(pool.renderLabel(label(1), 'gif_4x6' as LabelFormat)).rejects.toThrow(/unknown label format/);
    await expect(pool.renderLabelSet([], 'pdf_4x6')).rejects.toThrow(RangeError);
    expect((await pool.renderLabel(label(2), 'pdf_4x6')).body.subarray(0, 4).toString()).toBe('%PDF');
  });

  it('refuses work once closed', { timeout: 60_000 }, async () => {
    const other = createLabelRenderPool({ threads: 1 });
    await other.renderLabel(label(3), 'zpl_4x6');
    await other.close();
    await expect(other.renderLabel(label(3), 'zpl_4x6')).rejects.toThrow(/closed/);
  });
});

describe('the flags a render thread takes', () => {
  it('keeps the module-loading flags with their values and drops V8 options a worker refuses', () => {
    const argv = [
      '--max-semi-space-size=8',
      '--conditions',
      'node',
      '--require',
      '/x/suppress-warnings.cjs',
      '--input-type=module',
      '--import=tsx',
      '--max-old-space-size=512',
      '--experimental-import-meta-resolve',
      '--heap-growing-percent=20',
      '-r',
      './preload.cjs',
    ];
    expect(workerExecArgv(argv)).toEqual([
      '--conditions',
      'node',
      '--require',
      '/x/suppress-warnings.cjs',
      '--import=tsx',
      '--experimental-import-meta-resolve',
      '-r',
      './preload.cjs',
    ]);
  });

  it('starts a render thread in a process run with the heap flags of `npm start`', { timeout: 60_000 }, async () => {
    // A child process with those flags: `new Worker` refused them when they were passed on.
    const { execFileSync } = await import('node:child_process');
    const script = `import('${new URL('./labels.pool.ts', import.meta.url).href}').then(async ({ createLabelRenderPool }) => {
      const pool = createLabelRenderPool({ threads: 1 });
      const label = ${JSON.stringify(label(7))};
      const out = await pool.renderLabel(label, 'zpl_4x6');
      await pool.close();
      process.stdout.write(out.body.toString('utf8'));
    })`;
    const zpl = execFileSync(process.execPath, ['--max-semi-space-size=8', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(zpl).toContain(`^FD${label(7).tracking_number}^FS`);
  });
});
