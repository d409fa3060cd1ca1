/**
 * A platform's metadata plus its Channel factory: what the registry lists. Apart from
 * types.ts because it names the HTTP client, which itself throws types.ts's `ChannelError`.
 */
import type { ChannelHttpClient } from './http/client.js';
import type { Channel } from './types.js';

export type ChannelPlatformSlug = 'shopify' | 'woocommerce' | 'bigcommerce';

export interface ChannelPlatform {
  slug: ChannelPlatformSlug;
  name: string;
  /** The platform's default `import_statuses` (docs/channels.md). */
  defaultImportStatuses: readonly string[];
  /** The topics subscribed to on activation, as `createWebhookSubscription` takes them. */
  webhookTopics: readonly string[];
  /** OAuth scopes asked for (empty for a platform without OAuth). */
  oauthScopes: readonly string[];
  /** The platform's origin for a store when no `base_url` overrides it. */
  defaultOrigin(storeRef: string): string;
  createChannel(http: ChannelHttpClient): Channel;
}
