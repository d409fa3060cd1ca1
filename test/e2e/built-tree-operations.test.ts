import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, onboardClient, useBuiltService, type BuiltClient, type BuiltService, type HttpResult } from '../helpers/built-service.js';
import { startFakeUps } from '../helpers/fake-ups.js';
import { loadUpsSpecs } from '../helpers/ups-spec.js';
import { eventually } from '../helpers/webhook-receiver.js';
import { firstScanAt } from '../../src/carriers/simulation/tracking-sim.js';

// Operator work end to end on the bundled tree (npm start): customs
// declarations and their documents, return labels and refunds, manifests and
// pickups, over real HTTP against the built service. The simulated carriers' scans are
// moved by the sandbox time scale (a real process has no fake clock): each wait below polls with
// a deadline and names what it waits for. `api` UPS accounts point at the fake UPS on loopback.
const service = useBuiltService({ env: { CARRIER_ALLOW_BASE_URL_OVERRIDE: '1' } });
let svc: BuiltService;
let c: BuiltClient;

const has = (bin: string, flag = '-v') => spawnSync(bin, [flag]).status === 0;
// poppler-utils reads the documents back as text and rasterises pages; zbarimg scans barcodes (CI may lack them).
const poppler = has('pdftotext') && has('pdftoppm');
const zbar = has('zbarimg', '--version');
const dir = mkdtempSync(path.join(tmpdir(), 'built-operations-'));
let seq = 0;

const newYork = {
  name: 'Warehouse',
  company: 'Acme',
  street1: '350 5th Ave',
  city: 'New York',
  state: 'NY',
  postal_code: '10118',
  country: 'US',
  phone: '+1 212 555 0100',
};
const sanFrancisco = {
  name: 'Ada Buyer',
  street1: '1 Market St',
  city: 'San Francisco',
  state: 'CA',
  postal_code: '94105',
  country: 'US',
  phone: '+1 415 555 0100',
};
const london = {
  name: 'Prime Minister',
  street1: '10 Downing Street',
  city: 'London',
  postal_code: 'SW1A 2AA',
  country: 'GB',
  phone: '+44 20 7925 0918',
  email: 'pm@example.com',
};
const parcel = { weight_oz: 40, length_in: 10, width_in: 8, height_in: 4 };
// Priced, weighed lines with HS numbers (the simulated carriers' brokers want them to the UK): customs is derived.
const mugs = {
  sku: 'MUG-BLUE',
  name: 'Ceramic coffee mug',
  quantity: 2,
  unit_price: { amount: 1250, currency: 'USD' },
  weight_oz: 12,
  hs_tariff_number: '6912.00.48',
};
const towel = {
  sku: 'TOWEL-1',
  name: 'Cotton tea towel',
  quantity: 1,
  unit_price: { amount: 900, currency: 'USD' },
  weight_oz: 3,
  hs_tariff_number: '6302.60',
};

beforeAll(async () => {
  svc = service();
  c = await onboardClient(svc, { name: 'Operations Client' });
  const ws = await svc.request('PATCH', '/api/admin/workspace', { headers: c.admin, json: { origin_address: newYork } });
  expectStatus(svc, ws, 200, 'set the workspace origin');
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(body: Buffer): string {
  const f = path.join(dir, `doc-${++seq}.pdf`);
  writeFileSync(f, body);
  return f;
}
/** The text of a PDF (or of one page) as pdftotext extracts it, spaces squeezed. */
function pdfText(body: Buffer, page?: number): string {
  const pages = page ? ['-f', String(page), '-l', String(page)] : [];
  return execFileSync('pdftotext', ['-enc', 'UTF-8', '-layout', ...pages, file(body), '-'], { encoding: 'utf8' }).replace(/[ \t]+/g, ' ');
}
/** The Code 128 symbols zbarimg reads on the PDF's first page, rasterised at 200 dpi. */
function scan(body: Buffer): string[] {
  const f = file(body);
  execFileSync('pdftoppm', ['-r', '200', '-gray', '-png', '-f', '1', '-l', '1', '-singlefile', f, `${f}-page`]);
  return execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Scode128.enable', `${f}-page.png`], {
    encoding: 'latin1',
    stdio: ['ignore', 'pipe', 'ignore'],
  })
    .split('\n')
    .filter(Boolean);
}

