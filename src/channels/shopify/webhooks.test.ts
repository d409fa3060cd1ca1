import { describe, expect, it } from 'vitest';
import { signShopifyWebhook, verifyShopifyWebhook } from './webhooks.js';

const secret = 'shpss_test_secret';
const body = JSON.stringify({ id: 5001, name: '#1001' });
const headers = (over: Record<string, string | undefined> = {}) => ({
  'X-Shopify-Hmac-Sha256': signShopifyWebhook(body, secret),
  'X-Shopify-Shop-Domain': 'fake-goods.myshopify.com',
  'X-Shopify-Webhook-Id': 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043',
  'X-Shopify-Topic': 'orders/updated',
  'X-Shopify-Triggered-At': '2026-03-02T15:00:00.000Z',
  'X-Shopify-API-Version': '2026-07',
  'X-Shopify-Event-Id': 'e1',
  ...over,
});

describe('Shopify webhook verification', () => {
  it("accepts a delivery signed with the client secret for the integration's shop", () => {
    const r = verifyShopifyWebhook({ headers: headers(), rawBody: Buffer.from(body), secret, storeRef: 'Fake-Goods.myshopify.com' });
    expect(r).toEqual({
      ok: true,
      deliveryId: 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043',
      topic: 'orders/updated',
      storeRef: 'fake-goods.myshopify.com',
      triggeredAt: '2026-03-02T15:00:00.000Z',
      eventId: 'e1',
      apiVersion: '2026-07',
    });
  });

  it('reads lower-cased headers (as Node delivers them)', () => {
    const lower = Object.fromEntries(Object.entries(headers()).map(([k, v]) => [k.toLowerCase(), v]));
    expect(verifyShopifyWebhook({ headers: lower, rawBody: body, secret, storeRef: 'fake-goods.myshopify.com' }).ok).toBe(true);
  });

  it('refuses a missing or wrong signature, a changed body, another secret', () => {
    const v = (h: Record<string, string | undefined>, raw = body, s = secret) =>
      verifyShopifyWebhook({ headers: h, rawBody: raw, secret: s, storeRef: 'fake-goods.myshopify.com' });
    expect(v(headers({ 'X-Shopify-Hmac-Sha256': undefined }))).toEqual({ ok: false, reason: 'missing_signature' });
    expect(v(headers({ 'X-Shopify-Hmac-Sha256': 'AAAA' }))).toEqual({ ok: false, reason: 'bad_signature' });
    expect(v(headers(), `${body} `)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(v(headers(), body, 'another')).toEqual({ ok: false, reason: 'bad_signature' });
    // A hex digest of the right key is still not Shopify's base64.
    expect(v(headers({ 'X-Shopify-Hmac-Sha256': Buffer.from(signShopifyWebhook(body, secret), 'base64').toString('hex') }))).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it("refuses another shop's delivery and one without a delivery id", () => {
    const v = (h: Record<string, string | undefined>) => verifyShopifyWebhook({ headers: h, rawBody: body, secret, storeRef: 'fake-goods.myshopify.com' });
    expect(v(headers({ 'X-Shopify-Shop-Domain': 'other.myshopify.com' }))).toEqual({ ok: false, reason: 'wrong_store' });
    expect(v(headers({ 'X-Shopify-Shop-Domain': undefined }))).toEqual({ ok: false, reason: 'wrong_store' });
    expect(v(headers({ 'X-Shopify-Webhook-Id': undefined }))).toEqual({ ok: false, reason: 'missing_headers' });
  });
});
