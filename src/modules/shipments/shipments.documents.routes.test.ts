import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { buildTestApp, createTenant, expectV1AuthMatrix, type Tenant } from '../../../test/helpers/app.js';
import { DECLARATION } from '../../../test/helpers/customs.js';
import { startFakeUps, type FakeUps } from '../../../test/helpers/fake-ups.js';
import { loadUpsSpecs } from '../../../test/helpers/ups-spec.js';
import type { CustomsDeclaration } from '../../carriers/types.js';
import { registerBatchJobs } from '../batches/index.js';
import { CUSTOMS_DOCUMENT_TYPES } from '../labels/index.js';
import { storeCarrierDocuments } from './index.js';

// Customs documents of a shipment: the list, each download, the 404s, a PDF
// label carrying its documents' pages, and a batch's merged file carrying them too.
let app: FastifyInstance;
let t: Tenant;
let ups: FakeUps;
const UPS_SECRET = 'fake-client-secret-docs';

beforeAll(async () => {
  ups = await startFakeUps({ clientSecret: UPS_SECRET, specs: loadUpsSpecs() });
  app = await buildTestApp({ config: { encryptionKey: randomBytes(32).toString('base64'), carrierAllowBaseUrlOverride: true } });
  await registerBatchJobs(app.deps, app.services.batches);
  await app.deps.jobs.start();
  t = await createTenant(app);
});

const has = (bin: string) => spawnSync(bin, ['-v']).status === 0;
const poppler = has('pdftotext') && has('pdftoppm');
const zbar = spawnSync('zbarimg', ['--version']).status === 0;
const dir = mkdtempSync(path.join(tmpdir(), 'shipment-docs-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await ups?.close();
});
let seq = 0;
function pdfText(body: Buffer): string {
  const file = path.join(dir, `doc-${++seq}.pdf`);
  writeFileSync(file, body);
  return execFileSync('pdftotext', ['-enc', 'UTF-8', '-layout', file, '-'], { encoding: 'utf8' }).replace(/[ \t]+/g, ' ');
}
function scan(body: Buffer): string[] {
  const file = path.join(dir, `doc-${++seq}.pdf`);
  writeFileSync(file, body);
  execFileSync('pdftoppm', ['-r', '200', '-gray', '-png', '-f', '1', '-l', '1', '-singlefile', file, `${file}-page`]);
  return execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Scode128.enable', `${file}-page.png`], {
    encoding: 'latin1',
    stdio: ['ignore', 'pipe', 'ignore'],
  })
    .split('\n')
    .filter(Boolean);
}
const pageCount = async (body: Buffer) => (await PDFDocument.load(body)).getPageCount();

const shipFrom = {
  name: 'Warehouse',
  company: 'Acme',
  street1: '350 5th Ave',
  city: 'New York',
  state: 'NY',
  postal_code: '10118',
  country: 'US',
  phone: '+1 212 555 0100',
};
const london = {
  name: '山田 太郎',
  company: '株式会社サンプル',
  street1: '221B Baker Street',
  city: 'London',
  postal_code: 'NW1 6XE',
  country: 'GB',
  phone: '+44 20 7946 0000',
  email: 'taro@example.com',
};
const domestic = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };

function orderBody(shipTo: Record<string, unknown>) {
  return {
    customer: { name: 'Taro Yamada', email: 'taro@example.com' },
    ship_to: shipTo,
    ship_from: shipFrom,
    // Priced and weighed lines: a declaration can be derived from them where purchase asks for one.
    line_items: [
      { sku: 'TS-1', name: 'Cotton T-shirt', quantity: 2, unit_price: { amount: 1250, currency: 'USD' }, weight_oz: 6, hs_tariff_number: '6109.10' },
    ],
    parcel: { weight_oz: 30, length_in: 10, width_in: 8, height_in: 4 },
  };
}

async function createOrder(shipTo: Record<string, unknown>, headers = t.headers): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/v1/orders', headers, payload: orderBody(shipTo) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** The shipment's customs declaration as its purchase stores it (written directly: the purchase path that derives it is not this test's subject). */
async function declare(shipmentId: string, customs: CustomsDeclaration | null) {
  await app.deps.db
    .updateTable('shipments')
    .set({ customs: customs ? JSON.stringify(customs) : null })
    .where('id', '=', shipmentId)
    .execute();
}

async function buy(
  shipTo: Record<string, unknown>,
  serviceCode: string,
  customs: CustomsDeclaration | null,
  opts: { headers?: Record<string, string>; label_format?: string } = {},
) {
  const headers = opts.headers ?? t.headers;
  const orderId = await createOrder(shipTo, headers);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/shipments',
    headers,
    payload: { order_id: orderId, service_code: serviceCode, label_format: opts.label_format ?? 'pdf_4x6' },
  });
  expect(res.statusCode, res.body).toBe(201);
  const shipment = res.json();
  await declare(shipment.id, customs);
  return shipment as { id: string; tracking_number: string };
}

