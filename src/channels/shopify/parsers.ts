/**
 * Shopify's answers read without trusting their shape (a missing field becomes null or an
 * empty list, never a TypeError): GraphQL orders and the REST order JSON webhooks carry, both
 * into one `ChannelOrder` (the two paths must agree field by field, or every webhook after a
 * poll would look like an edit: docs/channels.md), and the fulfillment orders a write-back plans
 * from.
 */
import { asList, obj, str, type Json } from '../../carriers/http/json-read.js';
import type { Address } from '../../carriers/types.js';
import type { ChannelFulfillment, ChannelLineItem, ChannelOrder, FulfillRequest } from '../types.js';
import { legacyId, type LocationPlan } from './documents.js';
import { platformStatus, toMinorUnits, toOunces } from './units.js';

/** An ISO-8601 instant normalised to UTC with milliseconds, so versions compare as strings too. */
export function normaliseInstant(value: string): string {
  const t = Date.parse(value);
  return Number.isNaN(t) ? value : new Date(t).toISOString();
}

const text = (v: unknown): string | null => {
  const s = str(v)?.trim();
  return s ? s : null;
};

/** Zero grams is how Shopify says "no weight": null, so the parcel is left for a person to set. */
const weightOrNull = (oz: number | null) => (oz === null || oz === 0 ? null : oz);

interface AddressFields {
  name: string | null;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  street1: string | null;
  street2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
  phone: string | null;
}

function toAddress(a: AddressFields, email: string | null): Address {
  const name = a.name ?? ([a.firstName, a.lastName].filter(Boolean).join(' ') || null);
  // Keys in the order the Address type declares them; empty ones left out.
  return {
    ...(name ? { name } : {}),
    ...(a.company ? { company: a.company } : {}),
    ...(a.street1 ? { street1: a.street1 } : {}),
    ...(a.street2 ? { street2: a.street2 } : {}),
    ...(a.city ? { city: a.city } : {}),
    ...(a.state ? { state: a.state } : {}),
    postal_code: a.zip ?? '',
    country: (a.country ?? '').toUpperCase(),
    ...(a.phone ? { phone: a.phone } : {}),
    ...(email ? { email } : {}),
  };
}

interface Common {
  externalId: string | null;
  name: string | null;
  updatedAt: string | null;
  cancelledAt: string | null;
  currency: string | null;
  financial: unknown;
  fulfillment: unknown;
  email: string | null;
  phone: string | null;
  address: AddressFields | null;
  lines: ChannelLineItem[];
  shippingLine: { code: string | null; title: string | null } | null;
  fulfillments: ChannelFulfillment[];
}

function toOrder(c: Common): ChannelOrder | null {
  if (!c.externalId || !/^\d+$/.test(c.externalId) || !c.updatedAt || Number.isNaN(Date.parse(c.updatedAt))) return null;
  const shipTo = c.address ? toAddress(c.address, c.email) : null;
  return {
    external_id: c.externalId,
    external_number: c.name ?? c.externalId,
    version: normaliseInstant(c.updatedAt),
    platform_status: platformStatus(c.financial, c.fulfillment),
    cancelled: c.cancelledAt !== null,
    cancelled_at: c.cancelledAt ? normaliseInstant(c.cancelledAt) : null,
    currency: (c.currency ?? '').toUpperCase(),
    customer: { name: shipTo?.name ?? null, email: c.email, phone: c.phone ?? c.address?.phone ?? null },
    ship_to: shipTo,
    // A line edited down to nothing is not shipped.
    line_items: c.lines.filter((l) => l.quantity > 0),
    shipping_line: c.shippingLine,
    fulfillments: c.fulfillments,
    raw_updated_at: c.updatedAt,
  };
}

// ---- GraphQL (Admin API) -------------------------------------------------------------------

