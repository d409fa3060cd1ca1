/**
 * The fake BigCommerce's in-memory store: orders with their products, shipping addresses and
 * shipments, hooks, and what BigCommerce does to them (ship, delete a shipment, edit, cancel),
 * each moving the order's `date_modified` as BigCommerce does. Rendered as Orders V2 / Webhooks
 * V3 answers (the server checks each against the published schemas).
 */

export interface FakeProduct {
  id: number;
  product_id: number;
  order_address_id: number;
  name: string;
  sku: string;
  type: 'physical' | 'digital';
  /** Four-decimal strings as BigCommerce sends them. */
  base_price: string;
  price_ex_tax: string;
  price_inc_tax: string;
  quantity: number;
  quantity_shipped: number;
  /** In the store's weight unit (this fake store weighs in grams). */
  weight: number;
}

export interface FakeAddress {
  id: number;
  first_name: string;
  last_name: string;
  company: string;
  street_1: string;
  street_2: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  country_iso2: string;
  phone: string;
  email: string;
  shipping_method: string;
}

export interface FakeShipment {
  id: number;
  order_address_id: number;
  tracking_number: string;
  tracking_carrier: string;
  tracking_link: string;
  shipping_method: string;
  date_created: number;
  items: { order_product_id: number; quantity: number }[];
}

export interface FakeOrder {
  id: number;
  status_id: number;
  date_created: number;
  /** Milliseconds; rendered at BigCommerce's one-second grain. */
  date_modified: number;
  currency: string;
  billing: {
    first_name: string;
    last_name: string;
    email: string;
    phone: string;
    street_1: string;
    city: string;
    state: string;
    zip: string;
    country: string;
    country_iso2: string;
  };
  products: FakeProduct[];
  addresses: FakeAddress[];
  shipments: FakeShipment[];
  is_deleted: boolean;
}

export interface FakeHook {
  id: number;
  scope: string;
  destination: string;
  is_active: boolean;
  headers: Record<string, string> | null;
  created_at: number;
  updated_at: number;
  /** Deliveries failed in a row (the hook is deactivated after `deactivateAfter`). */
  failures: number;
}

export interface SeedProduct {
  sku?: string;
  name?: string;
  quantity?: number;
  price?: string;
  weight?: number;
  type?: 'physical' | 'digital';
  /** Index into the order's addresses (0 = the first). */
  address?: number;
}

export interface SeedOrder {
  status_id?: number;
  products?: SeedProduct[];
  /** Street lines of each shipping address (default one address); [] for an order with none. */
  addresses?: { street_1: string; state?: string; shipping_method?: string }[];
  currency?: string;
  date_modified?: number;
}

export const STATUS_NAMES: readonly string[] = [
  'Incomplete',
  'Pending',
  'Shipped',
  'Partially Shipped',
  'Refunded',
  'Cancelled',
  'Declined',
  'Awaiting Payment',
  'Awaiting Pickup',
  'Awaiting Shipment',
  'Completed',
  'Awaiting Fulfillment',
  'Manual Verification Required',
  'Disputed',
  'Partially Refunded',
];

/** `Tue, 05 Mar 2019 21:40:11 +0000`: BigCommerce's RFC-2822 in UTC. */
export function rfc2822(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toUTCString().replace('GMT', '+0000');
}

const money = (s: string) => Number(s).toFixed(4);

export class FakeBigcommerceStore {
  readonly orders = new Map<number, FakeOrder>();
  readonly hooks = new Map<number, FakeHook>();
  private seq = { order: 100, product: 1000, address: 500, shipment: 10, hook: 9000 };

  constructor(private readonly clock: () => number = Date.now) {}

  now(): number {
    return this.clock();
  }

  /** The order changed: its date_modified moves to now, and always forward by a second at least (the grain BigCommerce shows). */
  touch(order: FakeOrder): void {
    order.date_modified = Math.max(this.clock(), order.date_modified + 1000);
  }

