import type { CarrierAdapter, CarrierRate, PurchaseRequest, PurchaseResult, ShipmentOptions, VoidResult } from '../types.js';
import { optionSurcharges, type CarrierOptionsTable } from './options-table.js';
import type { RateCard } from './rate-card.js';
import { rateFromCard, ratePiece } from './rate-engine.js';
import { firstScanAtScaled, trackAt } from './tracking-sim.js';
import { customsRefusal } from './customs-check.js';

export interface SimulatedCarrierOptions {
  card: RateCard;
  /** The carrier's options table: each option asked for is priced from its tariff. */
  options?: CarrierOptionsTable;
  /** Deterministic tracking number for a purchase reference and service. */
  trackingNumber(reference: string, serviceCode: string): string;
  isValidTrackingNumber(trackingNumber: string): boolean;
}

/**
 * The lane a label is priced on. A return label travels the outbound's lane backwards (a parcel
 * from a customer abroad back to the US merchant): carriers sell it as an import return on the
 * merchant's account, priced like the outbound, so the card prices the outbound lane.
 */
function pricedLane(request: PurchaseRequest): PurchaseRequest {
  if (!request.is_return) return request;
  const { route } = request;
  return {
    ...request,
    ship_from: request.ship_to,
    ship_to: request.ship_from,
    route: { ...route, origin_country: route.destination_country, destination_country: route.origin_country },
  };
}

/**
 * The adapter every built-in carrier uses: rates from its versioned card, purchase as a pure
 * simulation, void until the first scan, and the shared deterministic scan schedule. A real
 * carrier would put its HTTP client behind the same four methods.
 */
export function simulatedAdapter(options: SimulatedCarrierOptions): CarrierAdapter {
  const { card } = options;
  return {
    async rate(request) {
      const answer = rateFromCard(card, request);
      if (!options.options || !request.options) return answer;
      return { ...answer, rates: answer.rates.map((r) => withOptions(r, options.options!, request.options!)) };
    },

    async purchase(request): Promise<PurchaseResult> {
      const service = card.services.find((s) => s.code === request.service_code);
      if (!service) return { ok: false, reason: `${card.carrier_name} has no service ${request.service_code}` };
      const quote = ratePiece(card, service, { ...pricedLane(request), service_codes: [request.service_code] });
      if (typeof quote === 'string') return { ok: false, reason: quote };
      // Checked as the carrier's customs desk would, in test as in live.
      const refusal = customsRefusal(card.carrier_name, request);
      if (refusal) return { ok: false, rejected: true, reason: refusal.reason, field: refusal.field };
      return {
        ok: true,
        tracking_number: options.trackingNumber(request.reference, request.service_code),
        rate: options.options && request.options ? withOptions(quote, options.options, request.options) : quote,
        purchased_at: request.purchased_at,
      };
    },

    async void(request): Promise<VoidResult> {
      if (!options.isValidTrackingNumber(request.tracking_number)) {
        return { ok: false, reason: `Not a valid ${card.carrier_name} tracking number` };
      }
      if (new Date(request.now).getTime() >= firstScanAtScaled(request.purchased_at, request.sandbox).getTime()) {
        return { ok: false, reason: 'The carrier has already scanned this package; the label can no longer be voided' };
      }
      return { ok: true };
    },

    async track(request) {
      return trackAt(
        {
          carrier_name: card.carrier_name,
          purchased_at: request.purchased_at,
          estimated_delivery_date: request.estimated_delivery_date,
          ship_from: request.ship_from,
          ship_to: request.ship_to,
          sandbox: request.sandbox,
        },
        request.now,
      );
    },
  };
}

/**
 * A rate with the options' surcharges added (after fuel: the card's fuel percentage applies to
 * the transportation charge only, as this simulation keeps it) and its price raised by them.
 */
function withOptions(rate: CarrierRate, table: CarrierOptionsTable, requested: ShipmentOptions): CarrierRate {
  const extra = optionSurcharges(table, requested);
  if (extra.length === 0) return rate;
  const added = extra.reduce((sum, s) => sum + s.amount.amount, 0);
  return { ...rate, surcharges: [...rate.surcharges, ...extra], price: { ...rate.price, amount: rate.price.amount + added } };
}
