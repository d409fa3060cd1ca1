/**
 * The fake Shopify's in-memory shop: orders with their lines, fulfillment orders (one per
 * assigned location) and fulfillments, webhook subscriptions, and what Shopify does to them
 * (fulfil, cancel a fulfillment, edit, cancel an order), each bumping the order's updated_at
 * as Shopify does. It also renders an order as the REST JSON webhooks carry.
 */

export interface FakeLocation {
  id: number;
  name: string;
}

export interface FakeLineItem {
  id: number;
  sku: string | null;
  title: string;
  variantTitle: string | null;
  quantity: number;
  currentQuantity: number;
  /** Decimal string in the shop's currency. */
  price: string;
  grams: number;
  requiresShipping: boolean;
}

export interface FakeFulfillmentOrder {
  id: number;
  status: 'OPEN' | 'IN_PROGRESS' | 'CLOSED' | 'CANCELLED' | 'ON_HOLD' | 'SCHEDULED' | 'INCOMPLETE';
  location: FakeLocation;
  lines: { id: number; lineItemId: number; total: number; remaining: number }[];
}

export interface FakeFulfillment {
  id: number;
  status: 'SUCCESS' | 'CANCELLED';
  tracking: { company: string | null; number: string | null; url: string | null }[];
  notifyCustomer: boolean;
  createdAt: string;
  /** What it took from which fulfillment order line, to give back on cancel. */
  taken: { foId: number; foLineId: number; quantity: number }[];
}

export interface FakeAddress {
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province_code: string | null;
  zip: string | null;
  country_code: string | null;
  phone: string | null;
}

export interface FakeOrder {
  id: number;
  name: string;
  createdAt: string;
  updatedAt: string;
  cancelledAt: string | null;
  currency: string;
  financialStatus: 'PENDING' | 'AUTHORIZED' | 'PARTIALLY_PAID' | 'PAID' | 'PARTIALLY_REFUNDED' | 'REFUNDED' | 'VOIDED' | 'EXPIRED';
  email: string | null;
  phone: string | null;
  shippingAddress: FakeAddress | null;
  shippingLine: { code: string | null; title: string } | null;
  lines: FakeLineItem[];
  fulfillmentOrders: FakeFulfillmentOrder[];
  fulfillments: FakeFulfillment[];
}

export interface SeedLine {
  sku?: string | null;
  title?: string;
  quantity?: number;
  price?: string;
  grams?: number;
  requiresShipping?: boolean;
  /** Index into the shop's locations (0 = the first); lines at two locations make two fulfillment orders. */
  location?: number;
}

export interface SeedOrder {
  name?: string;
  currency?: string;
  financialStatus?: FakeOrder['financialStatus'];
  email?: string | null;
  phone?: string | null;
  shippingAddress?: Partial<FakeAddress> | null;
  shippingLine?: { code: string | null; title: string } | null;
  lines?: SeedLine[];
  /** Every fulfillment order starts ON_HOLD. */
  onHold?: boolean;
  updatedAt?: string;
}

export interface FakeWebhookSubscription {
  id: number;
  topic: string;
  uri: string;
  createdAt: string;
}

export const DEFAULT_ADDRESS: FakeAddress = {
  first_name: 'Pat',
  last_name: 'Buyer',
  company: null,
  address1: '100 Peachtree Pkwy',
  address2: 'Apt 4',
  city: 'Alpharetta',
  province_code: 'GA',
  zip: '30005',
  country_code: 'US',
  phone: '+14045550100',
};

/** Shopify ids are 13-digit numbers nowadays: start there so nothing assumes small ids. */
let idSeq = 5_000_000_000_000;
const nextId = () => ++idSeq;

