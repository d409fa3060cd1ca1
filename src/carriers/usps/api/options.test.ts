import { describe, expect, it } from 'vitest';
import { SHIP_FROM, US_ROUTE, useCarrierApiTest, withOptions } from '../../../../test/helpers/carrier-api.js';
import { FAKE_USPS_EXTRA_SERVICES, FAKE_USPS_SETUP } from '../../../../test/helpers/fake-usps.js';
import type { ApiPurchaseRequest } from '../../driver.js';
import type { ShipmentOptions } from '../../types.js';
import { createUspsApiDriver } from './client.js';
import { parseMultipart } from './multipart.js';

// Shipment options through the USPS api driver: extra service codes on prices and labels (the
// fake checks every request against USPS's v3 documents), their charges read back, a refusal kept.
const api = useCarrierApiTest({ ...FAKE_USPS_SETUP, idPrefix: 'uspsopt' });
const { ctx } = api;

const to = { name: 'Pat Buyer', street1: '100 Peachtree Pkwy', city: 'Alpharetta', state: 'GA', postal_code: '30005', country: 'US' };
const parcel = { weight_oz: 40, length_in: 12, width_in: 9, height_in: 4 };
const request = { ship_from: SHIP_FROM, ship_to: to, parcel, ship_date: '2026-03-02', residential: true, route: US_ROUTE };
const rate = (options: Partial<ShipmentOptions>) => withOptions(request, options);
const buy = (options: Partial<ShipmentOptions>): ApiPurchaseRequest => ({
  ...rate(options),
  service_code: 'usps_ground_advantage',
  reference: `shp_01OPTIONS${api.accounts}`,
  purchased_at: '2026-03-02T15:00:00.000Z',
  label_image: 'PDF',
});
const cents = (code: number) => Math.round(FAKE_USPS_EXTRA_SERVICES[code].price * 100);
const sent = (op: 'rates' | 'label') => {
  if (op === 'rates') return api.fake.lastBody(op);
  const r = api.fake.requests.filter((x) => x.operation === op).at(-1)!;
  // Labels go as JSON (the label request body); multipart is only USPS's answer.
  return r.body.trim().startsWith('{') ? JSON.parse(r.body) : JSON.parse(parseMultipart(r.body, String(r.headers['content-type']))![0].body);
};

describe('USPS api driver: shipment options', () => {
  it('signature and insurance: extraServices 921 and 930 with itemValue in prices, priced from the answer', async () => {
    const driver = createUspsApiDriver(api.http);
    const plain = await driver.rates(ctx(), rate({}));
    const res = await driver.rates(ctx(), rate({ signature: 'standard', insurance: { amount: { amount: 25_000, currency: 'USD' } } }));
    expect(plain.ok && res.ok).toBe(true);
    if (!plain.ok || !res.ok) return;
    expect(sent('rates')).toMatchObject({ extraServices: [921, 930], itemValue: 250 });
    const ground = res.value.rates.find((r) => r.service_code === 'usps_ground_advantage')!;
    expect(ground.surcharges).toEqual(
      expect.arrayContaining([
        { code: 'signature', amount: { amount: cents(921), currency: 'USD' } },
        { code: 'insurance', amount: { amount: cents(930), currency: 'USD' } },
      ]),
    );
    const plainGround = plain.value.rates.find((r) => r.service_code === 'usps_ground_advantage')!;
    expect(ground.price.amount - plainGround.price.amount).toBe(cents(921) + cents(930));
    expect(api.fake.violations).toEqual([]);
  });

  it('a label with adult signature and insurance above 500 USD: 922 and 931, physicalSignatureRequired, packageValue, the charges read from the label metadata', async () => {
    const res = await createUspsApiDriver(api.http).purchase(ctx(), buy({ signature: 'adult', insurance: { amount: { amount: 80_000, currency: 'USD' } } }));
    expect(res.ok).toBe(true);
    const description = sent('label').packageDescription;
    expect(description).toMatchObject({ extraServices: [922, 931], physicalSignatureRequired: true, packageOptions: { packageValue: 800 } });
    if (res.ok) {
      expect(res.value.rate?.surcharges).toEqual(
        expect.arrayContaining([
          { code: 'adult_signature', amount: { amount: cents(922), currency: 'USD' } },
          { code: 'insurance', amount: { amount: cents(931), currency: 'USD' } },
        ]),
      );
    }
    expect(api.fake.violations).toEqual([]);
  });

  it('dangerous goods: the HAZMAT package code (819 dry ice, 820 lithium in equipment); Saturday delivery sends nothing', async () => {
    const driver = createUspsApiDriver(api.http);
    expect((await driver.purchase(ctx(), buy({ dangerous_goods: { category: 'dry_ice', dry_ice_weight_oz: 40 }, saturday_delivery: true }))).ok).toBe(true);
    expect(sent('label').packageDescription.extraServices).toEqual([819]);
    expect((await driver.rates(ctx(), rate({ dangerous_goods: { category: 'lithium_ion_in_equipment' } }))).ok).toBe(true);
    expect(sent('rates').extraServices).toEqual([820]);
    expect((await driver.rates(ctx(), rate({ saturday_delivery: true }))).ok).toBe(true);
    expect(sent('rates').extraServices).toBeUndefined();
    expect(api.fake.violations).toEqual([]);
  });

  it("references: the caller's printed on the label, then the shipment id unprinted", async () => {
    const c = ctx();
    expect((await createUspsApiDriver(api.http).purchase(c, buy({ references: ['PO-1001', 'Dept 7'] }))).ok).toBe(true);
    expect(sent('label').packageDescription.customerReference).toEqual([
      { referenceNumber: 'PO-1001', printReferenceNumber: true },
      { referenceNumber: 'Dept 7', printReferenceNumber: true },
      { referenceNumber: `shp_01OPTIONS${api.accounts}`, printReferenceNumber: false },
    ]);
    expect(api.fake.violations).toEqual([]);
  });

  it("USPS refusing an option is a rejection with USPS's message", async () => {
    api.fake.queue('label', {
      status: 400,
      body: {
        apiVersion: 'v3',
        error: {
          code: '400',
          message: 'Extra service not allowed.',
          errors: [
            {
              status: '400',
              code: '020117',
              title: 'Extra service not allowed',
              detail: 'Extra service 922 is not available with the mail class.',
              source: { parameter: 'packageDescription.extraServices' },
            },
          ],
        },
      },
    });
    const res = await createUspsApiDriver(api.http).purchase(ctx(), buy({ signature: 'adult' }));
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.kind).toBe('rejected');
      expect(res.messages[0]).toMatchObject({ code: 'carrier_rejected', carrier_code: '020117', message: expect.stringContaining('922 is not available') });
    }
  });
});
