import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { PDFDocument } from 'pdf-lib';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAccountBody } from '../../test/helpers/api-accounts.js';
import { buildTestApp, createTenant, type Tenant } from '../../test/helpers/app.js';
import { startFakeDhl, type FakeDhl } from '../../test/helpers/fake-dhl.js';
import { FAKE_FEDEX_ONE_RATE, startFakeFedex, type FakeFedex } from '../../test/helpers/fake-fedex.js';
import { FAKE_LABELS, startFakeUps, type FakeUps } from '../../test/helpers/fake-ups.js';
import { FAKE_USPS_FLAT_RATES, startFakeUsps, type FakeUsps } from '../../test/helpers/fake-usps.js';

// Multi-piece shipments and carriers' own packaging through api carrier accounts, end to end
// over HTTP (docs/carriers.md, "Multi-piece shipments", "Carrier packaging through an api
// account"): the rate query sends every piece to the carrier, a purchase reads each package's
// number and label back (the label file a page per package), a void voids them all; USPS (one
// parcel per shipment) is dropped and refused before it is asked. A carrier's package is sent
// as its own packaging code and priced by the carrier; another carrier's is never sent.
let app: FastifyInstance;
let t: Tenant;
let ups: FakeUps;
let fedex: FakeFedex;
let dhl: FakeDhl;
let usps: FakeUsps;
const accounts: Record<'ups' | 'fedex' | 'dhl_express' | 'usps', string> = { ups: '', fedex: '', dhl_express: '', usps: '' };
const SECRET = 'fake-secret-multipiece';

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
const shipTo = {
  name: 'Ada Lovelace',
  street1: '1 Market St',
  city: 'San Francisco',
  state: 'CA',
  postal_code: '94105',
  country: 'US',
  phone: '+1 415 555 0100',
};
// DHL Express carries no US-to-US parcel: its lane is in Germany.
const hamburg = {
  name: 'Lager',
  company: 'Acme GmbH',
  street1: 'Am Sandtorkai 1',
  city: 'Hamburg',
  postal_code: '20457',
  country: 'DE',
  phone: '+49 40 1234567',
};
const berlin = { name: 'Pat Käufer', street1: 'Invalidenstraße 116', city: 'Berlin', postal_code: '10115', country: 'DE', phone: '+49 30 1234567' };
const small = { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 };
const large = { weight_oz: 80, length_in: 16, width_in: 12, height_in: 10 };
const third = { weight_oz: 40, length_in: 12, width_in: 12, height_in: 6 };

beforeAll(async () => {
  [ups, fedex, dhl, usps] = await Promise.all([
    startFakeUps({ clientSecret: SECRET }),
    startFakeFedex({ secretKey: SECRET }),
    startFakeDhl({ apiSecret: SECRET }),
    startFakeUsps({ clientSecret: SECRET }),
  ]);
  app = await buildTestApp({ config: { encryptionKey: randomBytes(32).toString('base64'), carrierAllowBaseUrlOverride: true } });
  t = await createTenant(app);
  const bodies = {
    ups: apiAccountBody('ups', ups.url, SECRET),
    fedex: apiAccountBody('fedex', fedex.url, SECRET),
    dhl_express: apiAccountBody('dhl_express', dhl.url, SECRET),
    usps: apiAccountBody('usps', usps.url, SECRET),
  };
  for (const carrier of Object.keys(bodies) as (keyof typeof bodies)[]) {
    const res = await app.inject({ method: 'POST', url: '/v1/carrier-accounts', headers: t.headers, payload: bodies[carrier] });
    expect(res.statusCode, res.body).toBe(201);
    accounts[carrier] = res.json().id;
  }
}, 180_000);
afterAll(async () => {
  await app?.close();
  await Promise.all([ups?.close(), fedex?.close(), dhl?.close(), usps?.close()]);
});

async function order(parcels: unknown[], lane: { from: object; to: object } = { from: shipFrom, to: shipTo }): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers: t.headers,
    payload: {
      customer: { name: 'Ada', email: 'ada@example.com' },
      ship_to: lane.to,
      ship_from: lane.from,
      parcels,
      line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 3, unit_price: { amount: 2500, currency: 'USD' }, weight_oz: 12 }],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

