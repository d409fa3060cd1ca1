import { describe, expect, it } from 'vitest';
import { buildTokenRequest, parseTokenResponse } from './auth.js';
import { parseUpsErrors } from './errors.js';
import { parseRateResponse } from './rates.js';
import { parseShipResponse } from './shipments.js';
import { parseTrackResponse } from './tracking.js';
import { upsLabelImage } from './units.js';
import { poundsFromOz, upsPostalCode, wholeInches } from './wire.js';

// UPS's JSON turns a list of one into a bare object in places; the parsers read both.
describe('UPS parsers on the shapes UPS actually sends', () => {
  it('reads a RatedShipment that is one object, not a list', () => {
    const res = parseRateResponse({
      RateResponse: {
        Response: { ResponseStatus: { Code: '1', Description: 'Success' } },
        RatedShipment: {
          Service: { Code: '12' },
          TotalCharges: { CurrencyCode: 'USD', MonetaryValue: '30.00' },
          RatedPackage: { ItemizedCharges: { Code: '375', CurrencyCode: 'USD', MonetaryValue: '2.50' } },
        },
      },
    });
    expect(res?.rates).toHaveLength(1);
    expect(res?.rates[0]).toMatchObject({
      service_code: 'ups_3_day_select',
      price: { amount: 3000 },
      base_price: { amount: 2750 },
      transit_known: false,
      business_days: 0,
    });
    expect(res?.rates[0].surcharges).toEqual([{ code: 'fuel', amount: { amount: 250, currency: 'USD' } }]);
  });

  it('is null (not an empty success) for a body that is not a RateResponse', () => {
    expect(parseRateResponse({ hello: 1 })).toBeNull();
  });

  it('reads PackageResults that is one object, and refuses an answer without a label', () => {
    const req = { label_image: 'PNG' } as Parameters<typeof parseShipResponse>[1];
    const ok = parseShipResponse(
      {
        ShipmentResponse: {
          ShipmentResults: {
            ShipmentIdentificationNumber: '1Z1',
            PackageResults: { TrackingNumber: '1Z1', ShippingLabel: { ImageFormat: { Code: 'PNG' }, GraphicImage: Buffer.from('png').toString('base64') } },
          },
        },
      },
      req,
      '03',
    );
    expect(ok?.label).toEqual({ format: 'PNG', mime: 'image/png', bytes: Buffer.from('png') });
    expect(ok?.rate).toBeNull();
    expect(parseShipResponse({ ShipmentResponse: { ShipmentResults: { PackageResults: { TrackingNumber: '1Z1' } } } }, req, '03')).toBeNull();
  });

  it('reads one activity as an object and an Access Point hold as available_for_pickup', () => {
    const res = parseTrackResponse({
      trackResponse: {
        shipment: [
          {
            package: [
              {
                accessPointInformation: { pickupByDate: '20260310' },
                activity: {
                  status: { type: 'I', code: 'ZP', description: 'Delivered to UPS Access Point' },
                  date: '20260303',
                  time: '120000',
                  gmtOffset: '-05:00',
                },
              },
            ],
          },
        ],
      },
    });
    expect(res?.ok && res.value.status).toBe('available_for_pickup');
    expect(res?.ok && res.value.events[0].occurred_at).toBe('2026-03-03T17:00:00.000Z');
  });

  it('rounds weights and sizes the way UPS bills them', () => {
    expect(poundsFromOz(40)).toBe('2.5');
    expect(poundsFromOz(41)).toBe('2.6');
    expect(poundsFromOz(1)).toBe('0.1');
    expect(wholeInches(9.01)).toBe('10');
    expect(wholeInches(12)).toBe('12');
    expect(upsPostalCode('30005-1234')).toBe('300051234');
  });

  it('maps our label formats to UPS images (PDF formats get GIF, placed on a PDF page by the platform)', () => {
    expect(['pdf_4x6', 'pdf_letter', 'png_4x6', 'zpl_4x6'].map(upsLabelImage)).toEqual(['GIF', 'GIF', 'PNG', 'ZPL']);
  });

  it('tells refused credentials from refused requests', () => {
    expect(parseUpsErrors(401, null)).toMatchObject({ credentialsRefused: true, messages: [{ code: 'carrier_account_invalid', carrier_code: '401' }] });
    expect(parseUpsErrors(400, { response: { errors: [{ code: '250003', message: 'Invalid Access License number' }] } }).credentialsRefused).toBe(true);
    expect(parseUpsErrors(400, { response: { errors: [{ code: '111285', message: 'bad zip' }] } })).toEqual({
      credentialsRefused: false,
      messages: [{ code: 'carrier_rejected', carrier_code: '111285', message: 'bad zip', field: 'ship_to.postal_code' }],
    });
  });

  it('builds the token request with basic auth and the merchant id; reads expires_in as seconds', () => {
    const r = buildTokenRequest({ client_id: 'id', client_secret: 'sec' }, 'A1B2C3');
    expect(r).toEqual({
      headers: { authorization: `Basic ${Buffer.from('id:sec').toString('base64')}`, 'x-merchant-id': 'A1B2C3' },
      form: { grant_type: 'client_credentials' },
    });
    expect(parseTokenResponse({ access_token: 't', expires_in: '14399' })).toEqual({ accessToken: 't', expiresInS: 14399 });
    expect(parseTokenResponse({ token_type: 'Bearer' })).toBeNull();
  });
});
