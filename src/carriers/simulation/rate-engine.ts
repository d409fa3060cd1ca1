import type { CarrierPackage, CarrierRate, RateRequest, RateResponse, RateUnavailable, RouteFacts, Surcharge, SurchargeCode } from '../types.js';
import { billableWeightOz, dimWeightOz, measureParcel, type ParcelMeasures } from './dim-weight.js';
import type { Lane, RateCard, RemoteAreaRule, ServiceRateCard, SizeCondition, SizeSurchargeRule } from './rate-card.js';

/**
 * Prices a request against a simulated carrier's rate card. Pure: the same request and card
 * always give the same quotes, which is what makes rate queries reproducible.
 */
export function rateFromCard(card: RateCard, request: RateRequest): RateResponse {
  const rates: CarrierRate[] = [];
  const unavailable: RateUnavailable[] = [];
  const wanted = request.service_codes ? new Set(request.service_codes) : null;
  const measures = measureParcel(request.parcel);

  for (const service of card.services) {
    if (wanted && !wanted.has(service.code)) continue;
    const outcome = ratePiece(card, service, request, measures);
    if (typeof outcome === 'string') unavailable.push({ service_code: service.code, reason: outcome });
    else rates.push(outcome);
  }
  return { rates, unavailable };
}

/** One service: a quote, or the reason it cannot carry the parcel. */
export function rateService(
  card: RateCard,
  service: ServiceRateCard,
  request: RateRequest,
  measures: ParcelMeasures = measureParcel(request.parcel),
): CarrierRate | string {
  const { route, parcel } = request;
  const laneProblem = checkLane(card, service.lane, route);
  if (laneProblem) return laneProblem;
  if (route.military && !card.serves_military) {
    return `${card.carrier_name} does not deliver to APO/FPO/DPO addresses`;
  }
  if (service.ground_network && route.noncontiguous) {
    return `${service.name} does not reach Alaska, Hawaii, US territories or APO/FPO/DPO addresses`;
  }
  if (service.delivers_to === 'commercial' && request.residential) {
    return `${service.name} delivers to business addresses only`;
  }
  if (service.delivers_to === 'residential' && !request.residential) {
    return `${service.name} delivers to residential addresses only`;
  }
  const limitProblem = checkLimits(service, parcel.weight_oz, measures);
  if (limitProblem) return limitProblem;

  const zone = zoneFor(service, route);
  if (zone === null) return `${service.name} has no zone for this lane`;
  const businessDays = service.transit_days[zone];
  if (businessDays === undefined) return `${service.name} does not serve zone ${zone}`;
  const zoneColumn = service.grid.zones.indexOf(zone);
  if (zoneColumn < 0) return `${service.name} has no prices for zone ${zone}`;

  const dimOz = dimWeightOz(measures.volume_in3, service.dim);
  const billableOz = billableWeightOz(parcel.weight_oz, dimOz, service.weight_steps);
  const row = bracketFor(service.grid.rows, billableOz);
  if (!row) {
    const topLb = service.grid.rows[service.grid.rows.length - 1][0] / 16;
    return `Billable weight ${formatLb(billableOz)} exceeds the ${formatLb(topLb * 16)} ${service.name} rate table`;
  }
  const base = row[zoneColumn + 1];

  const surcharges = buildSurcharges(card, service, request, measures, base);
  const total = base + surcharges.reduce((sum, s) => sum + s.amount.amount, 0);
  const applies = dimOz !== null;
  return {
    service_code: service.code,
    service_name: service.name,
    zone,
    base_price: { amount: base, currency: card.currency },
    surcharges,
    price: { amount: total, currency: card.currency },
    billable_weight_oz: billableOz,
    dim_weight_oz: dimOz,
    dim_divisor: applies ? service.dim!.divisor : null,
    dim_divisor_unit: applies ? service.dim!.unit : null,
    business_days: businessDays,
    guaranteed: service.guaranteed,
    rate_table_version: card.version,
  };
}

/**
 * One service for the parcel as it travels: in the shipper's box (rateService), in this carrier's
 * own packaging (ratePackaged), or in another carrier's, which it does not carry. Rating and
 * purchase both price through here, so a label costs what its quote said.
 */