const get = (url: string, headers = t.headers) => app.inject({ method: 'GET', url, headers });

describe('GET /v1/shipments/:id/documents', () => {
  it('/openapi.json lists the types the platform prints as the enum of the type path parameter, under /v1 and /api/admin', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const path of ['/v1/shipments/{id}/documents/{type}', '/api/admin/shipments/{id}/documents/{type}']) {
      const param = doc.paths[path].get.parameters.find((p: { in: string; name: string }) => p.in === 'path' && p.name === 'type');
      const enums = (param.schema.anyOf ?? [param.schema]).flatMap((s: { enum?: string[] }) => s.enum ?? []);
      expect(enums, path).toEqual([...CUSTOMS_DOCUMENT_TYPES]);
    }
    expect([...CUSTOMS_DOCUMENT_TYPES].sort()).toEqual(['cn22', 'cn23', 'commercial_invoice']);
  });

  it('a domestic shipment has none; any document of it is 404', async () => {
    const s = await buy(domestic, 'usps_ground_advantage', null);
    const list = await get(`/v1/shipments/${s.id}/documents`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toEqual({ data: [] });
    for (const type of ['cn22', 'cn23', 'commercial_invoice']) {
      const res = await get(`/v1/shipments/${s.id}/documents/${type}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found', details: [{ field: 'type' }], request_id: expect.any(String) });
    }
    // The label is the label alone.
    const label = await get(`/v1/shipments/${s.id}/label`);
    expect(await pageCount(label.rawPayload)).toBe(1);
  });

  it('USPS to London, 74.99 USD and 30 oz: a CN 22, rendered on first download, then kept; the label carries it after its page', async () => {
    const s = await buy(london, 'usps_first_class_international', DECLARATION);
    const list = await get(`/v1/shipments/${s.id}/documents`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toEqual({
      data: [{ type: 'cn22', format: 'pdf', source: 'platform', url: `http://localhost:3000/v1/shipments/${s.id}/documents/cn22` }],
    });

    const doc = await get(`/v1/shipments/${s.id}/documents/cn22`);
    expect(doc.statusCode, doc.body).toBe(200);
    expect(doc.headers['content-type']).toBe('application/pdf');
    expect(doc.headers['content-disposition']).toBe(`inline; filename="cn22-${s.tracking_number}.pdf"`);
    expect(doc.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const kept = await app.deps.db
      .selectFrom('shipment_documents')
      .select(['type', 'source', 'workspace_id', 'environment'])
      .where('shipment_id', '=', s.id)
      .execute();
    expect(kept).toEqual([{ type: 'cn22', source: 'platform', workspace_id: t.workspaceId, environment: 'test' }]);
    expect((await get(`/v1/shipments/${s.id}/documents/cn22`)).rawPayload.equals(doc.rawPayload)).toBe(true);

    if (poppler) {
      const text = pdfText(doc.rawPayload);
      for (const v of [
        'CN 22',
        'USPS',
        'Warehouse',
        '山田 太郎',
        '株式会社サンプル',
        'London',
        'Cotton T-shirt',
        'Шерстяной свитер',
        '610910',
        '6110.11.0010',
        '74.99 USD',
        'DDU',
        'NOEEI 30.37(a)',
        'Grace Hopper',
        s.tracking_number,
      ]) {
        expect(text, v).toContain(v);
      }
      if (zbar) expect(scan(doc.rawPayload)).toEqual([s.tracking_number]);
    }

    for (const type of ['cn23', 'commercial_invoice', 'waybill', 'nope'])
      expect((await get(`/v1/shipments/${s.id}/documents/${type}`)).statusCode, type).toBe(404);

    // The PDF label (as bought, and in the other PDF format) carries the CN 22 after its own page; PNG and ZPL are the label alone.
    for (const format of ['', '?format=pdf_letter']) {
      const label = await get(`/v1/shipments/${s.id}/label${format}`);
      expect(label.statusCode, label.body).toBe(200);
      const pdf = await PDFDocument.load(label.rawPayload);
      expect(pdf.getPageCount(), format).toBe(2);
      expect(pdf.getPage(1).getSize()).toEqual({ width: 288, height: 432 });
      if (poppler) expect(pdfText(label.rawPayload)).toContain('CN 22');
    }
    expect((await get(`/v1/shipments/${s.id}/label?format=png_4x6`)).headers['content-type']).toBe('image/png');
    expect((await get(`/v1/shipments/${s.id}/label?format=zpl_4x6`)).rawPayload.toString('utf8')).not.toContain('CN 22');
  });

  it('USPS over 400 USD: a CN 23 (and the CN 22 is 404)', async () => {
    const customs: CustomsDeclaration = { ...DECLARATION, items: [{ ...DECLARATION.items[0]!, quantity: 40 }] };
    const s = await buy(london, 'usps_first_class_international', customs);
    expect((await get(`/v1/shipments/${s.id}/documents`)).json().data.map((d: { type: string }) => d.type)).toEqual(['cn23']);
    const doc = await get(`/v1/shipments/${s.id}/documents/cn23`);
    expect(doc.statusCode).toBe(200);
    if (poppler) expect(pdfText(doc.rawPayload)).toContain('500.00 USD');
    expect((await get(`/v1/shipments/${s.id}/documents/cn22`)).statusCode).toBe(404);
  });

  it('UPS: a commercial invoice; none when the contents are documents', async () => {
    const s = await buy(london, 'ups_worldwide_saver', DECLARATION);
    const list = (await get(`/v1/shipments/${s.id}/documents`)).json();
    expect(list.data).toEqual([
      { type: 'commercial_invoice', format: 'pdf', source: 'platform', url: expect.stringContaining(`/v1/shipments/${s.id}/documents/commercial_invoice`) },
    ]);
    const doc = await get(`/v1/shipments/${s.id}/documents/commercial_invoice`);
    expect(doc.statusCode).toBe(200);
    if (poppler) {
      const text = pdfText(doc.rawPayload);
      for (const v of ['COMMERCIAL INVOICE', '山田 太郎', 'Шерстяной свитер', '6110.11.0010', '74.99 USD', 'DDU', 'Grace Hopper', s.tracking_number])
        expect(text, v).toContain(v);
      if (zbar) expect(scan(doc.rawPayload)).toEqual([s.tracking_number]);
    }
    expect(await pageCount((await get(`/v1/shipments/${s.id}/label`)).rawPayload)).toBe(2);

    const papers = await buy(london, 'ups_worldwide_saver', { ...DECLARATION, contents_type: 'documents' });
    expect((await get(`/v1/shipments/${papers.id}/documents`)).json()).toEqual({ data: [] });
    expect(await pageCount((await get(`/v1/shipments/${papers.id}/label`)).rawPayload)).toBe(1);
  });

  it('documents a carrier issued are listed with their own type, served as received, and carried by the PDF label', async () => {
    const s = await buy(london, 'dhl_express_worldwide', DECLARATION);
    const waybill = await PDFDocument.create();
    waybill.addPage([288, 432]);
    const bytes = Buffer.from(await waybill.save());
    await storeCarrierDocuments(
      app.deps.db,
      { workspaceId: t.workspaceId, environment: 'test' },
      s.id,
      [
        { type: 'waybill', artifact: { format: 'PDF', mime: 'application/pdf', bytes } },
        { type: 'Receipt Copy', artifact: { format: 'PNG', mime: 'image/png', bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47]) } },
      ],
      new Date(),
    );
    const list = (await get(`/v1/shipments/${s.id}/documents`)).json();
    expect(list.data.map((d: { type: string; format: string; source: string }) => [d.type, d.format, d.source])).toEqual([
      ['commercial_invoice', 'pdf', 'platform'],
      // The carrier's, by when they were kept, then by type.
      ['receipt_copy', 'png', 'carrier'],
      ['waybill', 'pdf', 'carrier'],
    ]);
    const got = await get(`/v1/shipments/${s.id}/documents/waybill`);
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(bytes)).toBe(true);
    expect((await get(`/v1/shipments/${s.id}/documents/receipt_copy`)).headers['content-type']).toBe('image/png');
    // Label, our invoice, the carrier's waybill (the PNG receipt is not a PDF page).
    expect(await pageCount((await get(`/v1/shipments/${s.id}/label`)).rawPayload)).toBe(3);

    // A carrier's own commercial invoice takes the place of ours.
    await storeCarrierDocuments(
      app.deps.db,
      { workspaceId: t.workspaceId, environment: 'test' },
      s.id,
      [{ type: 'commercial_invoice', artifact: { format: 'PDF', mime: 'application/pdf', bytes } }],
      new Date(),
    );
    expect((await get(`/v1/shipments/${s.id}/documents`)).json().data[0]).toMatchObject({ type: 'commercial_invoice', source: 'carrier' });
    expect((await get(`/v1/shipments/${s.id}/documents/commercial_invoice`)).rawPayload.equals(bytes)).toBe(true);
  });

  it("another workspace's shipment is 404, its documents too; the auth matrix holds", async () => {
    const s = await buy(london, 'usps_first_class_international', DECLARATION);
    const other = await createTenant(app);
    for (const url of [`/v1/shipments/${s.id}/documents`, `/v1/shipments/${s.id}/documents/cn22`, '/v1/shipments/shp_01jnothing0000000000000000/documents']) {
      const res = await get(url, other.headers);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    // The live environment of the same workspace does not see a test shipment either.
    expect((await get(`/v1/shipments/${s.id}/documents`, t.liveHeaders)).statusCode).toBe(404);
    await expectV1AuthMatrix(app, { method: 'GET', url: `/v1/shipments/${s.id}/documents` }, { owner: t, otherWorkspaceResource: true });
    await expectV1AuthMatrix(app, { method: 'GET', url: `/v1/shipments/${s.id}/documents/cn22` }, { owner: t, otherWorkspaceResource: true });
  });

  it('the dashboard reads the same under /api/admin', async () => {
    const s = await buy(london, 'fedex_international_priority', DECLARATION).catch(() => buy(london, 'ups_worldwide_saver', DECLARATION));
    const list = await get(`/api/admin/shipments/${s.id}/documents`, t.adminHeaders);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((d: { type: string }) => d.type)).toEqual(['commercial_invoice']);
    const doc = await get(`/api/admin/shipments/${s.id}/documents/commercial_invoice`, t.adminHeaders);
    expect(doc.statusCode).toBe(200);
    expect(doc.headers['content-type']).toBe('application/pdf');
    const other = await createTenant(app);
    expect((await get(`/api/admin/shipments/${s.id}/documents`, other.adminHeaders)).statusCode).toBe(404);
  });
});