  seedOrder(seed: SeedOrder = {}): FakeOrder {
    const id = ++this.seq.order;
    const now = this.clock();
    const addresses = (seed.addresses ?? [{ street_1: '1 Peachtree St' }]).map((a) => ({
      id: ++this.seq.address,
      first_name: 'Pat',
      last_name: 'Buyer',
      company: '',
      street_1: a.street_1,
      street_2: '',
      city: 'Alpharetta',
      state: a.state ?? 'Georgia',
      zip: '30005',
      country: 'United States',
      country_iso2: 'US',
      phone: '4045550100',
      email: 'pat@example.com',
      shipping_method: a.shipping_method ?? 'Flat Rate',
    }));
    const products = (seed.products ?? [{}]).map((p, i) => {
      const price = money(p.price ?? '12.50');
      return {
        id: ++this.seq.product,
        product_id: 77 + i,
        order_address_id: p.type === 'digital' ? 0 : (addresses[p.address ?? 0]?.id ?? 0),
        name: p.name ?? `Towel ${i + 1}`,
        sku: p.sku ?? `SKU-${i + 1}`,
        type: p.type ?? 'physical',
        base_price: price,
        price_ex_tax: price,
        price_inc_tax: price,
        quantity: p.quantity ?? 1,
        quantity_shipped: 0,
        weight: p.weight ?? 250,
      };
    });
    const order: FakeOrder = {
      id,
      status_id: seed.status_id ?? 11,
      date_created: now,
      date_modified: seed.date_modified ?? now,
      currency: seed.currency ?? 'USD',
      billing: {
        first_name: 'Pat',
        last_name: 'Buyer',
        email: 'pat@example.com',
        phone: '4045550100',
        street_1: '9 Billing Rd',
        city: 'Atlanta',
        state: 'Georgia',
        zip: '30303',
        country: 'United States',
        country_iso2: 'US',
      },
      products,
      addresses,
      shipments: [],
      is_deleted: false,
    };
    this.orders.set(id, order);
    return order;
  }

  order(id: number | string): FakeOrder {
    const order = this.orders.get(Number(id));
    if (!order) throw new Error(`the fake store has no order ${id}`);
    return order;
  }

  editOrder(id: number | string, edit: (o: FakeOrder) => void): FakeOrder {
    const order = this.order(id);
    edit(order);
    this.touch(order);
    return order;
  }

  /** Creates a shipment as BigCommerce does: refuses what cannot ship, moves the status (Shipped / Partially Shipped). */
  ship(
    order: FakeOrder,
    body: {
      order_address_id: number;
      tracking_number?: string;
      tracking_carrier?: string;
      tracking_link?: string;
      shipping_method?: string;
      items: { order_product_id: number; quantity: number }[];
    },
  ): FakeShipment | string {
    if (!order.addresses.some((a) => a.id === body.order_address_id)) return `order_address_id ${body.order_address_id} is not an address of order ${order.id}`;
    if (body.items.length === 0) return 'items must not be empty';
    for (const item of body.items) {
      const p = order.products.find((x) => x.id === item.order_product_id);
      if (!p) return `order_product_id ${item.order_product_id} is not a product of order ${order.id}`;
      if (p.order_address_id !== body.order_address_id) return `order_product_id ${p.id} ships to another address`;
      if (item.quantity < 1 || item.quantity > p.quantity - p.quantity_shipped)
        return `quantity ${item.quantity} of order_product_id ${p.id} is more than is left to ship`;
    }
    for (const item of body.items) order.products.find((x) => x.id === item.order_product_id)!.quantity_shipped += item.quantity;
    const shipment: FakeShipment = {
      id: ++this.seq.shipment,
      order_address_id: body.order_address_id,
      tracking_number: body.tracking_number ?? '',
      tracking_carrier: body.tracking_carrier ?? '',
      tracking_link: body.tracking_link ?? '',
      shipping_method: body.shipping_method ?? '',
      date_created: this.clock(),
      items: body.items.map((i) => ({ ...i })),
    };
    order.shipments.push(shipment);
    this.restatus(order);
    this.touch(order);
    return shipment;
  }

  unship(order: FakeOrder, shipmentId: number): boolean {
    const at = order.shipments.findIndex((s) => s.id === shipmentId);
    if (at < 0) return false;
    const [shipment] = order.shipments.splice(at, 1);
    for (const item of shipment.items) {
      const p = order.products.find((x) => x.id === item.order_product_id);
      if (p) p.quantity_shipped -= item.quantity;
    }
    this.restatus(order);
    this.touch(order);
    return true;
  }

  private restatus(order: FakeOrder): void {
    if (![2, 3, 9, 11].includes(order.status_id)) return;
    const physical = order.products.filter((p) => p.type === 'physical');
    const shipped = physical.reduce((n, p) => n + p.quantity_shipped, 0);
    const total = physical.reduce((n, p) => n + p.quantity, 0);
    order.status_id = shipped === 0 ? 11 : shipped >= total ? 2 : 3;
  }

  addHook(scope: string, destination: string, isActive: boolean, headers: Record<string, string> | null): FakeHook {
    const now = Math.floor(this.clock() / 1000);
    const hook: FakeHook = { id: ++this.seq.hook, scope, destination, is_active: isActive, headers, created_at: now, updated_at: now, failures: 0 };
    this.hooks.set(hook.id, hook);
    return hook;
  }

  // ---- Rendering as Orders V2 / Webhooks V3 ------------------------------------------------

