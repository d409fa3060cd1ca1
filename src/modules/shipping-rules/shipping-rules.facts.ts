import type { Order } from '../orders/index.js';
import type { RateOption } from '../rates/index.js';
import type { Candidate, OrderFacts } from './shipping-rules.select.js';

/**
 * The facts a rule's `when` reads from an order. `residential` is the quote's (the rate-shop
 * decides it: true unless ship_to has a company). The value sums unit_price × quantity over the
 * priced lines; lines in two currencies give no value (an order_value condition then does not match).
 */
export function factsOfOrder(order: Pick<Order, 'ship_to' | 'parcel' | 'line_items'>, residential: boolean): OrderFacts {
  const priced = order.line_items.filter((l) => l.unit_price);
  const currencies = new Set(priced.map((l) => l.unit_price!.currency));
  const value =
    priced.length > 0 && currencies.size === 1
      ? { amount: priced.reduce((sum, l) => sum + l.unit_price!.amount * l.quantity, 0), currency: [...currencies][0] }
      : null;
  return {
    country: (order.ship_to.country ?? '').toUpperCase(),
    state: order.ship_to.state ?? null,
    residential,
    weight_oz: order.parcel.weight_oz,
    value,
    skus: order.line_items.flatMap((l) => (l.sku ? [l.sku] : [])),
  };
}

export function toCandidate(option: RateOption): Candidate {
  return {
    service_code: option.service_code,
    carrier: option.carrier,
    carrier_account_id: option.carrier_account_id,
    price: option.price,
    business_days: option.delivery.business_days,
  };
}
