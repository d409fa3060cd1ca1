import type { FakeStore } from '../fake-store.js';
import type { FakeShopify, WebhookDelivery } from './index.js';

const EVENT_TOPICS = { created: 'ORDERS_CREATE', updated: 'ORDERS_UPDATED', cancelled: 'ORDERS_CANCELLED' } as const;

/** The fake Shopify as the shared channel scenarios drive every platform (test/helpers/fake-store.ts). */
export function shopifyFakeStore(fake: FakeShopify): FakeStore {
  let last: WebhookDelivery | null = null;
  return {
    platform: 'shopify',
    url: fake.url,
    connect: { store_ref: fake.shopDomain, credentials: { access_token: fake.accessToken, client_secret: fake.clientSecret } },
    violations: fake.violations,
    seedOrder: (opts = {}) =>
      String(
        fake.shop.seedOrder({
          financialStatus: opts.importable === false ? 'PENDING' : 'PAID',
          lines: Array.from({ length: opts.lines ?? 1 }, () => ({ grams: opts.grams === null ? 0 : (opts.grams ?? 454) })),
        }).id,
      ),
    editAddress: (id, street1) => void fake.shop.editOrder(id, (o) => (o.shippingAddress = { ...o.shippingAddress!, address1: street1 })),
    cancelOrder: (id) => void fake.shop.cancelOrder(id),
    async emit(id, event) {
      const sent = await fake.emit(EVENT_TOPICS[event], id);
      last = sent.at(-1) ?? last;
      return sent.map((d) => d.status ?? 0);
    },
    holdEmit(id, event) {
      const body = fake.restOrder(id);
      return async () => {
        const sent = await fake.emitBody(EVENT_TOPICS[event], body);
        last = sent.at(-1) ?? last;
        return sent.map((d) => d.status ?? 0);
      };
    },
    async redeliverLast() {
      if (!last) throw new Error('nothing was delivered yet');
      const res = await fetch(last.url, { method: 'POST', headers: last.headers, body: last.body });
      return res.status;
    },
    shippedTracking: (id) =>
      fake.shop
        .order(id)
        .fulfillments.filter((f) => f.status === 'SUCCESS')
        .flatMap((f) => f.tracking.map((t) => t.number ?? '')),
    orderStatus: (id) => fake.shop.displayFulfillmentStatus(fake.shop.order(id)),
    webhooks: () => [...fake.shop.webhooks.values()].map((w) => ({ topic: w.topic, url: w.uri, active: true })),
    // Shopify removes a subscription whose deliveries keep failing.
    breakWebhooks: () => fake.shop.webhooks.clear(),
    revokeCredentials: () => fake.revokeAllTokens(),
    freshCredentials: () => ({ access_token: fake.newAccessToken(), client_secret: fake.clientSecret }),
    dropNextWriteAnswer: () => fake.fail('fulfillmentCreate', { kind: 'drop_after_apply' }),
    delayNextWriteAnswer: (ms) => fake.fail('fulfillmentCreate', { kind: 'delay_after_apply', ms }),
    failNext(status, times = 1) {
      const fault = status === 429 ? { kind: 'status' as const, status, headers: { 'retry-after': '1' } } : { kind: 'status' as const, status };
      fake.fail('*', ...Array.from({ length: times }, () => fault));
    },
    reset: () => fake.reset(),
    close: () => fake.close(),
  };
}
