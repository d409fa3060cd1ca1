import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHIP_FROM, US_ROUTE, useCarrierApiTest } from '../../../../test/helpers/carrier-api.js';
import { londonAddress, ukCustoms, ukCustomsWithItn, ukRoute } from '../../../../test/helpers/driver-customs.js';
import { FAKE_LABELS, FAKE_SCAN_FORM, FAKE_USPS_FLAT_RATES, FAKE_USPS_SETUP, USPS_FIXTURES_DIR, uspsFixture } from '../../../../test/helpers/fake-usps.js';
import { USPS_SPEC_DIR } from '../../../../test/helpers/usps-spec.js';
import type { ApiPurchaseRequest, ApiRateRequest } from '../../driver.js';
import { CarrierTransportError } from '../../http/errors.js';
import { createUspsApiDriver, idempotencyKey } from './client.js';

const specsPresent = existsSync(resolve(USPS_SPEC_DIR, 'openapi'));
const CREDENTIALS = FAKE_USPS_SETUP.account.credentials;
const api = useCarrierApiTest({
  ...FAKE_USPS_SETUP,
  idPrefix: 'usps',
  secrets: ['fake-client-secret', '1000405525', /tok_[0-9a-f]{24}/, /pay_[0-9a-f]{24}/],
});
const { sleeps, exchanges, ctx, expectCleanExchange } = api;
const driver = () => createUspsApiDriver(api.http);

const from = SHIP_FROM;
const to = { name: 'Pat Buyer', street1: '100 Peachtree Pkwy', street2: 'Apt 4', city: 'Alpharetta', state: 'GA', postal_code: '30005-1234', country: 'US' };
/** 24 in long: over the machinable 22 in, so USPS prices it nonstandard with a length fee. */
const parcel = { weight_oz: 40, length_in: 24, width_in: 10, height_in: 6 };
const rateRequest: ApiRateRequest = { ship_from: from, ship_to: to, parcel, ship_date: '2026-03-02', residential: true, route: US_ROUTE };
const purchase = (label_image: ApiPurchaseRequest['label_image'] = 'PDF'): ApiPurchaseRequest => ({
  ...rateRequest,
  service_code: 'usps_ground_advantage',
  reference: `shp_01TESTREFERENCE${api.accounts}`,
  purchased_at: '2026-03-02T15:00:00.000Z',
  label_image,
});

describe('USPS published description', () => {
  it.runIf(specsPresent)('every recorded fixture validates against its USPS response schema', () => {
    const s = api.specs!;
    const byFile: Record<string, [string, string, number]> = {
      token: ['README', 'oauth-token', 200],
      'payment-authorization': ['payments', 'post-payments-payment-authorization', 200],
      'total-rates': ['domestic-prices', 'post-total-rates-search', 200],
      'label-metadata': ['domestic-labels', 'post-label', 200],
      cancel: ['domestic-labels', 'delete-label-by-tracking', 200],
      'tracking-delivered': ['tracking', 'get-package-tracking', 200],
      'address-valid': ['addresses', 'get-address', 200],
      'address-secondary-missing': ['addresses', 'get-address', 200],
      'pickup-create': ['carrier-pickup', 'post-carrier-pickup', 200],
      'error-invalid-zip': ['domestic-prices', 'post-total-rates-search', 400],
      'error-unauthorized': ['tracking', 'get-package-tracking', 401],
      'error-oauth': ['README', 'oauth-token', 401],
      'error-rate-limit': ['domestic-prices', 'post-total-rates-search', 429],
      'error-unavailable': ['tracking', 'get-package-tracking', 503],
      'error-address-not-found': ['addresses', 'get-address', 404],
      'error-payment': ['payments', 'post-payments-payment-authorization', 400],
    };
    const files = readdirSync(USPS_FIXTURES_DIR).map((f) => f.replace(/\.json$/, ''));
    expect(files.sort()).toEqual(Object.keys(byFile).sort());
    for (const [file, [doc, operationId, status]] of Object.entries(byFile)) {
      const op = s.op(doc, operationId);
      // The label metadata is one part of the multipart answer: checked as that part.
      const body = file === 'label-metadata' ? { labelMetadata: uspsFixture(file), labelImage: 'JVBERi0=' } : uspsFixture(file);
      expect(s.checkResponse(op, status, body, file === 'label-metadata' ? 'multipart/form-data' : 'application/json'), file).toEqual([]);
    }
  });

  it.runIf(specsPresent)('the validator is not a rubber stamp: it refuses requests USPS would refuse', () => {
    const s = api.specs!;
    const rates = s.checkRequest(
      'POST',
      new URL('http://x/prices/v3/total-rates/search'),
      { 'content-type': 'application/json', authorization: 'Bearer t' },
      JSON.stringify({ originZIPCode: '2109', weight: 1 }),
    );
    expect(rates.op?.operationId).toBe('post-total-rates-search');
    expect(rates.problems.join('\n')).toMatch(/destinationZIPCode/);
    expect(rates.problems.join('\n')).toMatch(/originZIPCode must match pattern/);
    const label = s.checkRequest('POST', new URL('http://x/labels/v3/label'), { 'content-type': 'application/json', authorization: 'Bearer t' }, '{}');
    expect(label.problems.join('\n')).toMatch(/X-Payment-Authorization-Token is required/);
    const track = s.checkRequest('GET', new URL('http://x/tracking/v3/tracking/9200?expand=EVERYTHING'), {}, '');
    expect(track.problems.join('\n')).toMatch(/expand/);
    expect(track.problems.join('\n')).toMatch(/Bearer/);
  });

  it.runIf(specsPresent)('the label answer the fake sends is the multipart USPS describes', async () => {
    const res = await driver().purchase(ctx(), purchase());
    expect(res.ok).toBe(true);
    const answer = api.fake.requests.find((r) => r.operation === 'label');
    expect(answer?.problems).toEqual([]);
    expect(api.fake.violations).toEqual([]);
  });
});

