/**
 * The fake WooCommerce's in-memory site: orders with their lines, notes and statuses (a trashed
 * order keeps answering `GET /orders/{id}` with status `trash`, as WooCommerce does), webhooks,
 * and the order JSON exactly as `wc/v3` renders it (`date_*` in the site's zone, `date_*_gmt`
 * without a zone, `number` a string, a line's `price` a JSON number).
 *
 * Dates have WooCommerce's one-second precision. A change moves the order's `date_modified` to
 * now, and at least one second past its previous value: a merchant does not make two edits of
 * one order within a second, and a test's changes must each be a new version.
 */

/** The site's zone: five hours behind GMT, so a parser reading `date_modified` instead of `date_modified_gmt` is wrong by hours. */
export const SITE_OFFSET_MS = -5 * 3600_000;

export interface WooAddress {
  first_name: string;
  last_name: string;
  company: string;
  address_1: string;
  address_2: string;
  city: string;
  state: string;
  postcode: string;
  country: string;
}

export interface WooBilling extends WooAddress {
  email: string;
  phone: string;
}

export interface WooLine {
  id: number;
  name: string;
  product_id: number;
  variation_id: number;
  quantity: number;
  sku: string;
  /** Unit price after discounts, tax excluded: a decimal string here, rendered as a number. */
  price: string;
}

export interface WooNote {
  id: number;
  note: string;
  customer_note: boolean;
  createdAt: number;
}

export interface WooOrder {
  id: number;
  number: string;
  status: string;
  currency: string;
  createdAt: number;
  modifiedAt: number;
  billing: WooBilling;
  shipping: WooAddress;
  lines: WooLine[];
  shippingLines: { id: number; method_id: string; method_title: string; total: string }[];
  notes: WooNote[];
}

export interface WooWebhook {
  id: number;
  name: string;
  status: 'active' | 'paused' | 'disabled';
  topic: string;
  delivery_url: string;
  secret: string;
  failures: number;
  createdAt: number;
  modifiedAt: number;
}

export interface SeedOrder {
  status?: string;
  currency?: string;
  billing?: Partial<WooBilling>;
  /** null: an order with nothing to ship (the shipping address left empty). */
  shipping?: Partial<WooAddress> | null;
  lines?: Partial<Omit<WooLine, 'id'>>[];
  shippingLine?: { method_id: string; method_title: string } | null;
  modifiedAt?: number;
}

export const DEFAULT_BILLING: WooBilling = {
  first_name: 'Pat',
  last_name: 'Buyer',
  company: '',
  address_1: '100 Peachtree Pkwy',
  address_2: 'Apt 4',
  city: 'Alpharetta',
  state: 'GA',
  postcode: '30005',
  country: 'US',
  email: 'pat@example.com',
  phone: '+14045550100',
};

const EMPTY_ADDRESS: WooAddress = { first_name: '', last_name: '', company: '', address_1: '', address_2: '', city: '', state: '', postcode: '', country: '' };

/** `2017-03-22T16:28:02`: WooCommerce's date form, GMT or shifted into the site's zone. */
export const wooDate = (ms: number, offsetMs = 0) => new Date(Math.floor(ms / 1000) * 1000 + offsetMs).toISOString().slice(0, 19);

export const WEBHOOK_TOPICS = [
  'order.created',
  'order.updated',
  'order.deleted',
  'order.restored',
  'coupon.created',
  'coupon.updated',
  'coupon.deleted',
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'product.created',
  'product.updated',
  'product.deleted',
];

const HOOKS: Record<string, string[]> = {
  'order.created': ['woocommerce_new_order'],
  'order.updated': ['woocommerce_update_order', 'woocommerce_order_refunded'],
  'order.deleted': ['wp_trash_post', 'woocommerce_trash_order', 'woocommerce_delete_order'],
};

export class FakeSite {
  readonly orders = new Map<number, WooOrder>();
  readonly webhooks = new Map<number, WooWebhook>();
  private seq = 700;
  private lineSeq = 40;
  private noteSeq = 900;
  private webhookSeq = 140;

