import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Checks an `X-Service-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]` header: HMAC-SHA256 with the
 * endpoint secret over `"<t>.<raw body>"`. True when any v1 matches any of `secrets` (during a
 * rotation the service signs with both secrets; a receiver may also hold both) and t is within
 * `toleranceSec` of now (replay window).
 * Pass the body exactly as received: re-serialised JSON will not match.
 */
export function verifyWebhookSignature(
  rawBody: string | Buffer,
  header: string | null | undefined,
  secrets: string | readonly string[],
  toleranceSec = 300,
  nowSec = Math.floor(Date.now() / 1000),
): boolean {
  if (!header) return false;
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === undefined || signatures.length === 0) return false;
  if (Math.abs(nowSec - timestamp) > toleranceSec) return false;
  // Compare every candidate (no early exit) so timing says nothing about which one matched.
  let ok = false;
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
    for (const signature of signatures) ok = timingSafeEqual(expected, Buffer.from(signature, 'hex')) || ok;
  }
  return ok;
}
