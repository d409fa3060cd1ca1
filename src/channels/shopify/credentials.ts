/**
 * What a Shopify connection is made of (docs/channels.md): the shop domain as the store
 * reference, and either a merchant's custom app (`access_token` + `client_secret`, active at once)
 * or a Partner app's `client_id` + `client_secret`, which starts the OAuth install instead.
 */
const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]{0,60}\.myshopify\.com$/;

export function normaliseShopDomain(storeRef: string): string | null {
  const domain = storeRef.trim();
  return SHOP_DOMAIN.test(domain) ? domain : null;
}

const STRING_FIELD = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 512;
const FIELDS = ['access_token', 'client_secret', 'client_id', 'refresh_token', 'token_expires_at', 'refresh_token_expires_at'];
export const SECRET_FIELDS: readonly string[] = ['access_token', 'client_secret', 'refresh_token'];

export function shopifyCredentialProblems(credentials: unknown): { kind?: 'token' | 'oauth'; details: { field: string; message: string }[] } {
  if (typeof credentials !== 'object' || credentials === null || Array.isArray(credentials)) {
    return { details: [{ field: 'credentials', message: 'must be {access_token, client_secret} (custom app) or {client_id, client_secret} (OAuth)' }] };
  }
  const c = credentials as Record<string, unknown>;
  const details: { field: string; message: string }[] = [];
  for (const key of Object.keys(c)) {
    if (!FIELDS.includes(key)) details.push({ field: `credentials.${key}`, message: "is not a field of Shopify's credentials" });
  }
  for (const key of ['access_token', 'client_secret', 'client_id']) {
    if (c[key] !== undefined && !STRING_FIELD(c[key]))
      details.push({ field: `credentials.${key}`, message: 'must be a non-empty string of at most 512 characters' });
  }
  if (!STRING_FIELD(c.client_secret)) {
    if (c.client_secret === undefined)
      details.push({ field: 'credentials.client_secret', message: 'is required (it signs the webhooks and the OAuth callback)' });
    return { details };
  }
  if (STRING_FIELD(c.access_token)) return { kind: 'token', details };
  if (STRING_FIELD(c.client_id)) return { kind: 'oauth', details };
  details.push({ field: 'credentials.access_token', message: 'is required (or client_id, to install through OAuth)' });
  return { details };
}