  renderOrder(o: FakeOrder, origin: string): Record<string, unknown> {
    const subtotal = o.products.reduce((n, p) => n + Number(p.price_ex_tax) * p.quantity, 0).toFixed(4);
    return {
      id: o.id,
      customer_id: 0,
      date_created: rfc2822(o.date_created),
      date_modified: rfc2822(o.date_modified),
      date_shipped: '',
      status_id: o.status_id,
      status: STATUS_NAMES[o.status_id] ?? 'Unknown',
      custom_status: STATUS_NAMES[o.status_id] ?? 'Unknown',
      subtotal_ex_tax: subtotal,
      subtotal_inc_tax: subtotal,
      subtotal_tax: '0.0000',
      total_ex_tax: subtotal,
      total_inc_tax: subtotal,
      total_tax: '0.0000',
      items_total: o.products.reduce((n, p) => n + p.quantity, 0),
      items_shipped: o.products.reduce((n, p) => n + p.quantity_shipped, 0),
      payment_method: 'Test Payment Gateway',
      payment_status: o.status_id === 7 ? 'pending' : 'captured',
      currency_id: 1,
      currency_code: o.currency,
      currency_exchange_rate: '1.0000000000',
      default_currency_id: 1,
      default_currency_code: o.currency,
      store_default_currency_code: o.currency,
      store_default_to_transactional_exchange_rate: '1.0000000000',
      order_is_digital: o.addresses.length === 0,
      shipping_address_count: o.addresses.length,
      is_deleted: o.is_deleted,
      order_source: 'www',
      channel_id: 1,
      billing_address: { ...o.billing, company: '', street_2: '', form_fields: [] },
      products: { url: `${origin}/v2/orders/${o.id}/products`, resource: `/orders/${o.id}/products` },
      shipping_addresses: { url: `${origin}/v2/orders/${o.id}/shipping_addresses`, resource: `/orders/${o.id}/shipping_addresses` },
      coupons: { url: `${origin}/v2/orders/${o.id}/coupons`, resource: `/orders/${o.id}/coupons` },
    };
  }

  renderProduct(o: FakeOrder, p: FakeProduct): Record<string, unknown> {
    return {
      id: p.id,
      order_id: o.id,
      product_id: p.product_id,
      order_address_id: p.order_address_id,
      name: p.name,
      name_customer: p.name,
      name_merchant: p.name,
      sku: p.sku,
      type: p.type,
      base_price: p.base_price,
      price_ex_tax: p.price_ex_tax,
      price_inc_tax: p.price_inc_tax,
      price_tax: '0.0000',
      base_total: (Number(p.base_price) * p.quantity).toFixed(4),
      total_ex_tax: (Number(p.price_ex_tax) * p.quantity).toFixed(4),
      total_inc_tax: (Number(p.price_inc_tax) * p.quantity).toFixed(4),
      total_tax: '0.0000',
      quantity: p.quantity,
      quantity_shipped: p.quantity_shipped,
      weight: p.weight,
      is_refunded: false,
      quantity_refunded: 0,
      applied_discounts: [],
      product_options: [],
    };
  }

  renderAddress(o: FakeOrder, a: FakeAddress): Record<string, unknown> {
    const products = o.products.filter((p) => p.order_address_id === a.id);
    return {
      ...a,
      order_id: o.id,
      items_total: products.reduce((n, p) => n + p.quantity, 0),
      items_shipped: products.reduce((n, p) => n + p.quantity_shipped, 0),
      base_cost: '5.0000',
      cost_ex_tax: '5.0000',
      cost_inc_tax: '5.0000',
      cost_tax: '0.0000',
      form_fields: [],
    };
  }

  renderShipment(o: FakeOrder, s: FakeShipment): Record<string, unknown> {
    return {
      id: s.id,
      order_id: o.id,
      customer_id: 0,
      order_address_id: s.order_address_id,
      date_created: rfc2822(s.date_created),
      tracking_number: s.tracking_number,
      merchant_shipping_cost: '0.0000',
      shipping_method: s.shipping_method,
      shipping_provider: '',
      tracking_carrier: s.tracking_carrier,
      tracking_link: s.tracking_link,
      comments: '',
      items: s.items.map((i) => ({ ...i, product_id: o.products.find((p) => p.id === i.order_product_id)?.product_id ?? 0 })),
      generated_tracking_link: s.tracking_link ? '' : `https://track.aftership.com/${s.tracking_carrier || 'unknown'}/${s.tracking_number}`,
    };
  }

  renderHook(h: FakeHook, storeHash: string, clientId: string): Record<string, unknown> {
    return {
      id: h.id,
      client_id: clientId,
      store_hash: storeHash,
      scope: h.scope,
      destination: h.destination,
      is_active: h.is_active,
      headers: h.headers,
      created_at: h.created_at,
      updated_at: h.updated_at,
    };
  }
}
