import type {
  CarrierAdapter,
  CarrierRate,
  Parcel,
  PurchaseRequest,
  PurchaseResult,
  RateRequest,
  RateResponse,
  RateUnavailable,
  ShipmentOptions,
  Surcharge,
  VoidResult,
} from '../types.js';
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
      const answer = request.parcels && request.parcels.length > 1 ? rateMultiPiece(card, request, request.parcels) : rateFromCard(card, request);
      if (!options.options || !request.options) return answer;
      return { ...answer, rates: answer.rates.map((r) => withOptions(r, options.options!, request.options!)) };
    },

    async purchase(request): Promise<PurchaseResult> {
      const service = card.services.find((s) => s.code === request.service_code);
      if (!service) return { ok: false, reason: `${card.carrier_name} has no service ${request.service_code}` };
      const lane = { ...pricedLane(request), service_codes: [request.service_code] };
      const pieces = request.parcels && request.parcels.length > 1 ? request.parcels : [request.parcel];
      const quotes = pieces.map((parcel) => ratePiece(card, service, { ...lane, parcel }));
      const refused = quotes.find((q): q is string => typeof q === 'string');
      if (refused !== undefined) return { ok: false, reason: pieces.length > 1 ? `piece ${quotes.indexOf(refused) + 1}: ${refused}` : refused };
      const quote = sumPieces(quotes as CarrierRate[]);
      // Checked as the carrier's customs desk would, in test as in live.
      const refusal = customsRefusal(card.carrier_name, request);
      if (refusal) return { ok: false, rejected: true, reason: refusal.reason, field: refusal.field };
      // Each piece has its own number; the first (the master) is the shipment's.
      const numbers = pieces.map((_, i) => options.trackingNumber(i === 0 ? request.reference : `${request.reference}/${i + 1}`, request.service_code));
      return {
        ok: true,
        tracking_number: numbers[0]!,
        ...(pieces.length > 1 ? { package_tracking_numbers: numbers } : {}),
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
          piece: request.piece,
        },
        request.now,
      );
    },
  };
}

/**
 * A multi-piece shipment as the simulated carriers price it: each piece rated on its own and the
 * shipment charged the sum (base prices, surcharges by code, billable and DIM weights); the
 * slowest piece's transit, guaranteed only if every piece is. A service that cannot carry one
 * of the pieces cannot carry the shipment. (Real carriers' multi-piece tariffs differ: the api
 * drivers take the carrier's own answer.)
 */
function rateMultiPiece(card: RateCard, request: RateRequest, parcels: readonly Parcel[]): RateResponse {
  const perPiece = parcels.map((parcel) => rateFromCard(card, { ...request, parcel }));
  const unavailable = new Map<string, RateUnavailable>();
  perPiece.forEach((answer, i) => {
    for (const u of answer.unavailable)
      if (!unavailable.has(u.service_code)) unavailable.set(u.service_code, { service_code: u.service_code, reason: `piece ${i + 1}: ${u.reason}` });
  });
  const rates: CarrierRate[] = [];
  for (const first of perPiece[0]!.rates) {
    if (unavailable.has(first.service_code)) continue;
    rates.push(sumPieces(perPiece.map((answer) => answer.rates.find((r) => r.service_code === first.service_code)!)));
  }
  return { rates, unavailable: [...unavailable.values()] };
}

/** The pieces' rates of one service as one rate (see rateMultiPiece). */
function sumPieces(pieces: readonly CarrierRate[]): CarrierRate {
  const [first] = pieces;
  if (pieces.length === 1) return first!;
  const money = (amount: number) => ({ amount, currency: first!.price.currency });
  const surcharges = new Map<Surcharge['code'], number>();
  for (const p of pieces) for (const s of p.surcharges) surcharges.set(s.code, (surcharges.get(s.code) ?? 0) + s.amount.amount);
  const dims = pieces.map((p) => p.dim_weight_oz);
  return {
    ...first!,
    base_price: money(pieces.reduce((sum, p) => sum + p.base_price.amount, 0)),
    surcharges: [...surcharges].map(([code, amount]) => ({ code, amount: money(amount) })),
    price: money(pieces.reduce((sum, p) => sum + p.price.amount, 0)),
    billable_weight_oz: pieces.reduce((sum, p) => sum + p.billable_weight_oz, 0),
    dim_weight_oz: dims.every((d) => d === null) ? null : dims.reduce<number>((sum, d) => sum + (d ?? 0), 0),
    business_days: Math.max(...pieces.map((p) => p.business_days)),
    guaranteed: pieces.every((p) => p.guaranteed),
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
