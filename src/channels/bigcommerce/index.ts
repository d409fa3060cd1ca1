/**
 * BigCommerce (docs/channels-bigcommerce.md): the platform's metadata and its Channel. The
 * protocol lives beside it: parsers.ts, units.ts, webhooks.ts, credentials.ts, client.ts (the HTTP).
 */
import type { ChannelPlatform } from '../platform.js';
import { BigcommerceChannel } from './client.js';
import { bigcommerceCredentialProblems, normaliseStoreHash, SECRET_FIELDS } from './credentials.js';
import { DEFAULT_IMPORT_STATUSES, WEBHOOK_TOPICS } from './units.js';

export { BigcommerceChannel } from './client.js';
export { trackingCarrier as bigcommerceTrackingCarrier, SECRET_HEADER as BIGCOMMERCE_SECRET_HEADER } from './units.js';

export const platform: ChannelPlatform = {
  slug: 'bigcommerce',
  name: 'BigCommerce',
  defaultImportStatuses: DEFAULT_IMPORT_STATUSES,
  webhookTopics: WEBHOOK_TOPICS,
  oauthScopes: [],
  defaultOrigin: (storeRef) => `https://api.bigcommerce.com/stores/${normaliseStoreHash(storeRef) ?? storeRef.trim().toLowerCase()}`,
  storeRefLabel: 'Store hash (from the API path stores/…/v3)',
  storeRefDescription: 'the store hash, as in https://api.bigcommerce.com/stores/{store_hash} (5 to 20 lower-case letters and digits)',
  normaliseStoreRef: normaliseStoreHash,
  credentialProblems: bigcommerceCredentialProblems,
  credentialFields: [{ field: 'access_token', label: 'Access token (store API account)', required: true }],
  importStatusesHint: 'status ids, comma separated (11 Awaiting Fulfillment, 9 Awaiting Shipment)',
  secretCredentialFields: SECRET_FIELDS,
  generatesWebhookSecret: true,
  webhookSecret: (credentials) => (typeof credentials.webhook_secret === 'string' && credentials.webhook_secret !== '' ? credentials.webhook_secret : null),
  createChannel: (http) => new BigcommerceChannel(http),
};
