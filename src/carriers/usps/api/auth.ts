/**
 * OAuth 2.0 client credentials (`POST /oauth2/v3/token`). USPS publishes no OpenAPI document
 * for it; the request and answer follow the README's "Example OAuth Client Credentials Token
 * request": a JSON body (not form-encoded), and `expires_in` as a string of seconds.
 */
import type { AccessToken } from '../../http/token-cache.js';
import { obj, str } from '../../http/json-read.js';
import type { UspsCredentials } from './credentials.js';

export const USPS_TOKEN_PATH = '/oauth2/v3/token';

export function buildTokenRequest(credentials: UspsCredentials): Record<string, string> {
  return { client_id: credentials.client_id, client_secret: credentials.client_secret, grant_type: 'client_credentials' };
}

/** USPS's tokens last 8 hours; a missing or unreadable `expires_in` is taken as one hour. */
export function parseTokenResponse(body: unknown): AccessToken | null {
  const o = obj(body);
  const token = str(o.access_token);
  if (!token) return null;
  const expires = Number(str(o.expires_in) ?? NaN);
  return { accessToken: token, expiresInS: Number.isFinite(expires) && expires > 0 ? expires : 3600 };
}