const rate = (account: string, parcels: unknown[], lane: { from: object; to: object } = { from: shipFrom, to: shipTo }) =>
  app.inject({
    method: 'POST',
    url: '/v1/rates/query',
    headers: t.headers,
    payload: { ship_from: lane.from, ship_to: lane.to, parcels, carrier_accounts: [account] },
  });

type Shipment = { id: string; tracking_number: string; packages: { tracking_number: string; parcel: unknown }[] };

async function buy(carrier: keyof typeof accounts, serviceCode: string, labelFormat = 'pdf_4x6', lane?: { from: object; to: object }): Promise<Shipment> {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/shipments',
    headers: t.headers,
    payload: {
      order_id: await order([small, large, third], lane),
      service_code: serviceCode,
      carrier_account_id: accounts[carrier],
      label_format: labelFormat,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function labelPages(id: string, format?: string): Promise<number> {
  const res = await app.inject({ method: 'GET', url: `/v1/shipments/${id}/label${format ? `?format=${format}` : ''}`, headers: t.headers });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/application\/pdf/);
  return (await PDFDocument.load(res.rawPayload)).getPageCount();
}

const voidShipment = (id: string) => app.inject({ method: 'POST', url: `/v1/shipments/${id}/void`, headers: t.headers });

describe('multi-piece through the api drivers', () => {
  it('UPS: every piece rated and shipped (Package[]), a page per package, the void names every package', async () => {
    ups.reset();
    const quote = await rate(accounts.ups, [small, large, third]);
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json().data.length).toBeGreaterThan(0);
    expect(quote.json().messages.filter((m: { option?: string }) => m.option === 'parcels')).toEqual([]);
    const rated = JSON.parse(ups.requests.find((r) => r.operation === 'rates')!.body).RateRequest.Shipment;
    expect(rated.Package).toHaveLength(3);
    expect(rated.NumOfPieces).toBe('3');

    const shipment = await buy('ups', 'ups_ground');
    const issued = ups.shipments.get(shipment.tracking_number)!;
    expect(shipment.packages.map((p) => p.tracking_number)).toEqual(issued.trackingNumbers);
    expect(shipment.packages.map((p) => p.parcel)).toEqual([small, large, third]);
    expect(shipment.packages[0]!.tracking_number).toBe(shipment.tracking_number);
    const shipped = JSON.parse(ups.requests.filter((r) => r.operation === 'ship').at(-1)!.body).ShipmentRequest.Shipment;
    expect(shipped.Package).toHaveLength(3);
    // UPS issued three GIFs: the PDF label has a page per package, in letter form too.
    expect(await labelPages(shipment.id)).toBe(3);
    expect(await labelPages(shipment.id, 'pdf_letter')).toBe(3);
    // As PNG (one image), the three GIFs (the fake's is 1 × 1 pixel) stacked top to bottom.
    expect(FAKE_LABELS.GIF!.readUInt16LE(6)).toBe(1);
    const png = await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}/label?format=png_4x6`, headers: t.headers });
    expect(png.headers['content-type']).toMatch(/image\/png/);
    const stacked = PNG.sync.read(png.rawPayload);
    expect([stacked.width, stacked.height]).toEqual([1, 3]);

    const voided = await voidShipment(shipment.id);
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json().packages.every((p: { tracking_status: string }) => p.tracking_status === 'cancelled')).toBe(true);
    expect(issued.voided).toBe(true);
    expect([...issued.voidedPackages].sort()).toEqual([...issued.trackingNumbers].sort());
    // Still downloadable, every page stamped VOID.
    expect(await labelPages(shipment.id)).toBe(3);
    expect(ups.violations).toEqual([]);
  });

  it('FedEx: requestedPackageLineItems, the master and child numbers read back, cancelled whole', async () => {
    fedex.reset();
    const quote = await rate(accounts.fedex, [small, large]);
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json().data.length).toBeGreaterThan(0);
    const rated = JSON.parse(fedex.requests.find((r) => r.operation === 'rates')!.body).requestedShipment;
    expect(rated.requestedPackageLineItems).toHaveLength(2);

    const shipment = await buy('fedex', 'fedex_ground');
    const issued = fedex.shipments.get(shipment.tracking_number)!;
    expect(shipment.packages.map((p) => p.tracking_number)).toEqual(issued.trackingNumbers);
    expect(shipment.packages[0]!.tracking_number).toBe(shipment.tracking_number);
    expect(fedex.lastBody('ship').requestedShipment).toMatchObject({ totalPackageCount: 3 });
    expect(await labelPages(shipment.id)).toBe(3);

    const voided = await voidShipment(shipment.id);
    expect(voided.statusCode, voided.body).toBe(200);
    expect(fedex.lastBody('cancel')).toMatchObject({ trackingNumber: shipment.tracking_number, deletionControl: 'DELETE_ALL_PACKAGES' });
    expect(issued.cancelled).toBe(true);
    expect(fedex.violations).toEqual([]);
  });

  it("FedEx ZPL: the label file is each package's ZPL one after the other", async () => {
    const shipment = await buy('fedex', 'fedex_ground', 'zpl_4x6');
    const res = await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}/label`, headers: t.headers });
    expect(res.statusCode).toBe(200);
    expect(res.body.match(/\^XA/g)).toHaveLength(3);
  });

  it("DHL Express: content.packages[], the waybill and each piece's number, a page per package", async () => {
    dhl.reset();
    const quote = await rate(accounts.dhl_express, [small, large], { from: hamburg, to: berlin });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json().data.length).toBeGreaterThan(0);
    const rated = JSON.parse(dhl.requests.find((r) => r.operation === 'rates')!.body);
    expect(rated.packages).toHaveLength(2);

    const shipment = await buy('dhl_express', 'dhl_express_domestic', 'pdf_4x6', { from: hamburg, to: berlin });
    const issued = dhl.shipments.get(shipment.tracking_number)!;
    // The shipment is tracked by its waybill number; each package is its piece (JD…) number.
    expect(shipment.packages.map((p) => p.tracking_number)).toEqual(issued.pieces);
    expect(JSON.parse(dhl.requests.filter((r) => r.operation === 'shipments').at(-1)!.body).content.packages).toHaveLength(3);
    expect(await labelPages(shipment.id)).toBe(3);
    const voided = await voidShipment(shipment.id);
    expect(voided.statusCode, voided.body).toBe(200);
    expect(dhl.violations).toEqual([]);
  });

  it('tracking: UPS is asked for every package and the shipment rolls up; DHL Express pieces travel as their waybill', async () => {
    ups.reset();
    const shipment = await buy('ups', 'ups_ground');
    const refreshed = await app.inject({ method: 'POST', url: `/v1/tracking/${shipment.id}/refresh`, headers: t.headers });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const asked = ups.requests.filter((r) => r.operation === 'track').map((r) => decodeURIComponent(r.path.split('?')[0]!.split('/').pop()!));
    expect(asked.sort()).toEqual(shipment.packages.map((p) => p.tracking_number).sort());
    const read = (await app.inject({ method: 'GET', url: `/v1/shipments/${shipment.id}`, headers: t.headers })).json();
    expect(read.packages.map((p: { tracking_status: string }) => p.tracking_status)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(read.status).toBe('delivered');

    dhl.reset();
    const pieces = await buy('dhl_express', 'dhl_express_domestic', 'pdf_4x6', { from: hamburg, to: berlin });
    const again = await app.inject({ method: 'POST', url: `/v1/tracking/${pieces.id}/refresh`, headers: t.headers });
    expect(again.statusCode, again.body).toBe(200);
    expect(dhl.requests.filter((r) => r.operation === 'track')).toHaveLength(1);
    const dhlRead = (await app.inject({ method: 'GET', url: `/v1/shipments/${pieces.id}`, headers: t.headers })).json();
    expect(dhlRead.packages.map((p: { tracking_status: string }) => p.tracking_status)).toEqual(['delivered', 'delivered', 'delivered']);
  });

  it('USPS (one parcel per shipment): the rate dropped with a parcels message, a purchase 422, USPS never sold a label', async () => {
    const quote = await rate(accounts.usps, [small, large]);
    expect(quote.statusCode, quote.body).toBe(200);
    const body = quote.json();
    expect(body.data).toEqual([]);
    expect(body.messages.length).toBeGreaterThan(0);
    for (const m of body.messages) expect(m).toMatchObject({ carrier_account_id: accounts.usps, code: 'option_unavailable', option: 'parcels' });
    const labelsBefore = usps.count('label');
    const res = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: { order_id: await order([small, large]), service_code: 'usps_ground_advantage', carrier_account_id: accounts.usps },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ code: 'option_unavailable', details: [{ field: 'parcels', option: 'parcels' }] });
    expect(usps.count('label')).toBe(labelsBefore);
  });
});

