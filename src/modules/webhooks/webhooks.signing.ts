import { createHmac } from 'node:crypto';
import { randomBase62 } from '../../platform/crypto.js';

export const SIGNATURE_HEADER = 'x-service-signature';
export const DELIVERY_ID_HEADER = 'x-service-delivery-id';
export const EVENT_TYPE_HEADER = 'x-service-event-type';

/** A new endpoint secret: `whsec_` + 43 base62 characters (≈ 256 bits). */
export function newWebhookSecret(): string {
  return `whsec_${randomBase62(43)}`;
}

/**
 * `t=<unix>,v1=<hex>[,v1=<hex>…]`: HMAC-SHA256 over `"<t>.<raw body>"` with each valid secret
 * (the current one first, then the previous one during a rotation's overlap). The format is
 * Stripe's, so receivers can verify with `stripe.webhooks.constructEvent` or any equivalent.
 * The secret is used whole (`whsec_…` included) as the HMAC key, as Stripe does.
 */
export function signatureHeader(rawBody: string, secrets: readonly string[], unixSeconds: number): string {
  const signed = `${unixSeconds}.${rawBody}`;
  const parts = [`t=${unixSeconds}`];
  for (const secret of secrets) parts.push(`v1=${createHmac('sha256', secret).update(signed).digest('hex')}`);
  return parts.join(',');
}
