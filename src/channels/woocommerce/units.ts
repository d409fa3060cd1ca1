/**
 * WooCommerce's codes ↔ ours, one table each (docs/channels-woocommerce.md explains every
 * choice): the API path, order statuses, webhook topics, tracking company names, money.
 */

/** The REST namespace every request names, under the site URL. */
export const API_PATH = '/wp-json/wc/v3';

/** `processing`: paid (or cash on delivery) and waiting to be shipped (docs/channels-woocommerce.md). */
export const DEFAULT_IMPORT_STATUSES: readonly string[] = ['processing'];

/**
 * Statuses in which nothing is to be shipped any more: cancelled, in the trash (what
 * `order.deleted` announces) or wholly refunded. A partly refunded order stays `processing`.
 */
export const CLOSED_STATUSES: ReadonlySet<string> = new Set(['cancelled', 'trash', 'refunded']);

/** The topics subscribed to on activation, as WooCommerce names them. */
export const WEBHOOK_TOPICS: readonly string[] = ['order.created', 'order.updated', 'order.deleted'];

/** Topics whose delivery body is the order as `GET /orders/{id}` answers it. */
export const ORDER_TOPICS: ReadonlySet<string> = new Set(['order.created', 'order.updated']);

/** The topic whose body is only `{id}`: the order is read back (trashed, or gone for good). */
export const DELETED_TOPIC = 'order.deleted';

/** Largest `per_page` WooCommerce accepts. */
export const MAX_PER_PAGE = 100;

/**
 * Our carrier slug → the carrier's name as a note names it. WooCommerce core has no carrier
 * list: the name is only read by people, so the carriers' own spellings.
 */
const TRACKING_COMPANY: Readonly<Record<string, string>> = {
  ups: 'UPS',
  usps: 'USPS',
  fedex: 'FedEx',
  dhl_express: 'DHL Express',
};

export function trackingCompany(carrierSlug: string): string | null {
  return TRACKING_COMPANY[carrierSlug] ?? null;
}

export { toMinorUnits } from '../money.js';

/**
 * WooCommerce's `_gmt` dates (`2017-03-22T16:28:08`) carry no zone: read as UTC and written as
 * an ISO instant with milliseconds, so versions compare as strings too. A value that does carry
 * a zone is read with it. Null when it is not a date.
 */
export function gmtInstant(value: unknown): string | null {
  if (typeof value !== 'string' || !value.trim()) return null;
  const text = value.trim();
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(text) ? text : `${text}Z`;
  const t = Date.parse(zoned);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/**
 * `modified_after` for "updated at or after `sinceIso`": WooCommerce compares strictly and to
 * the second, so one second earlier, truncated, in the zone-less GMT form `dates_are_gmt` reads.
 */
export function modifiedAfter(sinceIso: string): string | null {
  const t = Date.parse(sinceIso);
  if (Number.isNaN(t)) return null;
  return new Date(Math.floor(t / 1000) * 1000 - 1000).toISOString().slice(0, 19);
}
