/** OAuth client credentials (`POST /security/v1/oauth/token`, OAuthClientCredentials.yaml). */
import type { AccessToken } from '../../http/token-cache.js';
import type { UpsCredentials } from './credentials.js';
import { obj, str } from './wire.js';

export const UPS_TOKEN_PATH = '/security/v1/oauth/token';

export function buildTokenRequest(
  credentials: UpsCredentials,
  accountNumber: string | null,
): { headers: Record<string, string>; form: Record<string, string> } {
  const basic = Buffer.from(`${credentials.client_id}:${credentials.client_secret}`).toString('base64');
  const headers: Record<string, string> = { authorization: `Basic ${basic}` };
  if (accountNumber) headers['x-merchant-id'] = accountNumber;
  return { headers, form: { grant_type: 'client_credentials' } };
}

/** `tokenSuccessResponse`: `expires_in` is a string of seconds. Null when the body is not one. */
export function parseTokenResponse(body: unknown): AccessToken | null {
  const o = obj(body);
  const token = str(o.access_token);
  const expires = Number(str(o.expires_in) ?? NaN);
  if (!token) return null;
  return { accessToken: token, expiresInS: Number.isFinite(expires) && expires > 0 ? expires : 3600 };
}