export function ratePiece(
  card: RateCard,
  service: ServiceRateCard,
  request: RateRequest,
  measures: ParcelMeasures = measureParcel(request.parcel),
): CarrierRate | string {
  const packaging = request.parcel.package_id;
  if (packaging === undefined) return rateService(card, service, request, measures);
  const own = card.packages?.find((p) => p.id === packaging);
  if (!own) return `${card.carrier_name} does not carry another carrier's packaging (${packaging})`;
  return ratePackaged(card, service, request, measures, own);
}

/**
 * A parcel in the carrier's own packaging: its flat-rate services charge the flat price whatever
 * the weight up to the packaging's limit (zone and transit as usual, no weight or size
 * surcharges); its other services rate it by weight and size like any box.
 */
function ratePackaged(
  card: RateCard,
  service: ServiceRateCard,
  request: RateRequest,
  measures: ParcelMeasures,
  packaging: CarrierPackage,
): CarrierRate | string {
  if (request.parcel.weight_oz > packaging.max_weight_oz)
    return `${formatLb(request.parcel.weight_oz)} exceeds the ${packaging.name}'s ${formatLb(packaging.max_weight_oz)} limit`;
  const quote = rateService(card, service, request, measures);
  const flat = packaging.flat_rates[service.code];
  if (flat === undefined || typeof quote === 'string') return quote;
  const price = { amount: flat, currency: card.currency };
  return {
    ...quote,
    base_price: price,
    surcharges: [],
    price,
    billable_weight_oz: request.parcel.weight_oz,
    dim_weight_oz: null,
    dim_divisor: null,
    dim_divisor_unit: null,
  };
}

/** The first row whose weight bracket holds `oz` (rows ascend by weight; binary search, tables run to ~150 rows). */
export function bracketFor<R extends readonly number[]>(rows: readonly R[], oz: number): R | undefined {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid][0] >= oz) hi = mid;
    else lo = mid + 1;
  }
  return rows[lo];
}

function checkLane(card: RateCard, lane: Lane, route: RouteFacts): string | null {
  const fromUs = route.origin_country === 'US';
  const usDomestic = route.domestic && fromUs;
  switch (lane) {
    case 'us_domestic':
      if (!fromUs) return 'Ships from US origins only';
      return route.domestic ? null : 'US domestic service only';
    case 'us_export':
      if (!fromUs) return 'Ships from US origins only';
      return route.domestic ? 'International service only' : null;
    case 'in_country_non_us':
      if (usDomestic) return `${card.carrier_name} offers no US-to-US service`;
      return route.domestic ? null : 'In-country (domestic) service only';
    case 'international':
      if (usDomestic) return `${card.carrier_name} offers no US-to-US service`;
      return route.domestic ? 'International service only' : null;
  }
}

function checkLimits(service: ServiceRateCard, weightOz: number, m: ParcelMeasures): string | null {
  const l = service.limits;
  if (weightOz > l.max_weight_oz) {
    return `Weight ${formatLb(weightOz)} exceeds the ${formatLb(l.max_weight_oz)} limit`;
  }
  if (m.longest_in > l.max_longest_in) {
    return `Longest side ${round2(m.longest_in)} in exceeds the ${l.max_longest_in} in limit`;
  }
  if (l.max_second_longest_in !== undefined && m.second_longest_in > l.max_second_longest_in) {
    return `Second-longest side ${round2(m.second_longest_in)} in exceeds the ${l.max_second_longest_in} in limit`;
  }
  if (l.max_length_girth_in !== undefined && m.length_girth_in > l.max_length_girth_in) {
    return `Length + girth ${round2(m.length_girth_in)} in exceeds the ${l.max_length_girth_in} in limit`;
  }
  if (l.max_dimensions_sum_in !== undefined && m.dimensions_sum_in > l.max_dimensions_sum_in) {
    return `Length + width + height ${round2(m.dimensions_sum_in)} in exceeds the ${l.max_dimensions_sum_in} in limit`;
  }
  return null;
}

/** USPS's zone chart by ZIP3-to-ZIP3 distance: zones 1–7 up to these miles, 8 beyond. */
const USPS_ZONE_CHART: readonly { zone: number; max_miles: number }[] = [
  { zone: 1, max_miles: 50 },
  { zone: 2, max_miles: 150 },
  { zone: 3, max_miles: 300 },
  { zone: 4, max_miles: 600 },
  { zone: 5, max_miles: 1000 },
  { zone: 6, max_miles: 1400 },
  { zone: 7, max_miles: 1800 },
];