  constructor(
    readonly siteUrl: string,
    readonly clock: () => number,
  ) {}

  seedOrder(seed: SeedOrder = {}): WooOrder {
    const id = ++this.seq;
    const now = seed.modifiedAt ?? this.clock();
    const billing = { ...DEFAULT_BILLING, ...seed.billing };
    const { email: _e, phone: _p, ...billingAddress } = billing;
    const order: WooOrder = {
      id,
      number: String(id),
      status: seed.status ?? 'processing',
      currency: seed.currency ?? 'USD',
      createdAt: now,
      modifiedAt: Math.floor(now / 1000) * 1000,
      billing,
      shipping: seed.shipping === null ? { ...EMPTY_ADDRESS } : { ...billingAddress, ...seed.shipping },
      lines: (seed.lines ?? [{}]).map((l, i) => ({
        id: ++this.lineSeq,
        name: l.name ?? `Item ${i + 1}`,
        product_id: l.product_id ?? 93 + i,
        variation_id: l.variation_id ?? 0,
        quantity: l.quantity ?? 1,
        sku: l.sku ?? `SKU-${i + 1}`,
        price: l.price ?? '18.00',
      })),
      shippingLines:
        seed.shippingLine === null ? [] : [{ id: ++this.lineSeq, method_id: 'flat_rate', method_title: 'Flat rate', total: '10.00', ...seed.shippingLine }],
      notes: [],
    };
    this.orders.set(id, order);
    return order;
  }

  order(id: number | string): WooOrder {
    const o = this.orders.get(Number(id));
    if (!o) throw new Error(`the fake WooCommerce has no order ${id}`);
    return o;
  }

  /** A change to the order: `date_modified` moves (see above). */
  touch(order: WooOrder): void {
    order.modifiedAt = Math.max(Math.floor(this.clock() / 1000) * 1000, order.modifiedAt + 1000);
  }

  edit(id: number | string, change: (o: WooOrder) => void): WooOrder {
    const o = this.order(id);
    change(o);
    this.touch(o);
    return o;
  }

  addNote(order: WooOrder, note: string, customerNote: boolean): WooNote {
    // Adding a note does not save the order: its date_modified stays.
    const n: WooNote = { id: ++this.noteSeq, note, customer_note: customerNote, createdAt: this.clock() };
    order.notes.push(n);
    return n;
  }

  addWebhook(input: { name?: string; status?: WooWebhook['status']; topic: string; delivery_url: string; secret?: string }): WooWebhook {
    const now = this.clock();
    const w: WooWebhook = {
      id: ++this.webhookSeq,
      name: input.name ?? `Webhook created on ${new Date(now).toUTCString()}`,
      status: input.status ?? 'active',
      topic: input.topic,
      delivery_url: input.delivery_url,
      // Without one WooCommerce derives its own (an MD5 of the user): a value the receiver cannot know.
      secret: input.secret ?? 'f3c1e4a0b9d8c7e6f5a4b3c2d1e0f9a8',
      failures: 0,
      createdAt: now,
      modifiedAt: now,
    };
    this.webhooks.set(w.id, w);
    return w;
  }