/** A binary download (label, document, form) as bytes, with its status and content type. */
async function download(url: string): Promise<{ status: number; type: string; bytes: Buffer; text: string }> {
  const res = await fetch(svc.baseUrl + url, { headers: c.v1 });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get('content-type') ?? '', bytes, text: bytes.toString('utf8').slice(0, 500) };
}

function expectError(res: HttpResult, status: number, code: string) {
  expect(res.status, `${res.text.slice(0, 500)}\n--- service output ---\n${svc.output().slice(-2000)}`).toBe(status);
  expect(res.body).toMatchObject({ code, message: expect.any(String), details: expect.any(Array), request_id: res.headers.get('x-request-id') });
}

async function createOrder(body: Record<string, unknown>): Promise<string> {
  const res = await svc.request('POST', '/v1/orders', { headers: c.v1, json: { customer: { name: 'Buyer', email: 'buyer@example.com' }, parcel, ...body } });
  expectStatus(svc, res, 201, 'create order');
  return res.body.id;
}

type Shipment = { id: string; tracking_number: string; rate: { ship_date: string }; [k: string]: any };

/** An order to `shipTo` of `lines`, and a label for it (201 expected). */
async function buy(
  shipTo: Record<string, unknown>,
  serviceCode: string,
  opts: { lines?: unknown[]; account?: string; extra?: Record<string, unknown> } = {},
): Promise<Shipment> {
  const orderId = await createOrder({ ship_to: shipTo, line_items: opts.lines ?? [mugs] });
  const res = await svc.request('POST', '/v1/shipments', {
    headers: { ...c.v1, 'idempotency-key': `ops-${orderId}` },
    json: {
      order_id: orderId,
      service_code: serviceCode,
      label_format: 'pdf_4x6',
      ...(opts.account ? { carrier_account_id: opts.account } : {}),
      ...opts.extra,
    },
  });
  expectStatus(svc, res, 201, `buy ${serviceCode} to ${String(shipTo.country)}`);
  return res.body;
}

async function setting(key: string, value: unknown) {
  const res = await svc.request('PUT', `/api/super-admin/settings/${key}`, { headers: c.root, json: { value } });
  expectStatus(svc, res, 200, `setting ${key}`);
}

/**
 * A sandbox time scale under which a label bought now gets its first carrier scan (18:00 UTC
 * pickup schedule) about `seconds` later in real time.
 */
function scaleForFirstScanIn(seconds: number): number {
  const now = new Date();
  const simulated = firstScanAt(now.toISOString()).getTime() - now.getTime();
  return Math.min(1_000_000, Math.max(1, simulated / (seconds * 1000)));
}

async function getShipment(id: string): Promise<Shipment> {
  const res = await svc.request('GET', `/v1/shipments/${id}`, { headers: c.v1 });
  expectStatus(svc, res, 200, `read shipment ${id}`);
  return res.body;
}

