import { describe, expect, it } from 'vitest';
import { decodeCursor, nextCursor, parseOrder, parseShipmentRef, planShipment, type OrderParts } from './parsers.js';

const order = (over: Record<string, unknown> = {}) => ({
  id: 218,
  date_modified: 'Mon, 11 Mar 2019 15:17:25 +0000',
  status_id: 11,
  currency_code: 'EUR',
  default_currency_code: 'USD',
  billing_address: { first_name: 'Jane', last_name: 'Doe', email: 'jane@example.com', phone: '1234567890', zip: '78108' },
  ...over,
});
const address = {
  id: 132,
  first_name: 'Trishy',
  last_name: 'Smith',
  company: 'Acme Pty Ltd',
  street_1: '666 Sussex St',
  street_2: '',
  city: 'San Antonio',
  zip: '78251',
  country: 'United States',
  country_iso2: 'us',
  state: 'Texas',
  email: '',
  phone: '',
  shipping_method: 'None',
};
const product = (over: Record<string, unknown> = {}) => ({
  id: 65,
  order_address_id: 132,
  name: 'Towel',
  sku: 'S-ORAN',
  type: 'physical',
  base_price: '55.9900',
  price_ex_tax: '51.9900',
  quantity: 2,
  quantity_shipped: 0,
  ...over,
});
const parts = (over: Partial<OrderParts> = {}): OrderParts => ({ order: order(), products: [product()], shippingAddresses: [address], shipments: [], ...over });
const request = (over: Record<string, unknown> = {}) => ({
  externalOrderId: '218',
  tracking: { company: 'ups', number: '1ZX', url: null, carrier: 'ups', service: null },
  notifyCustomer: false,
  ...over,
});

describe('parseOrder', () => {
  it('maps an order, its first address and products', () => {
    expect(parseOrder(parts())).toEqual({
      external_id: '218',
      external_number: '218',
      version: '2019-03-11T15:17:25.000Z',
      platform_status: '11',
      cancelled: false,
      cancelled_at: null,
      currency: 'USD',
      customer: { name: 'Jane Doe', email: 'jane@example.com', phone: '1234567890' },
      ship_to: {
        name: 'Trishy Smith',
        company: 'Acme Pty Ltd',
        street1: '666 Sussex St',
        city: 'San Antonio',
        state: 'TX',
        postal_code: '78251',
        country: 'US',
        email: 'jane@example.com',
      },
      line_items: [
        {
          external_line_id: '65',
          sku: 'S-ORAN',
          name: 'Towel',
          quantity: 2,
          unit_price: { amount: 5199, currency: 'USD' },
          weight_oz: null,
          requires_shipping: true,
        },
      ],
      shipping_line: null,
      fulfillments: [],
      raw_updated_at: 'Mon, 11 Mar 2019 15:17:25 +0000',
    });
  });

  it('cancelled and declined orders are cancelled; archived too', () => {
    expect(parseOrder(parts({ order: order({ status_id: 5 }) }))).toMatchObject({ cancelled: true, platform_status: '5' });
    expect(parseOrder(parts({ order: order({ status_id: 6 }) }))).toMatchObject({ cancelled: true, platform_status: '6' });
    expect(parseOrder(parts({ order: order({ status_id: 4 }) }))).toMatchObject({ cancelled: false, platform_status: '4' });
    expect(parseOrder(parts({ order: order({ is_deleted: true }) }))!.cancelled).toBe(true);
  });

  it('reads shipments as fulfillments, an order with no address as no ship_to, and refuses what is not an order', () => {
    const read = parseOrder(
      parts({
        shippingAddresses: [],
        products: [product({ order_address_id: 0, type: 'digital' })],
        shipments: [
          { id: 6, tracking_number: 'EJ958083578US' },
          { id: 7, tracking_number: '' },
        ],
      }),
    )!;
    expect(read.ship_to).toBeNull();
    expect(read.line_items[0].requires_shipping).toBe(false);
    expect(read.fulfillments).toEqual([
      { id: '218/shipments/6', status: 'success', tracking_numbers: ['EJ958083578US'] },
      { id: '218/shipments/7', status: 'success', tracking_numbers: [] },
    ]);
    expect(parseOrder(parts({ order: { id: 1 } }))).toBeNull();
    expect(parseOrder(parts({ order: [] }))).toBeNull();
    expect(parseOrder(parts({ order: order({ date_modified: 'yesterday' }) }))).toBeNull();
  });

  it('takes the shipping method as the shipping line', () => {
    expect(parseOrder(parts({ shippingAddresses: [{ ...address, shipping_method: 'Flat Rate' }] }))!.shipping_line).toEqual({ code: null, title: 'Flat Rate' });
  });
});

