/**
 * BigCommerce's Orders V2 answers read without trusting their shape (a missing field becomes
 * null or an empty list, never a TypeError): an order with its products, shipping addresses and
 * shipments into one `ChannelOrder`, the listing cursor, and the shipment a write-back posts
 * (docs/channels-bigcommerce.md has the field table and every decision).
 */
import { asList, num, obj, str, type Json } from '../../carriers/http/json-read.js';
import type { Address } from '../../carriers/types.js';
import type { ChannelFulfillment, ChannelLineItem, ChannelOrder, FulfillRequest } from '../types.js';
import { CANCELLED_STATUS_IDS, CLOSED_STATUS_IDS, HELD_STATUS_IDS, isoFromRfc2822, stateCode, statusKey, statusWord, toMinorUnits } from './units.js';

const text = (v: unknown): string | null => {
  const s = str(v)?.trim();
  return s ? s : null;
};

const intOf = (v: unknown): number | null => {
  const n = num(v);
  return n !== null && Number.isInteger(n) ? n : null;
};

/** Everything one order is read from: `/orders/{id}` and its three sub-resources. */
export interface OrderParts {
  order: unknown;
  products: unknown[];
  shippingAddresses: unknown[];
  shipments: unknown[];
}

/** `<orderId>/shipments/<shipmentId>`: what `fulfill` returns and `cancelFulfillment` takes. */
export function shipmentRef(orderId: string, shipmentId: string | number): string {
  return `${orderId}/shipments/${shipmentId}`;
}

export function parseShipmentRef(ref: string): { orderId: string; shipmentId: string } | null {
  const m = /^(\d+)\/shipments\/(\d+)$/.exec(ref.trim());
  return m ? { orderId: m[1], shipmentId: m[2] } : null;
}

function toAddress(a: Json, fallbackEmail: string | null): Address {
  const name = [text(a.first_name), text(a.last_name)].filter(Boolean).join(' ') || null;
  const country = (text(a.country_iso2) ?? '').toUpperCase();
  const state = text(a.state);
  const email = text(a.email) ?? fallbackEmail;
  const company = text(a.company);
  const street1 = text(a.street_1);
  const street2 = text(a.street_2);
  const city = text(a.city);
  const phone = text(a.phone);
  // Keys in the order the Address type declares them; empty ones left out.
  return {
    ...(name ? { name } : {}),
    ...(company ? { company } : {}),
    ...(street1 ? { street1 } : {}),
    ...(street2 ? { street2 } : {}),
    ...(city ? { city } : {}),
    ...(state ? { state: stateCode(state, country) } : {}),
    postal_code: text(a.zip) ?? '',
    country,
    ...(phone ? { phone } : {}),
    ...(email ? { email } : {}),
  };
}

/** The address an order ships to: the first BigCommerce lists (docs/channels-bigcommerce.md: several addresses). */
export function firstShippingAddress(addresses: unknown[]): Json | null {
  const list = asList(addresses).filter((a) => intOf(a.id) !== null);
  return list[0] ?? null;
}

/** Products of the address shipped to, and those of no address (digital, gift certificates). */
function productsOf(products: unknown[], addressId: number | null): Json[] {
  return asList(products).filter((p) => {
    const at = intOf(p.order_address_id);
    return at === null || at === 0 || at === addressId;
  });
}

function lineItem(p: Json, currency: string): ChannelLineItem {
  return {
    external_line_id: str(p.id) ?? '',
    sku: text(p.sku),
    name: text(p.name) ?? text(p.name_customer) ?? '',
    quantity: intOf(p.quantity) ?? 0,
    unit_price: { amount: toMinorUnits(p.price_ex_tax, currency) ?? toMinorUnits(p.base_price, currency) ?? 0, currency },
    // Products weigh in the store's unit, which an order does not state (docs/channels-bigcommerce.md).
    weight_oz: null,
    requires_shipping: p.type === undefined || p.type === 'physical',
  };
}

