/**
 * A platform's metadata plus its Channel factory: what the registry lists. Apart from
 * types.ts because it names the HTTP client, which itself throws types.ts's `ChannelError`.
 */
import type { ChannelHttpClient } from './http/client.js';
import type { AuthorizeUrlInput, Channel } from './types.js';

/** One field of a platform's credentials as the dashboard's form asks for it (GET /api/admin/channel-types). */
export interface ChannelCredentialField {
  field: string;
  label: string;
  /** False where the platform takes one of several fields (Shopify: a token, or a client id for OAuth). */
  required: boolean;
}

export interface ChannelPlatform {
  /** The folder's name (src/channels/<slug>/): snake_case, what `platform` holds in the API. */
  slug: string;
  name: string;
  /** The platform's default `import_statuses` (docs/channels.md). */
  defaultImportStatuses: readonly string[];
  /** The topics subscribed to on activation, as `createWebhookSubscription` takes them. */
  webhookTopics: readonly string[];
  /** OAuth scopes asked for (empty for a platform without OAuth). */
  oauthScopes: readonly string[];
  /** The merchant's approval link of the OAuth install; absent for a platform without OAuth. */
  authorizeUrl?(input: AuthorizeUrlInput): string;
  /** The platform's origin for a store when no `base_url` overrides it. */
  defaultOrigin(storeRef: string): string;
  /** The store reference's label in the dashboard's form (`Shop domain (name.myshopify.com)`). */
  storeRefLabel: string;
  /** What `store_ref` holds, for the field's description and its error (`the shop domain, name.myshopify.com`). */
  storeRefDescription: string;
  /** The store reference normalised (trimmed, lower-cased…), or null when it is not one of this platform's. */
  normaliseStoreRef(storeRef: string): string | null;
  /**
   * Checks a credentials object (create, or a replacement): one detail per bad field, each
   * `field` under `credentials.`. `kind` says how the connection is made: `token` (active at
   * once) or `oauth` (an install link first; only platforms whose Channel has OAuth).
   */
  credentialProblems(credentials: unknown): { kind?: 'token' | 'oauth'; details: { field: string; message: string }[] };
  /** The credentials the dashboard's form asks for, in order; empty fields are left out of the request. */
  credentialFields: readonly ChannelCredentialField[];
  /** What `settings.import_statuses` holds on this platform, for the dashboard's settings form. */
  importStatusesHint: string;
  /** Credential fields that are secrets: masked in answers and the audit log, scrubbed from echoes. */
  secretCredentialFields: readonly string[];
  /**
   * True when the service makes the secret that signs deliveries (WooCommerce, BigCommerce): it
   * is generated at creation, kept sealed as `credentials.webhook_secret`, and handed to the
   * platform when subscribing. False: the platform signs with a credential (Shopify's client secret).
   */
  generatesWebhookSecret: boolean;
  /** The secret `verifyWebhook` checks against, from the opened credentials; null when there is none. */
  webhookSecret(credentials: Record<string, unknown>): string | null;
  createChannel(http: ChannelHttpClient): Channel;
}
