/**
 * WooCommerce (docs/channels-woocommerce.md): the platform's metadata and its Channel. The
 * protocol lives beside it: parsers.ts, notes.ts (tracking as order notes), units.ts, webhooks.ts,
 * credentials.ts, client.ts (the HTTP). No OAuth: a REST API key pair the merchant makes.
 */
import type { ChannelPlatform } from '../platform.js';
import { WooCommerceChannel } from './client.js';
import { normaliseSiteUrl, SECRET_FIELDS, wooCredentialProblems } from './credentials.js';
import { DEFAULT_IMPORT_STATUSES, WEBHOOK_TOPICS } from './units.js';

export { WooCommerceChannel } from './client.js';
export { signWooWebhook } from './webhooks.js';
export { trackingCompany as wooTrackingCompany } from './units.js';

export const platform: ChannelPlatform = {
  slug: 'woocommerce',
  name: 'WooCommerce',
  defaultImportStatuses: DEFAULT_IMPORT_STATUSES,
  webhookTopics: WEBHOOK_TOPICS,
  oauthScopes: [],
  defaultOrigin: (storeRef) => normaliseSiteUrl(storeRef) ?? storeRef.trim().replace(/\/+$/, ''),
  storeRefLabel: 'Site URL (https://shop.example.com)',
  storeRefDescription: 'the site URL, https://example.com (or with the path WordPress lives at), without query or fragment',
  normaliseStoreRef: normaliseSiteUrl,
  credentialProblems: wooCredentialProblems,
  credentialFields: [
    { field: 'consumer_key', label: 'Consumer key (ck_…)', required: true },
    { field: 'consumer_secret', label: 'Consumer secret (cs_…)', required: true },
  ],
  importStatusesHint: 'order statuses, comma separated (processing, on-hold)',
  secretCredentialFields: SECRET_FIELDS,
  generatesWebhookSecret: true,
  webhookSecret: (credentials) => (typeof credentials.webhook_secret === 'string' && credentials.webhook_secret ? credentials.webhook_secret : null),
  createChannel: (http) => new WooCommerceChannel(http),
};
