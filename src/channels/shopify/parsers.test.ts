import { describe, expect, it } from 'vitest';
import { fulfillmentCreateVariables, legacyId, ordersUpdatedSinceVariables, updatedSinceQuery } from './documents.js';
import { fulfillmentsWithTracking, parseGraphqlOrder, parseRestOrder, planFulfillment, type FulfillmentOrderView } from './parsers.js';

/** One order as an `orders/updated` webhook carries it (REST JSON, the shop's time zone). */
const rest = {
  id: 5000000000101,
  admin_graphql_api_id: 'gid://shopify/Order/5000000000101',
  name: '#1001',
  email: 'pat@example.com',
  phone: null,
  updated_at: '2026-03-02T10:00:00-05:00',
  cancelled_at: null,
  currency: 'USD',
  financial_status: 'paid',
  fulfillment_status: null,
  customer: { first_name: 'Patricia', last_name: 'Buyer', email: 'pat@example.com', phone: null },
  shipping_address: {
    first_name: 'Pat',
    last_name: 'Buyer',
    name: 'Pat Buyer',
    company: null,
    address1: '100 Peachtree Pkwy',
    address2: 'Apt 4',
    city: 'Alpharetta',
    province_code: 'GA',
    zip: '30005',
    country_code: 'US',
    phone: '+14045550100',
  },
  line_items: [
    {
      id: 5000000000102,
      sku: 'MUG-1',
      title: 'Mug',
      name: 'Mug - Blue',
      quantity: 2,
      current_quantity: 2,
      price: '12.50',
      grams: 340,
      requires_shipping: true,
    },
    { id: 5000000000103, sku: '', title: 'Gift card', name: 'Gift card', quantity: 1, current_quantity: 1, price: '25.00', grams: 0, requires_shipping: false },
    { id: 5000000000104, sku: 'OLD', title: 'Removed', name: 'Removed', quantity: 1, current_quantity: 0, price: '1.00', grams: 10, requires_shipping: true },
  ],
  shipping_lines: [{ code: 'ups_ground', title: 'UPS Ground' }],
  fulfillments: [
    {
      id: 5000000000109,
      admin_graphql_api_id: 'gid://shopify/Fulfillment/5000000000109',
      status: 'success',
      tracking_number: '1Z999',
      tracking_numbers: ['1Z999'],
    },
  ],
};

/** The same order as the Admin API answers `OrderFields`. */
const graphql = {
  id: 'gid://shopify/Order/5000000000101',
  legacyResourceId: '5000000000101',
  name: '#1001',
  updatedAt: '2026-03-02T15:00:00Z',
  cancelledAt: null,
  currencyCode: 'USD',
  displayFinancialStatus: 'PAID',
  displayFulfillmentStatus: 'UNFULFILLED',
  email: 'pat@example.com',
  phone: null,
  shippingAddress: {
    name: 'Pat Buyer',
    firstName: 'Pat',
    lastName: 'Buyer',
    company: null,
    address1: '100 Peachtree Pkwy',
    address2: 'Apt 4',
    city: 'Alpharetta',
    provinceCode: 'GA',
    zip: '30005',
    countryCodeV2: 'US',
    phone: '+14045550100',
  },
  shippingLine: { code: 'ups_ground', title: 'UPS Ground' },
  lineItems: {
    nodes: [
      {
        id: 'gid://shopify/LineItem/5000000000102',
        sku: 'MUG-1',
        name: 'Mug - Blue',
        currentQuantity: 2,
        requiresShipping: true,
        originalUnitPriceSet: { shopMoney: { amount: '12.5', currencyCode: 'USD' } },
        weight: { unit: 'GRAMS', value: 340 },
      },
      {
        id: 'gid://shopify/LineItem/5000000000103',
        sku: null,
        name: 'Gift card',
        currentQuantity: 1,
        requiresShipping: false,
        originalUnitPriceSet: { shopMoney: { amount: '25.0', currencyCode: 'USD' } },
        weight: { unit: 'GRAMS', value: 0 },
      },
      {
        id: 'gid://shopify/LineItem/5000000000104',
        sku: 'OLD',
        name: 'Removed',
        currentQuantity: 0,
        requiresShipping: true,
        originalUnitPriceSet: { shopMoney: { amount: '1.0', currencyCode: 'USD' } },
        weight: { unit: 'GRAMS', value: 10 },
      },
    ],
    pageInfo: { hasNextPage: false, endCursor: 'c3' },
  },
  fulfillments: [{ id: 'gid://shopify/Fulfillment/5000000000109', status: 'SUCCESS', trackingInfo: [{ number: '1Z999' }] }],
};

