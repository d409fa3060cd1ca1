/** What every platform's webhook verification reads the same way: headers, HMACs, constant-time compares. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookVerifyInput } from './types.js';

/** A header's first value, trimmed, in any case; null when absent or blank. */
export function header(headers: WebhookVerifyInput['headers'], name: string): string | null {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() !== wanted || v === undefined) continue;
    const value = Array.isArray(v) ? v[0] : v;
    return value?.trim() ? value.trim() : null;
  }
  return null;
}

/** base64 HMAC-SHA256 of `body` keyed with `secret` (Shopify's and WooCommerce's signature). */
export function hmacBase64(body: Buffer | string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('base64');
}

/** Equal in constant time (for equal lengths; the length of a digest is no secret). */
export function safeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
