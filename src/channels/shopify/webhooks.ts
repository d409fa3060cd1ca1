/**
 * Verifying a Shopify webhook delivery (docs/channels.md): `X-Shopify-Hmac-Sha256` is the base64
 * HMAC-SHA256 of the raw body keyed with the app's client secret, compared in constant time;
 * `X-Shopify-Shop-Domain` must be the integration's shop; `X-Shopify-Webhook-Id` is the
 * delivery id (the same across Shopify's retries of one delivery).
 */
import type { WebhookVerifyInput, WebhookVerifyResult } from '../types.js';
import { hmacBase64, header, safeEqual } from '../webhook-input.js';

/** What Shopify puts in `X-Shopify-Hmac-Sha256`. */
export const signShopifyWebhook = hmacBase64;
export { safeEqual };

/** Shop domains compare case-insensitively (`Name.myshopify.com` is the same shop). */
export function sameShop(a: string, b: string): boolean {
  return a.trim().toLowerCase().replace(/\/+$/, '') === b.trim().toLowerCase().replace(/\/+$/, '');
}

export function verifyShopifyWebhook(input: WebhookVerifyInput): WebhookVerifyResult {
  const signature = header(input.headers, 'x-shopify-hmac-sha256');
  if (!signature) return { ok: false, reason: 'missing_signature' };
  const expected = Buffer.from(signShopifyWebhook(input.rawBody, input.secret), 'base64');
  const given = Buffer.from(signature, 'base64');
  // The signature first, so a forged delivery learns nothing from which check failed.
  if (!safeEqual(expected, given)) return { ok: false, reason: 'bad_signature' };
  const shop = header(input.headers, 'x-shopify-shop-domain');
  if (!shop || !sameShop(shop, input.storeRef)) return { ok: false, reason: 'wrong_store' };
  const deliveryId = header(input.headers, 'x-shopify-webhook-id');
  const topic = header(input.headers, 'x-shopify-topic');
  if (!deliveryId || !topic) return { ok: false, reason: 'missing_headers' };
  return {
    ok: true,
    deliveryId,
    topic,
    storeRef: shop.toLowerCase(),
    triggeredAt: header(input.headers, 'x-shopify-triggered-at'),
    eventId: header(input.headers, 'x-shopify-event-id'),
    apiVersion: header(input.headers, 'x-shopify-api-version'),
  };
}
