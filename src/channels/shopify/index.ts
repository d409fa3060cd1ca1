/**
 * Shopify (docs/channels.md): the platform's metadata and its Channel. The protocol lives beside it:
 * documents.ts (GraphQL), parsers.ts, units.ts, webhooks.ts, oauth.ts, client.ts (the HTTP).
 */
import type { ChannelPlatform } from '../platform.js';
import { ShopifyChannel } from './client.js';
import { DEFAULT_IMPORT_STATUSES, OAUTH_SCOPES, WEBHOOK_TOPICS } from './units.js';

export { ShopifyChannel } from './client.js';
export { SHOPIFY_API_VERSION, trackingCompany as shopifyTrackingCompany } from './units.js';

export const shopify: ChannelPlatform = {
  slug: 'shopify',
  name: 'Shopify',
  defaultImportStatuses: DEFAULT_IMPORT_STATUSES,
  webhookTopics: WEBHOOK_TOPICS,
  oauthScopes: OAUTH_SCOPES,
  defaultOrigin: (storeRef) => `https://${storeRef.trim().toLowerCase().replace(/\/+$/, '')}`,
  createChannel: (http) => new ShopifyChannel(http),
};