describe('Shopify orders', () => {
  it('maps a webhook order field by field', () => {
    expect(parseRestOrder(rest)).toEqual({
      external_id: '5000000000101',
      external_number: '#1001',
      version: '2026-03-02T15:00:00.000Z',
      platform_status: 'paid:unfulfilled',
      cancelled: false,
      cancelled_at: null,
      currency: 'USD',
      customer: { name: 'Pat Buyer', email: 'pat@example.com', phone: '+14045550100' },
      ship_to: {
        name: 'Pat Buyer',
        street1: '100 Peachtree Pkwy',
        street2: 'Apt 4',
        city: 'Alpharetta',
        state: 'GA',
        postal_code: '30005',
        country: 'US',
        phone: '+14045550100',
        email: 'pat@example.com',
      },
      line_items: [
        {
          external_line_id: '5000000000102',
          sku: 'MUG-1',
          name: 'Mug - Blue',
          quantity: 2,
          unit_price: { amount: 1250, currency: 'USD' },
          weight_oz: 11.993,
          requires_shipping: true,
        },
        {
          external_line_id: '5000000000103',
          sku: null,
          name: 'Gift card',
          quantity: 1,
          unit_price: { amount: 2500, currency: 'USD' },
          weight_oz: null,
          requires_shipping: false,
        },
      ],
      shipping_line: { code: 'ups_ground', title: 'UPS Ground' },
      fulfillments: [{ id: 'gid://shopify/Fulfillment/5000000000109', status: 'success', tracking_numbers: ['1Z999'] }],
      raw_updated_at: '2026-03-02T10:00:00-05:00',
    });
  });

  it('reads the same order from the Admin API identically (bar the raw timestamp)', () => {
    const fromGraphql = parseGraphqlOrder(graphql)!;
    expect(fromGraphql.linesCursor).toBeNull();
    expect({ ...fromGraphql.order, raw_updated_at: null }).toEqual({ ...parseRestOrder(rest), raw_updated_at: null });
  });

  it('marks an order with more lines than were read', () => {
    const more = parseGraphqlOrder({ ...graphql, lineItems: { ...graphql.lineItems, pageInfo: { hasNextPage: true, endCursor: 'c3' } } })!;
    expect(more.linesCursor).toBe('c3');
  });

  it('reads cancellations and an order with nothing to ship to', () => {
    const o = parseRestOrder({ ...rest, cancelled_at: '2026-03-02T11:00:00-05:00', financial_status: 'voided', shipping_address: null })!;
    expect(o.cancelled).toBe(true);
    expect(o.cancelled_at).toBe('2026-03-02T16:00:00.000Z');
    expect(o.platform_status).toBe('voided:unfulfilled');
    expect(o.ship_to).toBeNull();
    expect(o.customer).toEqual({ name: null, email: 'pat@example.com', phone: null });
  });

  it('refuses what is not an order', () => {
    expect(parseRestOrder({})).toBeNull();
    expect(parseRestOrder({ id: 'gid://shopify/Order/1', updated_at: '2026-03-02T10:00:00Z' })).toBeNull();
    expect(parseRestOrder({ id: 1, updated_at: 'yesterday' })).toBeNull();
    expect(parseRestOrder(null)).toBeNull();
    expect(parseGraphqlOrder({ name: '#1' })).toBeNull();
  });
});

describe('Shopify documents', () => {
  it('asks for orders updated since an instant, a page of at most 10', () => {
    expect(updatedSinceQuery('2026-03-02T10:00:00.123-05:00')).toBe("updated_at:>='2026-03-02T15:00:00Z'");
    expect(ordersUpdatedSinceVariables('2026-03-02T15:00:00Z', 'cur', 250)).toEqual({
      first: 10,
      after: 'cur',
      query: "updated_at:>='2026-03-02T15:00:00Z'",
      lineCount: 10,
      linesAfter: null,
    });
    expect(() => updatedSinceQuery('soon')).toThrow(TypeError);
  });

  it('reads legacy ids from gids', () => {
    expect(legacyId('gid://shopify/LineItem/42')).toBe('42');
    expect(legacyId('gid://shopify/Order/42?foo=1')).toBe('42');
    expect(legacyId('42')).toBe('42');
  });

  it('builds one fulfillmentCreate per location', () => {
    const v = fulfillmentCreateVariables(
      {
        locationId: 'gid://shopify/Location/1',
        fulfillmentOrders: [
          { id: 'gid://shopify/FulfillmentOrder/7', lines: null },
          { id: 'gid://shopify/FulfillmentOrder/8', lines: [{ id: 'gid://shopify/FulfillmentOrderLineItem/9', quantity: 1 }] },
        ],
      },
      { externalOrderId: '1', tracking: { company: 'UPS', number: '1Z1', url: null, carrier: 'ups', service: null }, notifyCustomer: true },
    );
    expect(v).toEqual({
      fulfillment: {
        notifyCustomer: true,
        trackingInfo: { company: 'UPS', number: '1Z1' },
        lineItemsByFulfillmentOrder: [
          { fulfillmentOrderId: 'gid://shopify/FulfillmentOrder/7' },
          {
            fulfillmentOrderId: 'gid://shopify/FulfillmentOrder/8',
            fulfillmentOrderLineItems: [{ id: 'gid://shopify/FulfillmentOrderLineItem/9', quantity: 1 }],
          },
        ],
      },
    });
  });
});

