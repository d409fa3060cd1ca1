import { describe, expect, it } from 'vitest';
import type { ApiPurchaseRequest } from '../../driver.js';
import { parseAddressValidateResponse } from './addresses.js';
import { basicAuthorization, dhlHost } from './credentials.js';
import { parseDhlErrors } from './errors.js';
import { parseRateResponse } from './rates.js';
import { parseShipmentResponse } from './shipments.js';
import { parseTrackResponse } from './tracking.js';
import { dhlLabelImage } from './units.js';
import { dhlDateTime, hhColonMm, ozFrom, plannedShippingTime, poundsFromOz } from './wire.js';

// Shapes DHL may send that the fake's happy fixtures do not exercise.
describe('MyDHL parsers on the shapes DHL sends', () => {
  it('prices a product that carries only a public price, and leaves out a breakdown in another currency', () => {
    const res = parseRateResponse({
      products: [
        {
          productCode: 'N',
          productName: 'EXPRESS DOMESTIC',
          weight: { provided: 1.5, unitOfMeasurement: 'metric' },
          totalPrice: [{ currencyType: 'PULCL', priceCurrency: 'eur', price: 21.4 }],
          detailedPriceBreakdown: [{ currencyType: 'BASEC', priceCurrency: 'USD', breakdown: [{ name: 'FUEL SURCHARGE', serviceCode: 'FF', price: 5 }] }],
        },
      ],
    });
    expect(res?.rates[0]).toMatchObject({
      service_code: 'dhl_express_domestic',
      price: { amount: 2140, currency: 'EUR' },
      list_price: { amount: 2140, currency: 'EUR' },
      negotiated: false,
      surcharges: [],
      base_price: { amount: 2140 },
      billable_weight_oz: 53,
      dim_weight_oz: null,
      transit_known: false,
      business_days: 0,
      estimated_delivery_date: null,
      guaranteed: false,
    });
  });

  it('is null (not an empty success) for a body that is not a rates answer; skips a product without a price', () => {
    expect(parseRateResponse({ hello: 1 })).toBeNull();
    expect(parseRateResponse({ products: [{ productCode: 'P', totalPrice: [] }] })).toEqual({ rates: [], unavailable: [] });
  });

  const req = { label_image: 'PDF' } as ApiPurchaseRequest;
  const pdf = Buffer.from('%PDF-1.4 one').toString('base64');

  it('shares one label document across packages when DHL sends one for the shipment; pairs them in order otherwise', () => {
    const shared = parseShipmentResponse(
      {
        shipmentTrackingNumber: '1100000001',
        packages: [{ trackingNumber: 'JD1' }, { trackingNumber: 'JD2' }],
        documents: [
          { typeCode: 'label', imageFormat: 'PDF', content: pdf },
          { typeCode: 'invoice', imageFormat: 'PDF', content: pdf },
        ],
      },
      req,
      'P',
    );
    expect(shared?.packages.map((p) => p.label.bytes.toString())).toEqual(['%PDF-1.4 one', '%PDF-1.4 one']);
    expect(shared?.rate).toBeNull();
    const ordered = parseShipmentResponse(
      {
        shipmentTrackingNumber: '1100000002',
        packages: [{ trackingNumber: 'JD1' }, { trackingNumber: 'JD2' }],
        documents: [
          { typeCode: 'label', imageFormat: 'PDF', content: Buffer.from('a').toString('base64') },
          { typeCode: 'label', imageFormat: 'PDF', content: Buffer.from('b').toString('base64') },
        ],
      },
      req,
      'P',
    );
    expect(ordered?.packages.map((p) => p.label.bytes.toString())).toEqual(['a', 'b']);
    // Three packages, two unlinked labels: no way to pair them, so nothing usable.
    expect(
      parseShipmentResponse(
        {
          shipmentTrackingNumber: '1',
          packages: [{ trackingNumber: 'a' }, { trackingNumber: 'b' }, { trackingNumber: 'c' }],
          documents: [
            { typeCode: 'label', content: pdf },
            { typeCode: 'label', content: pdf },
          ],
        },
        req,
        'P',
      ),
    ).toBeNull();
  });

  it('keeps a pickup DHL booked with the shipment', () => {
    const res = parseShipmentResponse(
      {
        shipmentTrackingNumber: '1100000003',
        dispatchConfirmationNumber: 'PRG1',
        packages: [{ trackingNumber: 'JD1' }],
        documents: [{ typeCode: 'label', imageFormat: 'ZPL', content: pdf }],
      },
      req,
      'P',
    );
    expect(res).toMatchObject({ pickup_confirmation: 'PRG1', label: { format: 'ZPL', mime: 'application/x-zpl' } });
  });

  it('tracks a shipment DHL knows but has not scanned as pre_transit; reads offsets in several spellings', () => {
    expect(parseTrackResponse({ shipments: [{ shipmentTrackingNumber: '1', status: 'Success', events: [] }] })).toMatchObject({
      status: 'pre_transit',
      status_detail: 'label_created',
      events: [],
      delivered_at: null,
      carrier_status_code: null,
    });
    const res = parseTrackResponse({
      shipments: [
        {
          events: [
            { date: '2026-03-02', time: '10:00:00', GMTOffset: '+0800', typeCode: 'PU', serviceArea: [{ description: 'SINGAPORE-SG' }] },
            { date: '2026-03-02', time: '09:00:00', GMTOffset: 'GMT-05:00', typeCode: 'AF' },
            { date: '2026-03-03', time: '08:00', typeCode: 'CC' },
            { date: 'yesterday', typeCode: 'OK' },
          ],
        },
      ],
    });
    expect(res?.events.map((e) => [e.carrier_status_code, e.occurred_at])).toEqual([
      ['PU', '2026-03-02T02:00:00.000Z'],
      ['AF', '2026-03-02T14:00:00.000Z'],
      ['CC', '2026-03-03T08:00:00.000Z'],
    ]);
    expect(res?.status).toBe('available_for_pickup');
    expect(parseTrackResponse({ nothing: true })).toBeNull();
  });

  it('reads several service areas as unverified', () => {
    const res = parseAddressValidateResponse(
      {
        address: [
          { countryCode: 'GB', postalCode: 'SW1A 1AA', cityName: 'LONDON' },
          { countryCode: 'GB', postalCode: 'SW1A 2AA', cityName: 'LONDON' },
        ],
      },
      { postal_code: 'SW1A1AB', city: 'Westminster', country: 'GB' },
    );
    expect(res).toMatchObject({
      status: 'unverified',
      candidates: [{ postal_code: 'SW1A 1AA' }, { postal_code: 'SW1A 2AA' }],
      messages: [{ code: 'address_ambiguous' }, { code: 'street_not_checked' }],
    });
    expect(parseAddressValidateResponse({ unrelated: 1 }, { postal_code: '1', country: 'GB' })).toBeNull();
  });

  it('tells refused credentials from refused requests, and reads the code DHL puts before its detail', () => {
    expect(parseDhlErrors(401, null)).toEqual({
      credentialsRefused: true,
      messages: [{ code: 'carrier_account_invalid', carrier_code: '401', message: 'DHL Express refused the credentials' }],
    });
    expect(parseDhlErrors(403, { title: 'Forbidden' }).messages[0]).toMatchObject({ code: 'carrier_account_invalid', message: 'Forbidden' });
    expect(
      parseDhlErrors(400, {
        detail: '7008: The requested Special Service Code is not available',
        additionalDetails: ['1001: The requested product(s) (P) not available based on your search criteria.'],
      }),
    ).toEqual({
      credentialsRefused: false,
      messages: [
        { code: 'carrier_rejected', carrier_code: '7008', message: 'The requested Special Service Code is not available' },
        {
          code: 'carrier_rejected',
          carrier_code: '1001',
          message: 'The requested product(s) (P) not available based on your search criteria.',
          field: 'service_code',
        },
      ],
    });
    expect(
      parseDhlErrors(422, { detail: '#/customerDetails/receiverDetails/postalAddress/cityName: expected minLength: 1, actual: 0' }).messages[0].field,
    ).toBe('ship_to.city');
    expect(parseDhlErrors(400, { detail: 'The account number is not found or invalid. Please check the account number and retry.' }).messages[0].field).toBe(
      'account_number',
    );
  });

  it("converts our units to DHL's and its date-time text", () => {
    expect(poundsFromOz(40)).toBe(2.5);
    expect(poundsFromOz(201)).toBe(12.563);
    expect(poundsFromOz(0)).toBe(0.001);
    expect(ozFrom(1, 'metric')).toBe(35);
    expect(ozFrom(3, 'imperial')).toBe(48);
    expect(dhlDateTime('2026-03-02')).toBe('2026-03-02T12:00:00 GMT+00:00');
    expect(dhlDateTime('2026-03-02', '930')).toBe('2026-03-02T09:30:00 GMT+00:00');
    expect(hhColonMm('1700')).toBe('17:00');
    // Today: never a time already past.
    expect(plannedShippingTime('2026-03-02', new Date('2026-03-02T08:00:00Z'))).toBe('2026-03-02T12:00:00 GMT+00:00');
    expect(plannedShippingTime('2026-03-02', new Date('2026-03-02T15:31:00Z'))).toBe('2026-03-02T15:41:00 GMT+00:00');
    expect(plannedShippingTime('2026-03-02', new Date('2026-03-02T23:58:00Z'))).toBe('2026-03-02T23:59:00 GMT+00:00');
    expect(plannedShippingTime('2026-03-03', new Date('2026-03-02T23:58:00Z'))).toBe('2026-03-03T12:00:00 GMT+00:00');
    expect(['pdf_4x6', 'pdf_letter', 'png_4x6', 'zpl_4x6'].map(dhlLabelImage)).toEqual(['PDF', 'PDF', 'PDF', 'ZPL']);
  });

  it('builds basic auth from key and secret; a base_url replaces the whole server URL', () => {
    expect(basicAuthorization({ api_key: 'k', api_secret: 's' })).toBe(`Basic ${Buffer.from('k:s').toString('base64')}`);
    expect(dhlHost('production')).toBe('https://express.api.dhl.com/mydhlapi');
    expect(dhlHost('sandbox', 'http://proxy.internal/mydhlapi/test/')).toBe('http://proxy.internal/mydhlapi/test');
  });
});