function graphqlAddress(value: unknown): AddressFields | null {
  if (value === null || value === undefined) return null;
  const a = obj(value);
  return {
    name: text(a.name),
    firstName: text(a.firstName),
    lastName: text(a.lastName),
    company: text(a.company),
    street1: text(a.address1),
    street2: text(a.address2),
    city: text(a.city),
    state: text(a.provinceCode),
    zip: text(a.zip),
    country: text(a.countryCodeV2),
    phone: text(a.phone),
  };
}

export function parseGraphqlLineItem(value: unknown, orderCurrency: string): ChannelLineItem {
  const l = obj(value);
  const money = obj(obj(l.originalUnitPriceSet).shopMoney);
  const currency = (text(money.currencyCode) ?? orderCurrency).toUpperCase();
  const weight = l.weight === null || l.weight === undefined ? null : obj(l.weight);
  const quantity = typeof l.currentQuantity === 'number' ? l.currentQuantity : 0;
  return {
    external_line_id: legacyId(str(l.id) ?? ''),
    sku: text(l.sku),
    name: text(l.name) ?? '',
    quantity,
    unit_price: { amount: toMinorUnits(money.amount, currency) ?? 0, currency },
    weight_oz: weight ? weightOrNull(toOunces(weight.value, str(weight.unit) ?? '')) : null,
    requires_shipping: l.requiresShipping !== false,
  };
}

function graphqlFulfillments(value: unknown): ChannelFulfillment[] {
  return asList(value).map((f) => ({
    id: str(f.id) ?? '',
    status: (str(f.status) ?? '').toLowerCase(),
    tracking_numbers: asList(f.trackingInfo)
      .map((t) => text(t.number))
      .filter((n): n is string => n !== null),
  }));
}

export interface GraphqlOrderPage {
  order: ChannelOrder;
  /** More line items than were read with it: read it again whole. */
  linesCursor: string | null;
}

/** An `Order` node of `OrderFields` (documents.ts); null when it is not one. */
export function parseGraphqlOrder(value: unknown): GraphqlOrderPage | null {
  const o = obj(value);
  const currency = text(o.currencyCode) ?? '';
  const lineItems = obj(o.lineItems);
  const page = obj(lineItems.pageInfo);
  const shippingLine = o.shippingLine === null || o.shippingLine === undefined ? null : obj(o.shippingLine);
  const order = toOrder({
    externalId: str(o.legacyResourceId) ?? (str(o.id) ? legacyId(str(o.id)!) : null),
    name: text(o.name),
    updatedAt: text(o.updatedAt),
    cancelledAt: text(o.cancelledAt),
    currency,
    financial: o.displayFinancialStatus,
    fulfillment: o.displayFulfillmentStatus,
    email: text(o.email),
    phone: text(o.phone),
    address: graphqlAddress(o.shippingAddress),
    lines: asList(lineItems.nodes).map((l) => parseGraphqlLineItem(l, currency)),
    shippingLine: shippingLine ? { code: text(shippingLine.code), title: text(shippingLine.title) } : null,
    fulfillments: graphqlFulfillments(o.fulfillments),
  });
  if (!order) return null;
  return { order, linesCursor: page.hasNextPage === true ? text(page.endCursor) : null };
}

/** `orders` of OrdersUpdatedSince: the nodes read, and the next page's cursor. */
export function parseOrdersPage(data: unknown): { orders: GraphqlOrderPage[]; nextCursor: string | null } | null {
  const conn = obj(data).orders;
  if (!conn || typeof conn !== 'object') return null;
  const c = obj(conn);
  const orders = asList(c.nodes).map(parseGraphqlOrder);
  if (orders.some((o) => o === null)) return null;
  const page = obj(c.pageInfo);
  return { orders: orders as GraphqlOrderPage[], nextCursor: page.hasNextPage === true ? text(page.endCursor) : null };
}

// ---- REST order JSON (webhook bodies) ------------------------------------------------------

