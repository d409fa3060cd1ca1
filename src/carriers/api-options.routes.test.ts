import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAccountBody } from '../../test/helpers/api-accounts.js';
import { buildTestApp, createTenant, type Tenant } from '../../test/helpers/app.js';
import { dhlFixture, startFakeDhl, type FakeDhl } from '../../test/helpers/fake-dhl.js';
import { startFakeFedex, type FakeFedex } from '../../test/helpers/fake-fedex.js';
import { FAKE_UPS_OPTION_CHARGES, startFakeUps, type FakeUps } from '../../test/helpers/fake-ups.js';
import { startFakeUsps, type FakeUsps } from '../../test/helpers/fake-usps.js';
import { loadUpsSpecs } from '../../test/helpers/ups-spec.js';

// Shipment options through an api carrier account, end to end over HTTP: the rate query keeps
// the services that offer them (priced by the carrier), a purchase sends them, a service that
// lacks one is refused before the carrier is asked, and the carrier's own refusal is a 422.
let app: FastifyInstance;
let t: Tenant;
let ups: FakeUps;
let accountId: string;
let fedex: FakeFedex;
let dhl: FakeDhl;
let usps: FakeUsps;
const others: Record<'fedex' | 'dhl_express' | 'usps', string> = { fedex: '', dhl_express: '', usps: '' };
const SECRET = 'fake-client-secret-options';

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
const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const parcel = { weight_oz: 30, length_in: 10, width_in: 8, height_in: 4 };

beforeAll(async () => {
  ups = await startFakeUps({ clientSecret: SECRET, specs: loadUpsSpecs() });
  app = await buildTestApp({ config: { encryptionKey: randomBytes(32).toString('base64'), carrierAllowBaseUrlOverride: true } });
  t = await createTenant(app);
  const account = await app.inject({
    method: 'POST',
    url: '/v1/carrier-accounts',
    headers: t.headers,
    payload: apiAccountBody('ups', ups.url, SECRET),
  });
  expect(account.statusCode, account.body).toBe(201);
  accountId = account.json().id;
  [fedex, dhl, usps] = await Promise.all([startFakeFedex({ secretKey: SECRET }), startFakeDhl({ apiSecret: SECRET }), startFakeUsps({ clientSecret: SECRET })]);
  const bodies = {
    fedex: apiAccountBody('fedex', fedex.url, SECRET),
    dhl_express: apiAccountBody('dhl_express', dhl.url, SECRET),
    usps: apiAccountBody('usps', usps.url, SECRET),
  };
  for (const carrier of Object.keys(bodies) as (keyof typeof bodies)[]) {
    const res = await app.inject({ method: 'POST', url: '/v1/carrier-accounts', headers: t.headers, payload: bodies[carrier] });
    expect(res.statusCode, res.body).toBe(201);
    others[carrier] = res.json().id;
  }
}, 180_000);
afterAll(async () => {
  await app?.close();
  await Promise.all([ups?.close(), fedex?.close(), dhl?.close(), usps?.close()]);
});

async function order(lane: { from: object; to: object } = { from: shipFrom, to: shipTo }): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/orders',
    headers: t.headers,
    payload: {
      customer: { name: 'Ada', email: 'ada@example.com' },
      ship_to: lane.to,
      ship_from: lane.from,
      parcel,
      line_items: [{ sku: 'W-1', name: 'Widget', quantity: 1, unit_price: { amount: 2500, currency: 'USD' }, weight_oz: 20 }],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}
const lastShip = () => JSON.parse(ups.requests.filter((r) => r.operation === 'ship').at(-1)!.body).ShipmentRequest.Shipment;

