/**
 * Shopify's codes ↔ ours, one table each (docs/channels.md explains every choice): the API
 * version, order statuses, webhook topics, tracking company names, weight units, money.
 */

/** The Admin API version every path names (docs/channels.md). */
export const SHOPIFY_API_VERSION = '2026-07';

/**
 * GraphQL `displayFulfillmentStatus` → the REST webhook's `fulfillment_status` vocabulary
 * (null there = `unfulfilled`). Statuses REST has no word for are still unfulfilled orders.
 */
const FULFILLMENT_STATUS: Readonly<Record<string, string>> = {
  UNFULFILLED: 'unfulfilled',
  PARTIALLY_FULFILLED: 'partial',
  FULFILLED: 'fulfilled',
  RESTOCKED: 'restocked',
  PENDING_FULFILLMENT: 'unfulfilled',
  OPEN: 'unfulfilled',
  IN_PROGRESS: 'unfulfilled',
  ON_HOLD: 'unfulfilled',
  SCHEDULED: 'unfulfilled',
  REQUEST_DECLINED: 'unfulfilled',
};

/** A financial status from either side, in the REST webhook's words (`paid`, `partially_paid`, …). */
export function financialStatus(value: unknown): string {
  return typeof value === 'string' && value ? value.toLowerCase() : 'none';
}

/** A fulfillment status from either side (GraphQL enum or REST string/null) in the REST webhook's words. */
export function fulfillmentStatus(value: unknown): string {
  if (typeof value !== 'string' || !value) return 'unfulfilled';
  return FULFILLMENT_STATUS[value] ?? value.toLowerCase();
}

/** `platform_status`: `<financial>:<fulfillment>`, e.g. `paid:unfulfilled`. */
export function platformStatus(financial: unknown, fulfillment: unknown): string {
  return `${financialStatus(financial)}:${fulfillmentStatus(fulfillment)}`;
}

/** Paid or partially paid, and unfulfilled or partially fulfilled (docs/channels.md's default). */
export const DEFAULT_IMPORT_STATUSES: readonly string[] = ['paid:unfulfilled', 'paid:partial', 'partially_paid:unfulfilled', 'partially_paid:partial'];

/** The topics subscribed to on activation (docs/channels.md), as `webhookSubscriptionCreate` takes them. */
export const WEBHOOK_TOPICS: readonly string[] = ['ORDERS_CREATE', 'ORDERS_UPDATED', 'ORDERS_CANCELLED', 'APP_UNINSTALLED'];

/** `ORDERS_CREATE` ↔ `orders/create` (the enum and the delivery's `X-Shopify-Topic`). */
export function topicHeader(topic: string): string {
  return topic.toLowerCase().replace('_', '/');
}
export function topicEnum(header: string): string {
  return header.toUpperCase().replace('/', '_');
}

/** The OAuth scopes asked for (docs/channels.md). */
export const OAUTH_SCOPES: readonly string[] = ['read_orders', 'read_merchant_managed_fulfillment_orders', 'write_merchant_managed_fulfillment_orders'];

/** Our carrier slug → Shopify's tracking company name (docs/channels.md); Shopify links its known names. */
const TRACKING_COMPANY: Readonly<Record<string, string>> = {
  usps: 'USPS',
  ups: 'UPS',
  fedex: 'FedEx',
  dhl_express: 'DHL Express',
};

export function trackingCompany(carrierSlug: string): string | null {
  return TRACKING_COMPANY[carrierSlug] ?? null;
}

/** Ounces per unit of Shopify's `WeightUnit` (REST line items carry grams). */
const OUNCES_PER: Readonly<Record<string, number>> = {
  GRAMS: 1 / 28.349523125,
  KILOGRAMS: 1000 / 28.349523125,
  POUNDS: 16,
  OUNCES: 1,
};

/** Ounces rounded to a thousandth; null for an unknown unit or a missing/negative value. */
export function toOunces(value: unknown, unit: string): number | null {
  const factor = OUNCES_PER[unit];
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (factor === undefined || !Number.isFinite(n) || n < 0) return null;
  return Math.round(n * factor * 1000) / 1000;
}

export { toMinorUnits } from '../money.js';
