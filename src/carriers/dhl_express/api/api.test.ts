import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SHIP_FROM, US_TO_DE_ROUTE, useCarrierApiTest } from '../../../../test/helpers/carrier-api.js';
import { londonAddress, ukCustoms, ukCustomsWithItn, ukRoute, UK_CUSTOMS_TOTAL_MINOR } from '../../../../test/helpers/driver-customs.js';
import { DHL_FIXTURES_DIR, dhlFixture, FAKE_DHL_LABELS, FAKE_DHL_SETUP, type FakeDhl, fakeDhlDocument } from '../../../../test/helpers/fake-dhl.js';
import { DHL_SPEC_FILE } from '../../../../test/helpers/dhl-spec.js';
import type { ApiPurchaseRequest, ApiRateRequest } from '../../driver.js';
import { CarrierTransportError } from '../../http/errors.js';
import { createDhlExpressApiDriver } from './client.js';
import { dhlCredentialsSchema } from './credentials.js';
import { dhlProductCode, mapDhlEvent, ourServiceCode } from './units.js';

// Evaluated at collection time, before beforeAll: the file, not the parsed document.
const SPEC_PRESENT = existsSync(DHL_SPEC_FILE);

const BASIC = `Basic ${Buffer.from('fake-api-key:fake-api-secret').toString('base64')}`;
const api = useCarrierApiTest({
  ...FAKE_DHL_SETUP,
  idPrefix: 'dhl',
  secrets: ['fake-api-secret', BASIC.slice(6)],
});
const { sleeps, exchanges, ctx, expectCleanExchange } = api;
const driver = () => createDhlExpressApiDriver(api.http);

const from = { ...SHIP_FROM, phone: '+1 410 555 0100' };
const to = {
  name: 'Pat Käufer',
  street1: 'Invalidenstraße 116',
  street2: 'Hinterhaus',
  city: 'Berlin',
  postal_code: '10115',
  country: 'DE',
  phone: '+49 30 1234567',
  email: 'pat@example.de',
};
const parcel = { weight_oz: 40, length_in: 12, width_in: 9.5, height_in: 4 };
const rateRequest: ApiRateRequest = { ship_from: from, ship_to: to, parcel, ship_date: '2026-03-02', residential: true, route: US_TO_DE_ROUTE };
const purchase = (label_image: ApiPurchaseRequest['label_image'] = 'PDF'): ApiPurchaseRequest => ({
  ...rateRequest,
  service_code: 'dhl_express_worldwide',
  reference: 'shp_01TESTREFERENCE',
  purchased_at: '2026-03-02T15:00:00.000Z',
  label_image,
});

const sentBody = (op: Parameters<FakeDhl['count']>[0]) => JSON.parse(api.fake.requests.find((r) => r.operation === op)!.body);

