/**
 * The Channel contract: what every store platform (Shopify now, WooCommerce and BigCommerce
 * later) implements so `modules/integrations` can connect a store, read its orders, verify its
 * webhook deliveries and write tracking back (docs/channels.md). A platform folder speaks only its
 * platform's protocol: no database, no Fastify, no module (STYLE §2).
 *
 * Field mapping per platform and the decisions behind it: docs/channels.md.
 */
import type { Address } from '../carriers/types.js';

/** Everything a call needs to reach one connected store. */
export interface ChannelConnection {
  /** Our integration id (`int_…`): keys the cost bucket and the exchange log. */
  integrationId: string;
  /** Shopify: the shop domain `name.myshopify.com`; WooCommerce: the site URL; BigCommerce: the store hash. */
  storeRef: string;
  /** Where requests go: the integration's `base_url` when set, else the platform's own origin for the store. */
  origin: string;
  /** Platform-specific (Shopify: `{access_token, client_secret}` or `{client_id, client_secret, access_token?}`). */
  credentials: Record<string, unknown>;
  /** Overrides the platform's pinned API version (Shopify `2026-07`). */
  apiVersion?: string;
}

/** Per-call knobs; every HTTP operation takes them last and optionally. */
export interface ChannelCallContext {
  /** Deadline for the whole operation, retries and waits included (default: the platform's). */
  timeoutMs?: number;
  /** Logged with each exchange. */
  requestId?: string;
}

export interface ChannelMoney {
  /** Minor units (cents). */
  amount: number;
  currency: string;
}

export interface ChannelLineItem {
  /** The platform's line id (Shopify: the legacy numeric id as a string). */
  external_line_id: string;
  sku: string | null;
  name: string;
  quantity: number;
  unit_price: ChannelMoney;
  /** Per unit, in ounces; null when the platform gives no weight. */
  weight_oz: number | null;
  requires_shipping: boolean;
}

export interface ChannelFulfillment {
  /** Shopify: the fulfillment gid (what `fulfill` returns as a ref and `cancelFulfillment` takes). */
  id: string;
  /** Lower case: Shopify `success`, `cancelled`, `pending`, `open`, `error`, `failure`. */
  status: string;
  tracking_numbers: string[];
}

/** A platform order normalised; the apply step maps it onto our order. */
export interface ChannelOrder {
  /** The platform's numeric order id as a string (Shopify's legacy id, never the gid). */
  external_id: string;
  /** The store's order name/number (Shopify `name`, e.g. `#1001`). */
  external_number: string;
  /** Orders versions: the platform's updated_at as an ISO-8601 UTC string (compare with `compareVersions`). */
  version: string;
  /** Matched against the integration's `import_statuses` (Shopify: `<financial>:<fulfillment>`, docs/channels.md). */
  platform_status: string;
  cancelled: boolean;
  cancelled_at: string | null;
  currency: string;
  customer: { name: string | null; email: string | null; phone: string | null };
  /** Null for an order with nothing to ship to (pickup, digital). */
  ship_to: Address | null;
  line_items: ChannelLineItem[];
  /** The checkout's shipping choice, when there was one. */
  shipping_line: { code: string | null; title: string | null } | null;
  /** For read-before-write and for recognising our own write-back coming back (an echo). */
  fulfillments: ChannelFulfillment[];
  /** The platform's updated_at exactly as it sent it. */
  raw_updated_at: string;
}

export type ChannelErrorKind = 'unauthorized' | 'throttled' | 'server_error' | 'timeout' | 'network' | 'rejected' | 'not_found';

const RETRYABLE: ReadonlySet<ChannelErrorKind> = new Set(['throttled', 'server_error', 'timeout', 'network']);

/**
 * Any failure of a platform call. The message never holds a secret (token, client secret,
 * code). `rejected` carries the platform's own messages (`userErrors`, a 4xx body).
 */
export class ChannelError extends Error {
  readonly platform: string;
  readonly kind: ChannelErrorKind;
  /** How long the platform asked us to wait (Retry-After, the cost bucket's restore time). */
  readonly retryAfterMs?: number;
  /** The platform's own status: an HTTP status (`"503"`) or error code (`"THROTTLED"`, `"userErrors"`). */
  readonly platformStatus?: string;
  /** The platform's messages, one per error it gave. */
  readonly messages: string[];