describe('Shopify fulfilment planning', () => {
  const fo = (id: string, status: string, location: string, lines: [string, string, number][]): FulfillmentOrderView => ({
    id,
    status,
    locationKey: location,
    lines: lines.map(([lineId, lineItemId, remaining]) => ({ id: lineId, lineItemId, remaining })),
    linesTruncated: false,
  });

  it('finds a fulfillment already carrying the tracking number, ignoring cancelled ones', () => {
    const data = {
      order: {
        fulfillments: [
          { id: 'f1', status: 'CANCELLED', trackingInfo: [{ number: '1Z1' }] },
          { id: 'f2', status: 'SUCCESS', trackingInfo: [{ number: '1Z0' }, { number: '1Z1' }] },
        ],
      },
    };
    expect(fulfillmentsWithTracking(data, '1Z1')).toEqual(['f2']);
    expect(fulfillmentsWithTracking(data, '1Z9')).toEqual([]);
    expect(fulfillmentsWithTracking({ order: null }, '1Z1')).toBeNull();
  });

  it('fulfils every open fulfillment order, one group per location', () => {
    const plan = planFulfillment(
      [fo('a', 'OPEN', 'L1', [['a1', '1', 1]]), fo('b', 'IN_PROGRESS', 'L2', [['b1', '2', 1]]), fo('c', 'CLOSED', 'L1', [['c1', '3', 0]])],
      undefined,
    );
    expect(plan).toEqual({
      kind: 'plan',
      locations: [
        { locationId: 'L1', fulfillmentOrders: [{ id: 'a', lines: null }] },
        { locationId: 'L2', fulfillmentOrders: [{ id: 'b', lines: null }] },
      ],
    });
  });

  it('takes the shipped lines from the fulfillment orders holding them', () => {
    const plan = planFulfillment(
      [
        fo('a', 'OPEN', 'L1', [
          ['a1', '1', 1],
          ['a2', '2', 3],
        ]),
        fo('b', 'OPEN', 'L2', [['b1', '2', 2]]),
      ],
      [{ external_line_id: '2', quantity: 4 }],
    );
    expect(plan).toEqual({
      kind: 'plan',
      locations: [
        { locationId: 'L1', fulfillmentOrders: [{ id: 'a', lines: [{ id: 'a2', quantity: 3 }] }] },
        { locationId: 'L2', fulfillmentOrders: [{ id: 'b', lines: [{ id: 'b1', quantity: 1 }] }] },
      ],
    });
  });

  it('is on hold when a shipped line is held, closed when nothing is left', () => {
    expect(planFulfillment([fo('a', 'ON_HOLD', 'L1', [['a1', '1', 1]])], undefined).kind).toBe('on_hold');
    expect(
      planFulfillment([fo('a', 'OPEN', 'L1', [['a1', '1', 1]]), fo('b', 'ON_HOLD', 'L2', [['b1', '2', 1]])], [{ external_line_id: '2', quantity: 1 }]).kind,
    ).toBe('on_hold');
    expect(planFulfillment([fo('a', 'CLOSED', 'L1', [['a1', '1', 0]])], undefined).kind).toBe('closed');
    expect(planFulfillment([fo('a', 'CANCELLED', 'L1', [['a1', '1', 1]])], undefined).kind).toBe('closed');
    expect(planFulfillment([], undefined).kind).toBe('closed');
    expect(planFulfillment([fo('a', 'OPEN', 'L1', [['a1', '1', 1]])], [{ external_line_id: '9', quantity: 1 }]).kind).toBe('closed');
  });
});
