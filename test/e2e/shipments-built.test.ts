import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script without typings
import { ensureBuild } from '../../scripts/ensure-build.mjs';

// What users run is the built tree (`npm start`): buy a label, read it in every format (pdfkit
// reads its font metrics from files at run time, the render pool runs its own worker file),
// void it, and follow a parcel on the public tracking route.
const dataDir = mkdtempSync(path.join(tmpdir(), 'ship-built-'));
let child: ChildProcess | undefined;
afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.runIf(inject('testDb').engine === 'pglite')('shipments on the built tree', () => {
  // Build first (once per run, under a lock), so the start below times only the service.
  beforeAll(() => ensureBuild(), 600_000);

  it('buys, reads in every format, tracks publicly and voids a label', { timeout: 240_000 }, async () => {
    const port = await freePort();
    let output = '';
    child = spawn(process.execPath, ['scripts/start.mjs'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        SEED_DEMO: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 1500 && !/Test API key:\s+sk_test_\S+/.test(output); i++) {
      if (child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const key = /Test API key:\s+(sk_test_\S+)/.exec(output)?.[1];
    const workspace = /Workspace:\s+(ws_\S+)/.exec(output)?.[1];
    expect(key, output).toBeTruthy();
    const headers = { authorization: `Bearer ${key}`, 'x-service-workspace': workspace!, 'content-type': 'application/json' };
    const call = (method: string, url: string, body?: unknown) =>
      fetch(`${base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });

    const orderRes = await call('POST', '/v1/orders', {
      ship_from: { name: 'Warehouse', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' },
      ship_to: { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' },
      line_items: [{ sku: 'MUG', quantity: 1, weight_oz: 20 }],
      parcel: { weight_oz: 20, length_in: 10, width_in: 8, height_in: 4 },
    });
    expect(orderRes.status, output).toBe(201);
    const order = (await orderRes.json()) as { id: string };

    const bought = await call('POST', '/v1/shipments', { order_id: order.id, service_code: 'ups_ground' });
    expect(bought.status, output).toBe(201);
    const shipment = (await bought.json()) as { id: string; tracking_number: string; status: string };
    expect(shipment.tracking_number).toMatch(/^1Z/);

    const expected: Record<string, [string, (b: Buffer) => boolean]> = {
      pdf_4x6: ['application/pdf', (b) => b.subarray(0, 4).toString() === '%PDF'],
      pdf_letter: ['application/pdf', (b) => b.subarray(0, 4).toString() === '%PDF'],
      png_4x6: ['image/png', (b) => b.readUInt32BE(16) === 812 && b.readUInt32BE(20) === 1218],
      zpl_4x6: ['application/x-zpl', (b) => b.toString().startsWith('^XA') && b.toString().includes(shipment.tracking_number)],
    };
    for (const [format, [type, check]] of Object.entries(expected)) {
      const res = await call('GET', `/v1/shipments/${shipment.id}/label?format=${format}`);
      expect(res.status, `${format}: ${output}`).toBe(200);
      expect(res.headers.get('content-type')).toContain(type);
      expect(res.headers.get('content-disposition')).toContain(shipment.tracking_number);
      expect(check(Buffer.from(await res.arrayBuffer())), format).toBe(true);
    }

    // Printing as one file: the set rendered by the pool's worker, and with packing slips the
    // label and the slip merged in this process (pdf-lib, loaded on first use from the bundle).
    const merged = await call('POST', '/v1/labels/merge', { shipment_ids: [shipment.id], packing_slips: true });
    expect(merged.status, output).toBe(200);
    expect(merged.headers.get('content-disposition')).toMatch(/^attachment; filename="labels-1-/);
    // pdf-lib writes its pages in object streams: counted by reading the document, not its text.
    expect((await PDFDocument.load(await merged.arrayBuffer())).getPageCount()).toBe(2);
    const zplSet = await call('POST', '/v1/labels/merge', { shipment_ids: [shipment.id], format: 'zpl_4x6' });
    expect(zplSet.status, output).toBe(200);
    expect((await zplSet.text()).match(/\^XA/g)).toHaveLength(1);

    const track = await fetch(`${base}/api/public/track/${shipment.tracking_number}`);
    expect(track.status).toBe(200);
    const text = await track.text();
    expect(JSON.parse(text)).toMatchObject({ tracking_number: shipment.tracking_number, carrier: 'ups', status: 'pre_transit' });
    expect(text).not.toContain('Ada');
    expect(text).not.toContain('Market St');

    const voided = await call('POST', `/v1/shipments/${shipment.id}/void`);
    expect(voided.status).toBe(200);
    expect(((await voided.json()) as { status: string }).status).toBe('voided');
    const after = (await (await call('GET', `/v1/orders/${order.id}`)).json()) as { status: string; shipments: { status: string }[] };
    expect(after).toMatchObject({ status: 'processing', shipments: [{ status: 'voided' }] });

    child.kill('SIGTERM');
    await new Promise((resolve) => child!.once('exit', resolve));
  });
});
