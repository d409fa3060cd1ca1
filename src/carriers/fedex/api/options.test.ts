import { describe, expect, it } from 'vitest';
import { SHIP_FROM, US_ROUTE, useCarrierApiTest, withOptions } from '../../../../test/helpers/carrier-api.js';
import { FAKE_FEDEX_OPTION_CHARGES, FAKE_FEDEX_SETUP } from '../../../../test/helpers/fake-fedex.js';
import type { ApiPurchaseRequest } from '../../driver.js';
import type { ShipmentOptions } from '../../types.js';
import { createFedexApiDriver } from './client.js';

// Shipment options through the FedEx api driver: each option in FedEx's published fields (the
// fake checks every request against the rates and ship resources), its charge read back, a refusal kept.
const api = useCarrierApiTest({ ...FAKE_FEDEX_SETUP, idPrefix: 'fxopt' });
const { ctx } = api;

const to = { name: 'Pat Buyer', street1: '100 Peachtree Pkwy', city: 'Alpharetta', state: 'GA', postal_code: '30005', country: 'US' };
const parcel = { weight_oz: 40, length_in: 12, width_in: 9, height_in: 4 };
const request = { ship_from: SHIP_FROM, ship_to: to, parcel, ship_date: '2026-03-02', residential: true, route: US_ROUTE };
const rate = (options: Partial<ShipmentOptions>) => withOptions(request, options);
const buy = (options: Partial<ShipmentOptions>, service_code = 'fedex_2day'): ApiPurchaseRequest => ({
  ...rate(options),
  service_code,
  reference: 'shp_01OPTIONS',
  purchased_at: '2026-03-02T15:00:00.000Z',
  label_image: 'PDF',
});
const cents = (usd: number) => Math.round(usd * 100);
const sent = (op: 'rates' | 'ship') => api.fake.lastBody(op).requestedShipment;

