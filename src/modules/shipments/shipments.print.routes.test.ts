import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { startFakeUps, type FakeUps } from '../../../test/helpers/fake-ups.js';

// POST /v1/labels/merge and its /api/admin twin: selected shipments' labels as one file.

const SECRET = 'fake-client-secret-51ab';
let app: FastifyInstance;
let t: Tenant;
let ups: FakeUps;

beforeAll(async () => {
  ups = await startFakeUps({ clientSecret: SECRET });
  app = await buildTestApp({ config: { encryptionKey: randomBytes(32).toString('base64'), carrierAllowBaseUrlOverride: true } });
  t = await createTenant(app);
});
afterAll(async () => {
  await app?.close();
  await ups?.close();
});

const shipFrom = {
  name: 'Warehouse',
  company: 'Acme',
  street1: '350 5th Ave',
  city: 'New York',
  state: 'NY',
  postal_code: '10118',
  country: 'US',
  phone: '2125550100',
};
const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US', phone: '4155550100' };
const parcel = { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 };
const large = { weight_oz: 80, length_in: 16, width_in: 12, height_in: 10 };

interface Bought {
  id: string;
  order_id: string;
  tracking_number: string;
  packages: { tracking_number: string }[];
}

async function ship(headers: Record<string, string>, body: Record<string, unknown> = {}, order: Record<string, unknown> = { parcel }): Promise<Bought> {
  const created = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers,
    payload: { ship_to: shipTo, ship_from: shipFrom, line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 2, weight_oz: 12 }], ...order },
  });
  expect(created.statusCode, created.body).toBe(201);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/shipments',
    headers,
    payload: { order_id: created.json().id, service_code: 'usps_ground_advantage', ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const merge = (payload: unknown, headers = t.headers, url = '/v1/labels/merge') =>
  app.inject({ method: 'POST', url, headers, payload: payload as Record<string, unknown> });
const pageCount = async (pdf: Buffer) => (await PDFDocument.load(pdf)).getPageCount();

describe('the file', () => {
  let singles: Bought[];
  let multi: Bought;

  beforeAll(async () => {
    singles = [await ship(t.headers), await ship(t.headers), await ship(t.headers)];
    multi = await ship(t.headers, { service_code: 'ups_ground' }, { parcels: [parcel, large] });
    expect(multi.packages).toHaveLength(2);
  }, 60_000);

  it('PDF: one page per label and one per package of a multi-piece shipment, as an attachment', async () => {
    const ids = [singles[2].id, multi.id, singles[0].id];
    const res = await merge({ shipment_ids: ids });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="labels-3-\d{8}-\d{4}\.pdf"$/);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await pageCount(res.rawPayload)).toBe(4);
    const letter = await merge({ shipment_ids: ids, format: 'pdf_letter' });
    expect(letter.statusCode, letter.body).toBe(200);
    const doc = await PDFDocument.load(letter.rawPayload);
    expect(doc.getPageCount()).toBe(4);
    expect(doc.getPage(0).getSize()).toEqual({ width: 612, height: 792 });
  }, 60_000);

  it('ZPL: one ^XA…^XZ per label, in the order given', async () => {
    const ids = [singles[1].id, singles[0].id, multi.id];
    const res = await merge({ shipment_ids: ids, format: 'zpl_4x6' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/x-zpl');
    expect(res.headers['content-disposition']).toMatch(/filename="labels-3-.*\.zpl"/);
    const docs = res.body.split('^XZ').filter((d) => d.includes('^XA'));
    expect(docs).toHaveLength(4);
    const order = [singles[1].tracking_number, singles[0].tracking_number, ...multi.packages.map((p) => p.tracking_number)];
    // Each document carries its own tracking number, and they come in the order asked.
    docs.forEach((d, i) => expect(d.replace(/\s/g, ''), `document ${i}`).toContain(order[i]));
  });

  it("packing slips: each order's slip follows its label", async () => {
    const res = await merge({ shipment_ids: [singles[0].id, singles[1].id], packing_slips: true });
    expect(res.statusCode, res.body).toBe(200);
    const doc = await PDFDocument.load(res.rawPayload);
    expect(doc.getPageCount()).toBe(4);
    // 4x6 label, letter slip, 4x6 label, letter slip.
    expect(doc.getPages().map((p) => Math.round(p.getSize().width))).toEqual([288, 612, 288, 612]);
  });

  it('an international label brings its customs documents after its page, as its own download does', async () => {
    const london = { name: 'Taro Yamada', street1: '221B Baker Street', city: 'London', postal_code: 'NW1 6XE', country: 'GB', phone: '+44 20 7946 0000' };
    const line = { sku: 'TS-1', name: 'Cotton T-shirt', quantity: 2, unit_price: { amount: 1250, currency: 'USD' }, weight_oz: 6, hs_tariff_number: '6109.10' };
    const created = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: { ship_to: london, ship_from: shipFrom, line_items: [line], parcel },
    });
    expect(created.statusCode, created.body).toBe(201);
    const bought = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: { order_id: created.json().id, service_code: 'usps_first_class_international' },
    });
    expect(bought.statusCode, bought.body).toBe(201);
    const abroad = bought.json() as Bought;
    const own = await app.inject({ method: 'GET', url: `/v1/shipments/${abroad.id}/label`, headers: t.headers });
    const ownPages = await pageCount(own.rawPayload);
    expect(ownPages).toBeGreaterThan(1);
    const res = await merge({ shipment_ids: [singles[0].id, abroad.id, singles[1].id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(await pageCount(res.rawPayload)).toBe(1 + ownPages + 1);
    // In ZPL the labels alone.
    const zpl = await merge({ shipment_ids: [singles[0].id, abroad.id], format: 'zpl_4x6' });
    expect(zpl.body.match(/\^XA/g)).toHaveLength(2);
  }, 60_000);

  it("the dashboard's twin answers the same file for a session", async () => {
    const res = await merge({ shipment_ids: [singles[0].id, singles[1].id] }, t.adminHeaders, '/api/admin/labels/merge');
    expect(res.statusCode, res.body).toBe(200);
    expect(await pageCount(res.rawPayload)).toBe(2);
  });

  it('a viewer is refused 403 naming operator; an operator key prints', async () => {
    const keyOf = async (role: 'viewer' | 'operator') => {
      const key = await app.identity.workspaces.createApiKey(t.workspaceId, { name: role, environment: 'test', role }, { type: 'system', id: null }, {});
      return { authorization: `Bearer ${key.secret}`, 'x-service-workspace': t.workspaceId };
    };
    const refused = await merge({ shipment_ids: [singles[0].id] }, await keyOf('viewer'));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'forbidden', details: [{ field: 'role', required_role: 'operator' }] });
    expect((await merge({ shipment_ids: [singles[0].id] }, await keyOf('operator'))).statusCode).toBe(200);
  });

  // zbarimg reads each page's barcode like a scanner (apt-get install zbar-tools poppler-utils); CI may lack them.
  const tools = spawnSync('zbarimg', ['--version']).status === 0 && spawnSync('pdftoppm', ['-v']).status === 0;
  it.runIf(tools)(
    "a scanner reads the pages' barcodes in the order given",
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'merge-'));
      try {
        const ids = [singles[1].id, multi.id, singles[2].id];
        const res = await merge({ shipment_ids: ids });
        writeFileSync(path.join(dir, 'labels.pdf'), res.rawPayload);
        expect(execFileSync('pdfinfo', [path.join(dir, 'labels.pdf')], { encoding: 'utf8' })).toMatch(/^Pages:\s+4$/m);
        execFileSync('pdftoppm', ['-r', '203', '-png', path.join(dir, 'labels.pdf'), path.join(dir, 'page')]);
        const pages = readdirSync(dir)
          .filter((f) => f.startsWith('page'))
          .sort();
        const scan = (file: string) =>
          execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Scode128.enable', file], {
            encoding: 'latin1',
            stdio: ['ignore', 'pipe', 'ignore'],
          }).trim();
        const expected = [singles[1].tracking_number, ...multi.packages.map((p) => p.tracking_number), singles[2].tracking_number];
        const read = pages.map((p) => scan(path.join(dir, p)));
        expect(read).toHaveLength(4);
        // A USPS barcode leads with its routing (420 + ZIP) before the tracking number.
        read.forEach((code, i) => expect(code.endsWith(expected[i]), `page ${i + 1}: ${code}`).toBe(true));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});