describe("carriers' own packaging through the api drivers", () => {
  it("GET /v1/carrier-packages lists each carrier's packaging with the services that price it flat", async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/carrier-packages', headers: t.headers });
    expect(res.statusCode).toBe(200);
    const ids = res.json().data.map((p: { id: string }) => p.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'ups_letter',
        'ups_pak',
        'fedex_envelope',
        'fedex_pak',
        'dhl_express_flyer',
        'usps_flat_rate_envelope',
        'usps_medium_flat_rate_box',
      ]),
    );
  });

  it('a USPS flat rate envelope: priced flat by the USPS account; the UPS account is not asked, its services unavailable', async () => {
    ups.reset();
    usps.reset();
    const res = await app.inject({
      method: 'POST',
      url: '/v1/rates/query',
      headers: t.headers,
      payload: {
        ship_from: shipFrom,
        ship_to: shipTo,
        parcel: { package_id: 'usps_flat_rate_envelope', weight_oz: 48 },
        carrier_accounts: [accounts.usps, accounts.ups],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const priority = body.data.find((o: { service_code: string }) => o.service_code === 'usps_priority_mail');
    expect(priority).toMatchObject({ carrier_account_id: accounts.usps, price: { amount: FAKE_USPS_FLAT_RATES.PRIORITY_MAIL!.FE } });
    expect(body.data.some((o: { carrier: string }) => o.carrier === 'ups')).toBe(false);
    expect(body.unavailable).toContainEqual({
      carrier: 'ups',
      service_code: 'ups_ground',
      reason: "UPS does not carry another carrier's packaging (usps_flat_rate_envelope)",
    });
    expect(ups.count('rates')).toBe(0);
    expect(usps.violations).toEqual([]);
  });

  it('a FedEx Envelope bought by 2Day: sent as FEDEX_ENVELOPE with One Rate, charged the flat price', async () => {
    fedex.reset();
    const orderRes = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: {
        customer: { name: 'Ada', email: 'ada@example.com' },
        ship_to: shipTo,
        ship_from: shipFrom,
        parcel: { package_id: 'fedex_envelope', weight_oz: 8 },
        line_items: [{ sku: 'DOC-1', name: 'Contract', quantity: 1, unit_price: { amount: 100, currency: 'USD' }, weight_oz: 8 }],
      },
    });
    expect(orderRes.statusCode, orderRes.body).toBe(201);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: { order_id: orderRes.json().id, service_code: 'fedex_2day', carrier_account_id: accounts.fedex },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().price.amount).toBe(FAKE_FEDEX_ONE_RATE.FEDEX_ENVELOPE!.FEDEX_2_DAY);
    expect(fedex.lastBody('ship').requestedShipment).toMatchObject({
      packagingType: 'FEDEX_ENVELOPE',
      shipmentSpecialServices: { specialServiceTypes: ['FEDEX_ONE_RATE'] },
    });
    expect(fedex.violations).toEqual([]);
  });

  it("another carrier's packaging bought through an api account: 422 no_rates, the carrier never asked", async () => {
    ups.reset();
    const orderRes = await app.inject({
      method: 'POST',
      url: '/v1/orders',
      headers: t.headers,
      payload: {
        customer: { name: 'Ada', email: 'ada@example.com' },
        ship_to: shipTo,
        ship_from: shipFrom,
        parcel: { package_id: 'fedex_pak', weight_oz: 20 },
        line_items: [{ sku: 'A', name: 'A', quantity: 1, unit_price: { amount: 100, currency: 'USD' }, weight_oz: 20 }],
      },
    });
    expect(orderRes.statusCode, orderRes.body).toBe(201);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: { order_id: orderRes.json().id, service_code: 'ups_ground', carrier_account_id: accounts.ups },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ code: 'no_rates', details: [{ field: 'parcel.package_id' }] });
    expect(ups.count('ship')).toBe(0);
  });
});
