import { randomBase62, sha256Hex } from '../../platform/crypto.js';
import { platformOrigin } from './integrations.connection.js';
import { getChannelPlatform } from '../../channels/registry.js';

const shopify = getChannelPlatform('shopify')!;

/**
 * The start of Shopify's OAuth install (docs/channels.md, §10.5): a single-use `state` bound to
 * the integration (only its SHA-256 is kept, for the callback's lookup) and the authorize link.
 */
/** How long the merchant has to approve the install. */
export const OAUTH_STATE_TTL_MS = 60 * 60 * 1000;
export const OAUTH_CALLBACK_PATH = '/api/integrations/oauth/shopify/callback';

export interface OAuthStart {
  stateHash: string;
  expiresAt: Date;
  authorizeUrl: string;
}

export function oauthStart(publicBaseUrl: string, input: { store_ref: string; base_url?: string | null; credentials: Record<string, unknown> }, now: Date): OAuthStart {
  const state = randomBase62(32);
  const origin = platformOrigin({ platform: 'shopify', store_ref: input.store_ref, base_url: input.base_url ?? null });
  const url = new URL(`${origin}/admin/oauth/authorize`);
  url.searchParams.set('client_id', String(input.credentials.client_id));
  url.searchParams.set('scope', shopify.oauthScopes.join(','));
  url.searchParams.set('redirect_uri', `${publicBaseUrl.replace(/\/+$/, '')}${OAUTH_CALLBACK_PATH}`);
  url.searchParams.set('state', state);
  return { stateHash: sha256Hex(state), expiresAt: new Date(now.getTime() + OAUTH_STATE_TTL_MS), authorizeUrl: url.toString() };
}
