import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SHIP_FROM, US_ROUTE, useCarrierApiTest } from '../../../../test/helpers/carrier-api.js';
import { londonAddress, ukCustoms, ukCustomsWithItn, ukRoute } from '../../../../test/helpers/driver-customs.js';
import { FAKE_FORM_PDF, FAKE_LABELS, FAKE_UPS_LETTER_RATES, FAKE_UPS_SETUP, UPS_FIXTURES_DIR, upsFixture } from '../../../../test/helpers/fake-ups.js';
import type { ApiPurchaseRequest, ApiRateRequest } from '../../driver.js';
import { CarrierTransportError } from '../../http/errors.js';
import { createUpsApiDriver } from './client.js';
import { upsCredentialsSchema } from './credentials.js';
import { mapUpsStatus, ourServiceCode, upsServiceCode } from './units.js';

const api = useCarrierApiTest({
  ...FAKE_UPS_SETUP,
  idPrefix: 'test',
  secrets: ['fake-client-secret', /tok_[0-9a-f]{24}/],
});
const { sleeps, exchanges, ctx, expectCleanExchange } = api;
const driver = () => createUpsApiDriver(api.http);

const from = SHIP_FROM;
const to = { name: 'Pat Buyer', street1: '100 Peachtree Pkwy', street2: 'Apt 4', city: 'Alpharetta', state: 'GA', postal_code: '30005-1234', country: 'US' };
const parcel = { weight_oz: 40, length_in: 12, width_in: 9.5, height_in: 4 };
const rateRequest: ApiRateRequest = { ship_from: from, ship_to: to, parcel, ship_date: '2026-03-02', residential: true, route: US_ROUTE };
const purchase = (label_image: ApiPurchaseRequest['label_image'] = 'GIF'): ApiPurchaseRequest => ({
  ...rateRequest,
  service_code: 'ups_ground',
  reference: 'shp_01TESTREFERENCE',
  purchased_at: '2026-03-02T15:00:00.000Z',
  label_image,
});

