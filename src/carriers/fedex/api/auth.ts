/** OAuth client credentials (`POST /oauth/token`, authorization-v1-APIAuthorization-Resource.json). */
import { num, obj, str } from '../../http/json-read.js';
import type { AccessToken } from '../../http/token-cache.js';
import type { FedexCredentials } from './credentials.js';

export const FEDEX_TOKEN_PATH = '/oauth/token';

/** FullSchema: form fields `grant_type`, `client_id` (API key), `client_secret` (secret key). */
export function buildTokenRequest(credentials: FedexCredentials): Record<string, string> {
  return { grant_type: 'client_credentials', client_id: credentials.api_key, client_secret: credentials.secret_key };
}

/** `Response`: `expires_in` is an integer of seconds (FedEx's standard is one hour). Null when the body is not one. */
export function parseTokenResponse(body: unknown): AccessToken | null {
  const o = obj(body);
  const token = str(o.access_token);
  const expires = num(o.expires_in);
  if (!token) return null;
  return { accessToken: token, expiresInS: expires !== null && expires > 0 ? expires : 3600 };
}
