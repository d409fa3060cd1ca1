/**
 * Shopify's authorization code grant (docs/channels.md, §10.5), built and read purely: the
 * authorize URL, the `hmac` of the install/callback query, the token requests and answers.
 */
import { createHmac } from 'node:crypto';
import { obj, str } from '../../carriers/http/json-read.js';
import type { AuthorizeUrlInput, OAuthTokens } from '../types.js';
import { safeEqual } from './webhooks.js';

export const ACCESS_TOKEN_PATH = '/admin/oauth/access_token';

export function shopifyAuthorizeUrl(input: AuthorizeUrlInput): string {
  const url = new URL(`${input.origin.replace(/\/+$/, '')}/admin/oauth/authorize`);
  url.searchParams.set('client_id', input.clientId);
  url.searchParams.set('scope', input.scopes.join(','));
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('state', input.state);
  return url.toString();
}

/**
 * The message Shopify signs: every query parameter but `hmac` (and the legacy `signature`),
 * sorted by name, as `name=value` joined with `&`, values as received (decoded). A repeated
 * parameter is written as Shopify does for arrays: `["a", "b"]`.
 */
export function oauthHmacMessage(query: Record<string, string | string[] | undefined>): string {
  return Object.keys(query)
    .filter((k) => k !== 'hmac' && k !== 'signature' && query[k] !== undefined)
    .sort()
    .map((k) => {
      const v = query[k]!;
      return `${k}=${Array.isArray(v) ? `[${v.map((x) => JSON.stringify(x)).join(', ')}]` : v}`;
    })
    .join('&');
}

export function signOAuthQuery(query: Record<string, string | string[] | undefined>, clientSecret: string): string {
  return createHmac('sha256', clientSecret).update(oauthHmacMessage(query)).digest('hex');
}

export function verifyShopifyOAuthHmac(query: Record<string, string | string[] | undefined>, clientSecret: string): boolean {
  const given = query.hmac;
  if (typeof given !== 'string' || !/^[0-9a-f]+$/i.test(given)) return false;
  return safeEqual(Buffer.from(signOAuthQuery(query, clientSecret), 'hex'), Buffer.from(given.toLowerCase(), 'hex'));
}

export function buildCodeExchange(input: { clientId: string; clientSecret: string; code: string }) {
  return { client_id: input.clientId, client_secret: input.clientSecret, code: input.code };
}

export function buildRefreshExchange(input: { clientId: string; clientSecret: string; refreshToken: string }) {
  return { client_id: input.clientId, client_secret: input.clientSecret, grant_type: 'refresh_token', refresh_token: input.refreshToken };
}

/**
 * `{access_token, scope, expires_in?, refresh_token?, refresh_token_expires_in?}` → tokens with
 * absolute expiry instants (from `nowMs`, when the answer arrived); null when it is not one.
 */
export function parseTokenAnswer(body: unknown, nowMs: number): OAuthTokens | null {
  const o = obj(body);
  const accessToken = str(o.access_token);
  if (!accessToken) return null;
  const tokens: OAuthTokens = {
    accessToken,
    scopes: (str(o.scope) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  };
  const at = (seconds: unknown) => (typeof seconds === 'number' && seconds > 0 ? new Date(nowMs + seconds * 1000).toISOString() : undefined);
  const expiresAt = at(o.expires_in);
  if (expiresAt) tokens.expiresAt = expiresAt;
  const refresh = str(o.refresh_token);
  if (refresh) tokens.refreshToken = refresh;
  const refreshExpiresAt = at(o.refresh_token_expires_in);
  if (refreshExpiresAt) tokens.refreshTokenExpiresAt = refreshExpiresAt;
  return tokens;
}
