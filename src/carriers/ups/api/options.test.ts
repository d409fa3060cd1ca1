import { describe, expect, it } from 'vitest';
import { SHIP_FROM, US_ROUTE, useCarrierApiTest, withOptions } from '../../../../test/helpers/carrier-api.js';
import { FAKE_UPS_OPTION_CHARGES, FAKE_UPS_SETUP } from '../../../../test/helpers/fake-ups.js';
import type { ApiPurchaseRequest } from '../../driver.js';
import type { ShipmentOptions } from '../../types.js';
import { createUpsApiDriver } from './client.js';

// Shipment options through the UPS api driver: each option in UPS's published fields (the fake
// checks every request against Rating.yaml / Shipping.yaml), its charge read back, a refusal kept.
const api = useCarrierApiTest({ ...FAKE_UPS_SETUP, idPrefix: 'opt' });
const { ctx } = api;

const to = { name: 'Pat Buyer', street1: '100 Peachtree Pkwy', city: 'Alpharetta', state: 'GA', postal_code: '30005', country: 'US' };
const parcel = { weight_oz: 40, length_in: 12, width_in: 9, height_in: 4 };
const request = { ship_from: SHIP_FROM, ship_to: to, parcel, ship_date: '2026-03-02', residential: true, route: US_ROUTE };
const rate = (options: Partial<ShipmentOptions>) => withOptions(request, options);
const buy = (options: Partial<ShipmentOptions>, service_code = 'ups_2nd_day_air'): ApiPurchaseRequest => ({
  ...rate(options),
  service_code,
  reference: 'shp_01OPTIONS',
  purchased_at: '2026-03-02T15:00:00.000Z',
  label_image: 'GIF',
});
const sent = (op: 'rates' | 'ship') => api.fake.lastBody(op);