describe('refusals', () => {
  let mine: Bought;
  beforeAll(async () => {
    mine = await ship(t.headers);
  }, 30_000);

  it('400 validation_failed: no ids, more than 100, a repeated id, png_4x6, packing slips in ZPL, an unknown field', async () => {
    const fields = async (payload: unknown) => {
      const res = await merge(payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      return (res.json().details as { field: string }[]).map((d) => d.field);
    };
    expect(await fields({ shipment_ids: [] })).toContain('shipment_ids');
    expect(await fields({})).toContain('shipment_ids');
    expect(await fields({ shipment_ids: Array.from({ length: 101 }, (_, i) => `shp_${i}`) })).toContain('shipment_ids');
    expect(await fields({ shipment_ids: [mine.id, 'shp_other', mine.id] })).toEqual(['shipment_ids[2]']);
    expect(await fields({ shipment_ids: [mine.id], format: 'png_4x6' })).toEqual(['format']);
    expect(await fields({ shipment_ids: [mine.id], format: 'zpl_4x6', packing_slips: true })).toEqual(['packing_slips']);
    expect(await fields({ shipment_ids: [mine.id], format: 'gif' })).toContain('format');
    expect(await fields({ shipment_ids: [mine.id], copies: 2 })).toContain('copies');
  });

  it('404 naming each id of no shipment, of another workspace, of the other environment', async () => {
    const other = await createTenant(app);
    const theirs = await ship(other.headers);
    const live = await ship(t.liveHeaders);
    const res = await merge({ shipment_ids: [mine.id, theirs.id, 'shp_nope', live.id] });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toMatchObject({
      code: 'not_found',
      details: [{ field: 'shipment_ids[1]' }, { field: 'shipment_ids[2]' }, { field: 'shipment_ids[3]' }],
    });
    expect(res.json().message).toContain(theirs.id);
    expect(res.json().details[2].message).toContain(live.id);
    // The live key sees its own.
    expect((await merge({ shipment_ids: [live.id] }, t.liveHeaders)).statusCode).toBe(200);
  });

  it('409 invalid_state naming a voided label; nothing printed', async () => {
    const voided = await ship(t.headers);
    const v = await app.inject({ method: 'POST', url: `/v1/shipments/${voided.id}/void`, headers: t.headers });
    expect(v.statusCode, v.body).toBe(200);
    const res = await merge({ shipment_ids: [mine.id, voided.id] });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ code: 'invalid_state', details: [{ field: 'status', current_state: 'voided', allowed_moves: [] }] });
    expect(res.json().message).toContain(voided.id);
    expect(res.json().details[0].message).toContain('shipment_ids[1]');
  });

  it("422 label_format_unavailable naming a real carrier's label that cannot become the format; its own format prints", async () => {
    const account = await app.inject({
      method: 'POST',
      url: '/v1/carrier-accounts',
      headers: t.headers,
      payload: {
        carrier: 'ups',
        driver: 'api',
        account_number: 'A1B2C3',
        base_url: ups.url,
        credentials: { client_id: 'fake-client-id', client_secret: SECRET },
      },
    });
    expect(account.statusCode, account.body).toBe(201);
    const real = await ship(t.headers, { service_code: 'ups_ground', carrier_account_id: account.json().id });
    const res = await merge({ shipment_ids: [mine.id, real.id], format: 'zpl_4x6' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ code: 'label_format_unavailable', details: [{ field: 'format', message: expect.stringContaining(real.id) }] });
    // As a PDF the carrier's page is copied as issued, after ours.
    const pdf = await merge({ shipment_ids: [mine.id, real.id] });
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(await pageCount(pdf.rawPayload)).toBe(2);
    expect(ups.violations).toEqual([]);
  }, 60_000);
});