export class FakeShop {
  readonly name = 'Fake Goods';
  readonly locations: FakeLocation[] = [
    { id: nextId(), name: 'Main warehouse' },
    { id: nextId(), name: 'East annex' },
  ];
  readonly orders = new Map<number, FakeOrder>();
  readonly webhooks = new Map<number, FakeWebhookSubscription>();
  private orderNumber = 1000;
  /** Shopify's clock for updated_at: strictly increasing, whole seconds as Shopify stores them. */
  private lastStamp = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  stamp(): string {
    const now = Math.max(Math.floor(this.clock() / 1000) * 1000, this.lastStamp + 1000);
    this.lastStamp = now;
    return new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  seedOrder(seed: SeedOrder = {}): FakeOrder {
    const id = nextId();
    const at = seed.updatedAt ?? this.stamp();
    if (seed.updatedAt) this.lastStamp = Math.max(this.lastStamp, Date.parse(seed.updatedAt));
    const lines = (seed.lines ?? [{}]).map((l, i) => ({
      seed: l,
      line: {
        id: nextId(),
        sku: l.sku === undefined ? `SKU-${i + 1}` : l.sku,
        title: l.title ?? `Widget ${i + 1}`,
        variantTitle: null,
        quantity: l.quantity ?? 1,
        currentQuantity: l.quantity ?? 1,
        price: l.price ?? '19.99',
        grams: l.grams ?? 454,
        requiresShipping: l.requiresShipping ?? true,
      } satisfies FakeLineItem,
    }));
    const byLocation = new Map<number, FakeFulfillmentOrder>();
    for (const { seed: s, line } of lines) {
      if (!line.requiresShipping) continue;
      const location = this.locations[s.location ?? 0];
      let fo = byLocation.get(location.id);
      if (!fo) byLocation.set(location.id, (fo = { id: nextId(), status: seed.onHold ? 'ON_HOLD' : 'OPEN', location, lines: [] }));
      fo.lines.push({ id: nextId(), lineItemId: line.id, total: line.quantity, remaining: line.quantity });
    }
    const order: FakeOrder = {
      id,
      name: seed.name ?? `#${++this.orderNumber}`,
      createdAt: at,
      updatedAt: at,
      cancelledAt: null,
      currency: seed.currency ?? 'USD',
      financialStatus: seed.financialStatus ?? 'PAID',
      email: seed.email === undefined ? 'pat@example.com' : seed.email,
      phone: seed.phone === undefined ? null : seed.phone,
      shippingAddress: seed.shippingAddress === null ? null : { ...DEFAULT_ADDRESS, ...seed.shippingAddress },
      shippingLine: seed.shippingLine === undefined ? { code: 'Standard', title: 'Standard Shipping' } : seed.shippingLine,
      lines: lines.map((l) => l.line),
      fulfillmentOrders: [...byLocation.values()],
      fulfillments: [],
    };
    this.orders.set(id, order);
    return order;
  }

  order(id: number | string): FakeOrder {
    const o = this.orders.get(Number(id));
    if (!o) throw new Error(`fake Shopify has no order ${id}`);
    return o;
  }

  /** An edit in the admin: whatever `change` does, then a new updated_at. */
  editOrder(id: number | string, change: (order: FakeOrder) => void): FakeOrder {
    const o = this.order(id);
    change(o);
    o.updatedAt = this.stamp();
    return o;
  }

  cancelOrder(id: number | string): FakeOrder {
    return this.editOrder(id, (o) => {
      o.cancelledAt = this.stamp();
      o.financialStatus = 'VOIDED';
      for (const fo of o.fulfillmentOrders) if (fo.status !== 'CLOSED') fo.status = 'CANCELLED';
    });
  }

  setHold(id: number | string, held: boolean): FakeOrder {
    return this.editOrder(id, (o) => {
      for (const fo of o.fulfillmentOrders) {
        if (held && (fo.status === 'OPEN' || fo.status === 'IN_PROGRESS')) fo.status = 'ON_HOLD';
        else if (!held && fo.status === 'ON_HOLD') fo.status = 'OPEN';
      }
    });
  }

  displayFulfillmentStatus(o: FakeOrder): string {
    const lines = o.fulfillmentOrders.flatMap((fo) => fo.lines);
    const fulfilled = lines.reduce((n, l) => n + (l.total - l.remaining), 0);
    const total = lines.reduce((n, l) => n + l.total, 0);
    if (total > 0 && fulfilled === total) return 'FULFILLED';
    if (fulfilled > 0) return 'PARTIALLY_FULFILLED';
    if (o.fulfillmentOrders.some((fo) => fo.status === 'ON_HOLD')) return 'ON_HOLD';
    return 'UNFULFILLED';
  }

  findFulfillmentOrder(id: number): { order: FakeOrder; fo: FakeFulfillmentOrder } | null {
    for (const order of this.orders.values()) {
      const fo = order.fulfillmentOrders.find((f) => f.id === id);
      if (fo) return { order, fo };
    }
    return null;
  }

  findFulfillment(id: number): { order: FakeOrder; fulfillment: FakeFulfillment } | null {
    for (const order of this.orders.values()) {
      const fulfillment = order.fulfillments.find((f) => f.id === id);
      if (fulfillment) return { order, fulfillment };
    }
    return null;
  }

  /** Shopify's rules for fulfillmentCreate: user errors, or the fulfillment made. */
  createFulfillment(input: {
    lineItemsByFulfillmentOrder: { fulfillmentOrderId: string; fulfillmentOrderLineItems?: { id: string; quantity: number }[] | null }[];
    trackingInfo?: { company?: string | null; number?: string | null; url?: string | null; numbers?: string[] | null } | null;
    notifyCustomer?: boolean | null;
  }): { userErrors: { field: string[]; message: string }[]; fulfillment: FakeFulfillment | null } {
    const err = (field: string[], message: string) => ({ userErrors: [{ field, message }], fulfillment: null });
    if (input.lineItemsByFulfillmentOrder.length === 0)
      return err(['fulfillment', 'lineItemsByFulfillmentOrder'], 'Line items by fulfillment order must not be empty.');
    const found = input.lineItemsByFulfillmentOrder.map((g) => ({ g, hit: this.findFulfillmentOrder(gidNumber(g.fulfillmentOrderId, 'FulfillmentOrder')) }));
    if (found.some((f) => !f.hit)) return err(['fulfillment', 'lineItemsByFulfillmentOrder'], 'Fulfillment order does not exist.');
    const orders = new Set(found.map((f) => f.hit!.order.id));
    if (orders.size > 1) return err(['fulfillment'], 'Fulfillment orders must belong to the same order.');
    const locations = new Set(found.map((f) => f.hit!.fo.location.id));
    if (locations.size > 1) return err(['fulfillment'], 'All fulfillment orders must be assigned to the same location.');
    for (const { hit } of found) {
      if (hit!.fo.status !== 'OPEN' && hit!.fo.status !== 'IN_PROGRESS') {
        return err(['fulfillment'], `Fulfillment order ${hit!.fo.id} has an unfulfillable status= ${hit!.fo.status.toLowerCase()}.`);
      }
    }
    const taken: FakeFulfillment['taken'] = [];
    for (const { g, hit } of found) {
      const fo = hit!.fo;
      const wanted = g.fulfillmentOrderLineItems?.length
        ? g.fulfillmentOrderLineItems.map((l) => ({ line: fo.lines.find((x) => x.id === gidNumber(l.id, 'FulfillmentOrderLineItem')), quantity: l.quantity }))
        : fo.lines.filter((l) => l.remaining > 0).map((line) => ({ line, quantity: line.remaining }));
      for (const w of wanted) {
        if (!w.line) return err(['fulfillment', 'lineItemsByFulfillmentOrder'], 'Fulfillment order line item does not exist.');
        if (w.quantity <= 0 || w.quantity > w.line.remaining)
          return err(['fulfillment', 'lineItemsByFulfillmentOrder'], 'Invalid fulfillment order line item quantity requested.');
      }
      for (const w of wanted) taken.push({ foId: fo.id, foLineId: w.line!.id, quantity: w.quantity });
    }
    if (taken.length === 0) return err(['fulfillment'], 'There are no remaining line items to fulfill.');
    const order = found[0].hit!.order;
    for (const t of taken) {
      const fo = order.fulfillmentOrders.find((f) => f.id === t.foId)!;
      fo.lines.find((l) => l.id === t.foLineId)!.remaining -= t.quantity;
    }
    for (const { hit } of found) hit!.fo.status = hit!.fo.lines.every((l) => l.remaining === 0) ? 'CLOSED' : 'IN_PROGRESS';
    const ti = input.trackingInfo ?? {};
    const numbers = ti.numbers?.length ? ti.numbers : ti.number ? [ti.number] : [];
    const fulfillment: FakeFulfillment = {
      id: nextId(),
      status: 'SUCCESS',
      tracking: numbers.map((n) => ({ company: ti.company ?? null, number: n, url: ti.url ?? null })),
      notifyCustomer: input.notifyCustomer ?? false,
      createdAt: this.stamp(),
      taken,
    };
    order.fulfillments.push(fulfillment);
    order.updatedAt = this.stamp();
    return { userErrors: [], fulfillment };
  }

  cancelFulfillment(gid: string): { userErrors: { field: string[]; message: string }[]; fulfillment: FakeFulfillment | null } {
    const hit = this.findFulfillment(gidNumber(gid, 'Fulfillment'));
    if (!hit) return { userErrors: [{ field: ['id'], message: 'Fulfillment does not exist.' }], fulfillment: null };
    const { order, fulfillment } = hit;
    if (fulfillment.status === 'CANCELLED') return { userErrors: [{ field: ['id'], message: 'Fulfillment has already been cancelled.' }], fulfillment: null };
    fulfillment.status = 'CANCELLED';
    for (const t of fulfillment.taken) {
      const fo = order.fulfillmentOrders.find((f) => f.id === t.foId)!;
      fo.lines.find((l) => l.id === t.foLineId)!.remaining += t.quantity;
      if (fo.status === 'CLOSED' || fo.status === 'IN_PROGRESS') fo.status = fo.lines.every((l) => l.remaining === l.total) ? 'OPEN' : 'IN_PROGRESS';
    }
    order.updatedAt = this.stamp();
    return { userErrors: [], fulfillment };
  }

  /** The REST order JSON (what `orders/*` webhooks carry), updated_at in the shop's zone (UTC−5). */
  restOrder(o: FakeOrder): Record<string, unknown> {
    const fulfillment = this.displayFulfillmentStatus(o);
    const restFulfillment = fulfillment === 'FULFILLED' ? 'fulfilled' : fulfillment === 'PARTIALLY_FULFILLED' ? 'partial' : null;
    const fulfilledByLine = new Map<number, number>();
    for (const fo of o.fulfillmentOrders)
      for (const l of fo.lines) fulfilledByLine.set(l.lineItemId, (fulfilledByLine.get(l.lineItemId) ?? 0) + l.total - l.remaining);
    const a = o.shippingAddress;
    return {
      id: o.id,
      admin_graphql_api_id: `gid://shopify/Order/${o.id}`,
      name: o.name,
      order_number: Number(o.name.replace(/\D/g, '')) || null,
      email: o.email,
      contact_email: o.email,
      phone: o.phone,
      created_at: shopZone(o.createdAt),
      updated_at: shopZone(o.updatedAt),
      processed_at: shopZone(o.createdAt),
      cancelled_at: o.cancelledAt ? shopZone(o.cancelledAt) : null,
      cancel_reason: o.cancelledAt ? 'customer' : null,
      closed_at: null,
      currency: o.currency,
      presentment_currency: o.currency,
      financial_status: o.financialStatus.toLowerCase(),
      fulfillment_status: restFulfillment,
      test: false,
      total_weight: o.lines.reduce((n, l) => n + l.grams * l.currentQuantity, 0),
      total_price: o.lines.reduce((n, l) => n + Number(l.price) * l.currentQuantity, 0).toFixed(2),
      customer: { id: 7_000_000_000_001, first_name: a?.first_name ?? null, last_name: a?.last_name ?? null, email: o.email, phone: o.phone },
      shipping_address: a
        ? {
            first_name: a.first_name,
            last_name: a.last_name,
            name: [a.first_name, a.last_name].filter(Boolean).join(' '),
            company: a.company,
            address1: a.address1,
            address2: a.address2,
            city: a.city,
            province: a.province_code,
            province_code: a.province_code,
            zip: a.zip,
            country: a.country_code,
            country_code: a.country_code,
            phone: a.phone,
            latitude: null,
            longitude: null,
          }
        : null,
      line_items: o.lines.map((l) => ({
        id: l.id,
        admin_graphql_api_id: `gid://shopify/LineItem/${l.id}`,
        sku: l.sku ?? '',
        title: l.title,
        variant_title: l.variantTitle,
        name: l.variantTitle ? `${l.title} - ${l.variantTitle}` : l.title,
        quantity: l.quantity,
        current_quantity: l.currentQuantity,
        fulfillable_quantity: Math.max(0, l.currentQuantity - (fulfilledByLine.get(l.id) ?? 0)),
        price: l.price,
        grams: l.grams,
        requires_shipping: l.requiresShipping,
        fulfillment_status: (fulfilledByLine.get(l.id) ?? 0) >= l.currentQuantity && l.currentQuantity > 0 ? 'fulfilled' : null,
      })),
      shipping_lines: o.shippingLine
        ? [{ id: 9_000_000_000_001, code: o.shippingLine.code, title: o.shippingLine.title, price: '5.00', source: 'shopify' }]
        : [],
      fulfillments: o.fulfillments.map((f) => ({
        id: f.id,
        admin_graphql_api_id: `gid://shopify/Fulfillment/${f.id}`,
        order_id: o.id,
        status: f.status.toLowerCase(),
        created_at: shopZone(f.createdAt),
        tracking_company: f.tracking[0]?.company ?? null,
        tracking_number: f.tracking[0]?.number ?? null,
        tracking_numbers: f.tracking.map((t) => t.number),
        tracking_url: f.tracking[0]?.url ?? null,
        tracking_urls: f.tracking.map((t) => t.url),
      })),
    };
  }
}

/** `gid://shopify/Type/123` → 123 (NaN when it is not a gid of that type). */
export function gidNumber(gid: string, type: string): number {
  const m = new RegExp(`^gid://shopify/${type}/(\\d+)$`).exec(gid);
  return m ? Number(m[1]) : NaN;
}

/** An instant in the shop's zone (UTC−5), as REST renders it: `2026-03-02T10:00:00-05:00`. */
export function shopZone(iso: string): string {
  const t = Date.parse(iso) - 5 * 3600_000;
  return `${new Date(t).toISOString().replace(/\.\d{3}Z$/, '')}-05:00`;
}