describe('USPS driver against the fake USPS', () => {
  it('success: total rates for the three services, own-packaging options only, fees as surcharges', async () => {
    const res = await driver().rates(ctx(), rateRequest);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(api.fake.count('token')).toBe(1);
    expect(api.fake.count('rates')).toBe(1);
    const sent = JSON.parse(api.fake.requests.find((r) => r.operation === 'rates')!.body);
    expect(sent).toEqual({
      originZIPCode: '21093',
      destinationZIPCode: '30005',
      weight: 2.5,
      length: 24,
      width: 10,
      height: 6,
      mailClasses: ['USPS_GROUND_ADVANTAGE', 'PRIORITY_MAIL', 'PRIORITY_MAIL_EXPRESS'],
      priceType: 'COMMERCIAL',
      mailingDate: '2026-03-02',
      accountType: 'EPS',
      accountNumber: '1000405525',
    });
    expect(res.value.rates.map((r) => [r.service_code, r.carrier_service_code, r.price.amount])).toEqual([
      ['usps_ground_advantage', 'USPS_GROUND_ADVANTAGE', 1306],
      ['usps_priority_mail', 'PRIORITY_MAIL', 1594],
      ['usps_priority_mail_express', 'PRIORITY_MAIL_EXPRESS', 4760],
    ]);
    const ground = res.value.rates[0];
    expect(ground).toMatchObject({
      service_name: 'USPS Ground Advantage',
      zone: 5,
      base_price: { amount: 906, currency: 'USD' },
      surcharges: [{ code: 'nonstandard_length', amount: { amount: 400, currency: 'USD' } }],
      negotiated: false,
      billable_weight_oz: 48,
      transit_known: false,
      business_days: 0,
      rate_table_version: 'usps_api',
    });
    expect(res.value.unavailable).toEqual([]);
    expectCleanExchange();
  });

  it('asks only for the requested services, lists the ones USPS did not price as unavailable', async () => {
    api.fake.queue('rates', {
      body: { rateOptions: uspsFixture('total-rates').rateOptions.filter((o: any) => o.rates[0].mailClass === 'USPS_GROUND_ADVANTAGE') },
    });
    const res = await driver().rates(ctx(), { ...rateRequest, service_codes: ['usps_ground_advantage', 'usps_priority_mail'] });
    expect(JSON.parse(api.fake.requests.find((r) => r.operation === 'rates')!.body).mailClasses).toEqual(['USPS_GROUND_ADVANTAGE', 'PRIORITY_MAIL']);
    expect(res.ok && res.value.rates.map((r) => r.service_code)).toEqual(['usps_ground_advantage']);
    expect(res.ok && res.value.unavailable).toEqual([{ service_code: 'usps_priority_mail', reason: 'not_offered_by_carrier' }]);
  });

  it('an international lane is not priced (no call): every service unavailable', async () => {
    const res = await driver().rates(ctx(), { ...rateRequest, ship_to: { ...to, country: 'CA', state: 'ON', postal_code: 'K1A 0B1' } });
    expect(res).toMatchObject({
      ok: true,
      value: {
        rates: [],
        unavailable: [{ service_code: 'usps_ground_advantage' }, { service_code: 'usps_priority_mail' }, { service_code: 'usps_priority_mail_express' }],
      },
    });
    expect(api.fake.requests).toHaveLength(0);
  });

  it('refused credentials: a distinct invalid_credentials outcome, for rates and for testCredentials', async () => {
    const bad = ctx({ credentials: { ...CREDENTIALS, client_secret: 'not-the-secret-7f3a' } });
    const res = await driver().rates(bad, rateRequest);
    expect(res).toEqual({
      ok: false,
      kind: 'invalid_credentials',
      messages: [
        { code: 'carrier_account_invalid', carrier_code: 'invalid_client', message: 'Client authentication failed (unknown client or wrong secret).' },
      ],
    });
    expect(api.fake.count('rates')).toBe(0);
    const test = await driver().testCredentials(bad);
    expect(!test.ok && test.kind).toBe('invalid_credentials');
    const good = await driver().testCredentials(ctx());
    expect(good.ok).toBe(true);
    // A good test also authorizes the payment account, and keeps that token for labels.
    expect(api.fake.count('payment')).toBe(1);
    expect(JSON.stringify(exchanges)).not.toContain('not-the-secret-7f3a');
    expectCleanExchange();
  });

  it('a payment account USPS will not authorize is invalid_credentials, for purchase and for testCredentials', async () => {
    const c = ctx({ credentials: { ...CREDENTIALS, crid: '11111111' } });
    const test = await driver().testCredentials(c);
    expect(test).toMatchObject({
      ok: false,
      kind: 'invalid_credentials',
      messages: [{ code: 'carrier_account_invalid', carrier_code: 'PAY-0005', message: 'The CRID is not enrolled for the payment account.' }],
    });
    const buy = await driver().purchase(c, purchase());
    expect(buy).toMatchObject({ ok: false, kind: 'invalid_credentials' });
    expect(api.fake.count('label')).toBe(0);
  });

  it('an account without its payment fields can rate and track but not buy (refused before calling USPS)', async () => {
    const { client_id, client_secret } = CREDENTIALS;
    const c = ctx({ credentials: { client_id, client_secret } });
    expect((await driver().rates(c, rateRequest)).ok).toBe(true);
    const buy = await driver().purchase(c, purchase());
    expect(buy).toMatchObject({ ok: false, kind: 'invalid_credentials', messages: [{ carrier_code: 'missing_payment_account' }] });
    expect(api.fake.count('payment') + api.fake.count('label')).toBe(0);
  });

  it('a token that expires mid-session: the 401 refetches one token and the call succeeds', async () => {
    const c = ctx();
    const d = driver();
    expect((await d.rates(c, rateRequest)).ok).toBe(true);
    expect((await d.track(c, { tracking_number: '9200190999999999999999' })).ok).toBe(true);
    expect(api.fake.count('token')).toBe(1);
    api.fake.expireTokens();
    expect((await d.rates(c, rateRequest)).ok).toBe(true);
    expect(api.fake.count('token')).toBe(2);
    expect(api.fake.count('rates')).toBe(3);
    // A label after another expiry: OAuth refetched, the payment token (still valid) reused.
    expect((await d.purchase(c, purchase())).ok).toBe(true);
    api.fake.expireTokens();
    expect((await d.purchase(c, purchase())).ok).toBe(true);
    expect(api.fake.count('token')).toBe(3);
    expect(api.fake.count('payment')).toBe(1);
    expectCleanExchange();
  });

  it('concurrent calls on a cold account share one token fetch', async () => {
    const c = ctx();
    const d = driver();
    const all = await Promise.all([d.rates(c, rateRequest), d.rates(c, rateRequest), d.track(c, { tracking_number: '9200190999999999999999' })]);
    expect(all.every((r) => r.ok)).toBe(true);
    expect(api.fake.count('token')).toBe(1);
  });

  it('429 with Retry-After: rates wait as told and retry', async () => {
    api.fake.queue('rates', { status: 429, headers: { 'retry-after': '2' }, body: uspsFixture('error-rate-limit') });
    const res = await driver().rates(ctx(), rateRequest);
    expect(res.ok).toBe(true);
    expect(sleeps).toEqual([2000]);
    expect(api.fake.count('rates')).toBe(2);
    expectCleanExchange();
  });

  it('503 then 500: tracking retries twice, then fails with a retryable transport error', async () => {
    api.fake.queue(
      'track',
      { status: 503, headers: { 'retry-after': '1' }, body: uspsFixture('error-unavailable') },
      { status: 500 },
      { status: 503, body: uspsFixture('error-unavailable') },
    );
    const err = await driver()
      .track(ctx(), { tracking_number: '9200190999999999999999' })
      .catch((e) => e);
    expect(err).toBeInstanceOf(CarrierTransportError);
    expect(err).toMatchObject({ slug: 'usps', kind: 'server_error', status: 503, retryable: true });
    expect(api.fake.count('track')).toBe(3);
    expect(sleeps[0]).toBe(1000);
    expectCleanExchange();
  });

  it('500 on label purchase: never retried', async () => {
    api.fake.queue('label', { status: 500 });
    const err = await driver()
      .purchase(ctx(), purchase())
      .catch((e) => e);
    expect(err).toMatchObject({ kind: 'server_error', status: 500 });
    expect(api.fake.count('label')).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('a hang past the deadline: a retryable timeout at the deadline, not later', async () => {
    api.fake.queue('track', { hang: true });
    const c = ctx({}, 400);
    const d = driver();
    await d.testCredentials(c); // tokens fetched first, so the deadline is the track call's alone
    const started = Date.now();
    const err = await d.track(c, { tracking_number: '9200190999999999999999' }).catch((e) => e);
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
    api.fake.queue('label', {
      status: 200,
      raw: '--b\r\nContent-Type: application/json\r\n\r\n{"trackingNumber": ',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
    });
    const buy = await driver()
      .purchase(ctx(), purchase())
      .catch((e) => e);
    expect(buy).toMatchObject({ kind: 'malformed_response', retryable: false });
    // Metadata but no image part: nothing usable, also not retryable.
    api.fake.queue('label', {
      status: 200,
      raw: '--b\r\nContent-Disposition: form-data; name="labelMetadata"\r\nContent-Type: application/json\r\n\r\n{"trackingNumber":"9200190999999999999999"}\r\n--b--\r\n',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
    });
    const noImage = await driver()
      .purchase(ctx(), purchase())
      .catch((e) => e);
    expect(noImage).toMatchObject({ kind: 'malformed_response', retryable: false });
  });

  it('business rejection: an invalid ZIP comes back as USPS code and message on our field', async () => {
    const res = await driver().rates(ctx(), { ...rateRequest, ship_to: { ...to, postal_code: '00000' } });
    expect(res).toEqual({
      ok: false,
      kind: 'rejected',
      messages: [
        { code: 'carrier_rejected', carrier_code: '010032', message: 'The destination ZIP Code 00000 is not a valid ZIP Code.', field: 'ship_to.postal_code' },
      ],
    });
    expect(api.fake.count('rates')).toBe(1); // a 400 is never retried
    expectCleanExchange();
  });

  it.each(['PDF', 'PNG', 'GIF', 'ZPL'] as const)('buys a %s 4x6 label with a payment authorization, kept exactly as USPS returned it', async (image) => {
    const c = ctx();
    const res = await driver().purchase(c, purchase(image));
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const pay = JSON.parse(api.fake.requests.find((r) => r.operation === 'payment')!.body);
    expect(pay.roles.map((r: any) => r.roleName)).toEqual(['PAYER', 'LABEL_OWNER']);
    expect(pay.roles[0]).toEqual({
      roleName: 'PAYER',
      CRID: '56982563',
      MID: '904128936',
      manifestMID: '904128937',
      accountType: 'EPS',
      accountNumber: '1000405525',
    });
    const sent = api.fake.requests.find((r) => r.operation === 'label')!;
    expect(sent.headers['x-payment-authorization-token']).toMatch(/^pay_/);
    expect(sent.headers['x-idempotency-key']).toBe(idempotencyKey(purchase().reference));
    const body = JSON.parse(sent.body);
    const usps = { PDF: 'PDF', PNG: 'PNG', GIF: 'GIF', ZPL: 'ZPL203DPI' }[image];
    expect(body.imageInfo).toEqual({ imageType: usps, labelType: '4X6LABEL', receiptOption: 'NONE', suppressPostage: false });
    expect(body.packageDescription).toMatchObject({
      mailClass: 'USPS_GROUND_ADVANTAGE',
      rateIndicator: 'SP',
      processingCategory: 'NONSTANDARD',
      weight: 2.5,
      mailingDate: '2026-03-02',
    });
    expect(body.toAddress).toEqual({
      firstName: 'Pat',
      lastName: 'Buyer',
      streetAddress: '100 Peachtree Pkwy',
      secondaryAddress: 'Apt 4',
      city: 'Alpharetta',
      state: 'GA',
      ZIPCode: '30005',
      ZIPPlus4: '1234',
    });
    expect(body.fromAddress).toMatchObject({ firm: 'Acme Widgets', phone: '4105550100', ZIPCode: '21093' });
    expect(res.value.label.format).toBe(image);
    expect(res.value.label.mime).toBe({ PDF: 'application/pdf', PNG: 'image/png', GIF: 'image/gif', ZPL: 'application/x-zpl' }[image]);
    expect(res.value.label.bytes.equals(FAKE_LABELS[usps].bytes)).toBe(true);
    expect(res.value.tracking_number).toMatch(/^92001909999\d{11}$/);
    expect(res.value.carrier_shipment_id).toBe(res.value.tracking_number);
    expect(res.value.rate).toMatchObject({
      service_code: 'usps_ground_advantage',
      price: { amount: 1306 },
      surcharges: [{ code: 'nonstandard_length', amount: { amount: 400 } }],
      estimated_delivery_date: '2026-03-05',
      business_days: 3,
      zone: 5,
    });
    expectCleanExchange();
  });

  it('the same shipment bought twice (a lost answer retried by the caller): USPS answers the same label', async () => {
    const c = ctx();
    const first = await driver().purchase(c, purchase());
    const second = await driver().purchase(c, purchase());
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    expect(second.value.tracking_number).toBe(first.value.tracking_number);
    const keys = api.fake.requests.filter((r) => r.operation === 'label').map((r) => r.headers['x-idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
  });

  it('the payment token is cached per account: a second label reuses it', async () => {
    const c = ctx();
    const d = driver();
    expect((await d.purchase(c, purchase())).ok).toBe(true);
    expect((await d.purchase(c, purchase())).ok).toBe(true);
    expect(api.fake.count('payment')).toBe(1);
    expect(api.fake.count('label')).toBe(2);
    // Another account gets its own.
    expect((await d.purchase(ctx(), purchase())).ok).toBe(true);
    expect(api.fake.count('payment')).toBe(2);
  });

  it('a payment token USPS stopped accepting: dropped, a fresh one fetched, the label bought once', async () => {
    const c = ctx();
    const d = driver();
    const issuedBefore = api.fake.labels.size;
    expect((await d.purchase(c, purchase())).ok).toBe(true);
    api.fake.expirePaymentTokens();
    const again = await d.purchase(c, { ...purchase(), reference: `shp_second${api.accounts}` });
    expect(again.ok).toBe(true);
    expect(api.fake.count('payment')).toBe(2);
    // Two refused sends (the client's OAuth refetch, then ours with a fresh payment token) issue nothing.
    expect(api.fake.labels.size - issuedBefore).toBe(2);
    expect(
      api.fake.requests
        .filter((r) => r.operation === 'label')
        .map(
          (r) =>
            r.headers['x-payment-authorization-token'] === api.fake.requests.filter((q) => q.operation === 'label')[0].headers['x-payment-authorization-token'],
        ),
    ).toEqual([true, true, true, false]);
    expectCleanExchange();
  });

  it('issued label then void (the compensation path): voided at USPS; voiding again is a rejection', async () => {
    const c = ctx();
    const bought = await driver().purchase(c, purchase());
    expect(bought.ok).toBe(true);
    if (!bought.ok) return;
    expect(api.fake.labels.get(bought.value.tracking_number)?.cancelled).toBe(false);
    const voided = await driver().void(c, { carrier_shipment_id: bought.value.carrier_shipment_id });
    expect(voided).toEqual({ ok: true, value: { voided: true } });
    expect(api.fake.requests.find((r) => r.operation === 'cancel')!.path).toBe(`/labels/v3/label/${bought.value.tracking_number}`);
    expect(api.fake.labels.get(bought.value.tracking_number)?.cancelled).toBe(true);
    const again = await driver().void(c, { carrier_shipment_id: bought.value.carrier_shipment_id });
    expect(again).toMatchObject({ ok: false, kind: 'rejected', messages: [{ carrier_code: 'LBL-410' }] });
    expectCleanExchange();
  });

  it('several parcels: one label each ("n of N"), charges summed, and the shipment voided whole', async () => {
    const c = ctx();
    const res = await driver().purchase(c, { ...purchase(), parcels: [parcel, { weight_oz: 20, length_in: 10, width_in: 8, height_in: 4 }] });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const sent = api.fake.requests.filter((r) => r.operation === 'label');
    expect(sent.map((r) => JSON.parse(r.body).imageInfo).map((i) => [i.packageNumber, i.totalPackages])).toEqual([
      [1, 2],
      [2, 2],
    ]);
    expect(sent.map((r) => JSON.parse(r.body).packageDescription.processingCategory)).toEqual(['NONSTANDARD', 'MACHINABLE']);
    expect(new Set(sent.map((r) => r.headers['x-idempotency-key'])).size).toBe(2);
    expect(res.value.packages).toHaveLength(2);
    expect(res.value.carrier_shipment_id).toBe(res.value.packages.map((p) => p.tracking_number).join(','));
    expect(res.value.rate?.price.amount).toBe(2 * 1306);
    expect(await driver().void(c, { carrier_shipment_id: res.value.carrier_shipment_id })).toEqual({ ok: true, value: { voided: true } });
    expect(res.value.packages.map((p) => api.fake.labels.get(p.tracking_number)?.cancelled)).toEqual([true, true]);
    expectCleanExchange();
  });

  it('several parcels, the second refused: the first label is voided (compensation) and the refusal answered', async () => {
    const c = ctx();
    const refusal = {
      apiVersion: 'v3',
      error: {
        code: '400',
        message: 'Bad request',
        errors: [
          {
            status: '400',
            code: 'LBL-0321',
            title: 'Weight too high',
            detail: 'The package weight exceeds 70 lb.',
            source: { parameter: 'packageDescription.weight' },
          },
        ],
      },
    };
    api.fake.queue('label', { pass: true }, { status: 400, body: refusal });
    const res = await driver().purchase(c, { ...purchase(), parcels: [parcel, { ...parcel, weight_oz: 1200 }] });
    expect(res).toEqual({
      ok: false,
      kind: 'rejected',
      messages: [{ code: 'carrier_rejected', carrier_code: 'LBL-0321', message: 'The package weight exceeds 70 lb.', field: 'parcel.weight_oz' }],
    });
    const cancels = api.fake.requests.filter((r) => r.operation === 'cancel');
    expect(cancels).toHaveLength(1);
    const firstNumber = decodeURIComponent(cancels[0].path.split('/').pop()!);
    expect(api.fake.labels.get(firstNumber)?.cancelled).toBe(true);
    expectCleanExchange();
  });

  it('several parcels, the second lost to a 500: the first voided, the transport error rethrown', async () => {
    const c = ctx();
    api.fake.queue('label', { pass: true }, { status: 500 });
    const err = await driver()
      .purchase(c, { ...purchase(), parcels: [parcel, parcel] })
      .catch((e) => e);
    expect(err).toMatchObject({ kind: 'server_error', status: 500 });
    expect(api.fake.count('cancel')).toBe(1);
  });

  it('a refund USPS disputes is not a void', async () => {
    const c = ctx();
    const bought = await driver().purchase(c, purchase());
    if (!bought.ok) throw new Error('purchase failed');
    api.fake.queue('cancel', { body: { trackingNumber: bought.value.tracking_number, status: 'DISPUTED', disputeId: 'D123' } });
    const res = await driver().void(c, { carrier_shipment_id: bought.value.carrier_shipment_id });
    expect(res).toMatchObject({ ok: false, kind: 'rejected', messages: [{ carrier_code: 'label_disputed', field: 'tracking_number' }] });
  });

  it('an international purchase without customs data is refused before calling USPS', async () => {
    const res = await driver().purchase(ctx(), {
      ...purchase(),
      service_code: 'usps_first_class_international',
      ship_to: { ...to, country: 'CA', state: 'ON', postal_code: 'K1A 0B1' },
    });
    expect(res).toMatchObject({ ok: false, kind: 'rejected', messages: [{ carrier_code: 'customs_required', field: 'customs' }] });
    expect(api.fake.requests).toHaveLength(0);
  });

  it('an international label with a customs form (the seam): the international API, voided through it too', async () => {
    const customsForm = () => ({
      customsContentType: 'MERCHANDISE',
      AESITN: 'NOEEI 30.37(a)',
      contents: [
        {
          itemDescription: 'Steel widgets',
          itemQuantity: 2,
          itemValue: 12.5,
          weightUOM: 'lb',
          itemWeight: 1.2,
          HSTariffNumber: '732690',
          countryofOrigin: 'US',
        },
      ],
    });
    const d = createUspsApiDriver(api.http, { customsForm });
    const c = ctx();
    const res = await d.purchase(c, {
      ...purchase(),
      service_code: 'usps_first_class_international',
      ship_to: { ...to, country: 'CA', state: 'ON', city: 'Ottawa', postal_code: 'K1A 0B1' },
    });
    expect(api.fake.violations).toEqual([]);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const body = JSON.parse(api.fake.requests.find((r) => r.operation === 'intl_label')!.body);
    expect(body.toAddress).toMatchObject({ country: 'CANADA', countryISOAlpha2Code: 'CA', province: 'ON', postalCode: 'K1A 0B1', city: 'Ottawa' });
    expect(body.packageDescription.mailClass).toBe('FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE');
    expect(body.customsForm.customsContentType).toBe('MERCHANDISE');
    expect(res.value.carrier_shipment_id).toBe(`intl:${res.value.tracking_number}`);
    expect(await d.void(c, { carrier_shipment_id: res.value.carrier_shipment_id })).toEqual({ ok: true, value: { voided: true } });
    expect(api.fake.requests.find((r) => r.operation === 'intl_cancel')!.path).toBe(
      `/international-labels/v3/international-label/${res.value.tracking_number}`,
    );
    expectCleanExchange();
  });

  it("an international purchase with customs: USPS's customsForm filled from the declaration, non-delivery, package value and DDP prepaid", async () => {
    const res = await driver().purchase(ctx(), {
      ...purchase(),
      service_code: 'usps_priority_mail_international',
      ship_to: londonAddress,
      residential: false,
      route: ukRoute,
      customs: ukCustoms,
    });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const body = JSON.parse(api.fake.requests.find((r) => r.operation === 'intl_label')!.body);
    expect(body.packageDescription).toMatchObject({
      mailClass: 'PRIORITY_MAIL_INTERNATIONAL',
      packageOptions: { packageValue: 55.48, nonDeliveryOption: 'RETURN' },
      prepayDutiesTaxesFees: true,
    });
    expect(body.customsForm).toEqual({
      customsContentType: 'MERCHANDISE',
      AESITN: 'NO EEI 30.37(a)',
      importersReference: { referenceType: 'VAT_NUMBER', reference: 'GB123456789' },
      contents: [
        {
          itemDescription: 'Cotton T-shirt',
          itemQuantity: 3,
          itemTotalValue: 37.5,
          weightUOM: 'lb',
          itemTotalWeight: 1.13,
          countryofOrigin: 'US',
          HSTariffNumber: '610910',
        },
        {
          itemDescription: 'Ceramic coffee mug',
          itemQuantity: 2,
          itemTotalValue: 17.98,
          weightUOM: 'lb',
          itemTotalWeight: 1.5,
          countryofOrigin: 'CN',
          HSTariffNumber: '69120048',
        },
      ],
    });
    expect(res.value.carrier_shipment_id).toBe(`intl:${res.value.tracking_number}`);
    expectCleanExchange();
    // The fake's check is not a rubber stamp for customs: a form without AESITN or with a bad content type is refused.
    if (api.specs) {
      const req = api.fake.requests.find((r) => r.operation === 'intl_label')!;
      const sent = JSON.parse(req.body);
      delete sent.customsForm.AESITN;
      sent.customsForm.customsContentType = 'SALE';
      const problems = api.specs.checkRequest('POST', new URL(`http://x${req.path}`), req.headers, JSON.stringify(sent)).problems.join('\n');
      expect(problems).toMatch(/AESITN/);
      expect(problems).toMatch(/customsContentType/);
    }
  });

  it('customs with an ITN, abandon and another contents type; values not in dollars are refused before calling USPS', async () => {
    const res = await driver().purchase(ctx(), {
      ...purchase(),
      service_code: 'usps_priority_mail_international',
      ship_to: londonAddress,
      route: ukRoute,
      customs: {
        ...ukCustomsWithItn,
        non_delivery: 'abandon',
        contents_type: 'other',
        contents_explanation: 'Trade show display',
        importer: { eori: 'GB123456789000' },
      },
    });
    expect(res.ok).toBe(true);
    const body = JSON.parse(api.fake.requests.find((r) => r.operation === 'intl_label')!.body);
    expect(body.packageDescription.packageOptions.nonDeliveryOption).toBe('ABANDON');
    expect(body.packageDescription.prepayDutiesTaxesFees).toBeUndefined();
    expect(body.customsForm).toMatchObject({
      customsContentType: 'OTHER',
      contentComments: 'Trade show display',
      AESITN: 'AES X20260302123456',
      importersReference: { referenceType: 'IMPORTER_CODE', reference: 'GB123456789000' },
    });
    expectCleanExchange();
    api.fake.reset();
    const euros = { ...ukCustoms, items: ukCustoms.items.map((i) => ({ ...i, unit_value: { amount: i.unit_value.amount, currency: 'EUR' } })) };
    const refused = await driver().purchase(ctx(), {
      ...purchase(),
      service_code: 'usps_priority_mail_international',
      ship_to: londonAddress,
      route: ukRoute,
      customs: euros,
    });
    expect(refused).toMatchObject({ ok: false, kind: 'rejected', messages: [{ carrier_code: 'customs_currency', field: 'customs.items' }] });
    expect(api.fake.requests).toHaveLength(0);
  });

  it('a military (APO) purchase with customs carries the domestic customs form; a domestic one carries none', async () => {
    const apo = { name: 'Sgt Pat Buyer', street1: 'Unit 2050 Box 4190', city: 'APO', state: 'AP', postal_code: '96278', country: 'US' };
    const res = await driver().purchase(ctx(), {
      ...purchase(),
      service_code: 'usps_priority_mail',
      ship_to: apo,
      route: { ...US_ROUTE, military: true, noncontiguous: true },
      customs: { ...ukCustoms, contents_type: 'gift' },
    });
    expect(res.ok).toBe(true);
    const body = JSON.parse(api.fake.requests.find((r) => r.operation === 'label')!.body);
    expect(body.customsForm).toMatchObject({
      customsContentType: 'GIFT',
      AESITN: 'NO EEI 30.37(a)',
      importersReference: 'GB123456789',
      contents: [{ itemDescription: 'Cotton T-shirt' }, { itemDescription: 'Ceramic coffee mug' }],
    });
    expectCleanExchange();
    api.fake.reset();
    await driver().purchase(ctx(), purchase());
    expect(JSON.parse(api.fake.requests.find((r) => r.operation === 'label')!.body).customsForm).toBeUndefined();
  });

  it('a return label: the return endpoint in the return mail class, the customer to the merchant; voided like any label; international returns refused', async () => {
    const c = ctx();
    const res = await driver().purchase(c, {
      ...purchase(),
      service_code: 'usps_priority_mail',
      ship_from: to,
      ship_to: from,
      residential: false,
      is_return: true,
    });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const sent = api.fake.requests.find((r) => r.operation === 'return_label')!;
    expect(sent.path).toBe('/labels/v3/return-label');
    const body = JSON.parse(sent.body);
    expect(body.packageDescription.mailClass).toBe('PRIORITY_MAIL_RETURN_SERVICE');
    expect(body.fromAddress).toMatchObject({ city: 'Alpharetta', state: 'GA' });
    expect(body.toAddress).toMatchObject({ firm: 'Acme Widgets', city: 'Timonium' });
    expect(res.value.label.bytes.equals(FAKE_LABELS.PDF.bytes)).toBe(true);
    expect(api.fake.count('label')).toBe(0);
    expect(await driver().void(c, { carrier_shipment_id: res.value.carrier_shipment_id })).toEqual({ ok: true, value: { voided: true } });
    expectCleanExchange();
    api.fake.reset();
    const intl = await driver().purchase(ctx(), {
      ...purchase(),
      service_code: 'usps_priority_mail',
      ship_from: londonAddress,
      ship_to: from,
      is_return: true,
    });
    expect(intl).toMatchObject({ ok: false, kind: 'rejected', messages: [{ carrier_code: 'return_not_domestic' }] });
    expect(api.fake.requests).toHaveLength(0);
  });

  describe('SCAN form (end-of-day manifest)', () => {
    const manifestOf = (numbers: string[]) => ({
      ship_date: '2026-03-02',
      address: from,
      shipments: numbers.map((n) => ({ tracking_number: n, carrier_shipment_id: n, service_code: 'usps_ground_advantage' })),
    });

    it("links the day's labels on one PS Form 5630: its number, the PDF, and a label USPS left off in rejected", async () => {
      const c = ctx();
      const a = await driver().purchase(c, purchase());
      const b = await driver().purchase(c, { ...purchase(), reference: 'shp_01SECONDLABEL' });
      expect(a.ok && b.ok).toBe(true);
      if (!a.ok || !b.ok) return;
      const unknown = '9200 1909 9999 0000 0000 01';
      const res = await driver().manifest!(c, manifestOf([a.value.tracking_number, b.value.tracking_number, unknown]));
      expect(res.ok).toBe(true);
      if (!res.ok) return;
      const sent = JSON.parse(api.fake.requests.find((r) => r.operation === 'scan_form')!.body);
      expect(sent).toEqual({
        imageInfo: { imageType: 'PDF', labelType: '8.5X11LABEL' },
        mailingDate: '2026-03-02',
        overwriteMailingDate: false,
        entryFacilityZIPCode: '21093',
        destinationEntryFacilityType: 'NONE',
        shipment: { trackingNumbers: [a.value.tracking_number, b.value.tracking_number, '9200190999990000000001'] },
        fromAddress: {
          firstName: 'Dock',
          lastName: 'Lead',
          firm: 'Acme Widgets',
          streetAddress: '12 Main St',
          city: 'Timonium',
          state: 'MD',
          ZIPCode: '21093',
        },
      });
      const [formNumber, onForm] = [...api.fake.scanForms.entries()][0];
      expect(onForm).toEqual([a.value.tracking_number, b.value.tracking_number]);
      expect(res.value).toEqual({
        carrier_manifest_id: formNumber,
        document: { type: 'scan_form', artifact: { format: 'PDF', mime: 'application/pdf', bytes: FAKE_SCAN_FORM } },
        rejected: [{ tracking_number: '9200190999990000000001', message: expect.stringContaining('left this label off'), carrier_code: 'not_on_scan_form' }],
      });
      expect(api.fake.count('payment')).toBeLessThanOrEqual(1); // a SCAN form needs no payment token
      expectCleanExchange();
      // The fake's check is not a rubber stamp: a form without its entry ZIP or with an unknown facility type is refused.
      if (api.specs) {
        const req = api.fake.requests.find((r) => r.operation === 'scan_form')!;
        const bad = { ...sent, destinationEntryFacilityType: 'DOCK' };
        delete bad.entryFacilityZIPCode;
        const problems = api.specs.checkRequest('POST', new URL(`http://x${req.path}`), req.headers, JSON.stringify(bad)).problems.join('\n');
        expect(problems).toMatch(/entryFacilityZIPCode/);
        expect(problems).toMatch(/destinationEntryFacilityType/);
      }
    });

    it('no label USPS can add: a rejection with its message; a second form for the same labels likewise', async () => {
      const c = ctx();
      const a = await driver().purchase(c, purchase());
      if (!a.ok) throw new Error('purchase failed');
      expect((await driver().manifest!(c, manifestOf([a.value.tracking_number]))).ok).toBe(true);
      const again = await driver().manifest!(c, manifestOf([a.value.tracking_number]));
      expect(again).toMatchObject({
        ok: false,
        kind: 'rejected',
        messages: [{ carrier_code: 'SCF-001', message: expect.stringContaining('None of the tracking numbers') }],
      });
      expectCleanExchange();
    });

    it('every label of a multi-package shipment goes on the form (the shipment id lists them)', async () => {
      const c = ctx();
      const multi = await driver().purchase(c, { ...purchase(), parcels: [parcel, parcel] });
      if (!multi.ok) throw new Error('purchase failed');
      const res = await driver().manifest!(c, {
        ship_date: '2026-03-02',
        address: from,
        shipments: [
          { tracking_number: multi.value.tracking_number, carrier_shipment_id: multi.value.carrier_shipment_id, service_code: 'usps_ground_advantage' },
        ],
      });
      expect(res.ok && res.value.rejected).toEqual([]);
      const sent = JSON.parse(api.fake.requests.find((r) => r.operation === 'scan_form')!.body);
      expect(sent.shipment.trackingNumbers).toEqual(multi.value.packages.map((p) => p.tracking_number));
      expectCleanExchange();
    });

    it('a JSON answer (SCANForm) is read as well as the multipart one', async () => {
      api.fake.queue('scan_form', {
        body: {
          SCANFormMetaData: {
            mailingDate: '2026-03-02',
            entryFacilityZIPCode: '21093',
            destinationEntryFacilityType: 'NONE',
            manifestNumber: '92750901234567890123456789',
            trackingNumbers: ['9200190999990000000001'],
          },
          SCANFormImage: FAKE_SCAN_FORM.toString('base64'),
        },
      });
      const res = await driver().manifest!(ctx(), manifestOf(['9200190999990000000001']));
      expect(res).toEqual({
        ok: true,
        value: {
          carrier_manifest_id: '92750901234567890123456789',
          document: { type: 'scan_form', artifact: { format: 'PDF', mime: 'application/pdf', bytes: FAKE_SCAN_FORM } },
          rejected: [],
        },
      });
      expectCleanExchange();
    });

    it('5xx: a retryable transport error, never sent twice; refused credentials: invalid_credentials; no ZIP: refused before calling', async () => {
      api.fake.queue('scan_form', { status: 503, body: uspsFixture('error-unavailable') });
      const err = await driver().manifest!(ctx(), manifestOf(['9200190999990000000001'])).catch((e) => e);
      expect(err).toBeInstanceOf(CarrierTransportError);
      expect(err).toMatchObject({ retryable: true });
      expect(api.fake.count('scan_form')).toBe(1);
      api.fake.reset();
      const refusedCreds = await driver().manifest!(ctx({ credentials: { ...CREDENTIALS, client_secret: 'wrong' } }), manifestOf(['9200190999990000000001']));
      expect(refusedCreds).toMatchObject({ ok: false, kind: 'invalid_credentials' });
      expect(api.fake.count('scan_form')).toBe(0);
      const noZip = await driver().manifest!(ctx(), { ...manifestOf(['9200190999990000000001']), address: { ...from, postal_code: 'K1A 0B1' } });
      expect(noZip).toMatchObject({ ok: false, kind: 'rejected', messages: [{ carrier_code: 'invalid_entry_zip', field: 'address.postal_code' }] });
      expect(api.fake.count('scan_form')).toBe(0);
    });
  });

  it('tracks with expand=DETAIL: event codes mapped to ours, oldest first, UTC, unmapped → unknown with the raw code', async () => {
    const res = await driver().track(ctx(), { tracking_number: '9200 1909 9999 9999 9999 99' });
    expect(api.fake.requests.find((r) => r.operation === 'track')!.path).toBe('/tracking/v3/tracking/9200190999999999999999?expand=DETAIL');
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.value).toMatchObject({
      status: 'delivered',
      status_detail: 'delivered',
      delivered_at: '2026-03-05T18:12:00.000Z',
      estimated_delivery_date: '2026-03-05',
      carrier_status_code: '01',
    });
    expect(res.value.events.map((e) => [e.status, e.carrier_status_code])).toEqual([
      ['pre_transit', 'GX'],
      ['in_transit', '03'],
      ['unknown', 'ZZ'],
      ['in_transit', '07'],
      ['out_for_delivery', 'OF'],
      ['delivered', '01'],
    ]);
    expect(res.value.events[1]).toMatchObject({
      occurred_at: '2026-03-02T21:31:00.000Z',
      milestone: 'picked_up',
      location: { city: 'TIMONIUM', state: 'MD', postal_code: '21093', country: 'US' },
    });
    expectCleanExchange();
  });

  it('validates an address: standardised (corrected), secondary missing (unverified), not found (invalid)', async () => {
    const res = await driver().validateAddress(ctx(), { ...to, company: 'Acme Widgets' });
    const sent = api.fake.requests.find((r) => r.operation === 'address')!;
    expect(sent.path).toBe(
      '/addresses/v3/address?firm=Acme+Widgets&streetAddress=100+Peachtree+Pkwy&secondaryAddress=Apt+4&city=Alpharetta&state=GA&ZIPCode=30005&ZIPPlus4=1234',
    );
    expect(res).toMatchObject({
      ok: true,
      value: { status: 'verified', residential: 'yes', normalized: { street1: '100 PEACHTREE PKWY', street2: 'APT 4', postal_code: '30005-1234' } },
    });
    const noApt = await driver().validateAddress(ctx(), { ...to, street2: undefined, postal_code: '30005' });
    expect(noApt).toMatchObject({ ok: true, value: { status: 'unverified', messages: [{ code: 'usps_32' }] } });
    const none = await driver().validateAddress(ctx(), { ...to, street1: '999 Nowhere Rd' });
    expect(none).toMatchObject({ ok: true, value: { status: 'invalid', normalized: null, messages: [{ code: 'usps_404', message: 'Address Not Found.' }] } });
    expectCleanExchange();
  });

  it('schedules a carrier pickup and cancels it with the ETag USPS gave', async () => {
    const c = ctx();
    const res = await driver().schedulePickup(c, {
      pickup_date: '2026-03-03',
      ready_time: '0900',
      close_time: '1700',
      address: from,
      residential: false,
      pieces: [{ service_code: 'usps_ground_advantage', quantity: 3, destination_country: 'US' }],
      total_weight_oz: 120,
      instructions: 'Loading dock at the back',
    });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.value).toEqual({ confirmation: expect.stringMatching(/^WTC\d{9}$/), charge: { amount: 0, currency: 'USD' } });
    const sent = JSON.parse(api.fake.requests.find((r) => r.operation === 'pickup')!.body);
    expect(sent).toEqual({
      pickupDate: '2026-03-03',
      pickupAddress: {
        firstName: 'Dock',
        lastName: 'Lead',
        firm: 'Acme Widgets',
        address: { streetAddress: '12 Main St', city: 'Timonium', state: 'MD', ZIPCode: '21093' },
        contact: [{ cellNumber: '4105550100' }],
      },
      packages: [{ packageType: 'USPS_GROUND_ADVANTAGE', packageCount: 3 }],
      estimatedWeight: 8,
      pickupLocation: { packageLocation: 'OTHER', specialInstructions: 'Loading dock at the back' },
    });
    const cancel = await driver().cancelPickup(c, { confirmation: res.value.confirmation });
    expect(cancel).toEqual({ ok: true, value: { cancelled: true } });
    const del = api.fake.requests.find((r) => r.operation === 'pickup_cancel')!;
    expect(del.headers['if-match']).toBe(api.fake.pickups.get(res.value.confirmation)!.etag);
    expect(api.fake.pickups.get(res.value.confirmation)!.cancelled).toBe(true);
    const again = await driver().cancelPickup(c, { confirmation: res.value.confirmation });
    expect(again).toMatchObject({ ok: false, kind: 'rejected', messages: [{ field: 'confirmation' }] });
    expectCleanExchange();
  });

  it('logs every exchange per account with redacted bodies', async () => {
    const c = ctx();
    await driver().purchase(c, purchase());
    expect(exchanges.map((e) => [e.operation, e.method, e.path, e.status])).toEqual([
      ['token', 'POST', '/oauth2/v3/token', 200],
      ['payment_authorization', 'POST', '/payments/v3/payment-authorization', 200],
      ['purchase', 'POST', '/labels/v3/label', 200],
    ]);
    expect(exchanges.every((e) => e.account_id === c.account.id && e.request_id === c.requestId)).toBe(true);
    expect((exchanges[0].request_body as Record<string, unknown>).client_secret).toBe('[REDACTED]');
    expect((exchanges[0].response_body as Record<string, unknown>).access_token).toBe('[REDACTED]');
    expect((exchanges[1].response_body as Record<string, unknown>).paymentAuthorizationToken).toBe('[REDACTED]');
    expect(exchanges[2].request_headers['x-payment-authorization-token']).toBe('[REDACTED]');
    expectCleanExchange();
  });
});

describe('USPS flat-rate packaging (packages.ts carrier_code = rateIndicator)', () => {
  const envelope = { weight_oz: 48, length_in: 12.5, width_in: 9.5, height_in: 0.75, package_id: 'usps_flat_rate_envelope' };
  const smallBox = { weight_oz: 48, length_in: 8.625, width_in: 5.375, height_in: 1.625, package_id: 'usps_small_flat_rate_box' };
  const lastLabel = () => JSON.parse(api.fake.requests.filter((r) => r.operation === 'label').at(-1)!.body).packageDescription;

  it('a flat rate envelope: Priority Mail and Express priced by FE whatever the weight, Ground Advantage by weight', async () => {
    const res = await driver().rates(ctx(), { ...rateRequest, parcel: envelope });
    if (!res.ok) throw new Error('rates failed');
    const price = (code: string) => res.value.rates.find((r) => r.service_code === code)?.price.amount;
    expect(price('usps_priority_mail')).toBe(FAKE_USPS_FLAT_RATES.PRIORITY_MAIL!.FE);
    expect(price('usps_priority_mail_express')).toBe(FAKE_USPS_FLAT_RATES.PRIORITY_MAIL_EXPRESS!.FE);
    expect(res.value.rates.find((r) => r.service_code === 'usps_ground_advantage')).toBeDefined();
    expect(price('usps_ground_advantage')).not.toBe(FAKE_USPS_FLAT_RATES.PRIORITY_MAIL!.FE);
    expectCleanExchange();
  });

  it('a small flat rate box: flat by Priority Mail; Express (no flat price for it, packages.ts) rates it by weight and size', async () => {
    const res = await driver().rates(ctx(), { ...rateRequest, parcel: smallBox, service_codes: ['usps_priority_mail', 'usps_priority_mail_express'] });
    if (!res.ok) throw new Error('rates failed');
    expect(res.value.rates.find((r) => r.service_code === 'usps_priority_mail')!.price.amount).toBe(FAKE_USPS_FLAT_RATES.PRIORITY_MAIL!.FS);
    const express = res.value.rates.find((r) => r.service_code === 'usps_priority_mail_express')!;
    expect(Object.values(FAKE_USPS_FLAT_RATES.PRIORITY_MAIL_EXPRESS!)).not.toContain(express.price.amount);
  });

  it('the label is bought with the rate indicator and processing category (FE FLATS, FS MACHINABLE) and USPS charges the flat price', async () => {
    const env = await driver().purchase(ctx(), { ...purchase(), service_code: 'usps_priority_mail', parcel: envelope });
    if (!env.ok) throw new Error('purchase failed');
    expect(lastLabel()).toMatchObject({ mailClass: 'PRIORITY_MAIL', rateIndicator: 'FE', processingCategory: 'FLATS' });
    expect(env.value.rate?.price.amount).toBe(FAKE_USPS_FLAT_RATES.PRIORITY_MAIL!.FE);
    const box = await driver().purchase(ctx(), { ...purchase(), service_code: 'usps_priority_mail', parcel: smallBox });
    expect(box.ok).toBe(true);
    expect(lastLabel()).toMatchObject({ rateIndicator: 'FS', processingCategory: 'MACHINABLE' });
    // Ground Advantage prices no flat rate: the box goes as the shipper's own packaging.
    const ground = await driver().purchase(ctx(), { ...purchase(), parcel: smallBox });
    expect(ground.ok).toBe(true);
    expect(lastLabel()).toMatchObject({ mailClass: 'USPS_GROUND_ADVANTAGE', rateIndicator: 'SP' });
    expectCleanExchange();
  });
});
