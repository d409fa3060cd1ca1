import { describe, expect, it } from 'vitest';
import { SHIP_FROM, US_TO_DE_ROUTE, useCarrierApiTest, withOptions } from '../../../../test/helpers/carrier-api.js';
import { FAKE_DHL_OPTION_CHARGES, FAKE_DHL_SETUP } from '../../../../test/helpers/fake-dhl.js';
import type { ApiPurchaseRequest } from '../../driver.js';
import type { ShipmentOptions } from '../../types.js';
import { createDhlExpressApiDriver } from './client.js';

// Shipment options through the DHL Express api driver: each option as a valueAddedServices entry
// (the fake checks every request against mydhl-api.yaml), its charge read back, a refusal kept.
const api = useCarrierApiTest({ ...FAKE_DHL_SETUP, idPrefix: 'dhlopt' });
const { ctx } = api;

const to = {
  name: 'Pat Käufer',
  street1: 'Invalidenstraße 116',
  city: 'Berlin',
  postal_code: '10115',
  country: 'DE',
  phone: '+49 30 1234567',
  email: 'pat@example.de',
};
const parcel = { weight_oz: 40, length_in: 12, width_in: 9, height_in: 4 };
const request = {
  ship_from: { ...SHIP_FROM, phone: '+1 410 555 0100' },
  ship_to: to,
  parcel,
  ship_date: '2026-03-02',
  residential: true,
  route: US_TO_DE_ROUTE,
};
const rate = (options: Partial<ShipmentOptions>) => withOptions(request, options);
const buy = (options: Partial<ShipmentOptions>): ApiPurchaseRequest => ({
  ...rate(options),
  service_code: 'dhl_express_worldwide',
  reference: 'shp_01OPTIONS',
  purchased_at: '2026-03-02T15:00:00.000Z',
  label_image: 'PDF',
});
const cents = (code: string) => Math.round(FAKE_DHL_OPTION_CHARGES[code].price * 100);
const sent = (op: 'rates' | 'shipments') => api.fake.lastBody(op);

describe('DHL Express api driver: shipment options', () => {
  it('insurance, Saturday delivery and signature: II with its value, AA, SF / SD, priced from the breakdown', async () => {
    const driver = createDhlExpressApiDriver(api.http);
    const plain = await driver.rates(ctx(), rate({}));
    const res = await driver.rates(ctx(), rate({ insurance: { amount: { amount: 25_000, currency: 'USD' } }, saturday_delivery: true, signature: 'standard' }));
    expect(plain.ok && res.ok).toBe(true);
    if (!plain.ok || !res.ok) return;
    expect(sent('rates').valueAddedServices).toEqual([{ serviceCode: 'II', value: 250, currency: 'USD' }, { serviceCode: 'AA' }, { serviceCode: 'SF' }]);
    const worldwide = res.value.rates.find((r) => r.service_code === 'dhl_express_worldwide')!;
    expect(worldwide.surcharges).toEqual(
      expect.arrayContaining([
        { code: 'insurance', amount: { amount: cents('II'), currency: 'USD' } },
        { code: 'saturday_delivery', amount: { amount: cents('AA'), currency: 'USD' } },
        { code: 'signature', amount: { amount: cents('SF'), currency: 'USD' } },
      ]),
    );
    const plainWorldwide = plain.value.rates.find((r) => r.service_code === 'dhl_express_worldwide')!;
    expect(worldwide.price.amount - plainWorldwide.price.amount).toBe(cents('II') + cents('AA') + cents('SF'));

    const bought = await driver.purchase(ctx(), buy({ insurance: { amount: { amount: 25_000, currency: 'USD' } }, signature: 'adult' }));
    expect(bought.ok).toBe(true);
    expect(sent('shipments').valueAddedServices).toEqual([{ serviceCode: 'II', value: 250, currency: 'USD' }, { serviceCode: 'SD' }]);
    if (bought.ok) {
      expect(bought.value.rate?.surcharges).toEqual(
        expect.arrayContaining([
          { code: 'insurance', amount: { amount: cents('II'), currency: 'USD' } },
          { code: 'adult_signature', amount: { amount: cents('SD'), currency: 'USD' } },
        ]),
      );
    }
    expect(api.fake.violations).toEqual([]);
  });

  it('dangerous goods: the service code in rates, with its content id (and dry ice weight in pounds) in the shipment', async () => {
    const driver = createDhlExpressApiDriver(api.http);
    const lithium = await driver.rates(ctx(), rate({ dangerous_goods: { category: 'lithium_metal_in_equipment' } }));
    expect(lithium.ok).toBe(true);
    expect(sent('rates').valueAddedServices).toEqual([{ serviceCode: 'HW' }]);
    expect((await driver.purchase(ctx(), buy({ dangerous_goods: { category: 'lithium_ion_in_equipment' } }))).ok).toBe(true);
    expect(sent('shipments').valueAddedServices).toEqual([{ serviceCode: 'HV', dangerousGoods: [{ contentId: '967', unCodes: ['3481'] }] }]);
    const ice = await driver.purchase(ctx(), buy({ dangerous_goods: { category: 'dry_ice', dry_ice_weight_oz: 40 } }));
    expect(ice.ok).toBe(true);
    expect(sent('shipments').valueAddedServices).toEqual([{ serviceCode: 'HC', dangerousGoods: [{ contentId: '901', dryIceTotalNetWeight: 2.5 }] }]);
    if (ice.ok) expect(ice.value.rate?.surcharges).toContainEqual({ code: 'dangerous_goods', amount: { amount: cents('HC'), currency: 'USD' } });
    expect(api.fake.violations).toEqual([]);
  });

  it("references: the caller's first as the CU reference, the second as CID; the shipment id without them", async () => {
    const driver = createDhlExpressApiDriver(api.http);
    expect((await driver.purchase(ctx(), buy({ references: ['PO-1001', 'Dept 7'] }))).ok).toBe(true);
    expect(sent('shipments').customerReferences).toEqual([
      { value: 'PO-1001', typeCode: 'CU' },
      { value: 'Dept 7', typeCode: 'CID' },
    ]);
    expect((await driver.purchase(ctx(), buy({}))).ok).toBe(true);
    expect(sent('shipments').customerReferences).toEqual([{ value: 'shp_01OPTIONS', typeCode: 'CU' }]);
    expect(api.fake.violations).toEqual([]);
  });

  it("DHL refusing an option is a rejection with DHL's message", async () => {
    const detail = "7008: The requested Special Service Code  #/valueAddedServices/0/serviceCode 'AA' is not available between this origin and destination.";
    api.fake.queue('shipments', {
      status: 400,
      body: { instance: '/expressapi/shipments', detail, title: 'Bad request', message: 'Bad request', status: '400' },
    });
    const res = await createDhlExpressApiDriver(api.http).purchase(ctx(), buy({ saturday_delivery: true }));
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.kind).toBe('rejected');
      expect(res.messages[0]).toMatchObject({ code: 'carrier_rejected', carrier_code: '7008', message: expect.stringContaining("'AA' is not available") });
    }
  });
});