describe('FedEx api driver: shipment options', () => {
  it('signature and Saturday delivery: signatureOptionType DIRECT / ADULT and the SATURDAY_DELIVERY special service, priced from the surcharges', async () => {
    const driver = createFedexApiDriver(api.http);
    const plain = await driver.rates(ctx(), rate({}));
    const res = await driver.rates(ctx(), rate({ signature: 'standard', saturday_delivery: true }));
    expect(plain.ok && res.ok).toBe(true);
    if (!plain.ok || !res.ok) return;
    const shipment = sent('rates');
    expect(shipment.requestedPackageLineItems[0].packageSpecialServices).toEqual({ specialServiceTypes: ['SIGNATURE_OPTION'], signatureOptionType: 'DIRECT' });
    expect(shipment.shipmentSpecialServices).toEqual({ specialServiceTypes: ['SATURDAY_DELIVERY'] });
    const twoDay = res.value.rates.find((r) => r.service_code === 'fedex_2day')!;
    expect(twoDay.surcharges).toEqual(
      expect.arrayContaining([
        { code: 'signature', amount: { amount: cents(FAKE_FEDEX_OPTION_CHARGES.SIGNATURE_OPTION), currency: 'USD' } },
        { code: 'saturday_delivery', amount: { amount: cents(FAKE_FEDEX_OPTION_CHARGES.SATURDAY_DELIVERY), currency: 'USD' } },
      ]),
    );
    const plainTwoDay = plain.value.rates.find((r) => r.service_code === 'fedex_2day')!;
    expect(twoDay.price.amount - plainTwoDay.price.amount).toBe(
      cents(FAKE_FEDEX_OPTION_CHARGES.SIGNATURE_OPTION + FAKE_FEDEX_OPTION_CHARGES.SATURDAY_DELIVERY),
    );

    const adult = await driver.purchase(ctx(), buy({ signature: 'adult', saturday_delivery: true }));
    expect(adult.ok).toBe(true);
    const ship = sent('ship');
    expect(ship.requestedPackageLineItems[0].packageSpecialServices).toEqual({ specialServiceTypes: ['SIGNATURE_OPTION'], signatureOptionType: 'ADULT' });
    expect(ship.shipmentSpecialServices).toEqual({ specialServiceTypes: ['SATURDAY_DELIVERY'] });
    if (adult.ok)
      expect(adult.value.rate?.surcharges).toContainEqual({
        code: 'adult_signature',
        amount: { amount: cents(FAKE_FEDEX_OPTION_CHARGES.ADULT_SIGNATURE), currency: 'USD' },
      });
    expect(api.fake.violations).toEqual([]);
  });

  it('insurance: declaredValue on the package line, priced as insurance', async () => {
    const driver = createFedexApiDriver(api.http);
    const res = await driver.rates(ctx(), rate({ insurance: { amount: { amount: 25_000, currency: 'USD' } } }));
    expect(res.ok).toBe(true);
    expect(sent('rates').requestedPackageLineItems[0].declaredValue).toEqual({ amount: 250, currency: 'USD' });
    if (res.ok)
      expect(res.value.rates.find((r) => r.service_code === 'fedex_2day')!.surcharges).toContainEqual({
        code: 'insurance',
        amount: { amount: cents(FAKE_FEDEX_OPTION_CHARGES.INSURED_VALUE), currency: 'USD' },
      });
    const bought = await driver.purchase(ctx(), buy({ insurance: { amount: { amount: 25_000, currency: 'USD' } } }));
    expect(bought.ok).toBe(true);
    expect(sent('ship').requestedPackageLineItems[0].declaredValue).toEqual({ amount: 250, currency: 'USD' });
    expect(api.fake.violations).toEqual([]);
  });

  it("dangerous goods: batteryDetails in each document's own names, limited quantities under DOT, dry ice in kilograms", async () => {
    const driver = createFedexApiDriver(api.http);
    const lithium = await driver.rates(ctx(), rate({ dangerous_goods: { category: 'lithium_metal_in_equipment' } }));
    expect(lithium.ok).toBe(true);
    expect(sent('rates').requestedPackageLineItems[0].packageSpecialServices).toEqual({
      specialServiceTypes: ['DANGEROUS_GOODS'],
      dangerousGoodsDetail: { options: ['BATTERY'] },
      batteryDetails: [{ material: 'LITHIUM_METAL', packing: 'CONTAINED_IN_EQUIPMENT', regulatorySubType: 'IATA_SECTION_II' }],
    });
    if (lithium.ok)
      expect(lithium.value.rates[0].surcharges).toContainEqual({
        code: 'dangerous_goods',
        amount: { amount: cents(FAKE_FEDEX_OPTION_CHARGES.DANGEROUS_GOODS), currency: 'USD' },
      });

    expect((await driver.purchase(ctx(), buy({ dangerous_goods: { category: 'lithium_ion_with_equipment' } }))).ok).toBe(true);
    expect(sent('ship').requestedPackageLineItems[0].packageSpecialServices.batteryDetails).toEqual([
      { batteryMaterialType: 'LITHIUM_ION', batteryPackingType: 'PACKED_WITH_EQUIPMENT', batteryRegulatoryType: 'IATA_SECTION_II' },
    ]);

    expect((await driver.purchase(ctx(), buy({ dangerous_goods: { category: 'limited_quantity_ground' } }, 'fedex_ground'))).ok).toBe(true);
    expect(sent('ship').requestedPackageLineItems[0].packageSpecialServices).toEqual({
      specialServiceTypes: ['DANGEROUS_GOODS'],
      dangerousGoodsDetail: { regulation: 'DOT', options: ['LIMITED_QUANTITIES_COMMODITIES'] },
    });

    const ice = await driver.purchase(ctx(), buy({ dangerous_goods: { category: 'dry_ice', dry_ice_weight_oz: 40 } }));
    expect(ice.ok).toBe(true);
    expect(sent('ship').requestedPackageLineItems[0].packageSpecialServices).toEqual({
      specialServiceTypes: ['DRY_ICE'],
      dryIceWeight: { units: 'KG', value: 1.134 },
    });
    if (ice.ok)
      expect(ice.value.rate?.surcharges).toContainEqual({
        code: 'dangerous_goods',
        amount: { amount: cents(FAKE_FEDEX_OPTION_CHARGES.DRY_ICE), currency: 'USD' },
      });
    expect(api.fake.violations).toEqual([]);
  });

  it('references: CUSTOMER_REFERENCE and DEPARTMENT_NUMBER from the caller (30 characters by Ground); without them the shipment id', async () => {
    const driver = createFedexApiDriver(api.http);
    expect((await driver.purchase(ctx(), buy({ references: ['PO-1001', 'Dept 7'] }))).ok).toBe(true);
    expect(sent('ship').requestedPackageLineItems[0].customerReferences).toEqual([
      { customerReferenceType: 'CUSTOMER_REFERENCE', value: 'PO-1001' },
      { customerReferenceType: 'DEPARTMENT_NUMBER', value: 'Dept 7' },
    ]);
    expect((await driver.purchase(ctx(), buy({ references: ['X'.repeat(35)] }, 'fedex_ground'))).ok).toBe(true);
    expect(sent('ship').requestedPackageLineItems[0].customerReferences).toEqual([{ customerReferenceType: 'CUSTOMER_REFERENCE', value: 'X'.repeat(30) }]);
    expect((await driver.purchase(ctx(), buy({}))).ok).toBe(true);
    expect(sent('ship').requestedPackageLineItems[0].customerReferences).toEqual([{ customerReferenceType: 'CUSTOMER_REFERENCE', value: 'shp_01OPTIONS' }]);
    expect(api.fake.violations).toEqual([]);
  });

  it("FedEx refusing an option is a rejection with FedEx's message", async () => {
    api.fake.queue('ship', {
      status: 400,
      body: {
        transactionId: 't-1',
        errors: [{ code: 'SATURDAYDELIVERY.NOTALLOWED', message: 'Saturday delivery is not available for the requested service.' }],
      },
    });
    const res = await createFedexApiDriver(api.http).purchase(ctx(), buy({ saturday_delivery: true }, 'fedex_ground'));
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.kind).toBe('rejected');
      expect(res.messages).toEqual([
        expect.objectContaining({
          code: 'carrier_rejected',
          carrier_code: 'SATURDAYDELIVERY.NOTALLOWED',
          message: 'Saturday delivery is not available for the requested service.',
        }),
      ]);
    }
  });
});
