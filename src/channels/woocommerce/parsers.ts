/**
 * WooCommerce's answers read without trusting their shape (a missing field becomes null or an
 * empty list, never a TypeError): an order as `GET /orders/{id}`, a listing and the
 * `order.created`/`order.updated` deliveries all carry it, into one `ChannelOrder`; and webhook
 * subscriptions. Field mapping and its decisions: docs/channels-woocommerce.md.
 */
import { asList, obj, str } from '../../carriers/http/json-read.js';
import type { Address } from '../../carriers/types.js';
import type { ChannelLineItem, ChannelOrder, ChannelWebhookSubscription } from '../types.js';
import { CLOSED_STATUSES, gmtInstant, toMinorUnits } from './units.js';

const text = (v: unknown): string | null => {
  const s = str(v)?.trim();
  return s ? s : null;
};

const joinName = (a: Record<string, unknown>) => [text(a.first_name), text(a.last_name)].filter(Boolean).join(' ') || null;

/**
 * The `shipping` address, or null when it has no street, city, postcode or country: WooCommerce
 * fills it (from billing when the buyer ships there) whenever the cart needs shipping, so an
 * empty one is an order with nothing to ship (virtual or downloadable goods).
 */
function shipTo(shipping: Record<string, unknown>, billing: Record<string, unknown>): Address | null {
  const street1 = text(shipping.address_1);
  const city = text(shipping.city);
  const zip = text(shipping.postcode);
  const country = text(shipping.country);
  if (!street1 && !city && !zip && !country) return null;
  const name = joinName(shipping);
  const company = text(shipping.company);
  const street2 = text(shipping.address_2);
  const state = text(shipping.state);
  // `shipping.phone` exists since WooCommerce 5.6; the billing phone otherwise.
  const phone = text(shipping.phone) ?? text(billing.phone);
  const email = text(billing.email);
  return {
    ...(name ? { name } : {}),
    ...(company ? { company } : {}),
    ...(street1 ? { street1 } : {}),
    ...(street2 ? { street2 } : {}),
    ...(city ? { city } : {}),
    ...(state ? { state } : {}),
    postal_code: zip ?? '',
    country: (country ?? '').toUpperCase(),
    ...(phone ? { phone } : {}),
    ...(email ? { email } : {}),
  };
}

function lineItem(value: unknown, currency: string): ChannelLineItem {
  const l = obj(value);
  return {
    external_line_id: str(l.id) ?? '',
    sku: text(l.sku),
    name: text(l.name) ?? '',
    quantity: typeof l.quantity === 'number' && Number.isInteger(l.quantity) ? l.quantity : 0,
    unit_price: { amount: toMinorUnits(l.price, currency) ?? 0, currency },
    // An order's line carries no weight (only the product does): the parcel is left for a person or a rule.
    weight_oz: null,
    requires_shipping: true,
  };
}

/** A WooCommerce order (REST JSON) as a ChannelOrder; null when it has no numeric id or modification date. */
export function parseWooOrder(value: unknown): ChannelOrder | null {
  const o = obj(value);
  const id = str(o.id);
  const rawUpdatedAt = str(o.date_modified_gmt);
  const version = gmtInstant(rawUpdatedAt);
  if (!id || !/^\d+$/.test(id) || !rawUpdatedAt || !version) return null;
  const status = text(o.status) ?? '';
  const cancelled = CLOSED_STATUSES.has(status);
  const currency = (text(o.currency) ?? '').toUpperCase();
  const billing = obj(o.billing);
  const shipping = obj(o.shipping);
  const address = shipTo(shipping, billing);
  const firstShipping = asList(o.shipping_lines)[0];
  return {
    external_id: id,
    external_number: text(o.number) ?? id,
    version,
    platform_status: status,
    cancelled,
    // WooCommerce keeps no cancellation date: the update that carried the status.
    cancelled_at: cancelled ? version : null,
    currency,
    customer: { name: joinName(billing) ?? address?.name ?? null, email: text(billing.email), phone: text(billing.phone) ?? text(shipping.phone) },
    ship_to: address,
    line_items: asList(o.line_items)
      .map((l) => lineItem(l, currency))
      .filter((l) => l.quantity > 0),
    shipping_line: firstShipping ? { code: text(firstShipping.method_id), title: text(firstShipping.method_title) } : null,
    // Our write-backs are order notes, which the order JSON does not carry (docs/channels-woocommerce.md).
    fulfillments: [],
    raw_updated_at: rawUpdatedAt,
  };
}

/** A listing's orders; null when the answer is not a list. Entries that are not orders are skipped. */
export function parseWooOrders(value: unknown): ChannelOrder[] | null {
  if (!Array.isArray(value)) return null;
  return value.map(parseWooOrder).filter((o): o is ChannelOrder => o !== null);
}

/** A webhook as `/webhooks` answers it; null without an id. `paused` and `disabled` deliver nothing. */
export function parseWebhook(value: unknown): ChannelWebhookSubscription | null {
  const w = obj(value);
  const id = str(w.id);
  if (!id) return null;
  return { id, topic: text(w.topic) ?? '', callbackUrl: text(w.delivery_url) ?? '', active: text(w.status) === 'active' };
}
