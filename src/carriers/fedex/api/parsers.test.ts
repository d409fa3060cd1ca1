import { describe, expect, it } from 'vitest';
import { parseResolveResponse, verdictForRejection } from './addresses.js';
import { buildTokenRequest, parseTokenResponse } from './auth.js';
import { parseFedexErrors } from './errors.js';
import { confirmationOf, parseConfirmation } from './pickups.js';
import { parseRateResponse, weekdaysBetween } from './rates.js';
import { parseShipResponse } from './shipments.js';
import { parseTrackResponse } from './tracking.js';
import { fedexCarrierCode, fedexImageSpec, fedexLabelImage, fedexServiceType, mapFedexStatus, ourServiceCode, transitDays } from './units.js';
import { ozFromWeight, poundsFromOz, wholeInches } from './wire.js';

describe('FedEx units', () => {
  it('maps service types both ways, keeps an unknown one as fedex_<raw> and reads the old International Priority name', () => {
    expect(ourServiceCode('FEDEX_GROUND')).toBe('fedex_ground');
    expect(ourServiceCode('GROUND_HOME_DELIVERY')).toBe('fedex_home_delivery');
    expect(fedexServiceType('fedex_2day')).toBe('FEDEX_2_DAY');
    expect(ourServiceCode('FIRST_OVERNIGHT')).toBe('fedex_first_overnight');
    expect(fedexServiceType('fedex_first_overnight')).toBe('FIRST_OVERNIGHT');
    expect(ourServiceCode('INTERNATIONAL_PRIORITY')).toBe('fedex_international_priority');
    expect(fedexServiceType('fedex_international_priority')).toBe('FEDEX_INTERNATIONAL_PRIORITY');
    expect(fedexServiceType('ups_ground')).toBeNull();
    expect(fedexServiceType('fedex_no such service')).toBeNull();
    expect([fedexCarrierCode('FEDEX_GROUND'), fedexCarrierCode('GROUND_HOME_DELIVERY'), fedexCarrierCode('FEDEX_2_DAY')]).toEqual(['FDXG', 'FDXG', 'FDXE']);
  });

  it('reads transit words and maps statuses by derived code first, unmapped → unknown', () => {
    expect([
      transitDays('ONE_DAY'),
      transitDays('THREE_DAYS'),
      transitDays('TWENTY_DAYS'),
      transitDays('UNKNOWN'),
      transitDays('SMARTPOST_TRANSIT_DAYS'),
    ]).toEqual([1, 3, 20, null, null]);
    expect(mapFedexStatus('IT', 'DP')).toMatchObject({ status: 'in_transit', detail: 'in_transit' });
    expect(mapFedexStatus(null, 'OD').status).toBe('out_for_delivery');
    expect(mapFedexStatus('HL', null).status).toBe('available_for_pickup');
    expect(mapFedexStatus('ZZ', 'RM')).toEqual({ status: 'unknown', detail: 'unknown', milestone: 'in_transit' });
  });

  it('asks FedEx for PDF, PNG or ZPLII on 4x6 stock (no GIF at FedEx: PNG, converted by the platform)', () => {
    expect(['pdf_4x6', 'pdf_letter', 'png_4x6', 'zpl_4x6', 'gif_4x6'].map(fedexLabelImage)).toEqual(['PDF', 'PDF', 'PNG', 'ZPL', 'PNG']);
    expect(fedexImageSpec('ZPL')).toEqual({ imageType: 'ZPLII', labelStockType: 'STOCK_4X6' });
    expect(fedexImageSpec('PDF')).toEqual({ imageType: 'PDF', labelStockType: 'PAPER_4X6' });
  });

  it('rounds weights and sizes the way FedEx takes them', () => {
    expect([poundsFromOz(40), poundsFromOz(41), poundsFromOz(1)]).toEqual([2.5, 2.6, 0.1]);
    expect([wholeInches(9.01), wholeInches(12)]).toEqual([10, 12]);
    expect(ozFromWeight({ units: 'LB', value: 3 })).toBe(48);
    expect(ozFromWeight({ units: 'KG', value: 1 })).toBe(35);
    expect(ozFromWeight({ units: 'LB' })).toBeNull();
  });
});

