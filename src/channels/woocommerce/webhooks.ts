/**
 * Verifying a WooCommerce webhook delivery (docs/channels-woocommerce.md):
 * `X-WC-Webhook-Signature` is the base64 HMAC-SHA256 of the raw body keyed with the secret the
 * webhook was created with (ours, `webhook_secret`), compared in constant time and checked first;
 * `X-WC-Webhook-Source` (the site's home URL) must be the integration's site;
 * `X-WC-Webhook-Delivery-ID` is the delivery id and `X-WC-Webhook-Topic` the topic.
 *
 * The ping WooCommerce sends when a webhook is created is a bare form body `webhook_id=<n>`
 * with none of those headers and no signature: it is answered (`ping: true`) and never applied.
 */
import type { WebhookVerifyInput, WebhookVerifyResult } from '../types.js';
import { hmacBase64, header, safeEqual } from '../webhook-input.js';
import { normaliseSiteUrl } from './credentials.js';

/** What WooCommerce puts in `X-WC-Webhook-Signature`. */
export const signWooWebhook = hmacBase64;

const PING = /^webhook_id=(\d+)$/;

/** The webhook id of a ping body, or null when the body is not one. */
export function pingWebhookId(rawBody: Buffer | string): string | null {
  const text = (typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8')).trim();
  return PING.exec(text)?.[1] ?? null;
}

/** Two site URLs are the same site whatever their scheme, host case or trailing slash. */
export function sameSite(a: string, b: string): boolean {
  const na = normaliseSiteUrl(a);
  return na !== null && na === normaliseSiteUrl(b);
}

export function verifyWooWebhook(input: WebhookVerifyInput): WebhookVerifyResult {
  const signature = header(input.headers, 'x-wc-webhook-signature');
  const ping = pingWebhookId(input.rawBody);
  if (!signature) {
    // Unsigned is acceptable only for the ping, which carries nothing to apply.
    if (ping === null) return { ok: false, reason: 'missing_signature' };
    return { ok: true, ping: true, deliveryId: `ping:${ping}`, topic: 'ping', storeRef: input.storeRef, triggeredAt: null, eventId: null, apiVersion: null };
  }
  const expected = Buffer.from(signWooWebhook(input.rawBody, input.secret), 'base64');
  const given = Buffer.from(signature, 'base64');
  if (!safeEqual(expected, given)) return { ok: false, reason: 'bad_signature' };
  const source = header(input.headers, 'x-wc-webhook-source');
  if (!source || !sameSite(source, input.storeRef)) return { ok: false, reason: 'wrong_store' };
  const storeRef = normaliseSiteUrl(source)!;
  if (ping !== null) return { ok: true, ping: true, deliveryId: `ping:${ping}`, topic: 'ping', storeRef, triggeredAt: null, eventId: null, apiVersion: null };
  const deliveryId = header(input.headers, 'x-wc-webhook-delivery-id');
  const topic = header(input.headers, 'x-wc-webhook-topic');
  if (!deliveryId || !topic) return { ok: false, reason: 'missing_headers' };
  // WooCommerce sends no delivery time, event id or API version (`X-WC-Webhook-ID` is the subscription's id).
  return { ok: true, deliveryId, topic, storeRef, triggeredAt: null, eventId: null, apiVersion: null };
}
