import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../test/helpers/app.js';
import { FAKE_UPS_OPTION_CHARGES, startFakeUps, type FakeUps } from '../../test/helpers/fake-ups.js';
import { loadUpsSpecs } from '../../test/helpers/ups-spec.js';

// Shipment options through an api carrier account, end to end over HTTP: the rate query keeps
// the services that offer them (priced by the carrier), a purchase sends them, a service that
// lacks one is refused before the carrier is asked, and the carrier's own refusal is a 422.
let app: FastifyInstance;
let t: Tenant;
let ups: FakeUps;
let accountId: string;
const SECRET = 'fake-client-secret-options';

const shipFrom = { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US', phone: '+1 212 555 0100' };
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
    payload: { carrier: 'ups', driver: 'api', account_number: 'A1B2C3', base_url: ups.url, credentials: { client_id: 'fake-client-id', client_secret: SECRET } },
  });
  expect(account.statusCode, account.body).toBe(201);
  accountId = account.json().id;
}, 120_000);
afterAll(async () => {
  await app?.close();
  await ups?.close();
});

async function order(): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/v1/orders', headers: t.headers, payload: { customer: { name: 'Ada', email: 'ada@example.com' }, ship_to: shipTo, ship_from: shipFrom, parcel, line_items: [{ sku: 'W-1', name: 'Widget', quantity: 1, unit_price: { amount: 2500, currency: 'USD' }, weight_oz: 20 }] } });
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
    expect(air.surcharges).toEqual(expect.arrayContaining([
      { code: 'adult_signature', amount: { amount: FAKE_UPS_OPTION_CHARGES.adult_signature, currency: 'USD' } },
      { code: 'saturday_delivery', amount: { amount: FAKE_UPS_OPTION_CHARGES.saturday_delivery, currency: 'USD' } },
    ]));
    // UPS Ground does not deliver on Saturdays (its options table): dropped, said why.
    expect(body.data.some((o: { service_code: string }) => o.service_code === 'ups_ground')).toBe(false);
    expect(body.messages).toContainEqual(expect.objectContaining({ carrier_account_id: accountId, service_code: 'ups_ground', code: 'option_unavailable', option: 'saturday_delivery' }));
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
      payload: { order_id: await order(), service_code: 'ups_2nd_day_air', carrier_account_id: accountId, options: { signature: 'standard', insurance: { amount: { amount: 30_000, currency: 'USD' } }, references: ['PO-77'] } },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().options).toMatchObject({ signature: 'standard', insurance: { amount: { amount: 30_000, currency: 'USD' } }, references: ['PO-77'] });
    expect(res.json().rate.surcharges).toContainEqual({ code: 'signature', amount: { amount: FAKE_UPS_OPTION_CHARGES.signature, currency: 'USD' } });
    const pkg = lastShip().Package[0];
    expect(pkg.PackageServiceOptions).toEqual({ DeliveryConfirmation: { DCISType: '2' }, DeclaredValue: { Type: { Code: '01' }, CurrencyCode: 'USD', MonetaryValue: '300.00' } });
    expect(pkg.ReferenceNumber[0]).toEqual({ Value: 'PO-77' });
    expect(ups.violations).toEqual([]);
  });

  it('an option the service does not offer: 422 option_unavailable, UPS never asked', async () => {
    ups.reset();
    const res = await app.inject({ method: 'POST', url: '/v1/shipments', headers: t.headers, payload: { order_id: await order(), service_code: 'ups_ground', carrier_account_id: accountId, options: { saturday_delivery: true } } });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ code: 'option_unavailable', details: [{ field: 'options.saturday_delivery', option: 'saturday_delivery' }] });
    expect(ups.count('ship')).toBe(0);
  });

  it("UPS refusing an option: 422 carrier_rejected with UPS's message", async () => {
    ups.reset();
    ups.queue('ship', { status: 400, body: { response: { errors: [{ code: '120541', message: 'Delivery Confirmation Adult Signature Required is not available for the destination.' }] } } });
    const res = await app.inject({ method: 'POST', url: '/v1/shipments', headers: t.headers, payload: { order_id: await order(), service_code: 'ups_2nd_day_air', carrier_account_id: accountId, options: { signature: 'adult' } } });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'carrier_rejected',
      message: 'Delivery Confirmation Adult Signature Required is not available for the destination.',
      details: [{ message: 'Delivery Confirmation Adult Signature Required is not available for the destination.', carrier_code: '120541' }],
    });
  });
});
