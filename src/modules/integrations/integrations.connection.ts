import { getChannelPlatform } from '../../channels/registry.js';
import type { ErrorDetail } from '../../platform/errors.js';
import type { ChannelSettings, IntegrationPlatform } from './integrations.tables.js';

/**
 * The connection of an integration to a real store platform (docs/channels.md), as pure rules:
 * which platforms connect (the others are push intake), what a store reference looks like,
 * which credentials make which kind of connection, and the settings' defaults.
 */

/** Platforms with a connector. WooCommerce and BigCommerce stay push intake until theirs land. */
export const CONNECTOR_PLATFORMS: ReadonlySet<IntegrationPlatform> = new Set(['shopify']);

export function isConnector(platform: IntegrationPlatform): boolean {
  return CONNECTOR_PLATFORMS.has(platform);
}

/** The platform's own defaults (docs/channels.md): Shopify's paid or partially paid, unfulfilled or partially fulfilled orders. */
export function defaultSettings(platform: IntegrationPlatform): ChannelSettings {
  return {
    import_statuses: [...(getChannelPlatform(platform)?.defaultImportStatuses ?? [])],
    write_back: true,
    notify_customer: false,
    backfill_days: 14,
    reconcile_interval_minutes: 5,
  };
}

export function effectiveSettings(platform: IntegrationPlatform, stored: Partial<ChannelSettings> | null | undefined): ChannelSettings {
  return { ...defaultSettings(platform), ...(stored ?? {}) };
}

const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]{0,60}\.myshopify\.com$/;

export function storeRefProblems(platform: IntegrationPlatform, storeRef: string | undefined): ErrorDetail[] {
  if (storeRef === undefined) return [{ field: 'store_ref', message: `is required for ${platform}` }];
  if (platform === 'shopify' && !SHOP_DOMAIN.test(storeRef)) {
    return [{ field: 'store_ref', message: 'must be the shop domain, name.myshopify.com (lower case)' }];
  }
  return [];
}

/**
 * How a Shopify connection is made: a merchant's custom app hands us its Admin API token (active
 * at once); a Partner app's client id and secret start the OAuth install instead.
 */
export type ShopifyCredentialKind = 'custom_app' | 'oauth';

const STRING_FIELD = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 512;
const SHOPIFY_FIELDS = ['access_token', 'client_secret', 'client_id', 'refresh_token', 'token_expires_at', 'refresh_token_expires_at'];

export function shopifyCredentialProblems(credentials: unknown): { kind?: ShopifyCredentialKind; details: ErrorDetail[] } {
  if (typeof credentials !== 'object' || credentials === null || Array.isArray(credentials)) {
    return { details: [{ field: 'credentials', message: 'must be {access_token, client_secret} (custom app) or {client_id, client_secret} (OAuth)' }] };
  }
  const c = credentials as Record<string, unknown>;
  const details: ErrorDetail[] = [];
  for (const key of Object.keys(c)) {
    if (!SHOPIFY_FIELDS.includes(key)) details.push({ field: `credentials.${key}`, message: "is not a field of Shopify's credentials" });
  }
  for (const key of ['access_token', 'client_secret', 'client_id']) {
    if (c[key] !== undefined && !STRING_FIELD(c[key])) details.push({ field: `credentials.${key}`, message: 'must be a non-empty string of at most 512 characters' });
  }
  if (!STRING_FIELD(c.client_secret)) {
    if (c.client_secret === undefined) details.push({ field: 'credentials.client_secret', message: 'is required (it signs the webhooks and the OAuth callback)' });
    return { details };
  }
  if (STRING_FIELD(c.access_token)) return { kind: 'custom_app', details };
  if (STRING_FIELD(c.client_id)) return { kind: 'oauth', details };
  details.push({ field: 'credentials.access_token', message: 'is required (or client_id, to install through OAuth)' });
  return { details };
}

/** Secret fields of a connector's credentials: masked in answers and the audit log. */
export const SECRET_CREDENTIAL_FIELDS: ReadonlySet<string> = new Set(['access_token', 'client_secret', 'refresh_token', 'consumer_secret', 'consumer_key']);

export function baseUrlProblems(baseUrl: string, allowed: boolean): ErrorDetail[] {
  if (!allowed) return [{ field: 'base_url', message: 'is accepted only when CHANNEL_ALLOW_BASE_URL_OVERRIDE=1, outside production' }];
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return [{ field: 'base_url', message: 'must be an http(s) URL' }];
    if (url.username || url.password) return [{ field: 'base_url', message: 'must not contain credentials' }];
    if (url.search || url.hash) return [{ field: 'base_url', message: 'must be an origin and path, without query or fragment' }];
    return [];
  } catch {
    return [{ field: 'base_url', message: 'must be an absolute http(s) URL' }];
  }
}

/** The origin the platform's API is reached at: the override, else the store's own. */
export function platformOrigin(row: { platform: IntegrationPlatform; store_ref: string | null; base_url: string | null }): string {
  if (row.base_url) return row.base_url.replace(/\/+$/, '');
  return getChannelPlatform(row.platform)?.defaultOrigin(row.store_ref ?? '') ?? `https://${row.store_ref}`;
}