describe('DHL Express published description', () => {
  it.runIf(SPEC_PRESENT)('every recorded fixture validates against its MyDHL response schema', () => {
    const s = api.specs!;
    const byFile: Record<string, [string, number]> = {
      rates: ['exp-api-rates-many', 200],
      'rates-multi': ['exp-api-rates-many', 200],
      shipment: ['exp-api-shipments', 201],
      'shipment-international': ['exp-api-shipments', 201],
      'track-delivered': ['exp-api-shipments-tracking', 200],
      'track-not-found': ['exp-api-shipments-tracking', 404],
      'address-validate': ['exp-api-address-validate', 200],
      'address-validate-corrected': ['exp-api-address-validate', 200],
      'address-validate-none': ['exp-api-address-validate', 200],
      products: ['exp-api-products', 200],
      'pickup-create': ['exp-api-pickups', 201],
      'pickup-not-found': ['exp-api-pickups-cancel', 404],
      'pickup-already-cancelled': ['exp-api-pickups-cancel', 400],
      'error-invalid-postal': ['exp-api-rates-many', 400],
      'error-process': ['exp-api-shipments', 500],
      // 401 and 429 are not documented by DHL: checked against the problem schema they share.
      'error-auth': ['exp-api-rates-many', 400],
      'error-rate-limit': ['exp-api-rates-many', 400],
    };
    const files = readdirSync(DHL_FIXTURES_DIR).map((f) => f.replace(/\.json$/, ''));
    expect(files.sort()).toEqual(Object.keys(byFile).sort());
    for (const [file, [operationId, status]] of Object.entries(byFile)) {
      expect(s.checkResponse(s.op(operationId), status, dhlFixture(file)), file).toEqual([]);
    }
  });

  it.runIf(SPEC_PRESENT)('the validator is not a rubber stamp: it refuses requests DHL would refuse', () => {
    const s = api.specs!;
    const headers = { 'content-type': 'application/json', authorization: BASIC, 'x-version': '3.3.1' };
    const bad = s.checkRequest(
      'POST',
      new URL('http://x/rates'),
      headers,
      JSON.stringify({ customerDetails: { shipperDetails: {} }, packages: [{ weight: 2.0001 }] }),
    );
    expect(bad.op?.operationId).toBe('exp-api-rates-many');
    expect(bad.problems.join('\n')).toMatch(/plannedShippingDateAndTime|unitOfMeasurement|receiverDetails/);
    expect(bad.problems.join('\n')).toMatch(/multiple of 0.001/);
    const noVersion = s.checkRequest('GET', new URL('http://x/shipments/1234567890/tracking?trackingView=everything'), { authorization: BASIC }, '');
    expect(noVersion.problems.join('\n')).toMatch(/x-version is required/);
    expect(noVersion.problems.join('\n')).toMatch(/trackingView/);
    const noAuth = s.checkRequest('DELETE', new URL('http://x/pickups/PRG1'), { 'x-version': '3.3.1' }, '');
    expect(noAuth.problems.join('\n')).toMatch(/basic authorization[\s\S]*requestorName is required/);
  });

  it('declares its credentials as JSON Schema 2020-12 with the secret write-only', () => {
    expect(dhlCredentialsSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(dhlCredentialsSchema.properties.api_secret.writeOnly).toBe(true);
    expect(dhlCredentialsSchema.required).toEqual(['api_key', 'api_secret']);
    expect(driver().hosts).toEqual({ sandbox: 'https://express.api.dhl.com/mydhlapi/test', production: 'https://express.api.dhl.com/mydhlapi' });
  });

  it.runIf(SPEC_PRESENT)('its hosts are the servers the description names', () => {
    const servers = (api.specs!.doc.servers as { url: string }[]).map((s) => s.url);
    expect(servers).toEqual(expect.arrayContaining(Object.values(driver().hosts)));
  });

  it('maps product codes both ways and keeps an unknown DHL product', () => {
    expect(ourServiceCode('P')).toBe('dhl_express_worldwide');
    expect(dhlProductCode('dhl_express_worldwide')).toBe('P');
    expect(ourServiceCode('N')).toBe('dhl_express_domestic');
    expect(ourServiceCode('K')).toBe('dhl_express_K');
    expect(dhlProductCode('dhl_express_K')).toBe('K');
    expect(dhlProductCode('ups_ground')).toBeNull();
    expect(dhlProductCode('dhl_express_not a code')).toBeNull();
    expect(mapDhlEvent('WC').status).toBe('out_for_delivery');
    expect(mapDhlEvent('ZZ').status).toBe('unknown');
  });
});

describe('DHL Express driver against the fake DHL Express', () => {
  it('success: one POST /rates prices every product with account and published prices, surcharges and delivery dates', async () => {
    const res = await driver().rates(ctx(), rateRequest);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const sent = api.fake.requests.find((r) => r.operation === 'rates')!;
    expect(sent.path).toBe('/rates');
    expect(sent.headers.authorization).toBe(BASIC);
    expect(sent.headers['x-version']).toBe('3.3.1');
    const body = JSON.parse(sent.body);
    expect(body).toMatchObject({
      accounts: [{ typeCode: 'shipper', number: '123456789' }],
      plannedShippingDateAndTime: '2026-03-02T12:00:00 GMT+00:00',
      unitOfMeasurement: 'imperial',
      isCustomsDeclarable: true,
      estimatedDeliveryDate: { isRequested: true, typeCode: 'QDDC' },
      packages: [{ weight: 2.5, dimensions: { length: 12, width: 9.5, height: 4 } }],
    });
    expect(body.customerDetails.receiverDetails).toEqual({
      postalCode: '10115',
      cityName: 'Berlin',
      countryCode: 'DE',
      addressLine1: 'Invalidenstraße 116',
      addressLine2: 'Hinterhaus',
    });
    const worldwide = res.value.rates.find((r) => r.service_code === 'dhl_express_worldwide')!;
    expect(worldwide).toMatchObject({
      carrier_service_code: 'P',
      service_name: 'DHL Express Worldwide',
      price: { amount: 9842, currency: 'USD' },
      list_price: { amount: 12150, currency: 'USD' },
      negotiated: true,
      business_days: 3,
      transit_known: true,
      estimated_delivery_date: '2026-03-05',
      guaranteed: true,
      billable_weight_oz: 48,
      dim_weight_oz: 50,
    });
    expect(worldwide.surcharges).toEqual([
      { code: 'fuel', amount: { amount: 2055, currency: 'USD' } },
      { code: 'remote_area', amount: { amount: 457, currency: 'USD' } },
    ]);
    expect(worldwide.other_charges).toEqual([{ carrier_code: 'CR', description: 'EMERGENCY SITUATION', amount: { amount: 120, currency: 'USD' } }]);
    expect(worldwide.base_price.amount + 2055 + 457).toBe(9842);
    // A product without a code of ours is kept under its raw code; equal prices are not "negotiated".
    expect(res.value.rates.find((r) => r.carrier_service_code === 'K')).toMatchObject({
      service_code: 'dhl_express_K',
      service_name: 'DHL EXPRESS 9:00',
      negotiated: false,
      guaranteed: true,
    });
    expect(res.value.rates.find((r) => r.carrier_service_code === 'W')).toMatchObject({ guaranteed: false, business_days: 6 });
    expect(res.value.rates.map((r) => r.price.amount)).toEqual([6480, 9842, 16130]);
    expectCleanExchange();
  });

  it('keeps only the services requested and lists the missing ones as unavailable', async () => {
    const res = await driver().rates(ctx(), { ...rateRequest, service_codes: ['dhl_express_worldwide', 'dhl_express_domestic'] });
    expect(res.ok && res.value.rates.map((r) => r.service_code)).toEqual(['dhl_express_worldwide']);
    expect(res.ok && res.value.unavailable).toEqual([{ service_code: 'dhl_express_domestic', reason: 'not_offered_by_carrier' }]);
  });

  it('without an account number asks for public rates of the payer country', async () => {
    await driver().rates(ctx({ account_number: null }), rateRequest);
    const body = sentBody('rates');
    expect(body.accounts).toBeUndefined();
    expect(body.payerCountryCode).toBe('US');
    expectCleanExchange();
  });

  it("several packages' rates: one packages entry each, in DHL's three decimals", async () => {
    const res = await driver().rates(ctx(), { ...rateRequest, parcels: [parcel, { weight_oz: 201, length_in: 20.25, width_in: 12, height_in: 12 }] });
    expect(sentBody('rates').packages).toEqual([
      { weight: 2.5, dimensions: { length: 12, width: 9.5, height: 4 } },
      { weight: 12.563, dimensions: { length: 20.25, width: 12, height: 12 } },
    ]);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.value.rates.map((r) => [r.service_code, r.price.amount, r.billable_weight_oz])).toEqual([
      ['dhl_express_worldwide', 24690, 256],
      ['dhl_express_Y', 28915, 256],
    ]);
    expectCleanExchange();
  });

  it('refused credentials (401): a distinct invalid_credentials outcome, for rates and for testCredentials', async () => {
    const bad = ctx({ credentials: { api_key: 'fake-api-key', api_secret: 'wrong-secret' } });
    const res = await driver().rates(bad, rateRequest);
    expect(res).toEqual({
      ok: false,
      kind: 'invalid_credentials',
      messages: [{ code: 'carrier_account_invalid', carrier_code: '401', message: 'Invalid Credentials' }],
    });
    expect(api.fake.count('rates')).toBe(1); // basic auth: refused once, never retried
    const test = await driver().testCredentials(bad);
    expect(test).toMatchObject({ ok: false, kind: 'invalid_credentials' });
    const good = await driver().testCredentials(ctx());
    expect(good.ok).toBe(true);
    expect(api.fake.requests.filter((r) => r.operation === 'address_validate').map((r) => r.path)).toEqual([
      '/address-validate?type=pickup&countryCode=DE&postalCode=53113&cityName=Bonn&strictValidation=false',
      '/address-validate?type=pickup&countryCode=DE&postalCode=53113&cityName=Bonn&strictValidation=false',
    ]);
    const none = await driver().rates(ctx({ credentials: {} }), rateRequest);
    expect(none).toMatchObject({ ok: false, kind: 'invalid_credentials', messages: [{ carrier_code: 'missing_credentials' }] });
    expect(JSON.stringify(exchanges)).not.toContain('wrong-secret');
    expectCleanExchange();
  });

  // MyDHL has no token to expire: basic auth on every call, so there is no refetch scenario.
  it('every call carries basic auth, x-version and a Message-Reference; no token is ever fetched', async () => {
    const c = ctx();
    await driver().rates(c, rateRequest);
    await driver().track(c, { tracking_number: '1234567890' });
    expect(api.fake.requests).toHaveLength(2);
    for (const r of api.fake.requests) {
      expect(r.headers.authorization).toBe(BASIC);
      expect(r.headers['x-version']).toBe('3.3.1');
      expect(String(r.headers['message-reference'])).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(exchanges.every((e) => e.request_headers.authorization === '[REDACTED]')).toBe(true);
    expectCleanExchange();
  });

  it('429 with Retry-After: rates wait as told and retry', async () => {
    api.fake.queue('rates', { status: 429, headers: { 'retry-after': '2' }, body: dhlFixture('error-rate-limit') });
    const res = await driver().rates(ctx(), rateRequest);
    expect(res.ok).toBe(true);
    expect(sleeps).toEqual([2000]);
    expect(api.fake.count('rates')).toBe(2);
    expectCleanExchange();
  });

  it('503 then 500: rates retry twice, then fail with a retryable transport error', async () => {
    api.fake.queue('rates', { status: 503, headers: { 'retry-after': '1' } }, { status: 500, body: dhlFixture('error-process') }, { status: 503 });
    const err = await driver()
      .rates(ctx(), rateRequest)
      .catch((e) => e);
    expect(err).toBeInstanceOf(CarrierTransportError);
    expect(err).toMatchObject({ slug: 'dhl_express', kind: 'server_error', status: 503, retryable: true });
    expect(api.fake.count('rates')).toBe(3);
    expect(sleeps[0]).toBe(1000);
  });

  it('500 on a label purchase: never retried', async () => {
    api.fake.queue('shipments', { status: 500, body: dhlFixture('error-process') });
    const err = await driver()
      .purchase(ctx(), purchase())
      .catch((e) => e);
    expect(err).toMatchObject({ kind: 'server_error', status: 500, retryable: true });
    expect(api.fake.count('shipments')).toBe(1);
    expect(sleeps).toEqual([]);
    expectCleanExchange();
  });

  it('a hang past the deadline: a retryable timeout at the deadline, not later', async () => {
    api.fake.queue('track', { hang: true });
    const started = Date.now();
    const err = await driver()
      .track(ctx({}, 400), { tracking_number: '1234567890' })
      .catch((e) => e);
    const took = Date.now() - started;
    expect(err).toMatchObject({ kind: 'timeout', retryable: true });
    expect(took).toBeGreaterThanOrEqual(380);
    expect(took).toBeLessThan(3000);
  });

  it('a malformed body: a transport error, retryable for rates but not for a purchase', async () => {
    api.fake.queue('rates', { status: 200, raw: '<html><body>Gateway Timeout' });
    expect(
      await driver()
        .rates(ctx(), rateRequest)
        .catch((e) => e),
    ).toMatchObject({ kind: 'malformed_response', retryable: true });
    api.fake.queue('shipments', { status: 201, raw: '{"shipmentTrackingNumber": "11' });
    expect(
      await driver()
        .purchase(ctx(), purchase())
        .catch((e) => e),
    ).toMatchObject({ kind: 'malformed_response', retryable: false });
    // JSON, but no label in it: nothing usable was bought, and it is not retried either.
    api.fake.queue('shipments', {
      status: 201,
      body: { shipmentTrackingNumber: '1100000999', packages: [{ referenceNumber: 1, trackingNumber: 'JD01460000' }], documents: [] },
    });
    expect(
      await driver()
        .purchase(ctx(), purchase())
        .catch((e) => e),
    ).toMatchObject({ kind: 'malformed_response', retryable: false });
    expect(api.fake.count('shipments')).toBe(2);
  });

  it("business rejections: DHL's detail comes back as normalised messages, never retried", async () => {
    api.fake.queue('rates', { status: 400, body: dhlFixture('error-invalid-postal') });
    const rates = await driver().rates(ctx(), { ...rateRequest, ship_to: { ...to, postal_code: '99999' } });
    expect(rates).toEqual({
      ok: false,
      kind: 'rejected',
      messages: [
        {
          code: 'carrier_rejected',
          carrier_code: '420505',
          message: 'The destination location is invalid. The postal code 99999 is not valid for the receiver country DE.',
          field: 'ship_to.postal_code',
        },
      ],
    });
    // The yaml's own 422 example: a JSON pointer names the field.
    api.fake.queue('shipments', {
      status: 422,
      body: {
        instance: 'expressapi/shipments',
        detail: '#/content/packages/0/identifiers/0: extraneous key [dataIdentifier] is not permitted',
        title: 'Validation error',
        message: 'Unprocessable Entity',
        status: '422',
      },
    });
    const buy = await driver().purchase(ctx(), purchase());
    expect(buy).toMatchObject({ ok: false, kind: 'rejected', messages: [{ code: 'carrier_rejected', carrier_code: '422', field: 'parcels' }] });
    expect(api.fake.count('rates') + api.fake.count('shipments')).toBe(2);
    expectCleanExchange();
  });

  it.each([
    ['PDF', 'pdf', 'PDF', 'application/pdf'],
    ['ZPL', 'zpl', 'ZPL', 'application/x-zpl'],
    // MyDHL issues no raster image: a PNG request gets DHL's PDF, stored as issued.
    ['PNG', 'pdf', 'PDF', 'application/pdf'],
  ] as const)('buys a label asked as %s: encodingFormat %s, kept exactly as DHL returned it', async (image, encoding, format, mime) => {
    const res = await driver().purchase(ctx(), purchase(image));
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const sent = sentBody('shipments');
    expect(sent.outputImageProperties).toEqual({ encodingFormat: encoding });
    expect(sent.accounts).toEqual([{ typeCode: 'shipper', number: '123456789' }]);
    expect(sent.productCode).toBe('P');
    expect(sent.pickup).toEqual({ isRequested: false });
    expect(sent.customerDetails.receiverDetails).toMatchObject({
      typeCode: 'private',
      contactInformation: { phone: '+49 30 1234567', fullName: 'Pat Käufer', companyName: 'Pat Käufer', email: 'pat@example.de' },
    });
    expect(sent.content).toMatchObject({
      isCustomsDeclarable: true,
      unitOfMeasurement: 'imperial',
      incoterm: 'DAP',
      packages: [{ weight: 2.5, referenceNumber: 1, customerReferences: [{ value: 'shp_01TESTREFERENCE', typeCode: 'CU' }] }],
    });
    expect(res.value.label).toEqual({ format, mime, bytes: FAKE_DHL_LABELS[format] });
    expect(res.value.tracking_number).toMatch(/^\d{10}$/);
    expect(res.value.carrier_shipment_id).toBe(res.value.tracking_number);
    expect(res.value.pickup_confirmation).toBeNull();
    expect(res.value.rate).toMatchObject({
      service_code: 'dhl_express_worldwide',
      price: { amount: 9842 },
      list_price: { amount: 12150 },
      negotiated: true,
      estimated_delivery_date: '2026-03-05',
      business_days: 3,
      surcharges: [
        { code: 'fuel', amount: { amount: 2055, currency: 'USD' } },
        { code: 'remote_area', amount: { amount: 457, currency: 'USD' } },
      ],
    });
    expectCleanExchange();
  });

  it('a multi-package label pairs each package with its own label document', async () => {
    const res = await driver().purchase(ctx(), { ...purchase('ZPL'), parcels: [parcel, parcel, { ...parcel, weight_oz: 100 }] });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(sentBody('shipments').getAdditionalInformation).toEqual([{ typeCode: 'linkLabelsByPieces', isRequested: true }]);
    const pieces = api.fake.shipments.get(res.value.carrier_shipment_id)!.pieces;
    expect(res.value.packages.map((p) => p.tracking_number)).toEqual(pieces);
    expect(res.value.packages.every((p) => p.label.format === 'ZPL')).toBe(true);
    // A purchase without customs sends none and gets no documents beside its labels.
    expect(sentBody('shipments').content.exportDeclaration).toBeUndefined();
    expect(sentBody('shipments').outputImageProperties.imageOptions).toBeUndefined();
    expect(res.value.documents).toBeUndefined();
    expectCleanExchange();
  });

  it('issued label then local void: nothing is sent to DHL; a pickup booked for it is cancelled', async () => {
    const c = ctx();
    const bought = await driver().purchase(c, purchase());
    expect(bought.ok).toBe(true);
    if (!bought.ok) return;
    api.fake.reset();
    const voided = await driver().void(c, { carrier_shipment_id: bought.value.carrier_shipment_id });
    expect(voided).toEqual({ ok: true, value: { voided: true } });
    expect(api.fake.requests).toHaveLength(0);
    // With a pickup booked for this shipment alone, the void cancels it at DHL.
    const pickup = await driver().schedulePickup(c, {
      pickup_date: '2026-03-03',
      ready_time: '0900',
      close_time: '1700',
      address: from,
      residential: false,
      pieces: [{ service_code: 'dhl_express_worldwide', quantity: 1, destination_country: 'DE' }],
    });
    expect(pickup.ok).toBe(true);
    if (!pickup.ok) return;
    const withPickup = await driver().void(c, { carrier_shipment_id: bought.value.carrier_shipment_id, pickup_confirmation: pickup.value.confirmation });
    expect(withPickup).toEqual({ ok: true, value: { voided: true } });
    expect(api.fake.pickups.get(pickup.value.confirmation)).toEqual({ cancelled: true });
    const cancel = api.fake.requests.find((r) => r.operation === 'pickup_cancel')!;
    expect(cancel.method).toBe('DELETE');
    expect(cancel.path).toBe(`/pickups/${pickup.value.confirmation}?requestorName=Shipping+platform&reason=not+needed`);
    // Voiding again: DHL says the pickup is already cancelled; the void says so too.
    const again = await driver().void(c, { carrier_shipment_id: bought.value.carrier_shipment_id, pickup_confirmation: pickup.value.confirmation });
    expect(again).toEqual({
      ok: false,
      kind: 'rejected',
      messages: [{ code: 'carrier_rejected', carrier_code: '400', message: 'Pickup already cancelled or completed' }],
    });
    expectCleanExchange();
  });

  it('an international purchase sends customs in exportDeclaration, declaredValue and registration numbers, and returns the documents DHL printed', async () => {
    const res = await driver().purchase(ctx(), { ...purchase(), ship_to: londonAddress, residential: false, route: ukRoute, customs: ukCustoms });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const body = sentBody('shipments');
    expect(body.outputImageProperties.imageOptions).toEqual([{ typeCode: 'invoice', isRequested: true, invoiceType: 'commercial' }]);
    expect(body.valueAddedServices).toEqual([{ serviceCode: 'DD' }]); // DDP: duties and taxes paid by the shipper
    expect(body.customerDetails.receiverDetails.registrationNumbers).toEqual([
      { typeCode: 'VAT', number: 'GB123456789', issuerCountryCode: 'GB' },
      { typeCode: 'EOR', number: 'GB123456789000', issuerCountryCode: 'GB' },
    ]);
    expect(body.content).toMatchObject({
      isCustomsDeclarable: true,
      description: 'Cotton T-shirt, Ceramic coffee mug',
      incoterm: 'DDP',
      declaredValue: UK_CUSTOMS_TOTAL_MINOR / 100,
      declaredValueCurrency: 'USD',
    });
    expect(body.content.exportDeclaration).toEqual({
      lineItems: [
        {
          number: 1,
          description: 'Cotton T-shirt',
          price: 12.5,
          quantity: { value: 3, unitOfMeasurement: 'PCS' },
          exportReasonType: 'commercial_purpose_or_sale',
          manufacturerCountry: 'US',
          weight: { netValue: 1.125, grossValue: 1.125 },
          commodityCodes: [{ typeCode: 'outbound', value: '610910' }],
          customerReferences: [{ typeCode: 'PAN', value: 'TS-001' }],
        },
        {
          number: 2,
          description: 'Ceramic coffee mug',
          price: 8.99,
          quantity: { value: 2, unitOfMeasurement: 'PCS' },
          exportReasonType: 'commercial_purpose_or_sale',
          manufacturerCountry: 'CN',
          weight: { netValue: 1.5, grossValue: 1.5 },
          commodityCodes: [{ typeCode: 'outbound', value: '69120048' }],
        },
      ],
      invoice: {
        number: 'shp_01TESTREFERENCE',
        date: '2026-03-02',
        signatureName: 'Dock Lead',
        customerReferences: [{ typeCode: 'FTR', value: 'NOEEI 30.37(a)' }],
      },
      exportReasonType: 'commercial_purpose_or_sale',
      shipmentType: 'commercial',
      declarationNotes: [{ value: 'NOEEI 30.37(a)' }],
    });
    // The label stays the label; the rest of documents[] comes back decoded, in our types.
    expect(res.value.label.bytes.equals(FAKE_DHL_LABELS.PDF)).toBe(true);
    expect(res.value.documents).toEqual([
      { type: 'waybill', artifact: { format: 'PDF', mime: 'application/pdf', bytes: fakeDhlDocument('waybillDoc') } },
      { type: 'commercial_invoice', artifact: { format: 'PDF', mime: 'application/pdf', bytes: fakeDhlDocument('invoice') } },
      { type: 'receipt', artifact: { format: 'PDF', mime: 'application/pdf', bytes: fakeDhlDocument('receipt') } },
    ]);
    expectCleanExchange();
    // The fake's check is not a rubber stamp for customs: a line without its quantity unit or an unknown reason is refused.
    if (api.specs) {
      const sent = sentBody('shipments');
      delete sent.content.exportDeclaration.lineItems[0].quantity.unitOfMeasurement;
      sent.content.exportDeclaration.exportReasonType = 'sale';
      const req = api.fake.requests.find((r) => r.operation === 'shipments')!;
      const problems = api.specs.checkRequest('POST', new URL(`http://x${req.path}`), req.headers, JSON.stringify(sent)).problems.join('\n');
      expect(problems).toMatch(/lineItems\/0\/quantity/);
      expect(problems).toMatch(/exportReasonType/);
    }
  });

  it('customs with an ITN and another contents type: the ITN on the invoice, the explanation as export reason; documents go non-dutiable without an invoice', async () => {
    const res = await driver().purchase(ctx(), {
      ...purchase(),
      ship_to: londonAddress,
      route: ukRoute,
      customs: { ...ukCustomsWithItn, contents_type: 'other', contents_explanation: 'Trade show display' },
    });
    expect(res.ok).toBe(true);
    const decl = sentBody('shipments').content.exportDeclaration;
    expect(decl.invoice.customerReferences).toEqual([{ typeCode: 'ITN', value: 'X20260302123456' }]);
    expect(decl).toMatchObject({ exportReason: 'Trade show display', exportReasonType: 'permanent', declarationNotes: [{ value: 'AES X20260302123456' }] });
    expect(sentBody('shipments').content.incoterm).toBe('DDU');
    expect(sentBody('shipments').valueAddedServices).toBeUndefined();
    api.fake.reset();
    const docs = await driver().purchase(ctx(), {
      ...purchase(),
      ship_to: londonAddress,
      route: ukRoute,
      customs: { ...ukCustoms, contents_type: 'documents', importer: null },
    });
    expect(docs.ok && docs.value.documents).toBeUndefined();
    const body = sentBody('shipments');
    expect(body.content.isCustomsDeclarable).toBe(false);
    expect(body.content.exportDeclaration).toBeUndefined();
    expect(body.outputImageProperties.imageOptions).toBeUndefined();
    expectCleanExchange();
  });

  it("a return: billed to the merchant's account as payer, a returns invoice, every line exported as return", async () => {
    const res = await driver().purchase(ctx(), {
      ...purchase(),
      ship_from: londonAddress,
      ship_to: from,
      residential: false,
      route: { ...ukRoute, origin_country: 'GB', destination_country: 'US' },
      customs: { ...ukCustoms, incoterm: 'DAP' },
      is_return: true,
    });
    expect(res.ok).toBe(true);
    const body = sentBody('shipments');
    expect(body.accounts).toEqual([
      { typeCode: 'shipper', number: '123456789' },
      { typeCode: 'payer', number: '123456789' },
    ]);
    expect(body.outputImageProperties.imageOptions).toEqual([{ typeCode: 'invoice', isRequested: true, invoiceType: 'returns' }]);
    expect(body.content.exportDeclaration.exportReasonType).toBe('return');
    expect(body.content.exportDeclaration.lineItems.map((l: { exportReasonType: string }) => l.exportReasonType)).toEqual(['return', 'return']);
    expectCleanExchange();
  });

  it('maps any other document typeCode DHL returns to snake_case', async () => {
    const reply = dhlFixture('shipment-international');
    reply.documents.push({ imageFormat: 'PDF', content: Buffer.from('%PDF-1.4 customs').toString('base64'), typeCode: 'customsDeclaration' });
    api.fake.queue('shipments', { status: 201, body: reply });
    const res = await driver().purchase(ctx(), { ...purchase(), ship_to: londonAddress, route: ukRoute, customs: ukCustoms });
    expect(res.ok && res.value.documents?.map((d) => d.type)).toEqual(['waybill', 'commercial_invoice', 'receipt', 'customs_declaration']);
  });

  it('a purchase without an account number, a phone or a city is refused before calling DHL', async () => {
    expect(await driver().purchase(ctx({ account_number: null }), purchase())).toMatchObject({
      ok: false,
      kind: 'invalid_credentials',
      messages: [{ carrier_code: 'missing_account_number' }],
    });
    const { phone: _drop, ...noPhone } = to;
    expect(await driver().purchase(ctx(), { ...purchase(), ship_to: noPhone })).toEqual({
      ok: false,
      kind: 'rejected',
      messages: [{ code: 'carrier_rejected', carrier_code: 'required_field', message: 'DHL Express requires a phone number', field: 'ship_to.phone' }],
    });
    const { city: _city, ...noCity } = from;
    expect(await driver().rates(ctx(), { ...rateRequest, ship_from: noCity })).toMatchObject({
      ok: false,
      kind: 'rejected',
      messages: [{ field: 'ship_from.city', message: 'DHL Express requires a city' }],
    });
    expect(await driver().purchase(ctx(), { ...purchase(), service_code: 'ups_ground' })).toMatchObject({
      ok: false,
      kind: 'rejected',
      messages: [{ field: 'service_code' }],
    });
    expect(api.fake.requests).toHaveLength(0);
  });

  it('tracks: checkpoint codes mapped to ours, oldest first in UTC, raw codes kept, unmapped → unknown', async () => {
    const res = await driver().track(ctx(), { tracking_number: '1100000042' });
    expect(api.fake.requests[0].path).toBe('/shipments/1100000042/tracking?trackingView=all-checkpoints&levelOfDetail=shipment&requestGMTOffsetPerEvent=true');
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.value).toMatchObject({
      status: 'delivered',
      status_detail: 'delivered',
      delivered_at: '2026-03-05T10:23:00.000Z',
      estimated_delivery_date: '2026-03-05',
      carrier_status_code: 'OK',
    });
    expect(res.value.events.map((e) => [e.status, e.carrier_status_code])).toEqual([
      ['in_transit', 'PU'],
      ['unknown', 'ZZ'],
      ['in_transit', 'DF'],
      ['in_transit', 'AF'],
      ['in_transit', 'CR'],
      ['out_for_delivery', 'WC'],
      ['delivered', 'OK'],
    ]);
    expect(res.value.events[0]).toMatchObject({
      occurred_at: '2026-03-02T22:40:00.000Z',
      milestone: 'picked_up',
      location: { city: 'BALTIMORE, MD', country: 'US' },
      carrier_status_type: null,
    });
    expect(res.value.events[3]).toMatchObject({
      occurred_at: '2026-03-04T07:02:41.000Z',
      status_detail: 'arrived_at_facility',
      location: { city: 'LEIPZIG', country: 'DE' },
    });
    expectCleanExchange();
  });

  it('tracking a number DHL does not know (404) is a rejection on tracking_number', async () => {
    api.fake.queue('track', { status: 404, body: dhlFixture('track-not-found') });
    const res = await driver().track(ctx(), { tracking_number: '9999999999' });
    expect(res).toEqual({
      ok: false,
      kind: 'rejected',
      messages: [{ code: 'carrier_rejected', carrier_code: '404', message: 'No data found', field: 'tracking_number' }],
    });
    expect(api.fake.count('track')).toBe(1);
  });

  it('validates an address as DHL can: its service area (verified, corrected) or none (invalid); never the street', async () => {
    const res = await driver().validateAddress(ctx(), to);
    expect(api.fake.requests[0].path).toBe('/address-validate?type=delivery&countryCode=DE&postalCode=10115&cityName=Berlin&strictValidation=false');
    expect(res).toMatchObject({
      ok: true,
      value: {
        status: 'verified',
        residential: 'unknown',
        normalized: { city: 'BERLIN', postal_code: '10115', street1: 'Invalidenstraße 116' },
        messages: [{ code: 'street_not_checked' }],
      },
    });
    api.fake.queue('address_validate', { body: dhlFixture('address-validate-corrected') });
    const corrected = await driver().validateAddress(ctx(), { ...to, city: 'Munich', postal_code: '80331' });
    expect(corrected).toMatchObject({
      ok: true,
      value: {
        status: 'corrected',
        normalized: { city: 'MUENCHEN' },
        messages: [{ code: 'address_corrected', field: 'city' }, { code: 'street_not_checked' }],
      },
    });
    api.fake.queue('address_validate', { body: dhlFixture('address-validate-none') });
    const none = await driver().validateAddress(ctx(), { ...to, postal_code: '00000' });
    expect(none).toMatchObject({
      ok: true,
      value: { status: 'invalid', normalized: null, messages: [{ code: 'address_not_served', message: 'No records found for the requested address' }] },
    });
    expectCleanExchange();
  });

  it('schedules and cancels a pickup', async () => {
    const c = ctx();
    const res = await driver().schedulePickup(c, {
      pickup_date: '2026-03-03',
      ready_time: '0930',
      close_time: '1700',
      address: from,
      residential: false,
      pieces: [
        { service_code: 'dhl_express_worldwide', quantity: 2, destination_country: 'DE' },
        { service_code: 'dhl_express_K', quantity: 1, destination_country: 'GB' },
      ],
      total_weight_oz: 144,
      instructions: 'Dock door 4',
    });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.value).toEqual({ confirmation: expect.stringMatching(/^PRG/), charge: null });
    const sent = sentBody('pickup');
    expect(sent).toMatchObject({
      plannedPickupDateAndTime: '2026-03-03T09:30:00 GMT+00:00',
      closeTime: '17:00',
      locationType: 'business',
      accounts: [{ typeCode: 'shipper', number: '123456789' }],
      specialInstructions: [{ value: 'Dock door 4' }],
    });
    expect(sent.shipmentDetails).toEqual([
      { productCode: 'P', isCustomsDeclarable: true, unitOfMeasurement: 'imperial', packages: [{ weight: 3 }, { weight: 3 }] },
      { productCode: 'K', isCustomsDeclarable: true, unitOfMeasurement: 'imperial', packages: [{ weight: 3 }] },
    ]);
    expect(await driver().cancelPickup(c, { confirmation: res.value.confirmation })).toEqual({ ok: true, value: { cancelled: true } });
    expect(await driver().cancelPickup(c, { confirmation: 'PRG260303000999' })).toMatchObject({
      ok: false,
      kind: 'rejected',
      messages: [{ carrier_code: '404' }],
    });
    expectCleanExchange();
  });

  it('logs every exchange per account with the authorization redacted', async () => {
    const c = ctx();
    await driver().purchase(c, purchase());
    expect(exchanges.map((e) => [e.operation, e.method, e.path.split('?')[0], e.status])).toEqual([
      ['products', 'GET', '/products', 200],
      ['purchase', 'POST', '/shipments', 201],
    ]);
    expect(exchanges[0]).toMatchObject({ account_id: c.account.id, request_id: c.requestId, request_headers: { authorization: '[REDACTED]' } });
    expectCleanExchange();
  });
});

