/**
 * The GraphQL documents the Shopify channel sends (Admin API 2026-07) and their variables,
 * built purely. Sizes are chosen for Shopify's requested-cost limit (1,000 points per query;
 * a connection costs 2 + `first` × its node's cost): docs/channels.md has the arithmetic.
 */
import type { FulfillRequest } from '../types.js';

/** Orders per listing page at most: a page of 10 with 10 lines each requests ~800 points. */
export const MAX_ORDERS_PAGE = 10;
/** Line items read with each listed order; an order with more is read again whole (`order`). */
export const LIST_LINE_ITEMS = 10;
/** Line items per page when one order is read. */
export const ORDER_LINE_ITEMS = 50;
/** Fulfillments (and tracking numbers each) read with an order, for echo detection. */
const ORDER_FULFILLMENTS_READ = 5;
/** Read before write: an order's fulfillments searched for our tracking number. */
export const FULFILLMENTS_READ = 20;
/** Fulfillment orders of one order, and lines of each, read to plan a fulfilment. */
export const FULFILLMENT_ORDERS_READ = 5;
export const FULFILLMENT_ORDER_LINES_READ = 25;

/** The fields of an order we map (docs/channels.md lists them and the ones left out). */
const ORDER_FIELDS = `
fragment OrderFields on Order {
  id
  legacyResourceId
  name
  updatedAt
  cancelledAt
  currencyCode
  displayFinancialStatus
  displayFulfillmentStatus
  email
  phone
  shippingAddress { name firstName lastName company address1 address2 city provinceCode zip countryCodeV2 phone }
  shippingLine { code title }
  lineItems(first: $lineCount, after: $linesAfter) {
    nodes {
      id
      sku
      name
      currentQuantity
      requiresShipping
      originalUnitPriceSet { shopMoney { amount currencyCode } }
      weight { unit value }
    }
    pageInfo { hasNextPage endCursor }
  }
  fulfillments(first: ${ORDER_FULFILLMENTS_READ}) { id status trackingInfo(first: 5) { number } }
}`;

export const CONNECTION_TEST = `query ConnectionTest {
  shop { name }
  currentAppInstallation { accessScopes { handle } }
}`;

export const ORDERS_UPDATED_SINCE = `query OrdersUpdatedSince($first: Int!, $after: String, $query: String!, $lineCount: Int!, $linesAfter: String) {
  orders(first: $first, after: $after, sortKey: UPDATED_AT, query: $query) {
    nodes { ...OrderFields }
    pageInfo { hasNextPage endCursor }
  }
}
${ORDER_FIELDS}`;

export const ORDER_BY_ID = `query OrderById($id: ID!, $lineCount: Int!, $linesAfter: String) {
  order(id: $id) { ...OrderFields }
}
${ORDER_FIELDS}`;

export const ORDER_FULFILLMENTS = `query OrderFulfillments($id: ID!) {
  order(id: $id) {
    id
    fulfillments(first: ${FULFILLMENTS_READ}) { id status trackingInfo(first: 3) { number } }
  }
}`;

export const ORDER_FULFILLMENT_ORDERS = `query OrderFulfillmentOrders($id: ID!) {
  order(id: $id) {
    id
    fulfillmentOrders(first: ${FULFILLMENT_ORDERS_READ}) {
      nodes {
        id
        status
        assignedLocation { name location { id } }
        lineItems(first: ${FULFILLMENT_ORDER_LINES_READ}) {
          nodes { id remainingQuantity lineItem { id } }
          pageInfo { hasNextPage }
        }
      }
    }
  }
}`;

export const FULFILLMENT_CREATE = `mutation FulfillmentCreate($fulfillment: FulfillmentInput!) {
  fulfillmentCreate(fulfillment: $fulfillment) {
    fulfillment { id status }
    userErrors { field message }
  }
}`;

export const FULFILLMENT_CANCEL = `mutation FulfillmentCancel($id: ID!) {
  fulfillmentCancel(id: $id) {
    fulfillment { id status }
    userErrors { field message }
  }
}`;

export const WEBHOOK_SUBSCRIPTIONS = `query WebhookSubscriptions($after: String) {
  webhookSubscriptions(first: 100, after: $after) {
    nodes { id topic uri }
    pageInfo { hasNextPage endCursor }
  }
}`;

export const WEBHOOK_SUBSCRIPTION_CREATE = `mutation WebhookSubscriptionCreate($topic: WebhookSubscriptionTopic!, $webhookSubscription: WebhookSubscriptionInput!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: $webhookSubscription) {
    webhookSubscription { id topic uri }
    userErrors { field message }
  }
}`;

export const WEBHOOK_SUBSCRIPTION_DELETE = `mutation WebhookSubscriptionDelete($id: ID!) {
  webhookSubscriptionDelete(id: $id) {
    deletedWebhookSubscriptionId
    userErrors { field message }
  }
}`;

export const orderGid = (legacyId: string) => `gid://shopify/Order/${legacyId}`;

/** The trailing numeric id of a gid (`gid://shopify/LineItem/7` → `7`); the input when it is not one. */
export function legacyId(gid: string): string {
  const m = /^gid:\/\/shopify\/[A-Za-z]+\/(\d+)(?:\?.*)?$/.exec(gid);
  return m ? m[1] : gid;
}

/** Shopify's search syntax for "updated at or after", as an ISO-8601 UTC instant in quotes. */
export function updatedSinceQuery(sinceIso: string): string {
  const t = Date.parse(sinceIso);
  if (Number.isNaN(t)) throw new TypeError(`not an ISO-8601 instant: ${sinceIso}`);
  return `updated_at:>='${new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z')}'`;
}

export function ordersUpdatedSinceVariables(sinceIso: string, cursor: string | null, pageSize: number) {
  return {
    first: Math.max(1, Math.min(MAX_ORDERS_PAGE, Math.floor(pageSize) || 1)),
    after: cursor,
    query: updatedSinceQuery(sinceIso),
    lineCount: LIST_LINE_ITEMS,
    linesAfter: null,
  };
}

export function orderByIdVariables(externalId: string, linesAfter: string | null = null) {
  return { id: orderGid(externalId), lineCount: ORDER_LINE_ITEMS, linesAfter };
}

export function webhookSubscriptionCreateVariables(topic: string, callbackUrl: string) {
  return { topic, webhookSubscription: { uri: callbackUrl, format: 'JSON' } };
}

/** One location's share of a fulfilment: the fulfillment orders there and the lines to ship from each. */
export interface LocationPlan {
  locationId: string;
  fulfillmentOrders: { id: string; lines: { id: string; quantity: number }[] | null }[];
}

export function fulfillmentCreateVariables(plan: LocationPlan, request: FulfillRequest) {
  const trackingInfo: Record<string, string> = { company: request.tracking.company, number: request.tracking.number };
  if (request.tracking.url) trackingInfo.url = request.tracking.url;
  return {
    fulfillment: {
      notifyCustomer: request.notifyCustomer,
      trackingInfo,
      lineItemsByFulfillmentOrder: plan.fulfillmentOrders.map((fo) =>
        fo.lines ? { fulfillmentOrderId: fo.id, fulfillmentOrderLineItems: fo.lines } : { fulfillmentOrderId: fo.id },
      ),
    },
  };
}