describe('UPS published description', () => {
  it.runIf(loadUpsSpecsAvailable())('every recorded fixture validates against its UPS response schema', () => {
    const s = api.specs!;
    const byFile: Record<string, [string, number]> = {
      token: ['CreateToken', 200],
      'rate-shop': ['Rate', 200],
      'rate-shop-multi': ['Rate', 200],
      ship: ['Shipment', 200],
      'ship-international': ['Shipment', 200],
      void: ['VoidShipment', 200],
      'track-delivered': ['getSingleTrackResponseUsingGET', 200],
      'track-not-found': ['getSingleTrackResponseUsingGET', 200],
      'xav-valid': ['AddressValidation', 200],
      'xav-none': ['AddressValidation', 200],
      'pickup-create': ['Pickup Creation', 200],
      'pickup-cancel': ['Pickup Cancel', 200],
      'error-invalid-postal': ['Rate', 400],
      'error-service-unavailable': ['Shipment', 400],
      'error-auth': ['CreateToken', 401],
      'error-rate-limit': ['Rate', 429],
      'error-void': ['VoidShipment', 400],
    };
    const files = readdirSync(UPS_FIXTURES_DIR).map((f) => f.replace(/\.json$/, ''));
    expect(files.sort()).toEqual(Object.keys(byFile).sort());
    for (const [file, [operationId, status]] of Object.entries(byFile)) {
      const op = s.ops.find((o) => o.operationId === operationId)!;
      expect(op, operationId).toBeTruthy();
      expect(s.checkResponse(op, status, upsFixture(file)), file).toEqual([]);
    }
  });

  it.runIf(loadUpsSpecsAvailable())('the validator is not a rubber stamp: it refuses a request UPS would refuse', () => {
    const s = api.specs!;
    const url = new URL('http://x/api/rating/v2409/Shop');
    const bad = s.checkRequest(
      'POST',
      url,
      { 'content-type': 'application/json' },
      JSON.stringify({ RateRequest: { Request: {}, Shipment: { Shipper: {} } } }),
    );
    expect(bad.op?.operationId).toBe('Rate');
    expect(bad.problems.join('\n')).toMatch(/RequestOption|ShipTo|Package/);
    const wrongVersion = s.checkRequest('POST', new URL('http://x/api/rating/v1/Shop'), { 'content-type': 'application/json' }, '{}');
    expect(wrongVersion.problems.join('\n')).toMatch(/version must be v2409/);
    // Customs too: InternationalForms without its required Product, and a TermsOfShipment past 3 characters.
    const shipUrl = new URL('http://x/api/shipments/v2409/ship');
    const forms = { FormType: ['01'], TermsOfShipment: 'DDU_', InvoiceNumber: 'x' };
    const badForms = s.checkRequest(
      'POST',
      shipUrl,
      { 'content-type': 'application/json' },
      JSON.stringify({ ShipmentRequest: { Request: {}, Shipment: { ShipmentServiceOptions: { InternationalForms: forms } } } }),
    );
    expect(badForms.problems.join('\n')).toMatch(/Product/);
    expect(badForms.problems.join('\n')).toMatch(/TermsOfShipment/);
  });

  it('declares its credentials as JSON Schema 2020-12 with the secret write-only', () => {
    expect(upsCredentialsSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(upsCredentialsSchema.properties.client_secret.writeOnly).toBe(true);
    expect(upsCredentialsSchema.required).toEqual(['client_id', 'client_secret']);
  });

  it('maps service codes both ways and keeps an unknown UPS code', () => {
    expect(ourServiceCode('03')).toBe('ups_ground');
    expect(upsServiceCode('ups_ground')).toBe('03');
    expect(ourServiceCode('13')).toBe('ups_code_13');
    expect(upsServiceCode('ups_code_13')).toBe('13');
    expect(upsServiceCode('fedex_2day')).toBeNull();
    expect(mapUpsStatus('I', 'OT').status).toBe('out_for_delivery');
    expect(mapUpsStatus('ZZ', 'Q1').status).toBe('unknown');
  });
});

describe('UPS driver against the fake UPS', () => {
  it('success: Shop rates every service in one call with transit times, negotiated rates and surcharges', async () => {
    const res = await driver().rates(ctx(), rateRequest);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(api.fake.count('token')).toBe(1);
    expect(api.fake.count('rates')).toBe(1);
    const sent = api.fake.requests.find((r) => r.operation === 'rates')!;
    expect(sent.path).toBe('/api/rating/v2409/Shoptimeintransit');
    const body = JSON.parse(sent.body).RateRequest.Shipment;
    expect(body.Shipper.ShipperNumber).toBe('A1B2C3');
    expect(body.ShipTo.Address).toMatchObject({ PostalCode: '300051234', ResidentialAddressIndicator: 'Y', AddressLine: ['100 Peachtree Pkwy', 'Apt 4'] });
    expect(body.Package[0]).toMatchObject({ PackageWeight: { Weight: '2.5' }, Dimensions: { Length: '12', Width: '10', Height: '4' } });
    const ground = res.value.rates.find((r) => r.service_code === 'ups_ground')!;
    expect(ground).toMatchObject({
      carrier_service_code: '03',
      service_name: 'UPS Ground',
      zone: 5,
      price: { amount: 1642, currency: 'USD' },
      list_price: { amount: 2081, currency: 'USD' },
      negotiated: true,
      business_days: 3,
      transit_known: true,
      estimated_delivery_date: '2026-03-05',
      guaranteed: false,
      billable_weight_oz: 48,
    });
    expect(ground.surcharges).toEqual([
      { code: 'residential', amount: { amount: 585, currency: 'USD' } },
      { code: 'fuel', amount: { amount: 231, currency: 'USD' } },
    ]);
    expect(ground.other_charges).toEqual([{ carrier_code: '400', description: 'Peak/Demand Surcharge', amount: { amount: 90, currency: 'USD' } }]);
    expect(ground.base_price.amount + 585 + 231).toBe(1642);
    const air = res.value.rates.find((r) => r.service_code === 'ups_2nd_day_air')!;
    expect(air).toMatchObject({ guaranteed: true, business_days: 2, price: { amount: 3510 } });
    // An unknown UPS service is kept, under its raw code.
    expect(res.value.rates.find((r) => r.carrier_service_code === '13')).toMatchObject({
      service_code: 'ups_code_13',
      service_name: 'UPS Next Day Air Saver',
      negotiated: false,
    });
    expect(res.value.rates.map((r) => r.price.amount)).toEqual([1642, 3510, 7687]);
    expectCleanExchange();
  });

  it('asks only for the services requested and lists the missing ones as unavailable', async () => {
    const res = await driver().rates(ctx(), { ...rateRequest, service_codes: ['ups_ground', 'ups_next_day_air'] });
    expect(res.ok && res.value.rates.map((r) => r.service_code)).toEqual(['ups_ground']);
    expect(res.ok && res.value.unavailable).toEqual([{ service_code: 'ups_next_day_air', reason: 'not_offered_by_carrier' }]);
  });

  it("several packages' rates: one Package entry each, totals and per-package surcharges summed", async () => {
    const res = await driver().rates(ctx(), { ...rateRequest, parcels: [parcel, { weight_oz: 160, length_in: 20, width_in: 12, height_in: 12 }] });
    const body = JSON.parse(api.fake.requests.find((r) => r.operation === 'rates')!.body).RateRequest.Shipment;
    expect(body.Package).toHaveLength(2);
    expect(body.NumOfPieces).toBe('2');
    expect(body.ShipmentTotalWeight.Weight).toBe('12.5');
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const ground = res.value.rates.find((r) => r.service_code === 'ups_ground')!;
    expect(ground).toMatchObject({ price: { amount: 3140 }, negotiated: false, billable_weight_oz: 208 });
    expect(ground.surcharges).toEqual([{ code: 'fuel', amount: { amount: 470, currency: 'USD' } }]);
    expect(res.value.rates.find((r) => r.service_code === 'ups_next_day_air')).toMatchObject({ guaranteed: true, business_days: 1, transit_known: true });
    expectCleanExchange();
  });

  it('refused credentials: a distinct invalid_credentials outcome, for rates and for testCredentials', async () => {
    const bad = ctx({ credentials: { client_id: 'fake-client-id', client_secret: 'wrong' } });
    const res = await driver().rates(bad, rateRequest);
    expect(res).toEqual({
      ok: false,
      kind: 'invalid_credentials',
      messages: [{ code: 'carrier_account_invalid', carrier_code: '250002', message: 'Invalid Authentication Information.' }],
    });
    expect(api.fake.count('rates')).toBe(0);
    const test = await driver().testCredentials(bad);
    expect(test.ok).toBe(false);
    expect(!test.ok && test.kind).toBe('invalid_credentials');
    const good = await driver().testCredentials(ctx());
    expect(good.ok).toBe(true);
    expect(JSON.stringify(exchanges)).not.toContain('wrong');
    expectCleanExchange();
  });

  it('a token that expires mid-session: the 401 refetches one token and the call succeeds', async () => {
    const c = ctx();
    const d = driver();
    expect((await d.rates(c, rateRequest)).ok).toBe(true);
    expect((await d.track(c, { tracking_number: '1ZFAKE000000000001' })).ok).toBe(true);
    expect(api.fake.count('token')).toBe(1);
    api.fake.expireTokens();
    const again = await d.rates(c, rateRequest);
    expect(again.ok).toBe(true);
    expect(api.fake.count('token')).toBe(2);
    expect(api.fake.requests.filter((r) => r.operation === 'rates').map((r) => r.path)).toHaveLength(3);
    expectCleanExchange();
  });

  it('concurrent calls on a cold account share one token fetch', async () => {
    const c = ctx();
    const d = driver();
    const all = await Promise.all([d.rates(c, rateRequest), d.rates(c, rateRequest), d.track(c, { tracking_number: '1ZFAKE000000000001' })]);
    expect(all.every((r) => r.ok)).toBe(true);
    expect(api.fake.count('token')).toBe(1);
  });

  it('429 with Retry-After: rates wait as told and retry', async () => {
    api.fake.queue('rates', { status: 429, headers: { 'retry-after': '2' }, body: upsFixture('error-rate-limit') });
    const res = await driver().rates(ctx({}, 20_000), rateRequest);
    expect(res.ok).toBe(true);
    expect(sleeps).toEqual([2000]);
    expect(api.fake.count('rates')).toBe(2);
    expectCleanExchange();
  });

  it('503 then 500: rates retry twice, then fail with a retryable transport error', async () => {
    api.fake.queue('rates', { status: 503, headers: { 'retry-after': '1' } }, { status: 500 }, { status: 503 });
    const err = await driver()
      .rates(ctx({}, 20_000), rateRequest)
      .catch((e) => e);
    expect(err).toBeInstanceOf(CarrierTransportError);
    expect(err).toMatchObject({ slug: 'ups', kind: 'server_error', status: 503, retryable: true });
    expect(api.fake.count('rates')).toBe(3);
    expect(sleeps[0]).toBe(1000);
  });

  it('an account failing 5 times in a row opens its breaker: the next call fails fast, other accounts still call', async () => {
    const c = ctx({}, 20_000);
    const d = driver();
    await d.testCredentials(c);
    api.fake.queue('rates', ...Array.from({ length: 5 }, () => ({ status: 503 })));
    await d.rates(c, rateRequest).catch(() => undefined); // 3 attempts
    api.fake.queue('rates', { status: 503 }, { status: 503 });
    await d.rates(c, rateRequest).catch(() => undefined); // 2 more: open
    const before = api.fake.count('rates');
    expect(before).toBe(5);
    const fast = await d.rates(c, rateRequest).catch((e) => e);
    expect(fast).toMatchObject({ kind: 'circuit_open', retryable: true });
    expect(api.fake.count('rates')).toBe(before);
    expect((await d.rates(ctx(), rateRequest)).ok).toBe(true);
  });

  it('500 on label purchase: never retried', async () => {
    api.fake.queue('ship', { status: 500 });
    const err = await driver()
      .purchase(ctx(), purchase())
      .catch((e) => e);
    expect(err).toMatchObject({ kind: 'server_error', status: 500 });
    expect(api.fake.count('ship')).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('a hang past the deadline: a retryable timeout at the deadline, not later', async () => {
    api.fake.queue('track', { hang: true });
    const c = ctx({}, 400);
    const d = driver();
    await d.testCredentials(c); // token fetched first, so the deadline is the track call's alone
    const started = Date.now();
    const err = await d.track(c, { tracking_number: '1ZFAKE000000000001' }).catch((e) => e);
    const took = Date.now() - started;
    expect(err).toMatchObject({ kind: 'timeout', retryable: true });
    expect(took).toBeGreaterThanOrEqual(380);
    expect(took).toBeLessThan(3000);
  });

  it('a malformed body: a transport error, retryable for rates but not for a purchase', async () => {
    api.fake.queue('rates', { status: 200, raw: '<html><body>Service Temporarily Unavailable' });
    const rates = await driver()
      .rates(ctx(), rateRequest)
      .catch((e) => e);
    expect(rates).toMatchObject({ kind: 'malformed_response', retryable: true });
    api.fake.queue('ship', { status: 200, raw: '{"ShipmentResponse": {"Response": ' });
    const buy = await driver()
      .purchase(ctx(), purchase())
      .catch((e) => e);
    expect(buy).toMatchObject({ kind: 'malformed_response', retryable: false });
    // JSON but not a ShipmentResponse: also unusable, also not retryable.
    api.fake.queue('ship', {
      status: 200,
      body: {
        ShipmentResponse: {
          Response: { ResponseStatus: { Code: '1', Description: 'Success' } },
          ShipmentResults: { BillingWeight: { UnitOfMeasurement: { Code: 'LBS' }, Weight: '000003.0' } },
        },
      },
    });
    const empty = await driver()
      .purchase(ctx(), purchase())
      .catch((e) => e);
    expect(empty).toMatchObject({ kind: 'malformed_response', retryable: false });
  });

  it('business rejections: invalid postal code and service unavailable come back as normalised messages', async () => {
    api.fake.queue('rates', { status: 400, body: upsFixture('error-invalid-postal') });
    const rates = await driver().rates(ctx(), { ...rateRequest, ship_to: { ...to, postal_code: '99999' } });
    expect(rates).toEqual({
      ok: false,
      kind: 'rejected',
      messages: [
        { code: 'carrier_rejected', carrier_code: '111285', message: 'The postal code 99999 is invalid for GA United States.', field: 'ship_to.postal_code' },
      ],
    });
    api.fake.queue('ship', { status: 400, body: upsFixture('error-service-unavailable') });
    const buy = await driver().purchase(ctx(), purchase());
    expect(buy).toEqual({
      ok: false,
      kind: 'rejected',
      messages: [
        {
          code: 'carrier_rejected',
          carrier_code: '111210',
          message: 'The requested service is unavailable between the selected locations.',
          field: 'service_code',
        },
      ],
    });
    expect(api.fake.count('rates') + api.fake.count('ship')).toBe(2); // a 400 is never retried
    expectCleanExchange();
  });

  it.each(['GIF', 'PNG', 'ZPL'] as const)('buys a %s 4x6 label, kept exactly as UPS returned it', async (image) => {
    const res = await driver().purchase(ctx(), purchase(image));
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const sent = JSON.parse(api.fake.requests.find((r) => r.operation === 'ship')!.body).ShipmentRequest;
    expect(sent.LabelSpecification).toEqual({ LabelImageFormat: { Code: image }, LabelStockSize: { Height: '6', Width: '4' } });
    expect(sent.Shipment.Shipper.ShipperNumber).toBe('A1B2C3');
    expect(sent.Shipment.PaymentInformation.ShipmentCharge[0].BillShipper.AccountNumber).toBe('A1B2C3');
    expect(sent.Shipment.Service.Code).toBe('03');
    expect(res.value.label.format).toBe(image);
    expect(res.value.label.mime).toBe({ GIF: 'image/gif', PNG: 'image/png', ZPL: 'application/x-zpl' }[image]);
    expect(res.value.label.bytes.equals(FAKE_LABELS[image])).toBe(true);
    expect(res.value.tracking_number).toMatch(/^1ZFAKE\d{12}$/);
    expect(res.value.rate).toMatchObject({ service_code: 'ups_ground', price: { amount: 1642 }, list_price: { amount: 2081 }, negotiated: true });
    expectCleanExchange();
  });

  it('a label issued then voided; voiding again is a rejection', async () => {
    const c = ctx();
    const bought = await driver().purchase(c, { ...purchase(), parcels: [parcel, parcel] });
    expect(bought.ok).toBe(true);
    if (!bought.ok) return;
    expect(bought.value.packages).toHaveLength(2);
    expect(api.fake.shipments.get(bought.value.carrier_shipment_id)?.voided).toBe(false);
    const voided = await driver().void(c, { carrier_shipment_id: bought.value.carrier_shipment_id });
    expect(voided).toEqual({ ok: true, value: { voided: true } });
    expect(api.fake.shipments.get(bought.value.carrier_shipment_id)?.voided).toBe(true);
    const again = await driver().void(c, { carrier_shipment_id: bought.value.carrier_shipment_id });
    expect(again).toMatchObject({ ok: false, kind: 'rejected', messages: [{ carrier_code: '190117' }] });
    expectCleanExchange();
  });

  it('a multi-piece void names every package (trackingnumber as a bracketed list); the master alone leaves the others live', async () => {
    const c = ctx();
    const bought = await driver().purchase(c, { ...purchase(), parcels: [parcel, parcel, parcel] });
    if (!bought.ok) throw new Error('purchase failed');
    const numbers = bought.value.packages.map((p) => p.tracking_number);
    expect(new Set(numbers).size).toBe(3);
    expect(bought.value.tracking_number).toBe(numbers[0]);
    const partial = await driver().void(c, { carrier_shipment_id: bought.value.carrier_shipment_id, tracking_numbers: [numbers[0]!] });
    expect(partial.ok).toBe(true);
    expect(api.fake.shipments.get(bought.value.carrier_shipment_id)?.voided).toBe(false);
    const whole = await driver().void(c, { carrier_shipment_id: bought.value.carrier_shipment_id, tracking_numbers: numbers });
    expect(whole.ok).toBe(true);
    const sent = new URL(api.fake.requests.filter((r) => r.operation === 'void').at(-1)!.path, 'http://x').searchParams.get('trackingnumber');
    expect(JSON.parse(sent!)).toEqual(numbers);
    expect(api.fake.shipments.get(bought.value.carrier_shipment_id)?.voided).toBe(true);
    expectCleanExchange();
  });

  it('an international purchase sends customs in InternationalForms (invoice, products, terms) and returns the invoice UPS printed', async () => {
    const res = await driver().purchase(ctx(), {
      ...purchase(),
      service_code: 'ups_worldwide_saver',
      ship_to: londonAddress,
      residential: false,
      route: ukRoute,
      customs: ukCustoms,
    });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const shipment = JSON.parse(api.fake.requests.find((r) => r.operation === 'ship')!.body).ShipmentRequest.Shipment;
    expect(shipment.Description).toBe('Cotton T-shirt, Ceramic coffee mug');
    expect(shipment.InvoiceLineTotal).toBeUndefined(); // US → CA/PR only
    // DDP: duties and taxes billed to the shipper beside the transportation charge.
    expect(shipment.PaymentInformation.ShipmentCharge).toEqual([
      { Type: '01', BillShipper: { AccountNumber: 'A1B2C3' } },
      { Type: '02', BillShipper: { AccountNumber: 'A1B2C3' } },
    ]);
    const forms = shipment.ShipmentServiceOptions.InternationalForms;
    expect(forms).toMatchObject({
      FormType: ['01'],
      InvoiceNumber: 'shp_01TESTREFERENCE',
      InvoiceDate: '20260302',
      TermsOfShipment: 'DDP',
      ReasonForExport: 'SALE',
      CurrencyCode: 'USD',
      Comments: 'NOEEI 30.37(a)',
      Contacts: {
        SoldTo: {
          Name: 'Importer Ltd',
          AttentionName: 'Alex Importer',
          TaxIdentificationNumber: 'GB123456789',
          Address: { City: 'London', PostalCode: 'SW1A2AA', CountryCode: 'GB' },
        },
      },
    });
    expect(forms.DeclarationStatement).toMatch(/true and correct.*Signed: Dock Lead$/);
    expect(forms.Product).toEqual([
      {
        Description: ['Cotton T-shirt'],
        Unit: { Number: '3', UnitOfMeasurement: { Code: 'PCS' }, Value: '12.50' },
        OriginCountryCode: 'US',
        ProductWeight: { UnitOfMeasurement: { Code: 'LBS' }, Weight: '1.2' },
        CommodityCode: '610910',
        PartNumber: 'TS-001',
      },
      {
        Description: ['Ceramic coffee mug'],
        Unit: { Number: '2', UnitOfMeasurement: { Code: 'PCS' }, Value: '8.99' },
        OriginCountryCode: 'CN',
        ProductWeight: { UnitOfMeasurement: { Code: 'LBS' }, Weight: '1.5' },
        CommodityCode: '69120048',
      },
    ]);
    // The commercial invoice UPS printed comes back decoded beside the label.
    expect(res.value.documents).toEqual([{ type: 'commercial_invoice', artifact: { format: 'PDF', mime: 'application/pdf', bytes: FAKE_FORM_PDF } }]);
    expect(res.value.label.format).toBe('GIF');
    expectCleanExchange();
  });

  it('customs with an ITN, DDU and a line to Canada: the ITN on the invoice, DAP terms, InvoiceLineTotal, no duties charge', async () => {
    const res = await driver().purchase(ctx(), {
      ...purchase(),
      service_code: 'ups_worldwide_saver',
      ship_to: { name: 'Sam Buyer', street1: '1 Yonge St', city: 'Toronto', state: 'ON', postal_code: 'M5E 1E5', country: 'CA' },
      route: { ...ukRoute, destination_country: 'CA', international_group: 'ca_mx', international_zone: 1 },
      customs: { ...ukCustomsWithItn, contents_type: 'other', contents_explanation: 'Trade show display' },
    });
    expect(res.ok).toBe(true);
    const shipment = JSON.parse(api.fake.requests.find((r) => r.operation === 'ship')!.body).ShipmentRequest.Shipment;
    expect(shipment.InvoiceLineTotal).toEqual({ CurrencyCode: 'USD', MonetaryValue: '56' });
    expect(shipment.PaymentInformation.ShipmentCharge).toHaveLength(1);
    expect(shipment.ShipmentServiceOptions.InternationalForms).toMatchObject({
      TermsOfShipment: 'DAP',
      ReasonForExport: 'Trade show display',
      Comments: 'AES X20260302123456',
    });
    expectCleanExchange();
  });

  it('a domestic purchase sends no customs and gets no documents', async () => {
    const res = await driver().purchase(ctx(), purchase());
    expect(res.ok && res.value.documents).toBeUndefined();
    const shipment = JSON.parse(api.fake.requests.find((r) => r.operation === 'ship')!.body).ShipmentRequest.Shipment;
    expect(shipment.ShipmentServiceOptions).toBeUndefined();
    expect(shipment.Description).toBeUndefined();
    expect(shipment.PaymentInformation.ShipmentCharge).toHaveLength(1);
    expectCleanExchange();
  });

  it('a return label: ReturnService 9 (print return label), the merchant as Shipper, package descriptions, and a partial invoice for an international return', async () => {
    // A return: the customer (ship_from) sends the parcel back to the merchant (ship_to).
    const res = await driver().purchase(ctx(), { ...purchase(), ship_from: to, ship_to: from, residential: false, is_return: true });
    expect(res.ok).toBe(true);
    const shipment = JSON.parse(api.fake.requests.find((r) => r.operation === 'ship')!.body).ShipmentRequest.Shipment;
    expect(shipment.ReturnService).toEqual({ Code: '9', Description: 'UPS Print Return Label' });
    expect(shipment.Shipper).toMatchObject({ Name: 'Acme Widgets', ShipperNumber: 'A1B2C3', Address: { City: 'Timonium' } });
    expect(shipment.ShipFrom.Address.City).toBe('Alpharetta');
    expect(shipment.ShipTo.Address.City).toBe('Timonium');
    expect(shipment.Description).toBe('Returned merchandise');
    expect(shipment.Package[0].Description).toBe('Returned merchandise');
    expectCleanExchange();
    api.fake.reset();
    const intl = await driver().purchase(ctx(), {
      ...purchase(),
      service_code: 'ups_worldwide_saver',
      ship_from: londonAddress,
      ship_to: from,
      route: { ...ukRoute, origin_country: 'GB', destination_country: 'US' },
      customs: { ...ukCustoms, contents_type: 'return_merchandise', incoterm: 'DDU' },
      is_return: true,
    });
    expect(intl.ok).toBe(true);
    const forms = JSON.parse(api.fake.requests.find((r) => r.operation === 'ship')!.body).ShipmentRequest.Shipment.ShipmentServiceOptions.InternationalForms;
    expect(forms).toMatchObject({ FormType: ['05'], ReasonForExport: 'RETURN' });
    expectCleanExchange();
  });

  it('a purchase without a shipper number is refused before calling UPS', async () => {
    const res = await driver().purchase(ctx({ account_number: null }), purchase());
    expect(res).toMatchObject({ ok: false, kind: 'invalid_credentials' });
    expect(api.fake.requests).toHaveLength(0);
  });

  it('tracks: UPS status types mapped to ours, oldest first, raw codes kept, unmapped → unknown', async () => {
    const res = await driver().track(ctx(), { tracking_number: '1ZFAKE000000000007' });
    expect(api.fake.requests.find((r) => r.operation === 'track')!.path).toMatch(/^\/api\/track\/v1\/details\/1ZFAKE000000000007\?locale=en_US/);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.value).toMatchObject({
      status: 'delivered',
      status_detail: 'delivered',
      delivered_at: '2026-03-05T19:23:00Z',
      estimated_delivery_date: '2026-03-05',
    });
    expect(res.value.events.map((e) => [e.status, e.carrier_status_type, e.carrier_status_code])).toEqual([
      ['unknown', 'ZZ', 'Q1'],
      ['pre_transit', 'M', 'MP'],
      ['in_transit', 'P', 'PU'],
      ['in_transit', 'I', 'AR'],
      ['out_for_delivery', 'I', 'OT'],
      ['delivered', 'D', 'KB'],
    ]);
    expect(res.value.events[2]).toMatchObject({
      occurred_at: '2026-03-02T22:30:00.000Z',
      milestone: 'picked_up',
      location: { city: 'Timonium', state: 'MD', country: 'US', postal_code: null },
    });
    expect(res.value.events[5].description).toBe('DELIVERED');
  });

  it('tracking a number UPS does not know is a rejection on tracking_number', async () => {
    api.fake.queue('track', { body: upsFixture('track-not-found') });
    const res = await driver().track(ctx(), { tracking_number: '1ZFAKE999999999999' });
    expect(res).toMatchObject({ ok: false, kind: 'rejected', messages: [{ carrier_code: 'TW0001', field: 'tracking_number' }] });
  });

  it('validates an address at street level: corrected + residential, or invalid', async () => {
    const input = { street1: '26601 west agoura road', city: 'Calabasas', state: 'CA', postal_code: '91302', country: 'US' };
    const res = await driver().validateAddress(ctx(), input);
    const sent = api.fake.requests.find((r) => r.operation === 'xav')!;
    expect(sent.path).toBe('/api/addressvalidation/v2/3?maximumcandidatelistsize=5');
    expect(JSON.parse(sent.body).XAVRequest.AddressKeyFormat).toEqual({
      AddressLine: ['26601 west agoura road'],
      PoliticalDivision2: 'Calabasas',
      PoliticalDivision1: 'CA',
      PostcodePrimaryLow: '91302',
      CountryCode: 'US',
    });
    expect(res).toMatchObject({
      ok: true,
      value: { status: 'corrected', residential: 'yes', normalized: { street1: '26601 W AGOURA RD', city: 'CALABASAS', postal_code: '91302-1954' } },
    });
    api.fake.queue('xav', { body: upsFixture('xav-none') });
    const none = await driver().validateAddress(ctx(), input);
    expect(none).toMatchObject({ ok: true, value: { status: 'invalid', normalized: null } });
    expectCleanExchange();
  });

  it('schedules and cancels a pickup', async () => {
    const c = ctx();
    const res = await driver().schedulePickup(c, {
      pickup_date: '2026-03-03',
      ready_time: '0900',
      close_time: '1700',
      address: from,
      residential: false,
      pieces: [{ service_code: 'ups_ground', quantity: 3, destination_country: 'US' }],
      instructions: 'Dock door 4',
    });
    expect(res).toEqual({ ok: true, value: { confirmation: '2929602E9CP', charge: { amount: 850, currency: 'USD' } } });
    const sent = JSON.parse(api.fake.requests.find((r) => r.operation === 'pickup')!.body).PickupCreationRequest;
    expect(sent.PickupDateInfo).toEqual({ CloseTime: '1700', ReadyTime: '0900', PickupDate: '20260303' });
    expect(sent.PickupPiece).toEqual([{ ServiceCode: '003', Quantity: '3', DestinationCountryCode: 'US', ContainerCode: '01' }]);
    const cancel = await driver().cancelPickup(c, { confirmation: '2929602E9CP' });
    expect(cancel).toEqual({ ok: true, value: { cancelled: true } });
    const del = api.fake.requests.find((r) => r.operation === 'pickup_cancel')!;
    expect(del.path).toBe('/api/shipments/v2409/pickup/02');
    expect(del.headers.prn).toBe('2929602E9CP');
    expectCleanExchange();
  });

  it('logs every exchange per account with redacted bodies', async () => {
    const c = ctx();
    await driver().rates(c, rateRequest);
    expect(exchanges.map((e) => [e.operation, e.method, e.path, e.status])).toEqual([
      ['token', 'POST', '/security/v1/oauth/token', 200],
      ['rates', 'POST', '/api/rating/v2409/Shoptimeintransit', 200],
    ]);
    expect(exchanges.every((e) => e.account_id === c.account.id && e.request_id === c.requestId)).toBe(true);
    expect(exchanges[0].request_headers.authorization).toBe('[REDACTED]');
    expect((exchanges[0].response_body as Record<string, unknown>).access_token).toBe('[REDACTED]');
    expect(exchanges[1].request_headers.authorization).toBe('[REDACTED]');
    expectCleanExchange();
  });
});

function loadUpsSpecsAvailable(): boolean {
  // Evaluated at collection time, before beforeAll: check the folder, not the parsed specs.
  return existsSyncSafe();
}
describe("UPS's own packaging (packages.ts carrier_code)", () => {
  const letter = { weight_oz: 6, length_in: 12.5, width_in: 9.5, height_in: 0.5, package_id: 'ups_letter' };
  const pak = { weight_oz: 40, length_in: 16, width_in: 12.75, height_in: 1, package_id: 'ups_pak' };

  it('a UPS Letter is rated as PackagingType 01: the letter rate of the air services, no Ground', async () => {
    const res = await driver().rates(ctx(), { ...rateRequest, parcel: letter });
    const sent = JSON.parse(api.fake.requests.find((r) => r.operation === 'rates')!.body).RateRequest.Shipment;
    expect(sent.Package[0].PackagingType).toEqual({ Code: '01', Description: 'UPS Letter (Express Envelope)' });
    if (!res.ok) throw new Error('rates failed');
    expect(res.value.rates.map((r) => r.carrier_service_code).sort()).toEqual(['02', '13']);
    expect(res.value.rates.find((r) => r.service_code === 'ups_2nd_day_air')!.price.amount).toBe(FAKE_UPS_LETTER_RATES['02']);
    expectCleanExchange();
  });

  it("a UPS Pak is shipped as Packaging 04; the shipper's own box stays 02", async () => {
    const bought = await driver().purchase(ctx(), { ...purchase(), parcel: pak, parcels: [pak, parcel] });
    expect(bought.ok).toBe(true);
    const shipped = JSON.parse(api.fake.requests.find((r) => r.operation === 'ship')!.body).ShipmentRequest.Shipment;
    expect(shipped.Package.map((p: { Packaging: { Code: string } }) => p.Packaging.Code)).toEqual(['04', '02']);
    expectCleanExchange();
  });

  it('a UPS Letter bought by air is charged the letter rate; by Ground, UPS refuses it', async () => {
    const air = await driver().purchase(ctx(), { ...purchase(), service_code: 'ups_2nd_day_air', parcel: letter });
    if (!air.ok) throw new Error('purchase failed');
    expect(JSON.parse(api.fake.requests.find((r) => r.operation === 'ship')!.body).ShipmentRequest.Shipment.Package[0].Packaging.Code).toBe('01');
    expect(air.value.rate?.price.amount).toBe(FAKE_UPS_LETTER_RATES['02']);
    const ground = await driver().purchase(ctx(), { ...purchase(), parcel: letter });
    expect(ground).toMatchObject({ ok: false, kind: 'rejected', messages: [{ carrier_code: '111500' }] });
    expect(api.fake.violations).toEqual([]);
  });
});

import { existsSync } from 'node:fs';
import { UPS_SPEC_DIR } from '../../../../test/helpers/ups-spec.js';
function existsSyncSafe() {
  return existsSync(UPS_SPEC_DIR);
}