describe('inside the US', () => {
  it('offers nothing and buys nothing US-to-US, without asking DHL (international-only, as the simulation)', async () => {
    const home = { ...to, city: 'New York', state: 'NY', postal_code: '10118', country: 'US', street1: '350 5th Ave' };
    const rated = await driver().rates(ctx(), { ...rateRequest, ship_to: home });
    expect(rated).toMatchObject({ ok: true, value: { rates: [] } });
    if (rated.ok) expect(rated.value.unavailable.map((u) => u.service_code).sort()).toEqual(['dhl_express_domestic', 'dhl_express_worldwide']);
    const bought = await driver().purchase(ctx(), { ...purchase(), ship_to: home });
    expect(bought).toMatchObject({ ok: false, kind: 'rejected', messages: [{ carrier_code: 'us_domestic', field: 'ship_to.country' }] });
    expect(api.fake.requests.length).toBe(0);
  });
});

describe('the product/capability check before a one-piece purchase', () => {
  it('asks GET /products (checked against the description) and buys only a product DHL offers on the lane', async () => {
    const ok = await driver().purchase(ctx(), purchase());
    expect(ok.ok).toBe(true);
    const asked = api.fake.requests.find((r) => r.operation === 'products')!;
    expect(asked.path).toMatch(
      /^\/products\?accountNumber=123456789&originCountryCode=US&originCityName=Timonium&destinationCountryCode=DE&destinationCityName=Berlin&/,
    );
    expect(api.fake.requests.map((r) => r.operation)).toEqual(['products', 'shipments']);
    api.fake.reset();
    api.fake.queue('products', {
      body: {
        products: [
          {
            productName: 'EXPRESS 12:00',
            productCode: 'T',
            localProductCode: 'T',
            localProductCountryCode: 'DE',
            networkTypeCode: 'TD',
            isCustomerAgreement: false,
          },
        ],
      },
    });
    const refused = await driver().purchase(ctx(), purchase());
    expect(refused).toMatchObject({ ok: false, kind: 'rejected', messages: [{ carrier_code: 'product_unavailable', field: 'service_code' }] });
    expect(api.fake.count('shipments')).toBe(0);
    expect(api.fake.violations).toEqual([]);
  });
});

describe('the DHL Express Flyer (packages.ts): no packaging code in MyDHL', () => {
  const flyer = { weight_oz: 30, length_in: 15.75, width_in: 11.75, height_in: 0.75, package_id: 'dhl_express_flyer' };

  it("rated and shipped as its weight and dimensions, with no typeCode (none of MyDHL's package codes is the Flyer)", async () => {
    const rates = await driver().rates(ctx(), { ...rateRequest, parcel: flyer });
    expect(rates.ok, JSON.stringify(rates)).toBe(true);
    const rated = JSON.parse(api.fake.requests.find((r) => r.operation === 'rates')!.body).packages[0];
    expect(rated).toEqual({ weight: 1.875, dimensions: { length: 15.75, width: 11.75, height: 0.75 } });
    const bought = await driver().purchase(ctx(), { ...purchase(), parcel: flyer });
    expect(bought.ok, JSON.stringify(bought)).toBe(true);
    const shipped = JSON.parse(api.fake.requests.find((r) => r.operation === 'shipments')!.body).content.packages[0];
    expect(shipped.typeCode).toBeUndefined();
    expectCleanExchange();
  });
});