describe('shipment options through an api carrier account', () => {
  it('a rate query with options: the services that offer them, priced from the carrier, the others dropped with a message', async () => {
    ups.reset();
    const res = await app.inject({
      method: 'POST',
      url: '/v1/rates/query',
      headers: t.headers,
      payload: { ship_from: shipFrom, ship_to: shipTo, parcel, carrier_accounts: [accountId], options: { signature: 'adult', saturday_delivery: true } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const air = body.data.find((o: { service_code: string }) => o.service_code === 'ups_2nd_day_air');
    expect(air.carrier_account_id).toBe(accountId);
    expect(air.surcharges).toEqual(
      expect.arrayContaining([
        { code: 'adult_signature', amount: { amount: FAKE_UPS_OPTION_CHARGES.adult_signature, currency: 'USD' } },
        { code: 'saturday_delivery', amount: { amount: FAKE_UPS_OPTION_CHARGES.saturday_delivery, currency: 'USD' } },
      ]),
    );
    // UPS Ground does not deliver on Saturdays (its options table): dropped, said why.
    expect(body.data.some((o: { service_code: string }) => o.service_code === 'ups_ground')).toBe(false);
    expect(body.messages).toContainEqual(
      expect.objectContaining({ carrier_account_id: accountId, service_code: 'ups_ground', code: 'option_unavailable', option: 'saturday_delivery' }),
    );
    const sent = JSON.parse(ups.requests.find((r) => r.operation === 'rates')!.body).RateRequest.Shipment;
    expect(sent.Package[0].PackageServiceOptions).toEqual({ DeliveryConfirmation: { DCISType: '3' } });
    expect(ups.violations).toEqual([]);
  });

  it('a purchase with options sends them to UPS and keeps their charges in the rate', async () => {
    ups.reset();
    const res = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: {
        order_id: await order(),
        service_code: 'ups_2nd_day_air',
        carrier_account_id: accountId,
        options: { signature: 'standard', insurance: { amount: { amount: 30_000, currency: 'USD' } }, references: ['PO-77'] },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().options).toMatchObject({ signature: 'standard', insurance: { amount: { amount: 30_000, currency: 'USD' } }, references: ['PO-77'] });
    expect(res.json().rate.surcharges).toContainEqual({ code: 'signature', amount: { amount: FAKE_UPS_OPTION_CHARGES.signature, currency: 'USD' } });
    const pkg = lastShip().Package[0];
    expect(pkg.PackageServiceOptions).toEqual({
      DeliveryConfirmation: { DCISType: '2' },
      DeclaredValue: { Type: { Code: '01' }, CurrencyCode: 'USD', MonetaryValue: '300.00' },
    });
    expect(pkg.ReferenceNumber[0]).toEqual({ Value: 'PO-77' });
    expect(ups.violations).toEqual([]);
  });

  it('an option the service does not offer: 422 option_unavailable, UPS never asked', async () => {
    ups.reset();
    const res = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: { order_id: await order(), service_code: 'ups_ground', carrier_account_id: accountId, options: { saturday_delivery: true } },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ code: 'option_unavailable', details: [{ field: 'options.saturday_delivery', option: 'saturday_delivery' }] });
    expect(ups.count('ship')).toBe(0);
  });

  it("UPS refusing an option: 422 carrier_rejected with UPS's message", async () => {
    ups.reset();
    ups.queue('ship', {
      status: 400,
      body: { response: { errors: [{ code: '120541', message: 'Delivery Confirmation Adult Signature Required is not available for the destination.' }] } },
    });
    const res = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: { order_id: await order(), service_code: 'ups_2nd_day_air', carrier_account_id: accountId, options: { signature: 'adult' } },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'carrier_rejected',
      message: 'Delivery Confirmation Adult Signature Required is not available for the destination.',
      details: [{ message: 'Delivery Confirmation Adult Signature Required is not available for the destination.', carrier_code: '120541' }],
    });
  });
});

