/**
 * Verifying a BigCommerce webhook delivery (docs/channels-bigcommerce.md). BigCommerce signs
 * nothing: each hook of ours carries our `webhook_secret` in its own `headers`, which BigCommerce
 * sends with every delivery; that header is compared in constant time. The body names the store
 * (`producer: "stores/{store_hash}"`), the scope and the event's `hash`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { obj, str } from '../../carriers/http/json-read.js';
import type { WebhookVerifyInput, WebhookVerifyResult } from '../types.js';
import { header } from '../webhook-input.js';
import { SECRET_HEADER } from './units.js';

/** Equal in constant time: both sides hashed first, so their lengths leak nothing either. */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * The delivery id: the event's scope, `hash` and `created_at`. BigCommerce re-sends a failed
 * delivery as it was, so all three stay the same across retries; the hash alone is described as
 * the SHA-1 of the payload data (`{type, id}`), which every event of one order shares, and two
 * events of one order (created, then updated) can fall in the same second. Without a hash: the
 * SHA-256 of the raw body (a retry is the same bytes).
 */
export function deliveryIdOf(body: Record<string, unknown>, rawBody: Buffer | string): string {
  const hash = str(body.hash);
  const at = str(body.created_at);
  if (hash) return [str(body.scope), hash, at].filter(Boolean).join(':');
  return `sha256:${createHash('sha256').update(rawBody).digest('hex')}`;
}

export function verifyBigcommerceWebhook(input: WebhookVerifyInput): WebhookVerifyResult {
  const given = header(input.headers, SECRET_HEADER);
  if (!given) return { ok: false, reason: 'missing_signature' };
  // The secret first, so a forged delivery learns nothing from which check failed.
  if (!sameSecret(given, input.secret)) return { ok: false, reason: 'bad_signature' };
  let body: Record<string, unknown>;
  try {
    body = obj(JSON.parse(Buffer.isBuffer(input.rawBody) ? input.rawBody.toString('utf8') : input.rawBody));
  } catch {
    return { ok: false, reason: 'missing_headers' };
  }
  const producer = str(body.producer)?.trim().toLowerCase() ?? '';
  const storeHash = input.storeRef.trim().toLowerCase();
  if (producer !== `stores/${storeHash}`) return { ok: false, reason: 'wrong_store' };
  const scope = str(body.scope);
  if (!scope) return { ok: false, reason: 'missing_headers' };
  const createdAt = typeof body.created_at === 'number' && Number.isFinite(body.created_at) ? new Date(body.created_at * 1000).toISOString() : null;
  return {
    ok: true,
    deliveryId: deliveryIdOf(body, input.rawBody),
    topic: scope,
    storeRef: storeHash,
    triggeredAt: createdAt,
    eventId: str(body.hash),
    apiVersion: null,
  };
}