function restAddress(value: unknown): AddressFields | null {
  if (value === null || value === undefined) return null;
  const a = obj(value);
  return {
    name: text(a.name),
    firstName: text(a.first_name),
    lastName: text(a.last_name),
    company: text(a.company),
    street1: text(a.address1),
    street2: text(a.address2),
    city: text(a.city),
    state: text(a.province_code),
    zip: text(a.zip),
    country: text(a.country_code),
    phone: text(a.phone),
  };
}

function restLineItem(value: Json, currency: string): ChannelLineItem {
  const quantity = typeof value.current_quantity === 'number' ? value.current_quantity : typeof value.quantity === 'number' ? value.quantity : 0;
  return {
    external_line_id: str(value.id) ?? '',
    sku: text(value.sku),
    name: text(value.name) ?? text(value.title) ?? '',
    quantity,
    unit_price: { amount: toMinorUnits(value.price, currency) ?? 0, currency },
    weight_oz: weightOrNull(toOunces(value.grams, 'GRAMS')),
    requires_shipping: value.requires_shipping !== false,
  };
}

/** The REST order JSON an `orders/*` webhook carries; null when it is not an order. */
export function parseRestOrder(body: unknown): ChannelOrder | null {
  const o = obj(body);
  const currency = (text(o.currency) ?? '').toUpperCase();
  const shippingLine = asList(o.shipping_lines)[0];
  return toOrder({
    externalId: str(o.id),
    name: text(o.name),
    updatedAt: text(o.updated_at),
    cancelledAt: text(o.cancelled_at),
    currency,
    financial: o.financial_status,
    fulfillment: o.fulfillment_status,
    email: text(o.email),
    phone: text(o.phone),
    address: restAddress(o.shipping_address),
    lines: asList(o.line_items).map((l) => restLineItem(l, currency)),
    shippingLine: shippingLine ? { code: text(shippingLine.code), title: text(shippingLine.title) } : null,
    fulfillments: asList(o.fulfillments).map((f) => ({
      id: str(f.admin_graphql_api_id) ?? `gid://shopify/Fulfillment/${str(f.id) ?? ''}`,
      status: (str(f.status) ?? '').toLowerCase(),
      tracking_numbers: (asList<unknown>(f.tracking_numbers).length ? asList<unknown>(f.tracking_numbers) : asList<unknown>(f.tracking_number))
        .map(text)
        .filter((n): n is string => n !== null),
    })),
  });
}

// ---- Fulfilment: read before write and the plan ----------------------------------------------

/** Fulfillments (not cancelled) already carrying `trackingNumber`: a write-back that went through. */
export function fulfillmentsWithTracking(data: unknown, trackingNumber: string): string[] | null {
  const order = obj(data).order;
  if (order === null) return null;
  return graphqlFulfillments(obj(order).fulfillments)
    .filter((f) => f.status !== 'cancelled' && f.status !== 'error' && f.status !== 'failure' && f.tracking_numbers.includes(trackingNumber))
    .map((f) => f.id);
}

export interface FulfillmentOrderView {
  id: string;
  status: string;
  locationKey: string;
  lines: { id: string; remaining: number; lineItemId: string }[];
  linesTruncated: boolean;
}

/** `order.fulfillmentOrders` of OrderFulfillmentOrders; null when the order is absent. */
export function parseFulfillmentOrders(data: unknown): FulfillmentOrderView[] | null {
  const order = obj(data).order;
  if (!order || typeof order !== 'object') return null;
  return asList(obj(obj(order).fulfillmentOrders).nodes).map((fo) => {
    const assigned = obj(fo.assignedLocation);
    const lineItems = obj(fo.lineItems);
    return {
      id: str(fo.id) ?? '',
      status: str(fo.status) ?? '',
      locationKey: str(obj(assigned.location).id) ?? `name:${str(assigned.name) ?? ''}`,
      lines: asList(lineItems.nodes).map((l) => ({
        id: str(l.id) ?? '',
        remaining: typeof l.remainingQuantity === 'number' ? l.remainingQuantity : 0,
        lineItemId: legacyId(str(obj(l.lineItem).id) ?? ''),
      })),
      linesTruncated: obj(lineItems.pageInfo).hasNextPage === true,
    };
  });
}

