/**
 * What the module's channel scenarios (test/e2e/channels-scenarios.test.ts) need of a fake
 * store platform, whichever platform it is: each fake (fake-shopify/, fake-woocommerce/,
 * fake-bigcommerce/) exposes one of these beside its own richer surface, so every connector
 * passes the same scenarios through the service's HTTP API.
 */
export interface FakeStore {
  platform: 'shopify' | 'woocommerce' | 'bigcommerce';
  /** The fake's origin: the integration's `base_url`. */
  url: string;
  /** What `POST /api/admin/integrations` takes besides name, platform and base_url. */
  connect: { store_ref: string; credentials: Record<string, string> };
  /** Requests that broke the platform's published description: a scenario asserts none. */
  violations: string[];
  /**
   * A new order. By default one the platform's default `import_statuses` import (Shopify paid and
   * unfulfilled, WooCommerce processing, BigCommerce Awaiting Fulfillment), shipping to a US
   * address, with `lines` lines (default 1) weighing `grams` each (null: no weight). Returns its
   * external id as the platform names it.
   */
  seedOrder(opts?: { lines?: number; importable?: boolean; grams?: number | null }): string;
  /** The merchant edits the ship-to street (the order's update time moves). */
  editAddress(id: string, street1: string): void;
  /** The merchant cancels the order (the update time moves). */
  cancelOrder(id: string): void;
  /**
   * The platform sends what it sends after `event` to every subscription of ours that is active
   * and covers it (a thin delivery where the platform's are thin); returns our receiver's statuses.
   */
  emit(id: string, event: 'created' | 'updated' | 'cancelled'): Promise<number[]>;
  /**
   * What the platform would send after `event` on the order as it is now, held in the platform's
   * queue: the function sends it later (a late delivery, overtaken by newer ones), as a delivery
   * of its own (not a retry), to our subscriptions active then; it returns our receiver's statuses.
   * A thin delivery (BigCommerce) names the order and the event's time, a full one (Shopify,
   * WooCommerce) carries the order as it was when held.
   */
  holdEmit(id: string, event: 'created' | 'updated' | 'cancelled'): () => Promise<number[]>;
  /** The last delivery sent again, byte for byte with its delivery id: a platform's retry. */
  redeliverLast(): Promise<number>;
  /** Tracking numbers the store shows on the order as shipped (written back and not undone). */
  shippedTracking(id: string): string[];
  /** The order's state on the platform in the platform's words (Shopify fulfillment status, WooCommerce status, BigCommerce status_id). */
  orderStatus(id: string): string;
  /** Our subscriptions at the platform. */
  webhooks(): { topic: string; url: string; active: boolean }[];
  /** The platform stops delivering, as it does after failed deliveries (WooCommerce disables, BigCommerce deactivates, Shopify removes). */
  breakWebhooks(): void;
  /** Every credential of the connection stops working (401 from then on). */
  revokeCredentials(): void;
  /** New working credentials for `PUT …/integrations/:id {credentials}` after a revoke. */
  freshCredentials(): Record<string, string>;
  /** The next write-back write is applied at the platform and its answer lost (the connection drops). */
  dropNextWriteAnswer(): void;
  /** The next write-back write is applied at the platform at once and answered `ms` later (a database outage can start in between). */
  delayNextWriteAnswer(ms: number): void;
  /** The next `times` API calls answer `status` (429 with the platform's wait header, or 5xx) without running. */
  failNext(status: 429 | 500 | 503, times?: number): void;
  /** Forgets requests, violations and faults; credentials work again. */
  reset(): void;
  close(): Promise<void>;
}