function fulfillments(orderId: string, shipments: unknown[]): ChannelFulfillment[] {
  return asList(shipments)
    .filter((s) => intOf(s.id) !== null)
    .map((s) => {
      const tracking = text(s.tracking_number);
      // A shipment BigCommerce lists has shipped: it has no other state.
      return { id: shipmentRef(orderId, intOf(s.id)!), status: 'success', tracking_numbers: tracking ? [tracking] : [] };
    });
}

/** The order and its parts as one ChannelOrder; null when `order` is not an order. */
export function parseOrder(parts: OrderParts): ChannelOrder | null {
  const o = obj(parts.order);
  const id = intOf(o.id);
  const rawUpdatedAt = text(o.date_modified);
  const version = isoFromRfc2822(rawUpdatedAt);
  if (id === null || id <= 0 || !rawUpdatedAt || !version) return null;
  const externalId = String(id);
  const statusId = intOf(o.status_id);
  // The transactional currency: what the shopper paid in, the currency of the amounts.
  const currency = (text(o.default_currency_code) ?? text(o.currency_code) ?? '').toUpperCase();
  const billing = obj(o.billing_address);
  const billingEmail = text(billing.email);
  const address = firstShippingAddress(parts.shippingAddresses);
  const shipTo = address ? toAddress(address, billingEmail) : null;
  const method = address ? text(address.shipping_method) : null;
  const customerName = [text(billing.first_name), text(billing.last_name)].filter(Boolean).join(' ') || null;
  return {
    external_id: externalId,
    external_number: externalId,
    version,
    platform_status: statusKey(o.status_id),
    cancelled: (statusId !== null && CANCELLED_STATUS_IDS.has(statusId)) || o.is_deleted === true,
    // BigCommerce keeps no cancellation time.
    cancelled_at: null,
    currency,
    customer: { name: customerName, email: billingEmail, phone: text(billing.phone) ?? shipTo?.phone ?? null },
    ship_to: shipTo,
    line_items: productsOf(parts.products, address ? intOf(address.id) : null)
      .map((p) => lineItem(p, currency))
      .filter((l) => l.quantity > 0),
    shipping_line: method && method.toLowerCase() !== 'none' ? { code: null, title: method } : null,
    fulfillments: fulfillments(externalId, parts.shipments),
    raw_updated_at: rawUpdatedAt,
  };
}

// ---- Listing -------------------------------------------------------------------------------

/**
 * Where the next page of a listing starts: an instant (the `min_date_modified` filter, inclusive)
 * and a page within it. Pages move on by instant rather than by page number alone, so an order
 * edited during a run (it jumps to the end) cannot slide an unread one into a page already read.
 */
export interface ListCursor {
  since: string;
  page: number;
}

export function encodeCursor(c: ListCursor): string {
  return `${c.since}|${c.page}`;
}

export function decodeCursor(cursor: string | null, sinceIso: string): ListCursor | null {
  if (cursor === null) return { since: sinceIso, page: 1 };
  const m = /^([^|]+)\|(\d+)$/.exec(cursor);
  if (!m || Number.isNaN(Date.parse(m[1])) || Number(m[2]) < 1) return null;
  return { since: m[1], page: Number(m[2]) };
}

/**
 * The cursor after a page of orders (oldest change first): null when it was the last page
 * (shorter than the limit); the next page from the same instant when the whole page changed
 * within one second (BigCommerce's dates have no finer grain, so the instant cannot move on);
 * else page 1 from the last order's instant, whose orders are read again (the apply step finds
 * them stale). Each step moves the instant forward or the page within it: the listing ends.
 */
export function nextCursor(current: ListCursor, orders: unknown[], limit: number): string | null {
  if (orders.length < limit) return null;
  const first = isoFromRfc2822(obj(orders[0]).date_modified);
  const last = isoFromRfc2822(obj(orders[orders.length - 1]).date_modified);
  if (!first || !last) return null;
  if (first === last) return encodeCursor({ since: current.since, page: current.page + 1 });
  return encodeCursor({ since: last, page: 1 });
}