describe('a label a carrier issued (api account)', () => {
  it("its PDF carries our documents after the carrier's own page, copied as it is", async () => {
    const u = await createTenant(app);
    const account = await app.inject({
      method: 'POST',
      url: '/v1/carrier-accounts',
      headers: u.headers,
      payload: {
        carrier: 'ups',
        driver: 'api',
        account_number: 'A1B2C3',
        base_url: ups.url,
        credentials: { client_id: 'fake-client-id', client_secret: UPS_SECRET },
      },
    });
    expect(account.statusCode, account.body).toBe(201);
    const orderId = await createOrder(domestic, u.headers);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: u.headers,
      payload: { order_id: orderId, service_code: 'ups_ground', carrier_account_id: account.json().id },
    });
    expect(res.statusCode, res.body).toBe(201);
    const s = res.json();
    const alone = await get(`/v1/shipments/${s.id}/label?format=pdf_4x6`, u.headers);
    expect(alone.statusCode, alone.body).toBe(200);
    const carrierPages = await pageCount(alone.rawPayload);
    // The documents follow once the shipment has a declaration (a domestic lane here: the point is the carrier's file).
    await declare(s.id, DECLARATION);
    const label = await get(`/v1/shipments/${s.id}/label?format=pdf_4x6`, u.headers);
    const pdf = await PDFDocument.load(label.rawPayload);
    expect(pdf.getPageCount()).toBe(carrierPages + 1);
    expect(pdf.getPage(carrierPages).getSize()).toEqual({ width: 612, height: 792 });
    if (poppler) expect(pdfText(label.rawPayload)).toContain('COMMERCIAL INVOICE');
  });
});

