/**
 * Shopify (docs/channels.md): the platform's metadata and its Channel. The protocol lives beside it:
 * documents.ts (GraphQL), parsers.ts, units.ts, webhooks.ts, oauth.ts, credentials.ts, client.ts (the HTTP).
 */
import type { ChannelPlatform } from '../platform.js';
import { ShopifyChannel } from './client.js';
import { shopifyAuthorizeUrl } from './oauth.js';
import { normaliseShopDomain, SECRET_FIELDS, shopifyCredentialProblems } from './credentials.js';
import { DEFAULT_IMPORT_STATUSES, OAUTH_SCOPES, WEBHOOK_TOPICS } from './units.js';

export { ShopifyChannel } from './client.js';
export { SHOPIFY_API_VERSION, trackingCompany as shopifyTrackingCompany } from './units.js';

export const platform: ChannelPlatform = {
  slug: 'shopify',
  name: 'Shopify',
  defaultImportStatuses: DEFAULT_IMPORT_STATUSES,
  webhookTopics: WEBHOOK_TOPICS,
  oauthScopes: OAUTH_SCOPES,
  authorizeUrl: shopifyAuthorizeUrl,
  defaultOrigin: (storeRef) => `https://${storeRef.trim().toLowerCase().replace(/\/+$/, '')}`,
  storeRefLabel: 'Shop domain (name.myshopify.com)',
  storeRefDescription: 'the shop domain, name.myshopify.com (lower case)',
  normaliseStoreRef: normaliseShopDomain,
  credentialProblems: shopifyCredentialProblems,
  credentialFields: [
    { field: 'access_token', label: 'Admin API access token (custom app)', required: false },
    { field: 'client_id', label: 'Client ID (Partner app, for the OAuth install)', required: false },
    { field: 'client_secret', label: 'Client secret (API secret key)', required: true },
  ],
  importStatusesHint: 'financial:fulfillment pairs, comma separated (paid:unfulfilled, paid:partial)',
  secretCredentialFields: SECRET_FIELDS,
  generatesWebhookSecret: false,
  webhookSecret: (credentials) => (typeof credentials.client_secret === 'string' ? credentials.client_secret : null),
  createChannel: (http) => new ShopifyChannel(http),
};