const FULFILLABLE = new Set(['OPEN', 'IN_PROGRESS']);

export type FulfillmentPlan =
  | { kind: 'plan'; locations: LocationPlan[] }
  | { kind: 'on_hold'; message: string }
  | { kind: 'closed'; message: string }
  | { kind: 'too_many_lines'; message: string };

/**
 * Which fulfillment orders ship `request`'s lines, grouped by location (one fulfillmentCreate
 * each). Without lines: every open fulfillment order whole. With lines: each line's quantity
 * taken from the open fulfillment orders holding it. A requested line held (ON_HOLD) anywhere
 * holds the whole write-back: shipping part of it would leave the rest without tracking.
 */
export function planFulfillment(fos: FulfillmentOrderView[], lines: FulfillRequest['lines']): FulfillmentPlan {
  const open = fos.filter((fo) => FULFILLABLE.has(fo.status));
  const held = fos.filter((fo) => fo.status === 'ON_HOLD');
  const byLocation = new Map<string, LocationPlan>();
  const add = (fo: FulfillmentOrderView, foLines: { id: string; quantity: number }[] | null) => {
    let plan = byLocation.get(fo.locationKey);
    if (!plan) byLocation.set(fo.locationKey, (plan = { locationId: fo.locationKey, fulfillmentOrders: [] }));
    plan.fulfillmentOrders.push({ id: fo.id, lines: foLines });
  };

  if (!lines) {
    const withWork = open.filter((fo) => fo.lines.some((l) => l.remaining > 0) || fo.linesTruncated);
    if (withWork.length === 0) {
      return held.length
        ? { kind: 'on_hold', message: 'The order is on hold on Shopify' }
        : { kind: 'closed', message: 'Shopify has nothing left to fulfil on this order' };
    }
    for (const fo of withWork) add(fo, null);
    return { kind: 'plan', locations: [...byLocation.values()] };
  }

  const wanted = lines.filter((l) => l.quantity > 0);
  if (wanted.some((w) => held.some((fo) => fo.lines.some((l) => l.lineItemId === w.external_line_id && l.remaining > 0)))) {
    return { kind: 'on_hold', message: 'A shipped line is on hold on Shopify' };
  }
  if (open.some((fo) => fo.linesTruncated)) {
    return { kind: 'too_many_lines', message: 'A fulfillment order has more lines than one read returns; fulfil it from Shopify' };
  }
  const picked = new Map<string, { id: string; quantity: number }[]>();
  for (const w of wanted) {
    let need = w.quantity;
    for (const fo of open) {
      for (const l of fo.lines) {
        if (need <= 0) break;
        if (l.lineItemId !== w.external_line_id || l.remaining <= 0) continue;
        const take = Math.min(need, l.remaining);
        l.remaining -= take;
        need -= take;
        const list = picked.get(fo.id) ?? [];
        list.push({ id: l.id, quantity: take });
        picked.set(fo.id, list);
      }
    }
  }
  for (const fo of open) {
    const foLines = picked.get(fo.id);
    if (foLines) add(fo, foLines);
  }
  if (byLocation.size === 0) return { kind: 'closed', message: 'Shopify has nothing left to fulfil for these lines' };
  return { kind: 'plan', locations: [...byLocation.values()] };
}

export interface UserError {
  field: string[] | null;
  message: string;
}

/** `userErrors` of a mutation payload. */
export function parseUserErrors(payload: unknown): UserError[] {
  return asList(obj(payload).userErrors).map((e) => ({
    field: Array.isArray(e.field) ? e.field.map(String) : null,
    message: str(e.message) ?? 'error',
  }));
}