describe('UPS api driver: shipment options', () => {
  it('signature, adult signature and Saturday delivery: DeliveryConfirmation.DCISType and SaturdayDeliveryIndicator, priced from the itemised charges', async () => {
    const driver = createUpsApiDriver(api.http);
    const plain = await driver.rates(ctx(), rate({}));
    const signed = await driver.rates(ctx(), rate({ signature: 'standard', saturday_delivery: true }));
    expect(plain.ok && signed.ok).toBe(true);
    if (!plain.ok || !signed.ok) return;
    const shipment = sent('rates').RateRequest.Shipment;
    expect(shipment.Package[0].PackageServiceOptions).toEqual({ DeliveryConfirmation: { DCISType: '2' } });
    expect(shipment.ShipmentServiceOptions).toEqual({ SaturdayDeliveryIndicator: '' });
    const air = signed.value.rates.find((r) => r.service_code === 'ups_2nd_day_air')!;
    expect(air.surcharges).toEqual(
      expect.arrayContaining([
        { code: 'signature', amount: { amount: FAKE_UPS_OPTION_CHARGES.signature, currency: 'USD' } },
        { code: 'saturday_delivery', amount: { amount: FAKE_UPS_OPTION_CHARGES.saturday_delivery, currency: 'USD' } },
      ]),
    );
    const plainAir = plain.value.rates.find((r) => r.service_code === 'ups_2nd_day_air')!;
    expect(air.price.amount - plainAir.price.amount).toBe(FAKE_UPS_OPTION_CHARGES.signature + FAKE_UPS_OPTION_CHARGES.saturday_delivery);

    const adult = await driver.purchase(ctx(), buy({ signature: 'adult', saturday_delivery: true }));
    expect(adult.ok).toBe(true);
    const ship = sent('ship').ShipmentRequest.Shipment;
    expect(ship.Package[0].PackageServiceOptions).toEqual({ DeliveryConfirmation: { DCISType: '3' } });
    expect(ship.ShipmentServiceOptions).toEqual({ SaturdayDeliveryIndicator: '' });
    if (adult.ok)
      expect(adult.value.rate?.surcharges).toEqual(
        expect.arrayContaining([{ code: 'adult_signature', amount: { amount: FAKE_UPS_OPTION_CHARGES.adult_signature, currency: 'USD' } }]),
      );
    expect(api.fake.violations).toEqual([]);
  });

  it('insurance: DeclaredValue (Rating: eight characters; Shipping: type 01 EVS), charged inside the total, not itemised', async () => {
    const driver = createUpsApiDriver(api.http);
    const res = await driver.rates(ctx(), rate({ insurance: { amount: { amount: 25_000, currency: 'USD' } } }));
    expect(res.ok).toBe(true);
    expect(sent('rates').RateRequest.Shipment.Package[0].PackageServiceOptions).toEqual({ DeclaredValue: { CurrencyCode: 'USD', MonetaryValue: '00250.00' } });
    if (res.ok) expect(res.value.rates[0].surcharges.some((s) => s.code === 'insurance')).toBe(false);
    const bought = await driver.purchase(ctx(), buy({ insurance: { amount: { amount: 25_000, currency: 'USD' } } }));
    expect(bought.ok).toBe(true);
    expect(sent('ship').ShipmentRequest.Shipment.Package[0].PackageServiceOptions).toEqual({
      DeclaredValue: { Type: { Code: '01' }, CurrencyCode: 'USD', MonetaryValue: '250.00' },
    });
    expect(api.fake.violations).toEqual([]);
  });

  it('dangerous goods: HazMat records (lithium LR, limited quantity LQ by ground) and DryIce in pounds, priced as dangerous_goods', async () => {
    const driver = createUpsApiDriver(api.http);
    const lithium = await driver.rates(ctx(), rate({ dangerous_goods: { category: 'lithium_ion_in_equipment' } }));
    expect(lithium.ok).toBe(true);
    expect(sent('rates').RateRequest.Shipment.Package[0].PackageServiceOptions.HazMat.HazMatChemicalRecord).toEqual([
      {
        ChemicalRecordIdentifier: '1',
        CommodityRegulatedLevelCode: 'LR',
        ClassDivisionNumber: '9',
        IDNumber: 'UN3481',
        TransportationMode: '02',
        RegulationSet: 'CFR',
        ProperShippingName: 'Lithium ion batteries contained in equipment',
      },
    ]);
    if (lithium.ok)
      expect(lithium.value.rates[0].surcharges).toContainEqual({
        code: 'dangerous_goods',
        amount: { amount: FAKE_UPS_OPTION_CHARGES.hazmat, currency: 'USD' },
      });

    const ground = await driver.purchase(ctx(), buy({ dangerous_goods: { category: 'limited_quantity_ground' } }, 'ups_ground'));
    expect(ground.ok).toBe(true);
    expect(sent('ship').ShipmentRequest.Shipment.Package[0].PackageServiceOptions.HazMat).toEqual([
      {
        ChemicalRecordIdentifier: '1',
        CommodityRegulatedLevelCode: 'LQ',
        ClassDivisionNumber: '9',
        IDNumber: 'ID8000',
        TransportationMode: 'Ground',
        RegulationSet: 'CFR',
        ProperShippingName: 'Consumer commodity',
      },
    ]);

    const ice = await driver.purchase(ctx(), buy({ dangerous_goods: { category: 'dry_ice', dry_ice_weight_oz: 40 } }));
    expect(ice.ok).toBe(true);
    // By air: IATA rules.
    expect(sent('ship').ShipmentRequest.Shipment.Package[0].PackageServiceOptions).toEqual({
      DryIce: { RegulationSet: 'IATA', DryIceWeight: { UnitOfMeasurement: { Code: '01', Description: 'LBS' }, Weight: '2.5' } },
    });
    if (ice.ok)
      expect(ice.value.rate?.surcharges).toContainEqual({ code: 'dangerous_goods', amount: { amount: FAKE_UPS_OPTION_CHARGES.dry_ice, currency: 'USD' } });
    expect(api.fake.violations).toEqual([]);
  });

  it("references: the caller's first on each package (UPS prints the first two), then the shipment id", async () => {
    const res = await createUpsApiDriver(api.http).purchase(ctx(), buy({ references: ['PO-1001', 'Dept 7'] }));
    expect(res.ok).toBe(true);
    expect(sent('ship').ShipmentRequest.Shipment.Package[0].ReferenceNumber).toEqual([{ Value: 'PO-1001' }, { Value: 'Dept 7' }, { Value: 'shp_01OPTIONS' }]);
    expect(api.fake.violations).toEqual([]);
  });

  it("UPS refusing an option is a rejection with UPS's message", async () => {
    api.fake.queue('ship', {
      status: 400,
      body: { response: { errors: [{ code: '120202', message: 'Saturday Delivery is not available for the requested service.' }] } },
    });
    const res = await createUpsApiDriver(api.http).purchase(ctx(), buy({ saturday_delivery: true }, 'ups_ground'));
    expect(res).toEqual({
      ok: false,
      kind: 'rejected',
      messages: [{ code: 'carrier_rejected', carrier_code: '120202', message: 'Saturday Delivery is not available for the requested service.' }],
    });
  });
});
