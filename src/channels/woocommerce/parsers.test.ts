import { describe, expect, it } from 'vitest';
import { liveTrackingNumbers, ourNotes, shipmentNote, trackingState, voidNote } from './notes.js';
import { parseWebhook, parseWooOrder, parseWooOrders } from './parsers.js';

/** An order as wc/v3 renders it (the REST docs' example, trimmed). */
const ORDER = {
  id: 727,
  number: '727',
  status: 'processing',
  currency: 'USD',
  date_modified: '2017-03-22T16:28:08',
  date_modified_gmt: '2017-03-22T19:28:08',
  billing: {
    first_name: 'John',
    last_name: 'Doe',
    company: '',
    address_1: '969 Market',
    address_2: '',
    city: 'San Francisco',
    state: 'CA',
    postcode: '94103',
    country: 'US',
    email: 'john.doe@example.com',
    phone: '(555) 555-5555',
  },
  shipping: {
    first_name: 'John',
    last_name: 'Doe',
    company: '',
    address_1: '969 Market',
    address_2: '',
    city: 'San Francisco',
    state: 'CA',
    postcode: '94103',
    country: 'US',
  },
  line_items: [
    { id: 315, name: 'Woo Single #1', product_id: 93, variation_id: 0, quantity: 2, sku: '', price: 3 },
    { id: 316, name: 'Ship Your Idea &ndash; Color: Black, Size: M Test', product_id: 22, variation_id: 23, quantity: 1, sku: 'SYI-B-M', price: 12.5 },
  ],
  shipping_lines: [{ id: 317, method_title: 'Flat Rate', method_id: 'flat_rate', total: '10.00' }],
};

describe('parseWooOrder', () => {
  it('maps the order: the GMT modification date as the version, billing as the customer, shipping as ship_to', () => {
    expect(parseWooOrder(ORDER)).toEqual({
      external_id: '727',
      external_number: '727',
      version: '2017-03-22T19:28:08.000Z',
      platform_status: 'processing',
      cancelled: false,
      cancelled_at: null,
      currency: 'USD',
      customer: { name: 'John Doe', email: 'john.doe@example.com', phone: '(555) 555-5555' },
      ship_to: {
        name: 'John Doe',
        street1: '969 Market',
        city: 'San Francisco',
        state: 'CA',
        postal_code: '94103',
        country: 'US',
        phone: '(555) 555-5555',
        email: 'john.doe@example.com',
      },
      line_items: [
        {
          external_line_id: '315',
          sku: null,
          name: 'Woo Single #1',
          quantity: 2,
          unit_price: { amount: 300, currency: 'USD' },
          weight_oz: null,
          requires_shipping: true,
        },
        {
          external_line_id: '316',
          sku: 'SYI-B-M',
          name: 'Ship Your Idea &ndash; Color: Black, Size: M Test',
          quantity: 1,
          unit_price: { amount: 1250, currency: 'USD' },
          weight_oz: null,
          requires_shipping: true,
        },
      ],
      shipping_line: { code: 'flat_rate', title: 'Flat Rate' },
      fulfillments: [],
      raw_updated_at: '2017-03-22T19:28:08',
    });
  });

  it('cancelled, trashed and refunded orders are cancelled; the others are not', () => {
    for (const status of ['cancelled', 'trash', 'refunded'])
      expect(parseWooOrder({ ...ORDER, status })).toMatchObject({ cancelled: true, cancelled_at: '2017-03-22T19:28:08.000Z', platform_status: status });
    for (const status of ['pending', 'on-hold', 'completed', 'failed', 'checkout-draft']) expect(parseWooOrder({ ...ORDER, status })!.cancelled).toBe(false);
  });

  it('an empty shipping address is nothing to ship (no fallback to billing); the shipping phone wins when there is one', () => {
    const digital = parseWooOrder({
      ...ORDER,
      shipping: { first_name: '', last_name: '', company: '', address_1: '', address_2: '', city: '', state: '', postcode: '', country: '' },
      shipping_lines: [],
    })!;
    expect(digital.ship_to).toBeNull();
    expect(digital.shipping_line).toBeNull();
    expect(digital.customer.name).toBe('John Doe');
    const phoned = parseWooOrder({ ...ORDER, shipping: { ...ORDER.shipping, phone: '+1 555 0100', country: 'us' } })!;
    expect(phoned.ship_to).toMatchObject({ phone: '+1 555 0100', country: 'US' });
  });

  it('drops lines with nothing left and survives a missing field', () => {
    const o = parseWooOrder({ ...ORDER, line_items: [{ id: 1, quantity: 0 }, { id: 2, name: 'x', quantity: 1 }, 'junk'], billing: null, currency: 'jpy' })!;
    expect(o.line_items).toEqual([
      { external_line_id: '2', sku: null, name: 'x', quantity: 1, unit_price: { amount: 0, currency: 'JPY' }, weight_oz: null, requires_shipping: true },
    ]);
    expect(o.customer).toEqual({ name: 'John Doe', email: null, phone: null });
    expect(o.external_number).toBe('727');
  });

  it('is null without a numeric id or a modification date', () => {
    expect(parseWooOrder({ ...ORDER, id: 'abc' })).toBeNull();
    expect(parseWooOrder({ ...ORDER, date_modified_gmt: null })).toBeNull();
    expect(parseWooOrder([])).toBeNull();
    expect(parseWooOrders({})).toBeNull();
    expect(parseWooOrders([ORDER, { id: 1 }])?.map((o) => o.external_id)).toEqual(['727']);
  });
});