describe('purchase_labels batches', () => {
  async function finished(id: string) {
    for (let i = 0; i < 600; i++) {
      const batch = (await get(`/v1/batches/${id}`)).json();
      if (!['queued', 'running'].includes(batch.status)) return batch;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`batch ${id} did not finish`);
  }

  it("the merged PDF carries each shipment's documents after its label, in order", async () => {
    const orderIds = [await createOrder(london), await createOrder(domestic), await createOrder(london)];
    const services = ['ups_worldwide_saver', 'ups_ground', 'ups_worldwide_saver'];
    const created = await app.inject({
      method: 'POST',
      url: '/v1/batches',
      headers: t.headers,
      payload: { type: 'purchase_labels', items: orderIds.map((order_id, i) => ({ order_id, service_code: services[i] })) },
    });
    expect(created.statusCode, created.body).toBe(202);
    const batch = await finished(created.json().id);
    expect(batch.counts, JSON.stringify(batch)).toMatchObject({ succeeded: 3, failed: 0 });
    const shipments = await app.deps.db.selectFrom('shipments').select(['id', 'order_id']).where('order_id', 'in', [orderIds[0]!, orderIds[2]!]).execute();
    for (const s of shipments) await declare(s.id, DECLARATION);

    const label = await get(`/v1/batches/${batch.id}/label`);
    expect(label.statusCode, label.body).toBe(200);
    expect(label.headers['content-type']).toBe('application/pdf');
    const pdf = await PDFDocument.load(label.rawPayload);
    // Each label (4×6) followed by its invoice (letter); the domestic one alone.
    expect(pdf.getPages().map((p) => p.getSize().width)).toEqual([288, 612, 288, 288, 612]);
    if (poppler) expect(pdfText(label.rawPayload).match(/COMMERCIAL INVOICE/g)).toHaveLength(2);
  }, 120_000);
});