describe('FedEx parsers on the shapes FedEx sends', () => {
  it('tells refused credentials from refused requests and points codes at our fields', () => {
    expect(parseFedexErrors(401, null)).toMatchObject({ credentialsRefused: true, messages: [{ code: 'carrier_account_invalid', carrier_code: '401' }] });
    expect(
      parseFedexErrors(400, { errors: [{ code: 'ACCOUNTNUMBER.REGISTRATION.REQUIRED', message: 'Please enter a valid 9-digit FedEx account number' }] }),
    ).toMatchObject({
      credentialsRefused: true,
      messages: [{ field: 'account_number' }],
    });
    expect(
      parseFedexErrors(400, {
        transactionId: 't',
        errors: [
          { code: 'SHIPPER.POSTALSTATE.MISMATCH', message: 'bad zip' },
          { code: 'SERVICE.UNAVAILABLE.ERROR', message: 'down' },
        ],
      }),
    ).toEqual({
      credentialsRefused: false,
      messages: [
        { code: 'carrier_rejected', carrier_code: 'SHIPPER.POSTALSTATE.MISMATCH', message: 'bad zip', field: 'ship_from.postal_code' },
        { code: 'carrier_rejected', carrier_code: 'SERVICE.UNAVAILABLE.ERROR', message: 'down' },
      ],
    });
  });

  it('builds the token form from the API and secret keys; reads expires_in as seconds', () => {
    expect(buildTokenRequest({ api_key: 'k', secret_key: 's' })).toEqual({ grant_type: 'client_credentials', client_id: 'k', client_secret: 's' });
    expect(parseTokenResponse({ access_token: 't', token_type: 'bearer', expires_in: 3599 })).toEqual({ accessToken: 't', expiresInS: 3599 });
    expect(parseTokenResponse({ token_type: 'bearer' })).toBeNull();
  });

  it('is null (not an empty success) for a body that is not a rate answer; an ACCOUNT-only reply is its own list price', () => {
    expect(parseRateResponse({ output: {} }, '2026-03-02')).toBeNull();
    const res = parseRateResponse(
      {
        output: {
          rateReplyDetails: [
            { serviceType: 'FEDEX_EXPRESS_SAVER', ratedShipmentDetails: [{ rateType: 'ACCOUNT', totalNetCharge: 20.5, currency: 'USD' }] },
            { serviceType: 'FEDEX_GROUND', ratedShipmentDetails: [] },
          ],
        },
      },
      '2026-03-02',
    );
    expect(res?.rates).toHaveLength(1);
    expect(res?.rates[0]).toMatchObject({
      service_code: 'fedex_express_saver',
      price: { amount: 2050 },
      list_price: { amount: 2050 },
      negotiated: true,
      transit_known: false,
      business_days: 0,
    });
  });

  it('counts weekdays from the ship date to a commit date over a weekend', () => {
    expect(weekdaysBetween('2026-03-06', '2026-03-09')).toBe(1); // Friday → Monday
    expect(weekdaysBetween('2026-03-02', '2026-03-02')).toBe(0);
    expect(weekdaysBetween('2026-03-09', '2026-03-06')).toBeNull();
  });

  it('refuses a ship answer whose piece has no label', () => {
    const req = { label_image: 'PDF', ship_date: '2026-03-02' } as Parameters<typeof parseShipResponse>[1];
    const ok = parseShipResponse(
      {
        output: {
          transactionShipments: [
            {
              pieceResponses: [
                {
                  trackingNumber: '794953535000',
                  packageDocuments: [{ contentType: 'LABEL', docType: 'PDF', encodedLabel: Buffer.from('%PDF').toString('base64') }],
                },
              ],
            },
          ],
        },
      },
      req,
      'FEDEX_GROUND',
    );
    expect(ok).toMatchObject({
      tracking_number: '794953535000',
      carrier_shipment_id: '794953535000',
      rate: null,
      label: { format: 'PDF', mime: 'application/pdf', bytes: Buffer.from('%PDF') },
    });
    expect(parseShipResponse({ output: { transactionShipments: [{ pieceResponses: [{ trackingNumber: '794953535000' }] }] } }, req, 'FEDEX_GROUND')).toBeNull();
  });

  it('reads a hold at a FedEx location without scans, and a time without an offset as UTC', () => {
    const res = parseTrackResponse({
      output: {
        completeTrackResults: [
          {
            trackResults: [
              {
                latestStatusDetail: { code: 'HL', description: 'Ready for pickup' },
                scanEvents: [{ date: '2026-03-04T10:00:00', eventType: 'HP', eventDescription: 'Ready for recipient pickup' }],
              },
            ],
          },
        ],
      },
    });
    expect(res?.ok && res.value).toMatchObject({ status: 'available_for_pickup', delivered_at: null, carrier_status_code: 'HL' });
    expect(res?.ok && res.value.events[0].occurred_at).toBe('2026-03-04T10:00:00.000Z');
    expect(parseTrackResponse({ hello: 1 })).toBeNull();
  });

  it('reads address attributes given as strings: not resolved → invalid, no delivery point → unverified', () => {
    const original = { street1: '1 Nowhere Ln', city: 'Memphis', state: 'TN', postal_code: '38017', country: 'US' };
    const at = (attributes: Record<string, unknown>) => ({
      output: {
        resolvedAddresses: [
          { streetLinesToken: ['1 NOWHERE LN'], city: 'MEMPHIS', stateOrProvinceCode: 'TN', countryCode: 'US', classification: 'UNKNOWN', attributes },
        ],
      },
    });
    expect(parseResolveResponse(at({ Resolved: 'false' }), original)).toMatchObject({ status: 'invalid', normalized: null });
    expect(parseResolveResponse(at({ Resolved: 'true', DPV: 'false' }), original)).toMatchObject({ status: 'unverified', residential: 'unknown' });
    expect(parseResolveResponse(at({ Resolved: 'true', DPV: 'true', Matched: 'true' }), original)).toMatchObject({ status: 'verified', messages: [] });
    expect(parseResolveResponse({ output: { resolvedAddresses: [] } }, original)?.status).toBe('invalid');
    expect(verdictForRejection([{ code: 'carrier_rejected', carrier_code: 'STANDARDIZED.ADDRESS.NOTFOUND', message: 'x' }])?.status).toBe('invalid');
    expect(verdictForRejection([{ code: 'carrier_rejected', carrier_code: 'OTHER', message: 'x' }])).toBeNull();
  });

  it('round-trips the pickup confirmation it hands out', () => {
    expect(parseConfirmation(confirmationOf('NQAA97', '2026-03-03', 'FDXE', 'TIMA'))).toEqual({
      code: 'NQAA97',
      date: '2026-03-03',
      carrier: 'FDXE',
      location: 'TIMA',
    });
    expect(parseConfirmation(confirmationOf('3001', '2026-03-03', 'FDXG', null))).toEqual({
      code: '3001',
      date: '2026-03-03',
      carrier: 'FDXG',
      location: null,
    });
    expect(parseConfirmation('3001~yesterday~FDXG')).toBeNull();
  });
});