// The same refusal path for the other api drivers: each carrier's own error body, read by its
// errors.ts, becomes 422 carrier_rejected with the carrier's words; nothing is kept.
describe('FedEx, DHL Express and USPS refusing an option over HTTP', () => {
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
  const buy = async (payload: Record<string, unknown>, lane?: { from: object; to: object }) =>
    app.inject({ method: 'POST', url: '/v1/shipments', headers: t.headers, payload: { order_id: await order(lane), ...payload } });
  const shipmentsOf = async (orderId: string) =>
    (await app.inject({ method: 'GET', url: `/v1/shipments?order_id=${orderId}`, headers: t.headers })).json().data;

  it("FedEx refusing an adult signature: 422 carrier_rejected with FedEx's message and code", async () => {
    fedex.reset();
    const message = 'Adult signature option is not allowed for the destination.';
    fedex.queue('ship', { status: 400, body: { transactionId: 'a1b2c3', errors: [{ code: 'SIGNATUREOPTION.ADULT.NOTALLOWED', message }] } });
    const res = await buy({ service_code: 'fedex_2day', carrier_account_id: others.fedex, options: { signature: 'adult' } });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ code: 'carrier_rejected', message, details: [{ message, carrier_code: 'SIGNATUREOPTION.ADULT.NOTALLOWED' }] });
    // The option was sent as FedEx describes it before FedEx said no.
    const sent = fedex.lastBody('ship').requestedShipment.requestedPackageLineItems[0].packageSpecialServices;
    expect(sent).toMatchObject({ specialServiceTypes: ['SIGNATURE_OPTION'], signatureOptionType: 'ADULT' });
    expect(fedex.violations).toEqual([]);
  });

  it("DHL Express refusing Saturday delivery: 422 carrier_rejected with DHL's detail, its number as the code", async () => {
    dhl.reset();
    // The one-piece purchase asks GET /products first: DHL offers the domestic product (N) here.
    const products = dhlFixture('products');
    products.products[0].productCode = 'N';
    dhl.queue('products', { body: products });
    dhl.queue('shipments', {
      status: 422,
      body: {
        instance: '/expressapi/shipments',
        detail: "7008: The requested Special Service 'AA' is not available for the route.",
        title: 'Unprocessable Entity',
        message: 'Unprocessable Entity',
        status: '422',
      },
    });
    const orderId = await order({ from: hamburg, to: berlin });
    const res = await app.inject({
      method: 'POST',
      url: '/v1/shipments',
      headers: t.headers,
      payload: { order_id: orderId, service_code: 'dhl_express_domestic', carrier_account_id: others.dhl_express, options: { saturday_delivery: true } },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'carrier_rejected',
      message: "The requested Special Service 'AA' is not available for the route.",
      details: [{ carrier_code: '7008', message: "The requested Special Service 'AA' is not available for the route." }],
    });
    const sent = JSON.parse(dhl.requests.filter((r) => r.operation === 'shipments').at(-1)!.body);
    expect(sent.valueAddedServices).toContainEqual({ serviceCode: 'AA' });
    expect(await shipmentsOf(orderId)).toEqual([]);
  });

  it("USPS refusing insurance: 422 carrier_rejected with USPS's detail and error code", async () => {
    usps.reset();
    const detail = 'Extra service 930 (Insurance) is not available with the requested mail class and rate indicator.';
    usps.queue('label', {
      status: 400,
      body: {
        apiVersion: 'v3',
        error: {
          code: '400',
          message: 'Invalid extra service.',
          errors: [{ status: '400', code: 'LBL-ES-930', title: 'Invalid extra service', detail, source: { parameter: 'packageDescription.extraServices' } }],
        },
      },
    });
    const res = await buy({
      service_code: 'usps_priority_mail',
      carrier_account_id: others.usps,
      options: { insurance: { amount: { amount: 20_000, currency: 'USD' } } },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ code: 'carrier_rejected', message: detail, details: [{ message: detail, carrier_code: 'LBL-ES-930' }] });
    const sent = JSON.parse(usps.requests.filter((r) => r.operation === 'label').at(-1)!.body).packageDescription;
    expect(sent.extraServices).toContain(930);
  });
});