  constructor(
    platform: string,
    kind: ChannelErrorKind,
    message: string,
    options: { retryAfterMs?: number | null; platformStatus?: string | number | null; messages?: string[]; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ChannelError';
    this.platform = platform;
    this.kind = kind;
    if (options.retryAfterMs !== undefined && options.retryAfterMs !== null) this.retryAfterMs = options.retryAfterMs;
    if (options.platformStatus !== undefined && options.platformStatus !== null) this.platformStatus = String(options.platformStatus);
    this.messages = options.messages ?? [message];
  }

  /** Worth trying again later (a job's backoff ladder); `unauthorized` waits for new credentials instead. */
  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }
}

export interface ChannelWebhookSubscription {
  id: string;
  /** The platform's topic as `createWebhookSubscription` takes it (Shopify `ORDERS_CREATE`). */
  topic: string;
  callbackUrl: string;
  /**
   * False when the platform stopped delivering to it (WooCommerce `disabled`/`paused` after
   * failed deliveries, BigCommerce `is_active: false`); reconciliation reactivates it.
   */
  active: boolean;
}

export interface WebhookVerifyInput {
  /** The request's headers (any case). */
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received: the signature covers the bytes. */
  rawBody: Buffer | string;
  /** What signs the deliveries: `ChannelPlatform.webhookSecret(credentials)`. */
  secret: string;
  /** The integration's store_ref: a delivery for another store is refused. */
  storeRef: string;
}

export type WebhookVerifyResult =
  | {
      ok: true;
      /** The platform's delivery id (the same across its retries): the receiver dedupes on it. */
      deliveryId: string;
      /** As the delivery names it (Shopify `orders/updated`); `parseWebhookOrder` takes it. */
      topic: string;
      storeRef: string;
      triggeredAt: string | null;
      eventId: string | null;
      apiVersion: string | null;
      /**
       * A platform's test delivery (WooCommerce's ping `webhook_id=N` on a new webhook): the
       * receiver answers 200 and stores and applies nothing.
       */
      ping?: boolean;
    }
  | { ok: false; reason: 'missing_signature' | 'bad_signature' | 'wrong_store' | 'missing_headers' };

export interface FulfillRequest {
  /** `ChannelOrder.external_id`. */
  externalOrderId: string;
  /** The shipped lines; absent = every line still to fulfil. */
  lines?: { external_line_id: string; quantity: number }[];
  /** `company` is `trackingCompany(carrier)` (else our carrier slug); `service` the service's name, for platforms that write a note. */
  tracking: { company: string; number: string; url: string | null; carrier: string; service: string | null };
  notifyCustomer: boolean;
}

/** Undoes one `fulfill` (a voided label): the ref it returned, and what a platform writing notes says. */
export interface CancelFulfillmentRequest {
  /** One of `fulfill`'s refs. */
  ref: string;
  externalOrderId: string;
  trackingNumber: string;
}

/**
 * What a verified delivery asks of the apply step (`parseWebhookOrder`): an order to apply, the
 * order to fetch first (a thin delivery, BigCommerce's `{type: "order", id}`, or a deletion,
 * WooCommerce's `{id}`; `fetchOrder` answering null means the store no longer has it), or the
 * app's uninstall.
 */
export type WebhookContent = ChannelOrder | { kind: 'fetch'; external_id: string } | { kind: 'uninstalled' };

export type FulfillResult =
  | {
      /** `already_fulfilled`: a fulfillment carrying this tracking number exists (read before write). */
      outcome: 'created' | 'already_fulfilled';
      /** Shopify: fulfillment gids, one per location. */
      refs: string[];
    }
  | {
      /** `on_hold`: retry later; `closed`: nothing left to fulfil (closed, cancelled, already done). */
      outcome: 'on_hold' | 'closed';
      message: string;
    };