// ---- Write-back ----------------------------------------------------------------------------

export type ShipmentPlan =
  { kind: 'already_fulfilled'; refs: string[] } | { kind: 'on_hold' | 'closed'; message: string } | { kind: 'post'; body: ShipmentBody };

export interface ShipmentBody {
  order_address_id: number;
  tracking_number: string;
  tracking_carrier: string;
  tracking_link?: string;
  shipping_method?: string;
  items: { order_product_id: number; quantity: number }[];
}

/** The description's limits on a shipment's fields. */
const TRACKING_NUMBER_MAX = 50;
const TRACKING_LINK_MAX = 500;

/**
 * What a write-back does with an order as read now: a shipment already carrying our tracking
 * number is an earlier attempt that went through; a cancelled, declined, refunded or abandoned
 * order is closed; an order awaiting payment or verification waits; else one shipment to the
 * address the order was imported with, of the requested lines (or everything not yet shipped).
 */
export function planShipment(parts: OrderParts, request: FulfillRequest, trackingCarrier: string | null): ShipmentPlan {
  const orderId = request.externalOrderId;
  const number = request.tracking.number.trim();
  const existing = asList(parts.shipments)
    .filter((s) => intOf(s.id) !== null && text(s.tracking_number) === number)
    .map((s) => shipmentRef(orderId, intOf(s.id)!));
  if (existing.length) return { kind: 'already_fulfilled', refs: existing };

  const statusId = intOf(obj(parts.order).status_id);
  if (statusId !== null && CLOSED_STATUS_IDS.has(statusId)) return { kind: 'closed', message: `The order is ${statusWord(statusId)} on BigCommerce` };
  if (obj(parts.order).is_deleted === true) return { kind: 'closed', message: 'The order is archived on BigCommerce' };
  if (statusId !== null && HELD_STATUS_IDS.has(statusId)) return { kind: 'on_hold', message: `The order is ${statusWord(statusId)} on BigCommerce` };

  const address = firstShippingAddress(parts.shippingAddresses);
  const addressId = address ? intOf(address.id) : null;
  if (addressId === null) return { kind: 'closed', message: 'The order has no shipping address on BigCommerce' };
  const remaining = new Map<number, number>();
  for (const p of productsOf(parts.products, addressId)) {
    const id = intOf(p.id);
    if (id === null || (p.type !== undefined && p.type !== 'physical')) continue;
    const left = (intOf(p.quantity) ?? 0) - (num(p.quantity_shipped) ?? 0);
    if (left > 0) remaining.set(id, left);
  }
  const items: ShipmentBody['items'] = [];
  if (!request.lines) {
    for (const [id, quantity] of remaining) items.push({ order_product_id: id, quantity });
  } else {
    for (const line of request.lines) {
      const id = /^\d+$/.test(line.external_line_id) ? Number(line.external_line_id) : null;
      const left = id === null ? 0 : (remaining.get(id) ?? 0);
      const quantity = Math.min(line.quantity, left);
      if (quantity <= 0) continue;
      remaining.set(id!, left - quantity);
      items.push({ order_product_id: id!, quantity });
    }
  }
  if (items.length === 0) return { kind: 'closed', message: 'BigCommerce has nothing left to ship on this order' };
  const url = request.tracking.url?.trim();
  const service = request.tracking.service?.trim();
  return {
    kind: 'post',
    body: {
      order_address_id: addressId,
      tracking_number: number.slice(0, TRACKING_NUMBER_MAX),
      tracking_carrier: trackingCarrier ?? '',
      ...(url && url.length <= TRACKING_LINK_MAX ? { tracking_link: url } : {}),
      ...(service ? { shipping_method: service } : {}),
      items,
    },
  };
}