describe('customs on the built tree', () => {
  it('US→GB through UPS: derived customs, a commercial invoice listed, served and carried after the label page', { timeout: 120_000 }, async () => {
    const rates = await svc.request('POST', '/v1/rates/query', { headers: c.v1, json: { ship_from: newYork, ship_to: london, parcel } });
    expectStatus(svc, rates, 200, 'US→GB rates');
    expect(rates.body.requires_customs).toBe(true);
    expect(rates.body.data.length).toBeGreaterThan(0);
    for (const o of rates.body.data) expect(o.requires_customs, o.service_code).toBe(true);
    const domestic = await svc.request('POST', '/v1/rates/query', { headers: c.v1, json: { ship_from: newYork, ship_to: sanFrancisco, parcel } });
    expect(domestic.body.requires_customs).toBe(false);

    const s = await buy(london, 'ups_worldwide_saver', { lines: [mugs, towel] });
    expect(s.customs).toMatchObject({
      derived: true,
      items: [
        { description: 'Ceramic coffee mug', quantity: 2, unit_value: { amount: 1250, currency: 'USD' }, hs_tariff_number: '69120048', origin_country: 'US' },
        { description: 'Cotton tea towel', quantity: 1, unit_value: { amount: 900, currency: 'USD' }, hs_tariff_number: '630260', origin_country: 'US' },
      ],
    });
    expect(s.customs.declared_value).toEqual({ amount: 3400, currency: 'USD' });

    const list = await svc.request('GET', `/v1/shipments/${s.id}/documents`, { headers: c.v1 });
    expectStatus(svc, list, 200, 'documents list');
    expect(list.body.data).toEqual([
      { type: 'commercial_invoice', format: 'pdf', source: 'platform', url: expect.stringContaining(`/v1/shipments/${s.id}/documents/commercial_invoice`) },
    ]);
    const invoice = await download(`/v1/shipments/${s.id}/documents/commercial_invoice`);
    expect(invoice.status, invoice.text).toBe(200);
    expect(invoice.type).toBe('application/pdf');
    expect(invoice.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    if (poppler) {
      const text = pdfText(invoice.bytes);
      for (const v of ['COMMERCIAL INVOICE', 'Ceramic coffee mug', 'Cotton tea towel', '34.00 USD', 'Prime Minister', s.tracking_number])
        expect(text, v).toContain(v);
    }

    const label = await download(`/v1/shipments/${s.id}/label`);
    expect(label.status, label.text).toBe(200);
    const pdf = await PDFDocument.load(label.bytes);
    expect(pdf.getPageCount()).toBe(2);
    expect(pdf.getPage(0).getSize(), 'the label page first').toEqual({ width: 288, height: 432 });
    expect(pdf.getPage(1).getSize(), 'then the letter-size invoice').toEqual({ width: 612, height: 792 });
    if (poppler) {
      expect(pdfText(label.bytes, 1)).not.toContain('COMMERCIAL INVOICE');
      expect(pdfText(label.bytes, 2)).toContain('COMMERCIAL INVOICE');
    }
  });

  it('USPS Priority Mail International over 400 USD: a CN 23', { timeout: 60_000 }, async () => {
    // Two mugs at 250.00 and the towel: 509.00 USD.
    const pricey = { ...mugs, unit_price: { amount: 25_000, currency: 'USD' } };
    const s = await buy(london, 'usps_priority_mail_international', { lines: [pricey, towel] });
    expect(s.customs.declared_value).toEqual({ amount: 50_900, currency: 'USD' });
    const list = await svc.request('GET', `/v1/shipments/${s.id}/documents`, { headers: c.v1 });
    expect(list.body.data.map((d: { type: string }) => d.type)).toEqual(['cn23']);
    const doc = await download(`/v1/shipments/${s.id}/documents/cn23`);
    expect(doc.status, doc.text).toBe(200);
    expect(doc.type).toBe('application/pdf');
    if (poppler) {
      const text = pdfText(doc.bytes);
      for (const v of ['CN 23', 'Ceramic coffee mug', '509.00 USD', s.tracking_number]) expect(text, v).toContain(v);
    }
    expect((await download(`/v1/shipments/${s.id}/documents/cn22`)).status).toBe(404);
  });

  it(
    'refuses a vague description (422 customs_invalid) and an order line without a price (422 customs_required), buying nothing',
    { timeout: 60_000 },
    async () => {
      const orderId = await createOrder({ ship_to: london, line_items: [mugs] });
      const vague = await svc.request('POST', '/v1/shipments', {
        headers: c.v1,
        json: {
          order_id: orderId,
          service_code: 'ups_worldwide_saver',
          customs: {
            contents_type: 'merchandise',
            items: [
              {
                description: 'Gift',
                quantity: 1,
                unit_value: { amount: 2500, currency: 'USD' },
                weight_oz: 12,
                hs_tariff_number: '691200',
                origin_country: 'US',
              },
            ],
          },
        },
      });
      expectError(vague, 422, 'customs_invalid');
      expect(vague.body.details).toEqual([{ field: 'customs.items[0].description', message: expect.any(String) }]);

      const unpriced = await createOrder({
        ship_to: london,
        line_items: [mugs, { sku: 'SOAP-1', name: 'Lavender soap', quantity: 1, weight_oz: 4, hs_tariff_number: '3401.11' }],
      });
      const required = await svc.request('POST', '/v1/shipments', { headers: c.v1, json: { order_id: unpriced, service_code: 'ups_worldwide_saver' } });
      expectError(required, 422, 'customs_required');
      expect(required.body.details).toEqual([{ field: 'line_items[1].unit_price', message: expect.any(String) }]);

      const bought = await svc.request('GET', `/v1/shipments?order_id=${orderId}`, { headers: c.v1 });
      expect(bought.body.data).toEqual([]);
      expect((await svc.request('GET', `/v1/shipments?order_id=${unpriced}`, { headers: c.v1 })).body.data).toEqual([]);
    },
  );

  it('an api UPS account on the fake UPS buys to GB with the customs in InternationalForms', { timeout: 120_000 }, async () => {
    const secret = 'built-ops-ups-secret-7c1d';
    const ups = await startFakeUps({ clientSecret: secret, specs: loadUpsSpecs() });
    if (!ups.specChecked) console.warn('../shared/carrier-specs/ups is absent: the fake UPS skipped the schema check (the rest still runs)');
    try {
      const made = await svc.request('POST', '/v1/carrier-accounts', {
        headers: c.v1,
        json: {
          carrier: 'ups',
          driver: 'api',
          account_number: 'A1B2C3',
          base_url: ups.url,
          description: 'UPS abroad',
          credentials: { client_id: 'fake-client-id', client_secret: secret },
        },
      });
      expectStatus(svc, made, 201, 'api UPS account');
      const s = await buy(london, 'ups_worldwide_saver', { lines: [mugs, towel], account: made.body.id });
      expect(s).toMatchObject({ carrier: 'ups', carrier_account_id: made.body.id, customs: { derived: true } });
      const ship = [...ups.requests].reverse().find((r) => r.operation === 'ship');
      const forms = JSON.parse(ship!.body).ShipmentRequest.Shipment.ShipmentServiceOptions?.InternationalForms;
      expect(forms, 'InternationalForms sent to UPS').toBeDefined();
      expect(forms.Product.map((p: { Description: string[] }) => p.Description[0])).toEqual(['Ceramic coffee mug', 'Cotton tea towel']);
      expect(ups.violations).toEqual([]);
      expect(svc.output()).not.toContain(secret);
    } finally {
      await ups.close();
    }
  });
});

describe('returns, manifests, pickups and refunds on the built tree', () => {
  it('a return label is billed on its first scan: pending, then charged once the carrier scans it', { timeout: 120_000 }, async () => {
    const outbound = await buy(sanFrancisco, 'usps_ground_advantage');
    // The return's first scan ~5 s after its purchase (the scale is fixed per shipment at purchase).
    await setting('sandbox.tracking_time_scale', scaleForFirstScanIn(5));
    try {
      const res = await svc.request('POST', `/v1/shipments/${outbound.id}/return`, {
        headers: { ...c.v1, 'idempotency-key': `ret-${outbound.id}` },
        json: { rma_number: 'RMA-E2E-1', reason: 'Too small', charge: 'on_scan' },
      });
      expectStatus(svc, res, 201, 'return label');
      expect(res.body).toMatchObject({
        is_return: true,
        return_of: outbound.id,
        charge: 'on_scan',
        billing_status: 'pending',
        status: 'label_purchased',
        rma_number: 'RMA-E2E-1',
      });
      expect(res.body.ship_to.postal_code).toBe(newYork.postal_code);
      const r: Shipment = res.body;
      const charged = await eventually(
        async () => {
          const now = await getShipment(r.id);
          return now.billing_status === 'charged' ? now : undefined;
        },
        `return ${r.id} scanned and charged`,
        60_000,
      );
      // Compressed, the rest of the journey may follow within seconds: any status past the first scan.
      const scanned = ['in_transit', 'out_for_delivery', 'delivered'];
      expect(scanned).toContain(charged.status);
      const listed = (await getShipment(outbound.id)).returns;
      expect(listed).toEqual([{ id: r.id, tracking_number: r.tracking_number, status: expect.any(String), billing_status: 'charged' }]);
      expect(scanned).toContain(listed[0].status);
    } finally {
      await setting('sandbox.tracking_time_scale', 1);
    }
  });

  it('ten labels and a voided one on a USPS manifest: the voided one rejected, the SCAN form ready with every label', { timeout: 180_000 }, async () => {
    const labels: Shipment[] = [];
    for (let i = 0; i < 10; i++) labels.push(await buy(sanFrancisco, 'usps_ground_advantage'));
    const voided = await buy(sanFrancisco, 'usps_ground_advantage');
    expectStatus(svc, await svc.request('POST', `/v1/shipments/${voided.id}/void`, { headers: c.v1 }), 200, 'void');

    const created = await svc.request('POST', '/v1/manifests', {
      headers: { ...c.v1, 'idempotency-key': `man-${labels[0]!.id}` },
      json: { carrier: 'usps', ship_date: labels[0]!.rate.ship_date, shipment_ids: [...labels.map((l) => l.id), voided.id] },
    });
    expectStatus(svc, created, 202, 'create manifest');
    expect(created.body.rejected).toEqual([{ shipment_id: voided.id, code: 'voided', message: expect.any(String) }]);
    expect(created.body.shipment_ids).toEqual(labels.map((l) => l.id));

    const m = await eventually(
      async () => {
        const got = await svc.request('GET', `/v1/manifests/${created.body.id}`, { headers: c.v1 });
        expectStatus(svc, got, 200, 'read manifest');
        expect(got.body.status).not.toBe('failed');
        return got.body.status === 'ready' ? got.body : undefined;
      },
      `manifest ${created.body.id} ready`,
      120_000,
    );
    expect(m).toMatchObject({ carrier: 'usps', documents: [{ type: 'scan_form' }], form_number: expect.stringMatching(/^92\d{20}$/) });
    const doc = await download(`/v1/manifests/${m.id}/document`);
    expect(doc.status, doc.text).toBe(200);
    expect(doc.type).toBe('application/pdf');
    expect(doc.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    if (poppler) {
      const text = pdfText(doc.bytes);
      expect(text).toContain('PS Form 5630');
      for (const l of labels) expect(text).toContain(l.tracking_number);
      expect(text).not.toContain(voided.tracking_number);
      if (zbar) expect(scan(doc.bytes)).toEqual([m.form_number]);
    }
    // A manifested label cannot be voided.
    expectError(await svc.request('POST', `/v1/shipments/${labels[0]!.id}/void`, { headers: c.v1 }), 409, 'invalid_state');
  });

  it('a pickup is booked (201), refused on a Sunday (422 pickup_unavailable) and cancelled (200)', { timeout: 60_000 }, async () => {
    // A weekday two or more days ahead (New York time, the origin's); a carrier holiday moves to the next one.
    const day = new Date(Date.now() + 2 * 86_400_000);
    let booked: HttpResult | undefined;
    for (let tries = 0; tries < 6 && !booked; tries++, day.setUTCDate(day.getUTCDate() + 1)) {
      if (day.getUTCDay() === 0) continue;
      const date = day.toISOString().slice(0, 10);
      const res = await svc.request('POST', '/v1/pickups', {
        headers: c.v1,
        json: { carrier: 'usps', window: { start: `${date}T13:00:00-05:00`, end: `${date}T17:00:00-05:00` }, package_count: 3, instructions: 'Front desk' },
      });
      if (res.status === 422 && res.body?.details?.[0]?.reason === 'carrier_holiday') continue;
      booked = res;
    }
    expectStatus(svc, booked!, 201, 'book a pickup');
    expect(booked!.body).toMatchObject({
      id: expect.stringMatching(/^pck_/),
      carrier: 'usps',
      status: 'scheduled',
      package_count: 3,
      price: { amount: 0, currency: 'USD' },
    });

    const sunday = new Date(Date.now() + 86_400_000);
    while (sunday.getUTCDay() !== 0) sunday.setUTCDate(sunday.getUTCDate() + 1);
    const date = sunday.toISOString().slice(0, 10);
    const refused = await svc.request('POST', '/v1/pickups', {
      headers: c.v1,
      json: { carrier: 'usps', window: { start: `${date}T10:00:00-05:00`, end: `${date}T14:00:00-05:00` }, package_count: 1 },
    });
    expectError(refused, 422, 'pickup_unavailable');
    expect(refused.body.details[0]).toMatchObject({ reason: 'sunday' });

    const cancelled = await svc.request('POST', `/v1/pickups/${booked!.body.id}/cancel`, { headers: c.v1 });
    expectStatus(svc, cancelled, 200, 'cancel the pickup');
    expect(cancelled.body.status).toBe('cancelled');
  });

  it('a void submits a refund the simulated carrier refunds; a label it scanned meanwhile is rejected', { timeout: 180_000 }, async () => {
    await setting('sandbox.refund_delay_seconds', 1);
    const unused = await buy(sanFrancisco, 'usps_ground_advantage');
    const voided = await svc.request('POST', `/v1/shipments/${unused.id}/void`, { headers: c.v1 });
    expectStatus(svc, voided, 200, 'void');
    expect(voided.body).toMatchObject({ status: 'voided', refund: { id: expect.stringMatching(/^rfd_/), status: 'submitted', amount: unused.price } });
    const refunded = await eventually(
      async () => {
        const list = await svc.request('GET', '/v1/refunds?status=refunded', { headers: c.v1 });
        expectStatus(svc, list, 200, 'list refunds');
        return list.body.data.find((r: { shipment_id: string }) => r.shipment_id === unused.id);
      },
      `refund of ${unused.id} refunded`,
      90_000,
    );
    expect(refunded).toMatchObject({ id: voided.body.refund.id, status: 'refunded', decided_at: expect.any(String) });

    // Scanned ~15 s after purchase, voided before that, decided 30 s after the void: the carrier used it.
    await setting('sandbox.refund_delay_seconds', 30);
    await setting('sandbox.tracking_time_scale', scaleForFirstScanIn(15));
    try {
      const used = await buy(sanFrancisco, 'usps_ground_advantage');
      const v = await svc.request('POST', `/v1/shipments/${used.id}/void`, { headers: c.v1 });
      expectStatus(svc, v, 200, 'void before the first scan');
      expect(v.body.refund.status).toBe('submitted');
      const rejected = await eventually(
        async () => {
          const list = await svc.request('GET', '/v1/refunds?status=rejected', { headers: c.v1 });
          return list.body.data.find((r: { shipment_id: string }) => r.shipment_id === used.id);
        },
        `refund of ${used.id} rejected`,
        120_000,
      );
      expect(rejected.reason).toContain('scanned');
      expect((await getShipment(used.id)).refund).toMatchObject({ status: 'rejected' });
    } finally {
      await setting('sandbox.tracking_time_scale', 1);
      await setting('sandbox.refund_delay_seconds', 60);
    }
  });
});