describe('listing cursor', () => {
  const at = (s: string) => ({ date_modified: s });
  it('moves the instant on, or the page within one second, and ends on a short page', () => {
    const start = decodeCursor(null, '2019-03-11T00:00:00.000Z')!;
    expect(start).toEqual({ since: '2019-03-11T00:00:00.000Z', page: 1 });
    expect(nextCursor(start, [at('Mon, 11 Mar 2019 15:17:25 +0000')], 2)).toBeNull();
    const two = [at('Mon, 11 Mar 2019 15:17:25 +0000'), at('Mon, 11 Mar 2019 15:17:30 +0000')];
    expect(nextCursor(start, two, 2)).toBe('2019-03-11T15:17:30.000Z|1');
    const same = [at('Mon, 11 Mar 2019 15:17:30 +0000'), at('Mon, 11 Mar 2019 15:17:30 +0000')];
    expect(nextCursor(decodeCursor('2019-03-11T15:17:30.000Z|1', '')!, same, 2)).toBe('2019-03-11T15:17:30.000Z|2');
    expect(decodeCursor('garbage', '2019-03-11T00:00:00Z')).toBeNull();
    expect(parseShipmentRef('218/shipments/6')).toEqual({ orderId: '218', shipmentId: '6' });
    expect(parseShipmentRef('gid://shopify/Fulfillment/1')).toBeNull();
  });
});

describe('planShipment', () => {
  it('finds an earlier attempt by tracking number first', () => {
    expect(planShipment(parts({ order: order({ status_id: 2 }), shipments: [{ id: 9, tracking_number: '1ZX' }] }), request(), 'ups')).toEqual({
      kind: 'already_fulfilled',
      refs: ['218/shipments/9'],
    });
  });

  it('closes cancelled, declined, refunded and abandoned orders and holds unpaid ones', () => {
    for (const s of [0, 4, 5, 6]) expect(planShipment(parts({ order: order({ status_id: s }) }), request(), 'ups').kind).toBe('closed');
    for (const s of [1, 7, 12, 13]) expect(planShipment(parts({ order: order({ status_id: s }) }), request(), 'ups').kind).toBe('on_hold');
    expect(planShipment(parts({ shippingAddresses: [] }), request(), 'ups').kind).toBe('closed');
  });

  it('ships what is left of the first address, or the lines asked for', () => {
    const products = [
      product(),
      product({ id: 66, quantity: 3, quantity_shipped: 1 }),
      product({ id: 67, order_address_id: 999 }),
      product({ id: 68, type: 'digital', order_address_id: 0 }),
    ];
    const all = planShipment(
      parts({ products }),
      request({ tracking: { company: 'dhl', number: '1ZX', url: 'https://t.example/1ZX', carrier: 'dhl_express', service: 'Express' } }),
      'dhl',
    );
    expect(all).toEqual({
      kind: 'post',
      body: {
        order_address_id: 132,
        tracking_number: '1ZX',
        tracking_carrier: 'dhl',
        tracking_link: 'https://t.example/1ZX',
        shipping_method: 'Express',
        items: [
          { order_product_id: 65, quantity: 2 },
          { order_product_id: 66, quantity: 2 },
        ],
      },
    });
    const some = planShipment(
      parts({ products }),
      request({
        lines: [
          { external_line_id: '66', quantity: 5 },
          { external_line_id: '67', quantity: 1 },
          { external_line_id: 'x', quantity: 1 },
        ],
      }),
      null,
    );
    expect(some).toMatchObject({ kind: 'post', body: { tracking_carrier: '', items: [{ order_product_id: 66, quantity: 2 }] } });
    expect(planShipment(parts({ products: [product({ quantity_shipped: 2 })] }), request(), 'ups').kind).toBe('closed');
  });
});