describe('webhooks and notes', () => {
  it('a webhook is active only when its status is active', () => {
    expect(parseWebhook({ id: 142, status: 'active', topic: 'order.updated', delivery_url: 'https://x/y' })).toEqual({
      id: '142',
      topic: 'order.updated',
      callbackUrl: 'https://x/y',
      active: true,
    });
    expect(parseWebhook({ id: 143, status: 'disabled', topic: 'order.updated', delivery_url: 'https://x/y' })!.active).toBe(false);
    expect(parseWebhook({ id: 144, status: 'paused' })!.active).toBe(false);
    expect(parseWebhook({ status: 'active' })).toBeNull();
  });

  const request = (number: string, url: string | null = null, service: string | null = 'UPS Ground') => ({
    externalOrderId: '1',
    tracking: { company: 'UPS', number, url, carrier: 'ups', service },
    notifyCustomer: false,
  });

  it('writes and reads back our shipment and void notes, whatever follows the number', () => {
    const notes = [
      { id: 905, note: voidNote('1ZA') },
      { id: 904, note: shipmentNote(request('1ZB'), ['1 × Mug (MUG-1)']) },
      { id: 903, note: 'Order status changed from Pending payment to Processing.' },
      { id: 902, note: shipmentNote(request('1ZA', 'https://ups.example/t?n=1ZA', null), null) },
      { id: 901, note: 'Customer asked about tracking number 1ZZ' },
    ];
    expect(shipmentNote(request('1ZA', 'https://ups.example/t?n=1ZA', null), null)).toBe(
      'Shipped with UPS, tracking number 1ZA; track it at https://ups.example/t?n=1ZA.',
    );
    const ours = ourNotes(notes)!;
    expect(ours).toEqual([
      { id: '902', kind: 'shipped', trackingNumber: '1ZA' },
      { id: '904', kind: 'shipped', trackingNumber: '1ZB' },
      { id: '905', kind: 'voided', trackingNumber: '1ZA' },
    ]);
    expect(trackingState(ours, '1ZA')).toEqual({ state: 'voided' });
    expect(trackingState(ours, '1ZB')).toEqual({ state: 'shipped', noteId: '904' });
    expect(trackingState(ours, '1ZZ')).toEqual({ state: 'none' });
    expect(liveTrackingNumbers(ours)).toEqual(['1ZB']);
    // Shipped again after the void: shipped.
    expect(trackingState([...ours, { id: '906', kind: 'shipped', trackingNumber: '1ZA' }], '1ZA')).toEqual({ state: 'shipped', noteId: '906' });
    expect(ourNotes({})).toBeNull();
  });
});
