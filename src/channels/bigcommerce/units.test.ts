import { describe, expect, it } from 'vitest';
import { bigcommerceCredentialProblems, normaliseStoreHash } from './credentials.js';
import { platform as bigcommerce } from './index.js';
import { dateFilter, DEFAULT_IMPORT_STATUSES, isoFromRfc2822, stateCode, statusKey, statusWord, toMinorUnits, trackingCarrier } from './units.js';

describe('BigCommerce units', () => {
  it('names statuses by id, not by the label a merchant may rename', () => {
    expect(statusWord(11)).toBe('awaiting_fulfillment');
    expect(statusWord(9)).toBe('awaiting_shipment');
    expect(statusWord('5')).toBe('cancelled');
    expect(statusWord(42)).toBe('status_42');
    expect(statusWord(undefined)).toBe('unknown');
    expect(DEFAULT_IMPORT_STATUSES).toEqual(['11', '9']);
    expect(statusKey(11)).toBe('11');
    expect(statusKey('9')).toBe('9');
    expect(statusKey(undefined)).toBe('unknown');
  });

  it('reads RFC-2822 dates as UTC ISO with milliseconds and writes the filter as ISO', () => {
    expect(isoFromRfc2822('Tue, 05 Mar 2019 21:40:11 +0000')).toBe('2019-03-05T21:40:11.000Z');
    expect(isoFromRfc2822('Thu, 20 Apr 2017 11:32:00 -0400')).toBe('2017-04-20T15:32:00.000Z');
    expect(isoFromRfc2822('')).toBeNull();
    expect(isoFromRfc2822('soon')).toBeNull();
    expect(dateFilter('2026-03-02T10:00:00Z')).toBe('2026-03-02T10:00:00.000+00:00');
    expect(dateFilter('nope')).toBeNull();
  });

  it('converts four-decimal amounts to minor units by string arithmetic', () => {
    expect(toMinorUnits('55.9900', 'USD')).toBe(5599);
    expect(toMinorUnits('0.2900', 'USD')).toBe(29);
    expect(toMinorUnits('10.0050', 'USD')).toBe(1001);
    expect(toMinorUnits('1200.0000', 'JPY')).toBe(1200);
    expect(toMinorUnits('1.2345', 'KWD')).toBe(1235);
    expect(toMinorUnits(4.1, 'USD')).toBe(410);
    expect(toMinorUnits('abc', 'USD')).toBeNull();
  });

  it('maps carriers to tracking_carrier values and state names to codes', () => {
    expect([trackingCarrier('ups'), trackingCarrier('usps'), trackingCarrier('fedex'), trackingCarrier('dhl_express'), trackingCarrier('acme')]).toEqual([
      'ups',
      'usps',
      'fedex',
      'dhl',
      null,
    ]);
    expect(stateCode('Texas', 'US')).toBe('TX');
    expect(stateCode('tx', 'US')).toBe('TX');
    expect(stateCode('Québec', 'CA')).toBe('QC');
    expect(stateCode('Bavaria', 'DE')).toBe('Bavaria');
    expect(stateCode('Atlantis', 'US')).toBe('Atlantis');
  });
});

describe('BigCommerce connection', () => {
  it('normalises the store hash and refuses anything else', () => {
    expect(normaliseStoreHash(' ABC123xyz ')).toBe('abc123xyz');
    expect(normaliseStoreHash('https://api.bigcommerce.com/stores/abc123')).toBeNull();
    expect(normaliseStoreHash('abc')).toBeNull();
    expect(bigcommerce.defaultOrigin('AbC123')).toBe('https://api.bigcommerce.com/stores/abc123');
  });

  it("takes an access token only; the webhook secret is the service's", () => {
    expect(bigcommerceCredentialProblems({ access_token: 'tok' })).toEqual({ kind: 'token', details: [] });
    expect(bigcommerceCredentialProblems({}).details.map((d) => d.field)).toEqual(['credentials.access_token']);
    expect(bigcommerceCredentialProblems({ access_token: 'tok', webhook_secret: 's', client_id: 'c' }).details.map((d) => d.field)).toEqual([
      'credentials.webhook_secret',
      'credentials.client_id',
    ]);
    expect(bigcommerceCredentialProblems('tok').details).toHaveLength(1);
    expect(bigcommerce.webhookSecret({ access_token: 'tok', webhook_secret: 'sec' })).toBe('sec');
    expect(bigcommerce.webhookSecret({ access_token: 'tok' })).toBeNull();
    expect(bigcommerce).toMatchObject({
      slug: 'bigcommerce',
      name: 'BigCommerce',
      generatesWebhookSecret: true,
      secretCredentialFields: ['access_token', 'webhook_secret'],
      oauthScopes: [],
    });
    expect(bigcommerce.authorizeUrl).toBeUndefined();
    const channel = bigcommerce.createChannel({} as never);
    expect(channel.exchangeCode).toBeUndefined();
    expect(channel.verifyOAuthHmac).toBeUndefined();
  });
});