export interface OAuthTokens {
  accessToken: string;
  /** What the platform granted. */
  scopes: string[];
  /** ISO-8601; absent for a token that does not expire. */
  expiresAt?: string;
  refreshToken?: string;
  refreshTokenExpiresAt?: string;
}

export interface AuthorizeUrlInput {
  origin: string;
  clientId: string;
  scopes: readonly string[];
  redirectUri: string;
  state: string;
}

/** One store platform's protocol. Every method that calls the platform may throw `ChannelError`. */
export interface Channel {
  readonly platform: string;

  /** Our carrier slug → the platform's name for that carrier (Shopify `ups` → `UPS`); null when it has none. */
  trackingCompany(carrierSlug: string): string | null;

  /** The platform's cheapest authenticated read: what the credentials grant. */
  testConnection(conn: ChannelConnection, ctx?: ChannelCallContext): Promise<{ scopes: string[]; shopName?: string }>;

  listWebhookSubscriptions(conn: ChannelConnection, ctx?: ChannelCallContext): Promise<ChannelWebhookSubscription[]>;
  createWebhookSubscription(conn: ChannelConnection, topic: string, callbackUrl: string, ctx?: ChannelCallContext): Promise<ChannelWebhookSubscription>;
  /** Deleting one already gone is not an error. */
  deleteWebhookSubscription(conn: ChannelConnection, id: string, ctx?: ChannelCallContext): Promise<void>;
  /** Turns delivery back on for a subscription listed `active: false` (Shopify's never are: a no-op). */
  reactivateWebhookSubscription(conn: ChannelConnection, id: string, ctx?: ChannelCallContext): Promise<void>;

  /**
   * One page of the orders updated at or after `sinceIso`, oldest update first. `nextCursor` is
   * null on the last page; pass it back unchanged for the next.
   */
  listOrdersUpdatedSince(
    conn: ChannelConnection,
    sinceIso: string,
    cursor: string | null,
    pageSize: number,
    ctx?: ChannelCallContext,
  ): Promise<{ orders: ChannelOrder[]; nextCursor: string | null }>;
  /** Null when the platform has no such order. */
  fetchOrder(conn: ChannelConnection, externalId: string, ctx?: ChannelCallContext): Promise<ChannelOrder | null>;

  /** Pure and constant time: no call to the platform. */
  verifyWebhook(input: WebhookVerifyInput): WebhookVerifyResult;
  /**
   * A verified delivery's body (parsed JSON): what the apply step does with it. Throws
   * `ChannelError` (`rejected`) for a topic we do not handle or a body that is not an order.
   */
  parseWebhookOrder(topic: string, body: unknown): WebhookContent;
  /** The order id a delivery body names, before any parsing (a duplicate's history); null when none. */
  webhookOrderId(body: unknown): string | null;

  /** Read before write: never fulfils twice for one tracking number. `userErrors` → `ChannelError` rejected. */
  fulfill(conn: ChannelConnection, request: FulfillRequest, ctx?: ChannelCallContext): Promise<FulfillResult>;
  /** Undoing one already undone is not an error. */
  cancelFulfillment(conn: ChannelConnection, request: CancelFulfillmentRequest, ctx?: ChannelCallContext): Promise<void>;

  /** The OAuth install, for platforms connected through one (Shopify; the link: `ChannelPlatform.authorizeUrl`); absent elsewhere. */
  /** The install/callback query's `hmac` checked in constant time. */
  verifyOAuthHmac?(query: Record<string, string | string[] | undefined>, clientSecret: string): boolean;
  exchangeCode?(conn: ChannelConnection, input: { clientId: string; clientSecret: string; code: string }, ctx?: ChannelCallContext): Promise<OAuthTokens>;
  refreshToken?(
    conn: ChannelConnection,
    input: { clientId: string; clientSecret: string; refreshToken: string },
    ctx?: ChannelCallContext,
  ): Promise<OAuthTokens>;
}

/** Orders two versions of one order: negative when `a` is older. Compares instants, not strings. */
export function compareVersions(a: string, b: string): number {
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  if (Number.isNaN(ta) || Number.isNaN(tb)) return a < b ? -1 : a > b ? 1 : 0;
  return ta - tb;
}
