// Request bodies and SQL the rows share.

export const RATE_BODY = {
  ship_from: { country: 'US', postal_code: '94105' },
  ship_to: { country: 'US', postal_code: '10001' },
  parcel: { weight_oz: 32, length_in: 12, width_in: 9, height_in: 6 },
};

/** The same lane with shipment options: every service that offers them, each option a surcharge. */
export const RATE_BODY_WITH_OPTIONS = {
  ...RATE_BODY,
  options: { signature: 'adult', insurance: { amount: { amount: 25000, currency: 'USD' } }, references: ['PO-1042'] },
};

/** The order GET /v1/orders/:id reads: two line items, a customer, notes. */
export const READ_ORDER = {
  external_id: 'bench-1',
  customer: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+1 415 555 0100' },
  ship_to: { name: 'Ada Lovelace', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' },
  line_items: [
    { sku: 'MUG-1', name: 'Mug', quantity: 2, unit_price: { amount: 1250, currency: 'USD' }, weight_oz: 8 },
    { sku: 'TEE-M', name: 'T-shirt', quantity: 1, unit_price: { amount: 2000, currency: 'USD' }, weight_oz: 4.5 },
  ],
  notes: 'benchmark order',
};

/** An order ready for a label (ship_from given, so no workspace origin is needed). */
export function shippableOrder(i: number, externalPrefix = 'bench-ship') {
  return {
    external_id: `${externalPrefix}-${i}`,
    ship_from: { name: 'Warehouse', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' },
    ship_to: { name: `Buyer ${i}`, street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' },
    line_items: [{ sku: 'MUG', quantity: 1, weight_oz: 20 }],
    parcel: { weight_oz: 20, length_in: 10, width_in: 8, height_in: 4 },
  };
}

/**
 * shippableOrder with a parcel 1/1000 oz heavier for each i (16 oz + i/1000: 36 oz at i = 20,000):
 * rating it is a new quote-cache key, so a purchase that rate-shops (service_code auto) asks
 * every carrier instead of finding the previous order's quote.
 */
export function distinctWeightOrder(i: number, externalPrefix: string) {
  const order = shippableOrder(i, externalPrefix);
  return { ...order, parcel: { ...order.parcel, weight_oz: 16 + i / 1000 } };
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Seeded rows' ids: prefixed like the service's (TypeID-shaped: prefix + 26 base32 digits) and recognisable. */
export const seededId = (prefix: string, n: number | string) => `${prefix}_0bench${String(n).padStart(20, '0')}`;
const seededIdSql = (prefix: string, expr: string) => `'${prefix}_0bench' || lpad((${expr})::text, 20, '0')`;

/**
 * Orders g = from..to of the workspace's list, straight into the table (generate_series, not the
 * API). Row g was created g seconds before `base`, so the order of the list (newest first) is
 * g ascending and the position of row g is known without a query: the deep-page cursor is
 * built from it.
 */
export function seedOrdersSql(workspaceId: string, from: number, to: number, base: string): string {
  const shipTo = JSON.stringify({ name: 'Grace Hopper', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' });
  const items = JSON.stringify([{ sku: 'MUG-1', name: 'Mug', quantity: 1, unit_price: { amount: 1250, currency: 'USD' }, weight_oz: 8 }]);
  const parcel = JSON.stringify({ weight_oz: 8, length_in: 10, width_in: 8, height_in: 4 });
  return `insert into orders (id, workspace_id, environment, source, external_id, status, customer_name, customer_email, ship_to, line_items, parcel, created_at, updated_at)
    select ${seededIdSql('ord', 'g')}, ${quote(workspaceId)}, 'test', 'api', 'bench-list-' || g, 'awaiting_fulfillment', 'Grace Hopper', 'grace@example.com',
           ${quote(shipTo)}::jsonb, ${quote(items)}::jsonb, ${quote(parcel)}::jsonb,
           ${quote(base)}::timestamptz - g * interval '1 second', ${quote(base)}::timestamptz - g * interval '1 second'
    from generate_series(${from}, ${to}) g`;
}

/** Where seeded row g sits: the cursor a client holds after paging down to just before it. */
export function seededOrderCursor(g: number, base: string): string {
  const t = new Date(Date.parse(base) - (g - 1) * 1000).toISOString();
  // The list's cursor format (src/platform/http/pagination.ts): base64url JSON of the last row's (created_at, id).
  return Buffer.from(JSON.stringify({ t, id: seededId('ord', g - 1) })).toString('base64url');
}

/**
 * `count` recorded events with one pending delivery each to `endpointId`, due now: what the
 * fan-out writes in the transactions that record events (webhooks.dispatcher.ts), in one statement each.
 */
export function seedDeliveriesSql(workspaceId: string, endpointId: string, eventType: string, count: number, run: number): string[] {
  const ws = quote(workspaceId);
  const n = `${run} * 1000000 + g`;
  return [
    `insert into events (id, workspace_id, environment, type, data, created_at)
       select ${seededIdSql('evt', n)}, ${ws}, 'test', ${quote(eventType)},
              jsonb_build_object('integration_id', 'int_bench', 'health', 'degraded', 'previous_health', 'healthy', 'n', g), now()
       from generate_series(1, ${count}) g`,
    `insert into webhook_deliveries (id, workspace_id, environment, endpoint_id, event_id, event_type, status, next_attempt_at)
       select ${seededIdSql('dlv', n)}, ${ws}, 'test', ${quote(endpointId)}, ${seededIdSql('evt', n)}, ${quote(eventType)}, 'pending', now()
       from generate_series(1, ${count}) g`,
  ];
}
