/**
 * `npm run bench:labels`: label render times from the BUILT tree (dist/src/labels.bundle.js).
 * - one at a time in-process, per format (the purchase path): p50 / p99 / mean;
 * - the worker pool: single labels rendered concurrently (labels/s), and a 10,000-label batch
 *   (each label on its own, as a batch stores them; then the merged PDF and ZPL files).
 * BENCH_LABELS (default 10000) sets the batch size, BENCH_THREADS the pool size.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
// @ts-expect-error -- a plain .mjs build script without typings
import { ensureBuild } from '../scripts/ensure-build.mjs';
import type * as Labels from '../src/modules/labels/index.js';

ensureBuild();
const m = (await import(pathToFileURL(path.resolve('dist/src/labels.bundle.js')).href)) as typeof Labels;
const batchSize = Number(process.env.BENCH_LABELS ?? 10_000);
const threads = process.env.BENCH_THREADS ? Number(process.env.BENCH_THREADS) : undefined;

const trackingNumber = (i: number) => `94001112010808${String(5_000_000 + i).padStart(8, '0')}`.slice(0, 21) + '6';
const label = (i: number): Labels.LabelData => ({
  shipment_id: `shp_bench${i}`,
  tracking_number: trackingNumber(i),
  carrier: 'usps',
  carrier_name: 'USPS',
  service_code: 'usps_priority_mail',
  service_name: 'Priority Mail',
  zone: '5',
  weight_oz: 20 + (i % 50),
  ship_date: '2026-03-05',
  ship_from: { name: 'Acme Fulfilment', company: 'Acme Inc.', street1: '1 Main St', city: 'Palo Alto', state: 'CA', postal_code: '94301', country: 'US' },
  ship_to: {
    name: `Buyer Number ${i}`,
    street1: `${100 + (i % 900)} Fifth Avenue`,
    street2: 'Suite 4500',
    city: 'New York',
    state: 'NY',
    postal_code: '10118',
    country: 'US',
  },
  reference: `ord_${i}`,
  sample: i % 2 === 0,
  // As the USPS carrier definition presents it (IMpb: GS1-128 of (420)ZIP5 and the number).
  carrier_parts: {
    heading: 'USPS TRACKING #',
    routing_code: '420 10118',
    tracking_text: trackingNumber(i).replace(/(.{4})(?=.)/g, '$1 '),
    barcode: {
      symbology: 'gs1-128',
      elements: [
        { ai: '420', data: '10118' },
        { ai: trackingNumber(i).slice(0, 2), data: trackingNumber(i).slice(2) },
      ],
    },
  },
});

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
// CPU time per label beside the wall times: on a shared machine the wall clock also counts waiting for a core.
console.log('format       p50 ms  p99 ms  mean ms  cpu ms  bytes   (in-process, one at a time, 300 after 50 warm-up)');
for (const format of m.LABEL_FORMATS) {
  for (let i = 0; i < 50; i++) await m.renderLabel(label(i), format);
  const times: number[] = [];
  let bytes = 0;
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < 300; i++) {
    const t = performance.now();
    bytes = (await m.renderLabel(label(i), format)).body.length;
    times.push(performance.now() - t);
  }
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000 / 300;
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  console.log(
    `${format.padEnd(12)} ${pct(times, 50).toFixed(2).padStart(6)}  ${pct(times, 99).toFixed(2).padStart(6)}  ${mean.toFixed(2).padStart(7)}  ${cpuMs.toFixed(2).padStart(6)}  ${bytes}`,
  );
}

/** CPU time of the whole process (main thread and workers) per label: what the work costs, load aside. */
function cpuPerLabel(since: NodeJS.CpuUsage): string {
  const c = process.cpuUsage(since);
  return `${((c.user + c.system) / 1000 / batchSize).toFixed(2)} ms CPU/label`;
}

const pool = m.createLabelRenderPool({ threads });
await Promise.all(Array.from({ length: pool.threads * 20 }, (_, i) => pool.renderLabel(label(i), 'pdf_4x6')));
const load = (await import('node:os')).loadavg()[0]!.toFixed(1);
console.log(`\npool of ${pool.threads} worker threads, ${batchSize} labels (load average ${load}):`);
for (const format of ['pdf_4x6', 'zpl_4x6'] as const) {
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(Array.from({ length: batchSize }, (_, i) => pool.renderLabel(label(i), format)));
  const s = (performance.now() - t) / 1000;
  console.log(`  each label on its own, ${format}: ${s.toFixed(1)} s (${Math.round(batchSize / s)} labels/s), ${cpuPerLabel(cpu0)}`);
}
const all = Array.from({ length: batchSize }, (_, i) => label(i));
for (const format of ['pdf_4x6', 'zpl_4x6'] as const) {
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  const file = await pool.renderLabelSet(all, format);
  console.log(`  one merged ${format} file: ${((performance.now() - t) / 1000).toFixed(1)} s, ${(file.body.length / 1e6).toFixed(1)} MB, ${cpuPerLabel(cpu0)}`);
}
await pool.close();
