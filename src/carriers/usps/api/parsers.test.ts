import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { USPS_SPEC_DIR } from '../../../../test/helpers/usps-spec.js';
import type { ApiPurchaseRequest } from '../../driver.js';
import { parseAddressResponse } from './addresses.js';
import { parseTokenResponse } from './auth.js';
import { uspsCredentialsSchema } from './credentials.js';
import { fieldOf, parseUspsErrors } from './errors.js';
import { buildInternationalLabelRequest, countryName } from './international-labels.js';
import { parseLabelResponse, readLabelParts } from './labels.js';
import { boundaryOf, decodeBase64, parseMultipart } from './multipart.js';
import { buildPickupRequest } from './pickups.js';
import { buildRateRequest, mailClassesFor } from './rates.js';
import { parseTrackResponse } from './tracking.js';
import { mapUspsEvent, ourServiceCode, packageCharacteristics, surchargeOfFee, uspsLabelImage, uspsMailClass, uspsServiceName } from './units.js';
import { phone, pounds, splitName, zipParts } from './wire.js';

const archived = (name: string) => resolve(USPS_SPEC_DIR, 'archived', name);

describe('multipart label answers', () => {
  it('reads the boundary from the Content-Type, quoted or not', () => {
    expect(boundaryOf('multipart/form-data; boundary=abc123')).toBe('abc123');
    expect(boundaryOf('multipart/form-data; boundary="a b;c"; charset=utf-8')).toBe('a b;c');
    expect(boundaryOf('application/json')).toBeNull();
  });

  it('splits named parts with CRLF line ends and keeps the base64 image as text', () => {
    const body = [
      '--XYZ',
      'Content-Disposition: form-data; name="labelMetadata"',
      'Content-Type: application/json',
      '',
      '{"trackingNumber":"9200190999999999999999","postage":7.99}',
      '--XYZ',
      'Content-Type: application/pdf',
      'Content-Disposition: form-data; filename="labelImage.pdf"; name="labelImage"',
      '',
      'JVBERi0x',
      'LjQK',
      '--XYZ--',
      '',
    ].join('\r\n');
    const parts = parseMultipart(body, 'multipart/form-data; boundary=XYZ')!;
    expect(parts.map((p) => [p.name, p.contentType, p.filename])).toEqual([
      ['labelMetadata', 'application/json', null],
      ['labelImage', 'application/pdf', 'labelImage.pdf'],
    ]);
    expect(decodeBase64(parts[1].body)!.toString('latin1')).toBe('%PDF-1.4\n');
    const label = readLabelParts(body, 'multipart/form-data; boundary=XYZ', 'PNG')!;
    expect(label.metadata.trackingNumber).toBe('9200190999999999999999');
    // The part's own type wins over what was asked for.
    expect(label.label).toMatchObject({ format: 'PDF', mime: 'application/pdf' });
  });

  it('without a boundary in the header, the first delimiter line is the boundary; unnamed parts go by order and type', () => {
    const body =
      '--B1\nContent-type: application/json\n\n{"trackingNumber":"92"}\n--B1\nFile Name: label.zpl\nContent-Type: application/octet-stream\n\nXlhBXlha\n--B1--\n';
    const label = readLabelParts(body, undefined, 'ZPL')!;
    expect(label.metadata.trackingNumber).toBe('92');
    expect(label.label.format).toBe('ZPL');
    expect(label.label.bytes.toString()).toBe('^XA^XZ');
  });

  it('refuses what is not a multipart label: no delimiter, no image, an image that is not base64', () => {
    expect(parseMultipart('{"trackingNumber":"92"}')).toBeNull();
    expect(readLabelParts('--B\nContent-Type: application/json\n\n{"a":1}\n--B--\n', undefined, 'PDF')).toBeNull();
    expect(
      readLabelParts('--B\nContent-Type: application/json\n\n{"a":1}\n--B\nContent-Type: application/pdf\n\n%%% not base64 %%%\n--B--\n', undefined, 'PDF'),
    ).toBeNull();
    expect(decodeBase64('')).toBeNull();
  });

  it.runIf(existsSync(archived('domesticlabel-v3-response.json')))(
    "reads USPS's own published label answer (2023 example: no Content-Disposition, `File Name:`, a gzip header to ignore)",
    () => {
      const body = readFileSync(archived('domesticlabel-v3-response.json'), 'utf8');
      const req = { label_image: 'PDF', reference: 'shp_1' } as ApiPurchaseRequest;
      const parsed = parseLabelResponse(body, undefined, req, 'PRIORITY_MAIL')!;
      expect(parsed.tracking_number).toBe('9205590109769900012613');
      expect(parsed.label.format).toBe('PDF');
      expect(parsed.label.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(parsed.rate).toMatchObject({
        service_code: 'usps_priority_mail',
        price: { amount: 764 },
        zone: 1,
        business_days: 1,
        estimated_delivery_date: '2023-05-27',
      });
    },
  );
});

describe('units', () => {
  it('maps mail classes both ways with one table, keeping an unknown class as usps_<raw>', () => {
    expect(ourServiceCode('USPS_GROUND_ADVANTAGE')).toBe('usps_ground_advantage');
    expect(uspsMailClass('usps_priority_mail_express')).toBe('PRIORITY_MAIL_EXPRESS');
    expect(ourServiceCode('FIRST-CLASS_PACKAGE_SERVICE')).toBe('usps_first-class_package_service');
    expect(uspsMailClass('usps_first-class_package_service')).toBe('FIRST-CLASS_PACKAGE_SERVICE');
    expect(uspsMailClass('usps_media mail')).toBeNull();
    expect(uspsMailClass('ups_ground')).toBeNull();
    expect(uspsServiceName('MEDIA_MAIL')).toBe('Media Mail');
    expect(uspsServiceName('USPS_CONNECT_LOCAL', 'Connect Local')).toBe('Connect Local');
    expect(mailClassesFor(undefined)).toEqual(['USPS_GROUND_ADVANTAGE', 'PRIORITY_MAIL', 'PRIORITY_MAIL_EXPRESS']);
    expect(mailClassesFor(['usps_first_class_international', 'usps_media_mail'])).toEqual(['MEDIA_MAIL']);
  });

  it('maps event codes; an unmapped code is unknown', () => {
    expect(mapUspsEvent('01').status).toBe('delivered');
    expect(mapUspsEvent('of')).toMatchObject({ status: 'out_for_delivery', milestone: 'out_for_delivery' });
    expect(mapUspsEvent('16').status).toBe('available_for_pickup');
    expect(mapUspsEvent('09').status).toBe('return_to_sender');
    expect(mapUspsEvent('Q9')).toEqual({ status: 'unknown', detail: 'unknown', milestone: 'in_transit' });
    expect(mapUspsEvent(null).status).toBe('unknown');
  });

  it('prices and labels a parcel the same way: machinable within 22 × 18 × 15 in and 25 lb, else nonstandard', () => {
    expect(packageCharacteristics({ weight_oz: 40, length_in: 12, width_in: 18, height_in: 15 })).toEqual({
      rateIndicator: 'SP',
      processingCategory: 'MACHINABLE',
    });
    expect(packageCharacteristics({ weight_oz: 40, length_in: 23, width_in: 5, height_in: 5 }).processingCategory).toBe('NONSTANDARD');
    expect(packageCharacteristics({ weight_oz: 401, length_in: 10, width_in: 5, height_in: 5 }).processingCategory).toBe('NONSTANDARD');
  });

  it('reads fee names as our surcharges, label formats as USPS images, weights and names as USPS wants them', () => {
    expect(surchargeOfFee('Nonstandard Length > 30')).toBe('nonstandard_length');
    expect(surchargeOfFee('Nonstandard Volume > 2 cu ft')).toBe('nonstandard_volume');
    expect(surchargeOfFee('Signature Confirmation')).toBeNull();
    expect(['pdf_4x6', 'pdf_letter', 'png_4x6', 'zpl_4x6', 'gif_4x6', 'odd'].map(uspsLabelImage)).toEqual(['PDF', 'PDF', 'PNG', 'ZPL', 'GIF', 'PDF']);
    expect(pounds(40)).toBe(2.5);
    expect(pounds(1)).toBe(0.07);
    expect(zipParts('30005-1234')).toEqual({ ZIPCode: '30005', ZIPPlus4: '1234' });
    expect(splitName('Mary Ann de Vries')).toEqual({ firstName: 'Mary Ann de', lastName: 'Vries' });
    expect(phone('+1 (410) 555-0100')).toBe('4105550100');
    expect(phone('12')).toBeUndefined();
    expect(countryName('ca')).toBe('CANADA');
  });
});

describe('builders', () => {
  const route = {
    domestic: true,
    origin_country: 'US',
    destination_country: 'US',
    distance_miles: 1,
    ground_zone: 1,
    international_group: null,
    international_zone: null,
    territory: false,
    military: false,
    noncontiguous: false,
  };
  const from = { name: 'A B', street1: '1 Main St', city: 'Towson', state: 'MD', postal_code: '21204', country: 'US' };
  const parcel = { weight_oz: 10, length_in: 6, width_in: 4, height_in: 2 };

  it('rates: nothing to ask for a lane outside the US, and no payment account without its type', () => {
    const req = { ship_from: from, ship_to: { ...from, country: 'CA' }, parcel, ship_date: '2026-03-02', residential: false, route };
    expect(buildRateRequest(req, null)).toBeNull();
    const us = buildRateRequest({ ...req, ship_to: from }, null)!;
    expect(us).not.toHaveProperty('accountNumber');
    expect(us.weight).toBe(0.63);
  });

  it('international labels: every field but customs, and nothing at all without the customs seam', () => {
    const req = {
      ship_from: from,
      ship_to: { name: 'Jo', street1: '1 Rue', city: 'Paris', postal_code: '75001', country: 'FR' },
      parcel,
      ship_date: '2026-03-02',
      residential: false,
      route,
      service_code: 'usps_first_class_international',
      reference: 'shp_1',
      purchased_at: '',
      label_image: 'PNG',
    } as ApiPurchaseRequest;
    expect(buildInternationalLabelRequest(req, 'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE', null)).toBeNull();
    const built = buildInternationalLabelRequest(req, 'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE', () => ({ customsContentType: 'GIFT' }))!;
    expect(built.toAddress).toEqual({
      firstName: 'Jo',
      streetAddress: '1 Rue',
      city: 'Paris',
      postalCode: '75001',
      country: 'FRANCE',
      countryISOAlpha2Code: 'FR',
    });
    // International labels come as PDF or ZPL only.
    expect(built.imageInfo).toEqual({ imageType: 'PDF', labelType: '4X6LABEL' });
    expect(built.customsForm).toEqual({ customsContentType: 'GIFT' });
  });

  it('pickup: refuses an address USPS could not reach anyone at; counts international pieces as INTERNATIONAL', () => {
    const base = {
      pickup_date: '2026-03-03',
      ready_time: '0900',
      close_time: '1700',
      residential: false,
      pieces: [{ service_code: 'usps_priority_mail', quantity: 2, destination_country: 'DE' }],
    };
    expect(buildPickupRequest({ ...base, address: from })).toEqual({ ok: false, field: 'address.phone', message: expect.any(String) });
    const ok = buildPickupRequest({ ...base, address: { ...from, email: 'dock@example.com' } });
    expect(ok.ok && ok.body).toMatchObject({
      packages: [{ packageType: 'INTERNATIONAL', packageCount: 2 }],
      estimatedWeight: 1,
      pickupLocation: { packageLocation: 'FRONT_DOOR' },
      pickupAddress: { contact: [{ email: 'dock@example.com' }] },
    });
  });
});

describe('parsers', () => {
  it('token: expires_in as a string of seconds; a body without a token is null', () => {
    expect(parseTokenResponse({ access_token: 'a', expires_in: '28799' })).toEqual({ accessToken: 'a', expiresInS: 28799 });
    expect(parseTokenResponse({ access_token: 'a' })).toEqual({ accessToken: 'a', expiresInS: 3600 });
    expect(parseTokenResponse({ error: 'x' })).toBeNull();
  });

  it('errors: every USPS error item is a message, on our field where USPS names a parameter', () => {
    expect(fieldOf('toAddress.ZIPCode')).toBe('ship_to.postal_code');
    expect(fieldOf('packageDescription.weight')).toBe('parcel.weight_oz');
    expect(fieldOf('roles[0].CRID')).toBeUndefined();
    expect(
      parseUspsErrors(400, {
        error: {
          code: '400',
          message: 'Bad',
          errors: [{ code: 'E1', detail: 'ZIP wrong', source: { parameter: 'fromAddress.ZIPCode' } }, { title: 'Only a title' }],
        },
      }).messages,
    ).toEqual([
      { code: 'carrier_rejected', carrier_code: 'E1', message: 'ZIP wrong', field: 'ship_from.postal_code' },
      { code: 'carrier_rejected', carrier_code: '400', message: 'Only a title' },
    ]);
    expect(parseUspsErrors(403, { error: { code: '403', message: 'Access is denied.' } })).toEqual({
      credentialsRefused: true,
      messages: [{ code: 'carrier_account_invalid', carrier_code: '403', message: 'Access is denied.' }],
    });
    expect(parseUspsErrors(400, '<html>').messages).toEqual([{ code: 'carrier_rejected', carrier_code: '400', message: 'USPS refused the request (400)' }]);
  });

  it('tracking: GMT when given, else the local time with its offset; not a TrackingDetails is null', () => {
    const res = parseTrackResponse({
      trackingNumber: '92',
      trackingEvents: [
        { eventCode: '10', eventTimestamp: '2026-03-03T08:00:00', GMTOffset: '-06:00', eventType: 'Processed' },
        { eventCode: 'MA', eventTimestamp: '2026-03-02T10:00:00Z', eventType: 'Pre-Shipment' },
      ],
    })!;
    expect(res.events.map((e) => [e.occurred_at, e.status])).toEqual([
      ['2026-03-02T10:00:00.000Z', 'pre_transit'],
      ['2026-03-03T14:00:00.000Z', 'in_transit'],
    ]);
    expect(res).toMatchObject({ status: 'in_transit', delivered_at: null, carrier_status_code: '10' });
    expect(parseTrackResponse({ hello: 1 })).toBeNull();
  });

  it('addresses: an undeliverable point is invalid; a changed ZIP+4 is corrected; a business is not residential', () => {
    const original = { street1: '1 main street', city: 'Towson', state: 'MD', postal_code: '21204', country: 'US' };
    const answer = (dpv: string, business = 'Y') => ({
      address: { streetAddress: '1 MAIN ST', city: 'TOWSON', state: 'MD', ZIPCode: '21204', ZIPPlus4: '4512' },
      additionalInfo: { DPVConfirmation: dpv, business },
    });
    expect(parseAddressResponse(answer('N'), original)).toMatchObject({ status: 'invalid', messages: [{ code: 'address_not_deliverable' }] });
    expect(parseAddressResponse(answer('Y'), original)).toMatchObject({
      status: 'corrected',
      residential: 'no',
      normalized: { postal_code: '21204-4512', street1: '1 MAIN ST' },
    });
    expect(parseAddressResponse({}, original)).toBeNull();
  });
});

describe('credentials schema', () => {
  const validate = new Ajv2020({ strict: false }).compile(uspsCredentialsSchema);
  const good = {
    client_id: 'id',
    client_secret: 's',
    crid: '56982563',
    mid: '904128936',
    manifest_mid: '904128937',
    payment_account_number: '1000405525',
    payment_account_type: 'EPS',
  };

  it('is JSON Schema 2020-12 with the secret and the payment account write-only', () => {
    expect(uspsCredentialsSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(uspsCredentialsSchema.properties.client_secret.writeOnly).toBe(true);
    expect(uspsCredentialsSchema.properties.payment_account_number.writeOnly).toBe(true);
    expect(validate(good)).toBe(true);
  });

  it('refuses a MID of the wrong length, an unknown account type, and a PERMIT without its ZIP', () => {
    expect(validate({ ...good, mid: '12345' })).toBe(false);
    expect(validate({ ...good, payment_account_type: 'METER' })).toBe(false);
    expect(validate({ ...good, payment_account_type: 'PERMIT' })).toBe(false);
    expect(validate({ ...good, payment_account_type: 'PERMIT', permit_zip: '21093' })).toBe(true);
  });
});
