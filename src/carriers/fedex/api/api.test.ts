import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SHIP_FROM, US_ROUTE, useCarrierApiTest } from '../../../../test/helpers/carrier-api.js';
import { londonAddress, ukCustoms, ukCustomsWithItn, ukRoute, UK_CUSTOMS_TOTAL_MINOR } from '../../../../test/helpers/driver-customs.js';
import {
  FAKE_FEDEX_INVOICE,
  FAKE_FEDEX_LABELS,
  FAKE_FEDEX_ONE_RATE,
  FAKE_FEDEX_SETUP,
  FEDEX_FIXTURES_DIR,
  fedexFixture,
} from '../../../../test/helpers/fake-fedex.js';
import { FEDEX_SPEC_DIR } from '../../../../test/helpers/fedex-spec.js';
import type { ApiPurchaseRequest, ApiRateRequest } from '../../driver.js';
import { CarrierTransportError } from '../../http/errors.js';
import { createFedexApiDriver } from './client.js';
import { fedexCredentialsSchema, FEDEX_HOSTS } from './credentials.js';

// FedEx's documents are large (the Ship description alone is 640 kB): loaded once for this file.
const SPECS_PRESENT = existsSync(FEDEX_SPEC_DIR);
const api = useCarrierApiTest({
  ...FAKE_FEDEX_SETUP,
  idPrefix: 'fedex',
  secrets: ['fake-secret-key', /tok_[0-9a-f]{24}/],
});
const { sleeps, exchanges, ctx, expectCleanExchange } = api;
const driver = () => createFedexApiDriver(api.http);

const from = SHIP_FROM;
const to = { name: 'Pat Buyer', street1: '100 Peachtree Pkwy', street2: 'Apt 4', city: 'Alpharetta', state: 'GA', postal_code: '30005-1234', country: 'US' };
const parcel = { weight_oz: 40, length_in: 12, width_in: 9.5, height_in: 4 };
const rateRequest: ApiRateRequest = { ship_from: from, ship_to: to, parcel, ship_date: '2026-03-02', residential: true, route: US_ROUTE };
const purchase = (label_image: ApiPurchaseRequest['label_image'] = 'PDF', service_code = 'fedex_home_delivery'): ApiPurchaseRequest => ({
  ...rateRequest,
  service_code,
  reference: 'shp_01TESTREFERENCE',
  purchased_at: '2026-03-02T15:00:00.000Z',
  label_image,
});