/**
 * USPS zone 1–9 of a US domestic lane (null elsewhere): 9 when either end is a territory, 8 for
 * APO/FPO/DPO (rated to a gateway, taken as the far band), else the distance band.
 */
export function uspsZone(route: RouteFacts): number | null {
  if (!route.domestic || route.origin_country !== 'US') return null;
  if (route.territory) return 9;
  if (route.military) return 8;
  if (route.distance_miles === null) return null;
  return uspsZoneForDistance(route.distance_miles);
}

/** USPS zone 1–8 for a ZIP3-to-ZIP3 distance (zone 9, the territories, is decided by `uspsZone`). */
export function uspsZoneForDistance(miles: number): number {
  return USPS_ZONE_CHART.find((b) => miles <= b.max_miles)?.zone ?? 8;
}

function zoneFor(service: ServiceRateCard, route: RouteFacts): number | null {
  switch (service.zoning) {
    case 'usps':
      return uspsZone(route);
    case 'ground':
      return route.ground_zone;
    case 'international':
      return route.international_zone;
    case 'in_country':
      return 1;
    case 'country_group': {
      const groups = service.country_groups;
      if (!groups || route.international_group === null) return null;
      return groups.by_country[route.destination_country] ?? groups.by_region[route.international_group];
    }
  }
}

/** Order on the wire: fuel, residential, size surcharges, remote area. Zero amounts are left out. */
function buildSurcharges(card: RateCard, service: ServiceRateCard, request: RateRequest, measures: ParcelMeasures, base: number): Surcharge[] {
  const out: Surcharge[] = [];
  const add = (code: SurchargeCode, amount: number) => {
    if (amount > 0) out.push({ code, amount: { amount, currency: card.currency } });
  };
  // Percent applied in basis points so 19.25 % of 1234 is computed without float drift.
  add('fuel', Math.round((base * Math.round(service.fuel_percent * 100)) / 10_000));
  if (request.residential) add('residential', service.residential_fee);
  for (const [code, amount] of sizeSurcharges(card.size_surcharges, service.code, request.parcel.weight_oz, measures)) {
    add(code, amount);
  }
  if (card.remote_area && request.route.domestic && isRemote(card.remote_area, request.ship_to.postal_code)) {
    add('remote_area', card.remote_area.amount);
  }
  return out;
}

/** Triggered size rules: one charge per code (the highest), minus codes replaced by others. */
export function sizeSurcharges(
  rules: readonly SizeSurchargeRule[],
  serviceCode: string,
  weightOz: number,
  measures: ParcelMeasures,
): Map<SurchargeCode, number> {
  const charged = new Map<SurchargeCode, number>();
  const replaced = new Set<SurchargeCode>();
  for (const rule of rules) {
    if (rule.services && !rule.services.includes(serviceCode)) continue;
    if (!rule.any_of.some((c) => conditionHolds(c, weightOz, measures))) continue;
    charged.set(rule.code, Math.max(charged.get(rule.code) ?? 0, rule.amount));
    for (const code of rule.replaces ?? []) replaced.add(code);
  }
  for (const code of replaced) charged.delete(code);
  return charged;
}

function conditionHolds(c: SizeCondition, weightOz: number, m: ParcelMeasures): boolean {
  return (
    (c.longest_in_gt !== undefined && m.longest_in > c.longest_in_gt) ||
    (c.second_longest_in_gt !== undefined && m.second_longest_in > c.second_longest_in_gt) ||
    (c.length_girth_in_gt !== undefined && m.length_girth_in > c.length_girth_in_gt) ||
    (c.volume_in3_gt !== undefined && m.volume_in3 > c.volume_in3_gt) ||
    (c.weight_oz_gt !== undefined && weightOz > c.weight_oz_gt)
  );
}

export function isRemote(rule: RemoteAreaRule, postalCode: string): boolean {
  const zip3 = postalCode.trim().slice(0, 3);
  if (!/^\d{3}$/.test(zip3)) return false;
  return rule.zip3_ranges.some(([from, to]) => zip3 >= from && zip3 <= to);
}

function formatLb(oz: number): string {
  const lb = round2(oz / 16);
  return Number.isFinite(lb) ? `${lb} lb` : `${(oz / 16).toExponential(2)} lb`;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