  /** The order as `GET /wp-json/wc/v3/orders/{id}` renders it. */
  orderJson(o: WooOrder): Record<string, unknown> {
    const lineTotal = (l: WooLine) => (Number(l.price) * l.quantity).toFixed(2);
    const total = o.lines.reduce((sum, l) => sum + Number(l.price) * l.quantity, 0) + o.shippingLines.reduce((s, l) => s + Number(l.total), 0);
    return {
      id: o.id,
      parent_id: 0,
      number: o.number,
      order_key: `wc_order_${o.id.toString(36)}Xy7`,
      created_via: 'checkout',
      version: '8.9.1',
      status: o.status,
      currency: o.currency,
      date_created: wooDate(o.createdAt, SITE_OFFSET_MS),
      date_created_gmt: wooDate(o.createdAt),
      date_modified: wooDate(o.modifiedAt, SITE_OFFSET_MS),
      date_modified_gmt: wooDate(o.modifiedAt),
      discount_total: '0.00',
      discount_tax: '0.00',
      shipping_total: o.shippingLines.reduce((s, l) => s + Number(l.total), 0).toFixed(2),
      shipping_tax: '0.00',
      cart_tax: '0.00',
      total: total.toFixed(2),
      total_tax: '0.00',
      prices_include_tax: false,
      customer_id: 0,
      customer_ip_address: '203.0.113.7',
      customer_user_agent: 'Mozilla/5.0',
      customer_note: '',
      billing: { ...o.billing },
      shipping: { ...o.shipping },
      payment_method: 'bacs',
      payment_method_title: 'Direct bank transfer',
      transaction_id: '',
      date_paid: o.status === 'pending' ? null : wooDate(o.createdAt, SITE_OFFSET_MS),
      date_paid_gmt: o.status === 'pending' ? null : wooDate(o.createdAt),
      date_completed: null,
      date_completed_gmt: null,
      cart_hash: 'a0c5a1e9b2f64c0e8d1a7b6c5d4e3f21',
      meta_data: [],
      line_items: o.lines.map((l) => ({
        id: l.id,
        name: l.name,
        product_id: l.product_id,
        variation_id: l.variation_id,
        quantity: l.quantity,
        tax_class: '',
        subtotal: lineTotal(l),
        subtotal_tax: '0.00',
        total: lineTotal(l),
        total_tax: '0.00',
        taxes: [],
        meta_data: [],
        sku: l.sku,
        price: Number(l.price),
      })),
      tax_lines: [],
      shipping_lines: o.shippingLines.map((l) => ({
        id: l.id,
        method_title: l.method_title,
        method_id: l.method_id,
        instance_id: '1',
        total: l.total,
        total_tax: '0.00',
        taxes: [],
        meta_data: [],
      })),
      fee_lines: [],
      coupon_lines: [],
      refunds: [],
      _links: { self: [{ href: `${this.siteUrl}/wp-json/wc/v3/orders/${o.id}` }], collection: [{ href: `${this.siteUrl}/wp-json/wc/v3/orders` }] },
    };
  }

  noteJson(n: WooNote): Record<string, unknown> {
    return {
      id: n.id,
      author: 'system',
      date_created: wooDate(n.createdAt, SITE_OFFSET_MS),
      date_created_gmt: wooDate(n.createdAt),
      note: n.note,
      customer_note: n.customer_note,
    };
  }

  webhookJson(w: WooWebhook): Record<string, unknown> {
    const [resource, event] = w.topic.split('.');
    return {
      id: w.id,
      name: w.name,
      status: w.status,
      topic: w.topic,
      resource,
      event,
      hooks: HOOKS[w.topic] ?? [],
      delivery_url: w.delivery_url,
      date_created: wooDate(w.createdAt, SITE_OFFSET_MS),
      date_created_gmt: wooDate(w.createdAt),
      date_modified: wooDate(w.modifiedAt, SITE_OFFSET_MS),
      date_modified_gmt: wooDate(w.modifiedAt),
      _links: { self: [{ href: `${this.siteUrl}/wp-json/wc/v3/webhooks/${w.id}` }], collection: [{ href: `${this.siteUrl}/wp-json/wc/v3/webhooks` }] },
    };
  }

  /**
   * Tracking numbers the order's notes show as shipped: the fake's own reading of the notes a
   * person sees ("tracking number X", and a later note saying X's label was voided).
   */
  shippedTracking(o: WooOrder): string[] {
    const live: string[] = [];
    for (const n of [...o.notes].sort((a, b) => a.id - b.id)) {
      const number = /tracking number (\S+)/i.exec(n.note)?.[1]?.replace(/[.,;]+$/, '');
      if (!number) continue;
      const voided = /void/i.test(n.note);
      const at = live.indexOf(number);
      if (voided && at >= 0) live.splice(at, 1);
      else if (!voided && at < 0) live.push(number);
    }
    return live;
  }
}