describe('FedEx published description', () => {
  it.runIf(SPECS_PRESENT)('every recorded fixture validates against its FedEx response schema', () => {
    const s = api.specs!;
    const byFile: Record<string, [string, number]> = {
      token: ['API Authorization', 200],
      'rate-quotes': ['Rate and Transit times', 200],
      'rate-quotes-multi': ['Rate and Transit times', 200],
      ship: ['Create Shipment', 200],
      'ship-international': ['Create Shipment', 200],
      cancel: ['Cancel Shipment', 200],
      'track-delivered': ['Track by Tracking Number', 200],
      'track-not-found': ['Track by Tracking Number', 200],
      'address-resolved': ['Validate Address', 200],
      'pickup-create': ['Create Pickup', 200],
      'pickup-cancel': ['Cancel Pickup', 200],
      close: ['groundPerformEndOfDayClose', 200],
      'error-auth': ['API Authorization', 401],
      'error-token-expired': ['Rate and Transit times', 401],
      'error-invalid-postal': ['Rate and Transit times', 400],
      'error-service-unavailable': ['Create Shipment', 400],
      'error-cancel': ['Cancel Shipment', 400],
      'error-internal': ['Rate and Transit times', 500],
      'error-unavailable': ['Rate and Transit times', 503],
      'error-address-not-found': ['Validate Address', 400],
      // FedEx documents no 429; its body has the shape of every other FedEx error.
      'error-rate-limit': ['Rate and Transit times', 400],
    };
    const files = readdirSync(FEDEX_FIXTURES_DIR).map((f) => f.replace(/\.json$/, ''));
    expect(files.sort()).toEqual(Object.keys(byFile).sort());
    for (const [file, [operationId, status]] of Object.entries(byFile)) {
      const op = s.ops.find((o) => o.operationId === operationId)!;
      expect(op, operationId).toBeTruthy();
      expect(s.checkResponse(op, status, fedexFixture(file)), file).toEqual([]);
    }
  });

  it.runIf(SPECS_PRESENT)('the validator is not a rubber stamp: it refuses a request FedEx would refuse', () => {
    const s = api.specs!;
    const headers = { 'content-type': 'application/json', authorization: 'Bearer x' };
    const bad = s.checkRequest('POST', new URL('http://x/rate/v1/rates/quotes'), headers, JSON.stringify({ requestedShipment: { shipper: {} } }));
    expect(bad.op?.operationId).toBe('Rate and Transit times');
    expect(bad.problems.join('\n')).toMatch(/accountNumber|recipient|pickupType|requestedPackageLineItems/);
    const wrongEnum = s.checkRequest(
      'POST',
      new URL('http://x/ship/v1/shipments'),
      headers,
      JSON.stringify({ labelResponseOptions: 'PAPER', accountNumber: { value: '1' }, requestedShipment: {} }),
    );
    expect(wrongEnum.problems.join('\n')).toMatch(/labelResponseOptions|allowed values/);
    const noAuth = s.checkRequest(
      'PUT',
      new URL('http://x/ship/v1/shipments/cancel'),
      { 'content-type': 'application/json' },
      JSON.stringify({ accountNumber: { value: '1' }, trackingNumber: '1' }),
    );
    expect(noAuth.problems).toContain('header parameter authorization is required');
  });

  it('declares its credentials as JSON Schema 2020-12 with the secret key write-only, and FedEx hosts per mode', () => {
    expect(fedexCredentialsSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(fedexCredentialsSchema.properties.secret_key.writeOnly).toBe(true);
    expect('writeOnly' in fedexCredentialsSchema.properties.api_key).toBe(false);
    expect(fedexCredentialsSchema.required).toEqual(['api_key', 'secret_key']);
    expect(FEDEX_HOSTS).toEqual({ sandbox: 'https://apis-sandbox.fedex.com', production: 'https://apis.fedex.com' });
  });
});

describe('FedEx driver against the fake FedEx', () => {
  it('success: every service in one quote, the account price preferred, the list price kept, transit and surcharges', async () => {
    const res = await driver().rates(ctx(), rateRequest);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(api.fake.count('token')).toBe(1);
    expect(api.fake.count('rates')).toBe(1);
    const token = api.fake.requests.find((r) => r.operation === 'token')!;
    expect(token.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(token.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'fake-api-key',
      client_secret: 'fake-secret-key',
    });
    const body = api.fake.lastBody('rates');
    expect(body.accountNumber).toEqual({ value: '740561073' });
    expect(body.requestedShipment).toMatchObject({
      rateRequestType: ['ACCOUNT', 'LIST'],
      shipDateStamp: '2026-03-02',
      totalPackageCount: 1,
      totalWeight: 2.5,
      recipient: { address: { postalCode: '30005-1234', stateOrProvinceCode: 'GA', countryCode: 'US', residential: true } },
    });
    expect(body.requestedShipment.serviceType).toBeUndefined();
    expect(body.requestedShipment.requestedPackageLineItems).toEqual([
      { groupPackageCount: 1, weight: { units: 'LB', value: 2.5 }, dimensions: { length: 12, width: 10, height: 4, units: 'IN' } },
    ]);
    const home = res.value.rates.find((r) => r.service_code === 'fedex_home_delivery')!;
    expect(home).toMatchObject({
      carrier_service_code: 'GROUND_HOME_DELIVERY',
      service_name: 'FedEx Home Delivery',
      zone: 5,
      price: { amount: 1507, currency: 'USD' },
      list_price: { amount: 1985, currency: 'USD' },
      negotiated: true,
      business_days: 3,
      transit_known: true,
      estimated_delivery_date: '2026-03-05',
      guaranteed: false,
      billable_weight_oz: 48,
      dim_weight_oz: 48,
      dim_divisor: 139,
      dim_divisor_unit: 'in3_per_lb',
    });
    expect(home.surcharges).toEqual([
      { code: 'fuel', amount: { amount: 176, currency: 'USD' } },
      { code: 'residential', amount: { amount: 299, currency: 'USD' } },
    ]);
    expect(home.other_charges).toEqual([{ carrier_code: 'PEAK', description: 'Peak Surcharge', amount: { amount: 80, currency: 'USD' } }]);
    expect(home.base_price.amount + 176 + 299).toBe(1507);
    // No transit days given: counted in weekdays from the ship date to FedEx's commit date.
    expect(res.value.rates.find((r) => r.service_code === 'fedex_2day')).toMatchObject({
      guaranteed: true,
      business_days: 2,
      estimated_delivery_date: '2026-03-04',
      price: { amount: 3140 },
      list_price: { amount: 3810 },
    });
    // A service we have no code for is kept under its raw one, at its list price.
    expect(res.value.rates.find((r) => r.carrier_service_code === 'PRIORITY_OVERNIGHT')).toMatchObject({
      service_code: 'fedex_priority_overnight',
      service_name: 'FedEx Priority Overnight',
      negotiated: false,
      price: { amount: 7215 },
      list_price: { amount: 7215 },
      business_days: 1,
      guaranteed: true,
    });
    expect(res.value.rates.map((r) => r.price.amount)).toEqual([1507, 3140, 7215]);
    expectCleanExchange();
  });

  it('one service asked for is sent as serviceType; several are filtered here, the missing ones listed as unavailable', async () => {
    await driver().rates(ctx(), { ...rateRequest, service_codes: ['fedex_2day'] });
    expect(api.fake.lastBody('rates').requestedShipment.serviceType).toBe('FEDEX_2_DAY');
    const res = await driver().rates(ctx(), { ...rateRequest, service_codes: ['fedex_home_delivery', 'fedex_standard_overnight'] });
    expect(api.fake.lastBody('rates').requestedShipment.serviceType).toBeUndefined();
    expect(res.ok && res.value.rates.map((r) => r.service_code)).toEqual(['fedex_home_delivery']);
    expect(res.ok && res.value.unavailable).toEqual([{ service_code: 'fedex_standard_overnight', reason: 'not_offered_by_carrier' }]);
    expectCleanExchange();
  });

  it("several packages' rates: one line item each, totals, and package-level surcharges summed", async () => {
    const res = await driver().rates(ctx(), { ...rateRequest, parcels: [parcel, { weight_oz: 160, length_in: 20, width_in: 12, height_in: 12 }] });
    const body = api.fake.lastBody('rates').requestedShipment;
    expect(body.requestedPackageLineItems).toHaveLength(2);
    expect(body.totalPackageCount).toBe(2);
    expect(body.totalWeight).toBe(12.5);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const home = res.value.rates.find((r) => r.service_code === 'fedex_home_delivery')!;
    expect(home).toMatchObject({
      price: { amount: 3588 },
      list_price: { amount: 3588 },
      negotiated: true,
      billable_weight_oz: 208,
      business_days: 3,
      transit_known: true,
      dim_weight_oz: null,
    });
    expect(home.surcharges).toEqual([
      { code: 'fuel', amount: { amount: 506, currency: 'USD' } },
      { code: 'residential', amount: { amount: 598, currency: 'USD' } },
    ]);
    expect(res.value.rates.find((r) => r.service_code === 'fedex_standard_overnight')).toMatchObject({
      guaranteed: true,
      business_days: 1,
      price: { amount: 11840 },
      list_price: { amount: 14102 },
    });
    expectCleanExchange();
  });

  it('refused credentials: a distinct invalid_credentials outcome, for rates and for testCredentials', async () => {
    const bad = ctx({ credentials: { api_key: 'fake-api-key', secret_key: 'wrong-secret' } });
    const res = await driver().rates(bad, rateRequest);
    expect(res).toEqual({
      ok: false,
      kind: 'invalid_credentials',
      messages: [
        {
          code: 'carrier_account_invalid',
          carrier_code: 'NOT.AUTHORIZED.ERROR',
          message: 'The given client credentials were not valid. Please modify your request and try again.',
        },
      ],
    });
    expect(api.fake.count('rates')).toBe(0);
    const test = await driver().testCredentials(bad);
    expect(!test.ok && test.kind).toBe('invalid_credentials');
    const good = await driver().testCredentials(ctx());
    expect(good.ok).toBe(true);
    expect(JSON.stringify(exchanges)).not.toContain('wrong-secret');
    // Missing keys or a missing account number: refused before anything is sent.
    const before = api.fake.requests.length;
    expect(await driver().testCredentials(ctx({ credentials: { api_key: 'k' } }))).toMatchObject({ ok: false, kind: 'invalid_credentials' });
    expect(await driver().purchase(ctx({ account_number: null }), purchase())).toMatchObject({
      ok: false,
      kind: 'invalid_credentials',
      messages: [{ field: 'account_number' }],
    });
    expect(api.fake.requests.length).toBe(before);
    expectCleanExchange();
  });

  it('a token that expires mid-session: the 401 refetches one token and the call succeeds', async () => {
    const c = ctx();
    const d = driver();
    expect((await d.rates(c, rateRequest)).ok).toBe(true);
    expect((await d.track(c, { tracking_number: '794953535000' })).ok).toBe(true);
    expect(api.fake.count('token')).toBe(1);
    api.fake.expireTokens();
    const again = await d.rates(c, rateRequest);
    expect(again.ok).toBe(true);
    expect(api.fake.count('token')).toBe(2);
    // The stale token's 401, then the same call with the new token.
    expect(api.fake.count('rates')).toBe(3);
    expectCleanExchange();
  });

  it('a token refused twice in a row is refused credentials, not a loop', async () => {
    const c = ctx();
    const d = driver();
    await d.testCredentials(c);
    api.fake.queue('rates', { status: 401, body: fedexFixture('error-token-expired') }, { status: 401, body: fedexFixture('error-token-expired') });
    const res = await d.rates(c, rateRequest);
    expect(res).toMatchObject({ ok: false, kind: 'invalid_credentials', messages: [{ carrier_code: 'NOT.AUTHORIZED.ERROR' }] });
    expect(api.fake.count('rates')).toBe(2);
  });

  it('concurrent calls on a cold account share one token fetch', async () => {
    const c = ctx();
    const d = driver();
    const all = await Promise.all([d.rates(c, rateRequest), d.rates(c, rateRequest), d.track(c, { tracking_number: '794953535000' })]);
    expect(all.every((r) => r.ok)).toBe(true);
    expect(api.fake.count('token')).toBe(1);
    expectCleanExchange();
  });

  it('429 with Retry-After: rates wait as told and retry', async () => {
    api.fake.queue('rates', { status: 429, headers: { 'retry-after': '2' }, body: fedexFixture('error-rate-limit') });
    const res = await driver().rates(ctx(), rateRequest);
    expect(res.ok).toBe(true);
    expect(sleeps).toEqual([2000]);
    expect(api.fake.count('rates')).toBe(2);
    expectCleanExchange();
  });

  it('503 then 500: rates retry twice, then fail with a retryable transport error', async () => {
    api.fake.queue(
      'rates',
      { status: 503, headers: { 'retry-after': '1' }, body: fedexFixture('error-unavailable') },
      { status: 500, body: fedexFixture('error-internal') },
      { status: 503, body: fedexFixture('error-unavailable') },
    );
    const err = await driver()
      .rates(ctx(), rateRequest)
      .catch((e) => e);
    expect(err).toBeInstanceOf(CarrierTransportError);
    expect(err).toMatchObject({ slug: 'fedex', kind: 'server_error', status: 503, retryable: true });
    expect(api.fake.count('rates')).toBe(3);
    expect(sleeps[0]).toBe(1000);
    expectCleanExchange();
  });

  it('500 on label purchase: never retried', async () => {
    api.fake.queue('ship', { status: 500, body: fedexFixture('error-internal') });
    const err = await driver()
      .purchase(ctx(), purchase())
      .catch((e) => e);
    expect(err).toMatchObject({ kind: 'server_error', status: 500 });
    expect(api.fake.count('ship')).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('a hang past the deadline: a retryable timeout, and the call is not sent again past it', async () => {
    api.fake.queue('track', { hang: true });
    const c = ctx({}, 400);
    const d = driver();
    await d.testCredentials(c); // token fetched first, so the deadline is the track call's alone
    const err = await d.track(c, { tracking_number: '794953535000' }).catch((e) => e);
    expect(err).toMatchObject({ slug: 'fedex', kind: 'timeout', retryable: true });
    expect(api.fake.count('track')).toBe(1);
    expect(exchanges.filter((e) => e.operation === 'tracking').map((e) => [e.status, e.error])).toEqual([[null, 'timeout']]);
  });

  it('a malformed body: a transport error, retryable for rates but not for a purchase', async () => {
    api.fake.queue('rates', { status: 200, raw: '<html><body>Service Temporarily Unavailable' });
    const rates = await driver()
      .rates(ctx(), rateRequest)
      .catch((e) => e);
    expect(rates).toMatchObject({ kind: 'malformed_response', retryable: true });
    api.fake.queue('ship', { status: 200, raw: '{"transactionId": "x", "output": ' });
    const buy = await driver()
      .purchase(ctx(), purchase())
      .catch((e) => e);
    expect(buy).toMatchObject({ kind: 'malformed_response', retryable: false });
    // JSON, but no piece with a label: nothing usable was bought, not retryable.
    api.fake.queue('ship', {
      status: 200,
      body: {
        transactionId: 'x',
        output: {
          transactionShipments: [{ masterTrackingNumber: '794953535000', pieceResponses: [{ trackingNumber: '794953535000', packageDocuments: [] }] }],
        },
      },
    });
    const empty = await driver()
      .purchase(ctx(), purchase())
      .catch((e) => e);
    expect(empty).toMatchObject({ kind: 'malformed_response', retryable: false });
    // A 4xx whose body is not FedEx's error shape either.
    api.fake.queue('track', { status: 400, raw: 'Bad Request' });
    expect(
      await driver()
        .track(ctx(), { tracking_number: '794953535000' })
        .catch((e) => e),
    ).toMatchObject({ kind: 'malformed_response' });
  });

  it("business rejections: an invalid postal code and a service not offered come back with FedEx's code and message", async () => {
    api.fake.queue('rates', { status: 400, body: fedexFixture('error-invalid-postal') });
    const rates = await driver().rates(ctx(), { ...rateRequest, ship_to: { ...to, postal_code: '99999' } });
    expect(rates).toEqual({
      ok: false,
      kind: 'rejected',
      messages: [
        {
          code: 'carrier_rejected',
          carrier_code: 'RECIPIENT.POSTALSTATE.MISMATCH',
          message: 'Recipient postal code or routing code is invalid or does not match the state.',
          field: 'ship_to.postal_code',
        },
      ],
    });
    api.fake.queue('ship', { status: 400, body: fedexFixture('error-service-unavailable') });
    const buy = await driver().purchase(ctx(), purchase('PDF', 'fedex_standard_overnight'));
    expect(buy).toEqual({
      ok: false,
      kind: 'rejected',
      messages: [
        {
          code: 'carrier_rejected',
          carrier_code: 'SERVICE.PACKAGECOMBINATION.INVALID',
          message: 'Service is not allowed for the origin and destination.',
          field: 'service_code',
        },
      ],
    });
    expect(api.fake.count('rates') + api.fake.count('ship')).toBe(2); // a 400 is never retried
    // Refused before calling: a service FedEx does not have, a shipper without a phone.
    expect(await driver().purchase(ctx(), purchase('PDF', 'ups_ground'))).toMatchObject({ ok: false, kind: 'rejected', messages: [{ field: 'service_code' }] });
    expect(await driver().purchase(ctx(), { ...purchase(), ship_from: { ...from, phone: undefined } })).toMatchObject({
      ok: false,
      kind: 'rejected',
      messages: [{ field: 'ship_from.phone' }],
    });
    expect(api.fake.count('ship')).toBe(1);
    expectCleanExchange();
  });

  it.each([
    ['PDF', 'PDF', 'PAPER_4X6', 'application/pdf'],
    ['PNG', 'PNG', 'PAPER_4X6', 'image/png'],
    ['ZPL', 'ZPLII', 'STOCK_4X6', 'application/x-zpl'],
  ] as const)('buys a %s 4x6 label, decoded and kept exactly as FedEx returned it', async (image, imageType, stock, mime) => {
    const res = await driver().purchase(ctx(), purchase(image));
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const sent = api.fake.lastBody('ship');
    expect(sent.labelResponseOptions).toBe('LABEL');
    expect(sent.accountNumber).toEqual({ value: '740561073' });
    expect(sent.requestedShipment.labelSpecification).toEqual({ labelFormatType: 'COMMON2D', imageType, labelStockType: stock });
    expect(sent.requestedShipment.shippingChargesPayment).toEqual({
      paymentType: 'SENDER',
      payor: { responsibleParty: { accountNumber: { value: '740561073' } } },
    });
    expect(sent.requestedShipment.serviceType).toBe('GROUND_HOME_DELIVERY');
    expect(sent.requestedShipment.shipper.contact).toEqual({ personName: 'Dock Lead', companyName: 'Acme Widgets', phoneNumber: '14105550100' });
    // The recipient has no phone: the shipper's stands in.
    expect(sent.requestedShipment.recipients[0]).toMatchObject({
      contact: { personName: 'Pat Buyer', phoneNumber: '14105550100' },
      address: { streetLines: ['100 Peachtree Pkwy', 'Apt 4'], residential: true },
    });
    expect(sent.requestedShipment.requestedPackageLineItems[0].customerReferences).toEqual([
      { customerReferenceType: 'CUSTOMER_REFERENCE', value: 'shp_01TESTREFERENCE' },
    ]);
    expect(res.value.label).toEqual({ format: image, mime, bytes: FAKE_FEDEX_LABELS[imageType] });
    expect(res.value.tracking_number).toMatch(/^7949\d{8}$/);
    expect(res.value.carrier_shipment_id).toBe(res.value.tracking_number);
    expect(res.value.rate).toMatchObject({
      service_code: 'fedex_home_delivery',
      price: { amount: 1507 },
      list_price: { amount: 1985 },
      negotiated: true,
      zone: 5,
      billable_weight_oz: 48,
    });
    expect(res.value.rate?.surcharges).toEqual([
      { code: 'fuel', amount: { amount: 176, currency: 'USD' } },
      { code: 'residential', amount: { amount: 299, currency: 'USD' } },
    ]);
    expectCleanExchange();
  });

  it('a multi-package label issued then cancelled; cancelling again is a rejection', async () => {
    const c = ctx();
    const bought = await driver().purchase(c, { ...purchase(), parcels: [parcel, parcel] });
    expect(bought.ok).toBe(true);
    if (!bought.ok) return;
    expect(api.fake.lastBody('ship').requestedShipment).toMatchObject({ totalPackageCount: 2, totalWeight: 5 });
    expect(bought.value.packages).toHaveLength(2);
    expect(bought.value.packages.map((p) => p.tracking_number)).toEqual(api.fake.shipments.get(bought.value.carrier_shipment_id)?.trackingNumbers);
    // The master (masterTrackingNumber, what cancel takes) is the first piece's; the second is its child.
    expect(bought.value.tracking_number).toBe(bought.value.carrier_shipment_id);
    expect(bought.value.packages[0]!.tracking_number).toBe(bought.value.carrier_shipment_id);
    expect(bought.value.packages[1]!.tracking_number).not.toBe(bought.value.carrier_shipment_id);
    expect(bought.value.packages.every((p) => p.label.bytes.equals(FAKE_FEDEX_LABELS.PDF))).toBe(true);
    const voided = await driver().void(c, { carrier_shipment_id: bought.value.carrier_shipment_id });
    expect(voided).toEqual({ ok: true, value: { voided: true } });
    expect(api.fake.lastBody('cancel')).toEqual({
      accountNumber: { value: '740561073' },
      trackingNumber: bought.value.carrier_shipment_id,
      deletionControl: 'DELETE_ALL_PACKAGES',
    });
    expect(api.fake.shipments.get(bought.value.carrier_shipment_id)?.cancelled).toBe(true);
    const again = await driver().void(c, { carrier_shipment_id: bought.value.carrier_shipment_id });
    expect(again).toMatchObject({ ok: false, kind: 'rejected', messages: [{ carrier_code: 'SHIPMENT.ALREADY.CANCELLED' }] });
    expectCleanExchange();
  });

  it('an international purchase sends customsClearanceDetail (commodities, duties, totals, invoice, EEL) and returns the commercial invoice', async () => {
    const res = await driver().purchase(ctx(), {
      ...purchase('PDF', 'fedex_international_priority'),
      ship_to: londonAddress,
      residential: false,
      route: ukRoute,
      customs: ukCustoms,
    });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const shipment = api.fake.lastBody('ship').requestedShipment;
    expect(shipment.recipients[0].tins).toEqual([
      { number: 'GB123456789', tinType: 'BUSINESS_NATIONAL' },
      { number: 'GB123456789000', tinType: 'BUSINESS_UNION' },
    ]);
    expect(shipment.shippingDocumentSpecification).toEqual({
      shippingDocumentTypes: ['COMMERCIAL_INVOICE'],
      commercialInvoiceDetail: { documentFormat: { docType: 'PDF', stockType: 'PAPER_LETTER' } },
    });
    const customs = shipment.customsClearanceDetail;
    expect(customs).toMatchObject({
      // DDP: the shipper's account pays duties and taxes.
      dutiesPayment: { paymentType: 'SENDER', payor: { responsibleParty: { accountNumber: { value: '740561073' } } } },
      isDocumentOnly: false,
      totalCustomsValue: { amount: UK_CUSTOMS_TOTAL_MINOR / 100, currency: 'USD' },
      commercialInvoice: {
        shipmentPurpose: 'SOLD',
        termsOfSale: 'DDP',
        originatorName: 'Dock Lead',
        customerReferences: [{ customerReferenceType: 'INVOICE_NUMBER', value: 'shp_01TESTREFERENCE' }],
      },
      exportDetail: { exportComplianceStatement: 'NOEEI 30.37(a)' },
    });
    expect(customs.commodities).toEqual([
      {
        description: 'Cotton T-shirt',
        quantity: 3,
        quantityUnits: 'EA',
        numberOfPieces: 1,
        unitPrice: { amount: 12.5, currency: 'USD' },
        customsValue: { amount: 37.5, currency: 'USD' },
        weight: { units: 'KG', value: 0.52 },
        countryOfManufacture: 'US',
        harmonizedCode: '610910',
        partNumber: 'TS-001',
      },
      {
        description: 'Ceramic coffee mug',
        quantity: 2,
        quantityUnits: 'EA',
        numberOfPieces: 1,
        unitPrice: { amount: 8.99, currency: 'USD' },
        customsValue: { amount: 17.98, currency: 'USD' },
        weight: { units: 'KG', value: 0.69 },
        countryOfManufacture: 'CN',
        harmonizedCode: '69120048',
      },
    ]);
    // Packages weigh in kilograms beside kilogram commodities (FedEx refuses mixed units).
    expect(shipment.requestedPackageLineItems[0].weight).toEqual({ units: 'KG', value: 1.14 });
    expect(res.value.documents).toEqual([{ type: 'commercial_invoice', artifact: { format: 'PDF', mime: 'application/pdf', bytes: FAKE_FEDEX_INVOICE } }]);
    expect(res.value.label.bytes.equals(FAKE_FEDEX_LABELS.PDF)).toBe(true);
    expectCleanExchange();
    // The fake's check is not a rubber stamp for customs: pound commodities or no invoice are refused.
    if (api.specs) {
      const headers = { 'content-type': 'application/json', authorization: 'Bearer x' };
      const sent = api.fake.lastBody('ship');
      sent.requestedShipment.customsClearanceDetail.commodities[0].weight.units = 'LB';
      delete sent.requestedShipment.customsClearanceDetail.commercialInvoice;
      const problems = api.specs.checkRequest('POST', new URL('http://x/ship/v1/shipments'), headers, JSON.stringify(sent)).problems.join('\n');
      expect(problems).toMatch(/commodities\/0\/weight\/units/);
      expect(problems).toMatch(/commercialInvoice/);
    }
  });

  it('customs with an ITN under DDU: the recipient pays duties and the ITN is the export compliance statement', async () => {
    const res = await driver().purchase(ctx(), {
      ...purchase('PDF', 'fedex_international_priority'),
      ship_to: londonAddress,
      route: ukRoute,
      customs: { ...ukCustomsWithItn, contents_type: 'gift' },
    });
    expect(res.ok).toBe(true);
    const customs = api.fake.lastBody('ship').requestedShipment.customsClearanceDetail;
    expect(customs.dutiesPayment).toEqual({ paymentType: 'RECIPIENT' });
    expect(customs.commercialInvoice).toMatchObject({ shipmentPurpose: 'GIFT', termsOfSale: 'DDU' });
    expect(customs.exportDetail).toEqual({ exportComplianceStatement: 'AES X20260302123456' });
    expectCleanExchange();
  });

  it('a domestic purchase sends no customs and asks for no documents', async () => {
    const res = await driver().purchase(ctx(), purchase());
    expect(res.ok && res.value.documents).toBeUndefined();
    const shipment = api.fake.lastBody('ship').requestedShipment;
    expect(shipment.customsClearanceDetail).toBeUndefined();
    expect(shipment.shippingDocumentSpecification).toBeUndefined();
    expectCleanExchange();
  });

  it('a return label asks for RETURN_SHIPMENT with PRINT_RETURN_LABEL; an outbound one asks for no special service', async () => {
    const res = await driver().purchase(ctx(), {
      ...purchase('PDF', 'fedex_ground'),
      ship_from: { ...to, phone: '+1 404 555 0199' },
      ship_to: from,
      residential: false,
      is_return: true,
    });
    expect(res.ok).toBe(true);
    expect(api.fake.lastBody('ship').requestedShipment.shipmentSpecialServices).toEqual({
      specialServiceTypes: ['RETURN_SHIPMENT'],
      returnShipmentDetail: { returnType: 'PRINT_RETURN_LABEL' },
    });
    expectCleanExchange();
    api.fake.reset();
    await driver().purchase(ctx(), purchase());
    expect(api.fake.lastBody('ship').requestedShipment.shipmentSpecialServices).toBeUndefined();
  });

  describe('Ground End-of-Day Close (manifest)', () => {
    const manifestOf = (bought: { tracking_number: string; service_code: string }[]) => ({
      ship_date: '2026-03-02',
      address: from,
      shipments: bought.map((b) => ({ tracking_number: b.tracking_number, carrier_shipment_id: b.tracking_number, service_code: b.service_code })),
    });

    it("closes the day's Ground shipments and returns the OP-950 close report; an Express shipment in the list is rejected, not sent", async () => {
      const c = ctx();
      const ground = await driver().purchase(c, purchase('PDF', 'fedex_ground'));
      const express = await driver().purchase(c, purchase('PDF', 'fedex_2day'));
      if (!ground.ok || !express.ok) throw new Error('purchase failed');
      const res = await driver().manifest!(
        c,
        manifestOf([
          { tracking_number: ground.value.tracking_number, service_code: 'fedex_ground' },
          { tracking_number: express.value.tracking_number, service_code: 'fedex_2day' },
        ]),
      );
      expect(res.ok).toBe(true);
      if (!res.ok) return;
      const sent = api.fake.requests.find((r) => r.operation === 'close')!;
      expect(sent.method).toBe('PUT');
      expect(sent.path).toBe('/ship/v1/endofday/');
      expect(JSON.parse(sent.body)).toEqual({
        closeReqType: 'GCDR',
        accountNumber: { value: '740561073' },
        groundServiceCategory: 'GROUND',
        closeDate: '2026-03-02',
        closeDocumentSpecification: { closeDocumentTypes: ['OP_950'], op950Detail: { format: { imageType: 'PDF', stockType: 'PAPER_LETTER' } } },
      });
      expect(api.fake.shipments.get(ground.value.carrier_shipment_id)?.closed).toBe(true);
      expect(api.fake.shipments.get(express.value.carrier_shipment_id)?.closed).toBeUndefined();
      const report = Buffer.from(fedexFixture('close').output.closeDocuments[0].parts[0].image, 'base64');
      expect(res.value.carrier_manifest_id).toMatch(/^[0-9a-f]{32}$/);
      expect(res.value.document).toEqual({ type: 'close_report', artifact: { format: 'PDF', mime: 'application/pdf', bytes: report } });
      expect(res.value.rejected).toEqual([
        { tracking_number: express.value.tracking_number, message: expect.stringContaining('Not a FedEx Ground shipment'), carrier_code: 'not_ground' },
      ]);
      expectCleanExchange();
      // The fake's check is not a rubber stamp: an unknown close type or document type is refused.
      if (api.specs) {
        const bad = { ...JSON.parse(sent.body), closeReqType: 'CLOSE', closeDocumentSpecification: { closeDocumentTypes: ['REPORT'] } };
        const problems = api.specs.checkRequest('PUT', new URL('http://x/ship/v1/endofday/'), sent.headers, JSON.stringify(bad)).problems.join('\n');
        expect(problems).toMatch(/closeReqType/);
        expect(problems).toMatch(/closeDocumentTypes/);
      }
    });

    it("nothing left to close: FedEx's refusal comes back as a rejection; only Express given: refused before calling", async () => {
      const c = ctx();
      const ground = await driver().purchase(c, purchase('PDF', 'fedex_home_delivery'));
      if (!ground.ok) throw new Error('purchase failed');
      const list = manifestOf([{ tracking_number: ground.value.tracking_number, service_code: 'fedex_home_delivery' }]);
      expect((await driver().manifest!(c, list)).ok).toBe(true);
      const again = await driver().manifest!(c, list);
      expect(again).toMatchObject({ ok: false, kind: 'rejected', messages: [{ carrier_code: 'GROUNDEOD.NOSHIPMENTS.NOTFOUND' }] });
      api.fake.reset();
      const expressOnly = await driver().manifest!(c, manifestOf([{ tracking_number: '794953535000', service_code: 'fedex_2day' }]));
      expect(expressOnly).toMatchObject({ ok: false, kind: 'rejected', messages: [{ carrier_code: 'no_ground_shipments', field: 'shipments' }] });
      expect(api.fake.count('close')).toBe(0);
      expectCleanExchange();
    });

    it('5xx: a retryable transport error, never sent twice; refused credentials: invalid_credentials', async () => {
      api.fake.queue('close', { status: 503, body: fedexFixture('error-unavailable') });
      const list = manifestOf([{ tracking_number: '794953535000', service_code: 'fedex_ground' }]);
      const err = await driver().manifest!(ctx(), list).catch((e) => e);
      expect(err).toBeInstanceOf(CarrierTransportError);
      expect(err).toMatchObject({ retryable: true });
      expect(api.fake.count('close')).toBe(1);
      const bad = await driver().manifest!(ctx({ credentials: { api_key: 'fake-api-key', secret_key: 'wrong' } }), list);
      expect(bad).toMatchObject({ ok: false, kind: 'invalid_credentials' });
      expect(api.fake.count('close')).toBe(1);
    });
  });

  it('tracks with detailed scans: FedEx codes mapped to ours, oldest first, raw codes kept, unmapped → unknown', async () => {
    const res = await driver().track(ctx(), { tracking_number: '794953535000' });
    expect(api.fake.lastBody('track')).toEqual({ includeDetailedScans: true, trackingInfo: [{ trackingNumberInfo: { trackingNumber: '794953535000' } }] });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.value).toMatchObject({
      status: 'delivered',
      status_detail: 'delivered',
      delivered_at: '2026-03-05T19:23:00.000Z',
      estimated_delivery_date: '2026-03-05',
      carrier_status_code: 'DL',
    });
    expect(res.value.events.map((e) => [e.status, e.carrier_status_type, e.carrier_status_code])).toEqual([
      ['pre_transit', 'IN', 'OC'],
      ['unknown', 'RP', 'RP'],
      ['in_transit', 'PU', 'PU'],
      ['in_transit', 'IT', 'DP'],
      ['in_transit', 'AR', 'AR'],
      ['out_for_delivery', 'OD', 'OD'],
      ['delivered', 'DL', 'DL'],
    ]);
    expect(res.value.events[2]).toMatchObject({
      occurred_at: '2026-03-02T22:30:00.000Z',
      milestone: 'picked_up',
      description: 'Picked up',
      location: { city: 'TIMONIUM', state: 'MD', postal_code: '21093', country: 'US' },
    });
    expectCleanExchange();
  });

  it('tracking a number FedEx does not know is a rejection on tracking_number', async () => {
    api.fake.queue('track', { body: fedexFixture('track-not-found') });
    const res = await driver().track(ctx(), { tracking_number: '799999999999' });
    expect(res).toMatchObject({ ok: false, kind: 'rejected', messages: [{ carrier_code: 'TRACKING.TRACKINGNUMBER.NOTFOUND', field: 'tracking_number' }] });
  });

  it('resolves an address: corrected and residential, or invalid when FedEx cannot standardise it', async () => {
    const input = { street1: '26601 west agoura road', city: 'Calabasas', state: 'CA', postal_code: '91302', country: 'US' };
    const res = await driver().validateAddress(ctx(), input);
    expect(api.fake.lastBody('address')).toEqual({
      addressesToValidate: [
        { address: { streetLines: ['26601 west agoura road'], city: 'Calabasas', stateOrProvinceCode: 'CA', postalCode: '91302', countryCode: 'US' } },
      ],
    });
    expect(res).toMatchObject({
      ok: true,
      value: { status: 'corrected', residential: 'yes', normalized: { street1: '26601 W AGOURA RD', city: 'CALABASAS', postal_code: '91302-1954' } },
    });
    api.fake.queue('address', { status: 400, body: fedexFixture('error-address-not-found') });
    const none = await driver().validateAddress(ctx(), input);
    expect(none).toMatchObject({ ok: true, value: { status: 'invalid', normalized: null } });
    expectCleanExchange();
  });

  it('schedules and cancels a pickup (FedEx Ground for ground pieces), refusing a mix of Express and Ground', async () => {
    const c = ctx();
    const request = {
      pickup_date: '2026-03-03',
      ready_time: '0900',
      close_time: '1700',
      address: from,
      residential: false,
      pieces: [{ service_code: 'fedex_ground', quantity: 3, destination_country: 'US' }],
      total_weight_oz: 120,
      instructions: 'Dock door 4',
    };
    const res = await driver().schedulePickup(c, request);
    expect(res).toEqual({ ok: true, value: { confirmation: 'NQAA97~2026-03-03~FDXG~TIMA', charge: null } });
    expect(api.fake.lastBody('pickup')).toMatchObject({
      associatedAccountNumber: { value: '740561073' },
      carrierCode: 'FDXG',
      packageCount: 3,
      totalWeight: { units: 'LB', value: 7.5 },
      countryRelationships: 'DOMESTIC',
      remarks: 'Dock door 4',
      originDetail: {
        readyDateTimestamp: '2026-03-03T09:00:00Z',
        customerCloseTime: '17:00:00',
        pickupLocation: { address: { streetLines: ['12 Main St'], postalCode: '21093' } },
      },
    });
    const cancel = await driver().cancelPickup(c, { confirmation: 'NQAA97~2026-03-03~FDXG~TIMA' });
    expect(cancel).toEqual({ ok: true, value: { cancelled: true } });
    expect(api.fake.lastBody('pickup_cancel')).toEqual({
      associatedAccountNumber: { value: '740561073' },
      pickupConfirmationCode: 'NQAA97',
      scheduledDate: '2026-03-03',
      carrierCode: 'FDXG',
      location: 'TIMA',
    });
    const mixed = await driver().schedulePickup(c, {
      ...request,
      pieces: [...request.pieces, { service_code: 'fedex_2day', quantity: 1, destination_country: 'US' }],
    });
    expect(mixed).toMatchObject({ ok: false, kind: 'rejected', messages: [{ field: 'pieces' }] });
    expect(await driver().cancelPickup(c, { confirmation: 'NQAA97' })).toMatchObject({ ok: false, kind: 'rejected', messages: [{ field: 'confirmation' }] });
    expect(api.fake.count('pickup') + api.fake.count('pickup_cancel')).toBe(2);
    expectCleanExchange();
  });

  it('logs every exchange per account with redacted bodies', async () => {
    const c = ctx();
    await driver().rates(c, rateRequest);
    expect(exchanges.map((e) => [e.operation, e.method, e.path, e.status])).toEqual([
      ['token', 'POST', '/oauth/token', 200],
      ['rates', 'POST', '/rate/v1/rates/quotes', 200],
    ]);
    expect(exchanges.every((e) => e.account_id === c.account.id && e.request_id === c.requestId)).toBe(true);
    expect((exchanges[0].request_body as Record<string, unknown>).client_secret).toBe('[REDACTED]');
    expect((exchanges[0].response_body as Record<string, unknown>).access_token).toBe('[REDACTED]');
    expect(exchanges[1].request_headers.authorization).toBe('[REDACTED]');
    expect(exchanges[1].request_headers['x-customer-transaction-id']).toBe(c.requestId);
    expectCleanExchange();
  });
});

describe("FedEx's own packaging (packages.ts carrier_code, FedEx One Rate)", () => {
  const envelope = { weight_oz: 8, length_in: 12.5, width_in: 9.5, height_in: 0.5, package_id: 'fedex_envelope' };
  const pak = { weight_oz: 40, length_in: 15.5, width_in: 12, height_in: 1.5, package_id: 'fedex_pak' };

  it('a FedEx Pak is rated as packagingType FEDEX_PAK with FEDEX_ONE_RATE: Express flat, Ground as your packaging', async () => {
    const res = await driver().rates(ctx(), { ...rateRequest, parcel: pak });
    const sent = api.fake.lastBody('rates').requestedShipment;
    expect(sent.packagingType).toBe('FEDEX_PAK');
    expect(sent.shipmentSpecialServices.specialServiceTypes).toContain('FEDEX_ONE_RATE');
    if (!res.ok) throw new Error('rates failed');
    expect(res.value.rates.find((r) => r.service_code === 'fedex_2day')!.price.amount).toBe(FAKE_FEDEX_ONE_RATE.FEDEX_PAK!.FEDEX_2_DAY);
    expect(res.value.rates.find((r) => r.service_code === 'fedex_2day')!.surcharges).toEqual([]);
    // Home Delivery is a Ground service: priced by weight as before.
    expect(res.value.rates.find((r) => r.service_code === 'fedex_home_delivery')!.price.amount).toBe(1507);
    expectCleanExchange();
  });

  it('a FedEx Envelope bought by 2Day: FEDEX_ENVELOPE, One Rate, the flat charge read back', async () => {
    const res = await driver().purchase(ctx(), { ...purchase('PDF', 'fedex_2day'), parcel: envelope });
    if (!res.ok) throw new Error('purchase failed');
    const sent = api.fake.lastBody('ship').requestedShipment;
    expect(sent).toMatchObject({ packagingType: 'FEDEX_ENVELOPE', shipmentSpecialServices: { specialServiceTypes: ['FEDEX_ONE_RATE'] } });
    expect(res.value.rate?.price.amount).toBe(FAKE_FEDEX_ONE_RATE.FEDEX_ENVELOPE!.FEDEX_2_DAY);
    expectCleanExchange();
  });

  it('by a Ground service the pak travels as YOUR_PACKAGING (FedEx refuses Ground in its packaging); a mix of packaging is refused unasked', async () => {
    const ground = await driver().purchase(ctx(), { ...purchase('PDF', 'fedex_ground'), parcel: pak });
    expect(ground.ok).toBe(true);
    expect(api.fake.lastBody('ship').requestedShipment.packagingType).toBe('YOUR_PACKAGING');
    expect(api.fake.lastBody('ship').requestedShipment.shipmentSpecialServices).toBeUndefined();
    const before = api.fake.count('ship');
    const mixed = await driver().purchase(ctx(), { ...purchase('PDF', 'fedex_2day'), parcel: pak, parcels: [pak, parcel] });
    expect(mixed).toMatchObject({ ok: false, kind: 'rejected', messages: [{ carrier_code: 'mixed_packaging', field: 'parcels' }] });
    expect(api.fake.count('ship')).toBe(before);
    expectCleanExchange();
  });
});
