import { randomBase62, sha256Hex } from '../../platform/crypto.js';
import { platformOrigin } from './integrations.connection.js';
import { getChannelPlatform } from '../../channels/registry.js';
import type { IntegrationPlatform } from './integrations.tables.js';

/**
 * The start of a platform's OAuth install (docs/channels.md): a single-use `state` bound to the
 * integration (only its SHA-256 is kept, for the callback's lookup) and the authorize link.
 */
/** How long the merchant has to approve the install. */
export const OAUTH_STATE_TTL_MS = 60 * 60 * 1000;
export const OAUTH_CALLBACK_PATH = '/api/integrations/oauth/shopify/callback';

export interface OAuthStart {
  stateHash: string;
  expiresAt: Date;
  authorizeUrl: string;
}

export function oauthStart(
  publicBaseUrl: string,
  input: { platform: IntegrationPlatform; store_ref: string; base_url?: string | null; credentials: Record<string, unknown> },
  now: Date,
): OAuthStart {
  const platform = getChannelPlatform(input.platform);
  if (!platform?.authorizeUrl) throw new Error(`${input.platform} has no OAuth install`);
  const state = randomBase62(32);
  const authorizeUrl = platform.authorizeUrl({
    origin: platformOrigin({ platform: input.platform, store_ref: input.store_ref, base_url: input.base_url ?? null }),
    clientId: String(input.credentials.client_id),
    scopes: platform.oauthScopes,
    redirectUri: `${publicBaseUrl.replace(/\/+$/, '')}${OAUTH_CALLBACK_PATH}`,
    state,
  });
  return { stateHash: sha256Hex(state), expiresAt: new Date(now.getTime() + OAUTH_STATE_TTL_MS), authorizeUrl };
}
