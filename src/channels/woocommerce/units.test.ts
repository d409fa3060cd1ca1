import { describe, expect, it } from 'vitest';
import { normaliseSiteUrl, wooCredentialProblems, basicAuthorization } from './credentials.js';
import { platform as woocommerce } from './index.js';
import { gmtInstant, modifiedAfter, toMinorUnits, trackingCompany } from './units.js';

describe('WooCommerce units', () => {
  it('converts money by string arithmetic with the currency digits, rounding the float price half up', () => {
    expect(toMinorUnits('0.29', 'USD')).toBe(29);
    expect(toMinorUnits(18.5, 'USD')).toBe(1850);
    expect(toMinorUnits(3.3333333333333335, 'USD')).toBe(333);
    expect(toMinorUnits(6.666666666666667, 'USD')).toBe(667);
    expect(toMinorUnits(1200, 'JPY')).toBe(1200);
    expect(toMinorUnits('1.2345', 'KWD')).toBe(1235);
    expect(toMinorUnits(1e-7, 'USD')).toBe(0);
    expect(toMinorUnits('abc', 'USD')).toBeNull();
    expect(toMinorUnits(null, 'USD')).toBeNull();
  });

  it('reads zone-less _gmt dates as UTC, with milliseconds', () => {
    expect(gmtInstant('2017-03-22T16:28:08')).toBe('2017-03-22T16:28:08.000Z');
    expect(gmtInstant('2017-03-22T16:28:08+02:00')).toBe('2017-03-22T14:28:08.000Z');
    expect(gmtInstant('')).toBeNull();
    expect(gmtInstant('yesterday')).toBeNull();
    expect(gmtInstant(12)).toBeNull();
  });

  it('asks for modifications strictly after one second before the watermark, to the second, zone-less', () => {
    expect(modifiedAfter('2026-03-02T15:00:00.400Z')).toBe('2026-03-02T14:59:59');
    expect(modifiedAfter('2026-03-02T10:00:00-05:00')).toBe('2026-03-02T14:59:59');
    expect(modifiedAfter('not a date')).toBeNull();
  });

  it('names the carriers as people read them', () => {
    expect(['ups', 'usps', 'fedex', 'dhl_express', 'acme'].map(trackingCompany)).toEqual(['UPS', 'USPS', 'FedEx', 'DHL Express', null]);
  });
});

describe('WooCommerce connection', () => {
  it('normalises the site URL: https, lower-case host, the WordPress path, no trailing slash', () => {
    expect(normaliseSiteUrl(' https://Shop.Example.COM/ ')).toBe('https://shop.example.com');
    expect(normaliseSiteUrl('shop.example.com')).toBe('https://shop.example.com');
    expect(normaliseSiteUrl('http://shop.example.com/Store//')).toBe('https://shop.example.com/Store');
    expect(normaliseSiteUrl('https://shop.example.com:8443/wp')).toBe('https://shop.example.com:8443/wp');
    expect(normaliseSiteUrl('https://shop.example.com:443')).toBe('https://shop.example.com');
  });

  it('refuses what is not a site URL', () => {
    for (const bad of [
      'ftp://shop.example.com',
      'https://user:pw@shop.example.com',
      'https://shop.example.com/?p=1',
      'https://shop.example.com/#x',
      'https://shop.example.com/wp-json/wc/v3',
      'https://',
      '',
      'shop example.com',
      'javascript:alert(1)',
    ]) {
      expect(normaliseSiteUrl(bad), bad).toBeNull();
    }
  });

  it('takes a consumer key and secret; the webhook secret is ours to make', () => {
    expect(wooCredentialProblems({ consumer_key: 'ck_1', consumer_secret: 'cs_1' })).toEqual({ kind: 'token', details: [] });
    expect(wooCredentialProblems({ consumer_key: 'ck_1' }).details).toEqual([{ field: 'credentials.consumer_secret', message: 'is required' }]);
    expect(wooCredentialProblems({ consumer_key: 'ck:1', consumer_secret: 'cs_1', webhook_secret: 'x', token: 'y' }).details.map((d) => d.field)).toEqual([
      'credentials.webhook_secret',
      'credentials.token',
      'credentials.consumer_key',
    ]);
    expect(wooCredentialProblems('ck_1:cs_1').details[0].field).toBe('credentials');
    expect(wooCredentialProblems({ consumer_key: 'ck_1', consumer_secret: '' }).kind).toBeUndefined();
    expect(basicAuthorization({ consumer_key: 'ck_1', consumer_secret: 'cs_2' })).toBe(`Basic ${Buffer.from('ck_1:cs_2').toString('base64')}`);
    expect(basicAuthorization({ consumer_key: 'ck_1' })).toBeNull();
  });

  it('describes the platform: no OAuth, our webhook secret, the site as origin', () => {
    expect(woocommerce).toMatchObject({
      slug: 'woocommerce',
      name: 'WooCommerce',
      oauthScopes: [],
      generatesWebhookSecret: true,
      defaultImportStatuses: ['processing'],
    });
    expect(woocommerce.authorizeUrl).toBeUndefined();
    expect(woocommerce.webhookTopics).toEqual(['order.created', 'order.updated', 'order.deleted']);
    expect(woocommerce.secretCredentialFields).toEqual(['consumer_key', 'consumer_secret', 'webhook_secret']);
    expect(woocommerce.webhookSecret({ consumer_key: 'a', webhook_secret: 's3cret' })).toBe('s3cret');
    expect(woocommerce.webhookSecret({ consumer_key: 'a' })).toBeNull();
    expect(woocommerce.defaultOrigin('https://shop.example.com/store')).toBe('https://shop.example.com/store');
    const channel = woocommerce.createChannel({} as never);
    expect(channel.platform).toBe('woocommerce');
    expect(channel.exchangeCode).toBeUndefined();
    expect(channel.verifyOAuthHmac).toBeUndefined();
  });
});
