/**
 * What a WooCommerce connection is made of (docs/channels-woocommerce.md): the site URL as the
 * store reference, and a REST API key pair sent as HTTP Basic over HTTPS. The secret that signs
 * webhook deliveries is made by the service, not given (`webhook_secret`).
 */

/**
 * The site URL normalised: `https://` + lower-case host (+ port) + the site's path without a
 * trailing slash. A bare host gets `https://`; `http://` becomes `https://`, since WooCommerce
 * takes HTTP Basic keys only over HTTPS. Null for another scheme, credentials, a query, a
 * fragment, or the REST path itself (`/wp-json/…`: the site is the part before it).
 */
export function normaliseSiteUrl(storeRef: string): string | null {
  const text = storeRef.trim();
  if (!text || text.length > 2048 || /\s/.test(text) || text.includes('?') || text.includes('#')) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password || !url.hostname) return null;
  const path = url.pathname.replace(/\/+$/, '');
  if (/(^|\/)wp-json(\/|$)/i.test(path)) return null;
  const port = url.port && !(url.protocol === 'https:' && url.port === '443') && !(url.protocol === 'http:' && url.port === '80') ? `:${url.port}` : '';
  return `https://${url.hostname.toLowerCase()}${port}${path}`;
}

const STRING_FIELD = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 512;
const FIELDS = ['consumer_key', 'consumer_secret'];
export const SECRET_FIELDS: readonly string[] = ['consumer_key', 'consumer_secret', 'webhook_secret'];

export function wooCredentialProblems(credentials: unknown): { kind?: 'token' | 'oauth'; details: { field: string; message: string }[] } {
  if (typeof credentials !== 'object' || credentials === null || Array.isArray(credentials)) {
    return { details: [{ field: 'credentials', message: 'must be {consumer_key, consumer_secret} (a WooCommerce REST API key with read/write access)' }] };
  }
  const c = credentials as Record<string, unknown>;
  const details: { field: string; message: string }[] = [];
  for (const key of Object.keys(c)) {
    if (key === 'webhook_secret') details.push({ field: 'credentials.webhook_secret', message: 'is made by the service, not given' });
    else if (!FIELDS.includes(key)) details.push({ field: `credentials.${key}`, message: "is not a field of WooCommerce's credentials" });
  }
  for (const key of FIELDS) {
    if (c[key] === undefined) details.push({ field: `credentials.${key}`, message: 'is required' });
    else if (!STRING_FIELD(c[key])) details.push({ field: `credentials.${key}`, message: 'must be a non-empty string of at most 512 characters' });
  }
  // HTTP Basic puts the key before a colon: a key holding one cannot be sent.
  if (typeof c.consumer_key === 'string' && c.consumer_key.includes(':'))
    details.push({ field: 'credentials.consumer_key', message: 'must not contain a colon' });
  return details.length ? { details } : { kind: 'token', details };
}

/** `Authorization: Basic …` for the key pair; null when the connection has none. */
export function basicAuthorization(credentials: Record<string, unknown>): string | null {
  const key = credentials.consumer_key;
  const secret = credentials.consumer_secret;
  if (typeof key !== 'string' || !key || typeof secret !== 'string' || !secret) return null;
  return `Basic ${Buffer.from(`${key}:${secret}`, 'utf8').toString('base64')}`;
}
