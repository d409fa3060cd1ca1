import { CHANNEL_PLATFORMS, getChannelPlatform } from '../../channels/registry.js';
import { isIP } from 'node:net';
import { randomBase62 } from '../../platform/crypto.js';
import { bareHost, isForbiddenAddress, isLocalName } from '../../platform/ssrf.js';
import type { ErrorDetail } from '../../platform/errors.js';
import type { ChannelSettings, IntegrationPlatform } from './integrations.tables.js';

/**
 * The connection of an integration to a real store platform (docs/channels.md), as pure rules:
 * which platforms connect (the others are push intake), what a store reference looks like,
 * which credentials make which kind of connection, and the settings' defaults.
 */

/** Platforms with a connector: those the channel registry lists; the others are push intake. */
export const CONNECTOR_PLATFORMS: ReadonlySet<IntegrationPlatform> = new Set(CHANNEL_PLATFORMS.map((p) => p.slug));

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

/** The store reference normalised by its platform, or the problem with it. */
export function checkStoreRef(platform: IntegrationPlatform, storeRef: string | undefined): { storeRef?: string; details: ErrorDetail[] } {
  if (storeRef === undefined) return { details: [{ field: 'store_ref', message: `is required for ${platform}` }] };
  const channel = getChannelPlatform(platform);
  const normalised = channel ? channel.normaliseStoreRef(storeRef) : storeRef;
  if (normalised === null) return { details: [{ field: 'store_ref', message: `must be ${channel!.storeRefDescription}` }] };
  return { storeRef: normalised, details: [] };
}

/**
 * A store reached at its own URL (WooCommerce's site) must not be this machine or a private
 * network (docs/channels.md), unless the test-double override is allowed: refused here for
 * literal addresses and local names. Names that resolve to one are refused at connect time.
 */
export function storeAddressProblems(storeRef: string, allowed: boolean): ErrorDetail[] {
  if (allowed || !/^https?:\/\//i.test(storeRef)) return [];
  const host = bareHost(new URL(storeRef));
  if (isLocalName(host) || (isIP(host) && isForbiddenAddress(host))) {
    return [
      {
        field: 'store_ref',
        message: 'is a private, loopback or link-local address (accepted only with CHANNEL_ALLOW_BASE_URL_OVERRIDE=1, outside production)',
      },
    ];
  }
  return [];
}

/** How a connection is made (`token`: active at once; `oauth`: an install link first), or the problems with the credentials. */
export function checkCredentials(platform: IntegrationPlatform, credentials: unknown): { kind?: 'token' | 'oauth'; details: ErrorDetail[] } {
  const channel = getChannelPlatform(platform);
  if (!channel) return { details: [{ field: 'platform', message: `has no connector: ${platform}` }] };
  return channel.credentialProblems(credentials);
}

/**
 * The credentials as sealed: for a platform whose deliveries we sign (docs/channels.md), a
 * `webhook_secret` made here, kept across credential replacements (the store's webhooks carry it).
 */
export function withWebhookSecret(
  platform: IntegrationPlatform,
  credentials: Record<string, unknown>,
  previous: Record<string, unknown> | null,
): Record<string, unknown> {
  if (!getChannelPlatform(platform)?.generatesWebhookSecret) return credentials;
  const kept = typeof previous?.webhook_secret === 'string' ? previous.webhook_secret : null;
  return { ...credentials, webhook_secret: kept ?? randomBase62(40) };
}

/**
 * Secret fields of any platform's credentials, as each platform declares them, and the signing
 * secret the module itself makes (`withWebhookSecret`): masked in answers and the audit log.
 */
export const SECRET_CREDENTIAL_FIELDS: ReadonlySet<string> = new Set([...CHANNEL_PLATFORMS.flatMap((p) => p.secretCredentialFields), 'webhook_secret']);

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
