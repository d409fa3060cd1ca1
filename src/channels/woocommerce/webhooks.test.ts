import { describe, expect, it } from 'vitest';
import { pingWebhookId, sameSite, signWooWebhook, verifyWooWebhook } from './webhooks.js';

const SECRET = 'our-generated-secret-0123456789';
const BODY = '{"id":727,"status":"processing","_links":{"self":[{"href":"https:\\/\\/shop.example\\/wp-json\\/wc\\/v3\\/orders\\/727"}]}}';

function headers(over: Record<string, string | undefined> = {}) {
  return {
    'X-WC-Webhook-Source': 'https://shop.example/',
    'X-WC-Webhook-Topic': 'order.updated',
    'X-WC-Webhook-Resource': 'order',
    'X-WC-Webhook-Event': 'updated',
    'X-WC-Webhook-Signature': signWooWebhook(BODY, SECRET),
    'X-WC-Webhook-ID': '142',
    'X-WC-Webhook-Delivery-ID': '5a0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e',
    ...over,
  };
}

describe('verifyWooWebhook', () => {
  it('accepts a delivery signed over its raw bytes, from this site', () => {
    expect(verifyWooWebhook({ headers: headers(), rawBody: Buffer.from(BODY), secret: SECRET, storeRef: 'https://shop.example' })).toEqual({
      ok: true,
      deliveryId: '5a0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e',
      topic: 'order.updated',
      storeRef: 'https://shop.example',
      triggeredAt: null,
      eventId: null,
      apiVersion: null,
    });
  });

  it('refuses a bad or missing signature first, then another site, then missing headers', () => {
    expect(verifyWooWebhook({ headers: headers(), rawBody: BODY.replace('727', '728'), secret: SECRET, storeRef: 'https://shop.example' })).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    expect(
      verifyWooWebhook({ headers: headers({ 'X-WC-Webhook-Signature': 'short' }), rawBody: BODY, secret: SECRET, storeRef: 'https://other.example' }),
    ).toEqual({ ok: false, reason: 'bad_signature' });
    expect(
      verifyWooWebhook({ headers: headers({ 'X-WC-Webhook-Signature': undefined }), rawBody: BODY, secret: SECRET, storeRef: 'https://shop.example' }),
    ).toEqual({ ok: false, reason: 'missing_signature' });
    expect(verifyWooWebhook({ headers: headers(), rawBody: BODY, secret: SECRET, storeRef: 'https://shop.example/store' })).toEqual({
      ok: false,
      reason: 'wrong_store',
    });
    expect(
      verifyWooWebhook({ headers: headers({ 'X-WC-Webhook-Source': undefined }), rawBody: BODY, secret: SECRET, storeRef: 'https://shop.example' }),
    ).toEqual({ ok: false, reason: 'wrong_store' });
    expect(
      verifyWooWebhook({ headers: headers({ 'X-WC-Webhook-Delivery-ID': undefined }), rawBody: BODY, secret: SECRET, storeRef: 'https://shop.example' }),
    ).toEqual({ ok: false, reason: 'missing_headers' });
  });

  it('answers the unsigned ping without applying it, and only a bare ping body', () => {
    expect(
      verifyWooWebhook({
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        rawBody: 'webhook_id=142',
        secret: SECRET,
        storeRef: 'https://shop.example',
      }),
    ).toMatchObject({ ok: true, ping: true, topic: 'ping' });
    expect(verifyWooWebhook({ headers: {}, rawBody: 'webhook_id=142&id=727', secret: SECRET, storeRef: 'https://shop.example' })).toEqual({
      ok: false,
      reason: 'missing_signature',
    });
    expect(verifyWooWebhook({ headers: {}, rawBody: '{"id":727}', secret: SECRET, storeRef: 'https://shop.example' })).toEqual({
      ok: false,
      reason: 'missing_signature',
    });
    expect(pingWebhookId(Buffer.from('webhook_id=7\n'))).toBe('7');
    expect(pingWebhookId('webhook_id=')).toBeNull();
  });

  it('compares sites by normalised URL', () => {
    expect(sameSite('http://Shop.Example/', 'https://shop.example')).toBe(true);
    expect(sameSite('https://shop.example/store/', 'https://shop.example/store')).toBe(true);
    expect(sameSite('https://shop.example/store', 'https://shop.example')).toBe(false);
    expect(sameSite('not a url at all', 'not a url at all')).toBe(false);
  });
});
