import type { CarrierRegistry } from '../../carriers/registry.js';
import type { Address, CarrierDefinition, RateRequest, RouteFacts } from '../../carriers/types.js';
import { AppError, validationError, type ErrorDetail } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { TtlCache } from '../../platform/cache/ttl-cache.js';
import { checkCountryAndPostalCode, type RatingAddressCheck } from '../addresses/index.js';
import { requiresCustoms } from '../customs/index.js';
import { asksNothing, checkOptions, optionGaps, resolveOptions } from '../shipment-options/index.js';
import {
  ALL_US_HOLIDAYS,
  cutoffClock,
  estimateDeliveryDate,
  holidayDates,
  isValidDate,
  localClock,
  originTimeZone,
  type LocalClock,
} from './delivery-dates.js';
import type { RateOption, RateQuery, RateQueryResponse, UnavailableService } from './rates.schemas.js';
import { registrySources, type RateMessage, type RateSource, type SourcedRate } from './rates.sources.js';
import { buildRoute, zip3Centroid } from './zones.js';
import { parcelsGap } from '../shipment-options/index.js';
import { foreignPackaging } from '../../carriers/api-packaging.js';

/** A location's clock: its IANA zone and cut-off (minutes after local midnight). */
export interface RateOriginClock {
  timezone: string;
  cutoff_minutes: number;
}

export interface QuoteRatesContext {
  carriers: CarrierRegistry;
  /** Shipping from a location: its clock and cut-off instead of the origin state's zone and 17:00. */
  origin?: RateOriginClock;
  /**
   * The carrier accounts to ask (every enabled one of the scope, or those the query names);
   * absent = the registry's simulated carriers without accounts.
   */
  sources?: readonly RateSource[];
  /** The clock (cutoff and default ship date); defaults to now. */
  now?: Date;
  /** Our request id, for the carriers' exchange logs. */
  requestId?: string;
  /** Epoch ms the query arrived: the carriers' deadline counts from it. */
  startedAt?: number;
  /** The body as received, when there is one: the quote cache's key, instead of serialising the query again. */
  bodyText?: string;
}

/**
 * Rate-shops a parcel across every registered carrier (POST /v1/rates/query).
 *
 * Validates both ends (ISO country; postal code in the country's format; a US ZIP must
 * exist) → 400 `validation_failed` with `ship_to.postal_code`-style details. Each carrier
 * prices its services from its versioned rate card; the platform adds the delivery promise
 * (tender date after the 17:00 cutoff, carrier business days and holidays), ids and tags.
 * Options are sorted by price; services that cannot carry the parcel are listed in
 * `unavailable`. When nothing can carry it: 422 `no_rates` with the unavailable list as
 * details. The same request always yields the same prices (ids differ per call).
 */
export async function quoteRates(query: RateQuery, ctx: QuoteRatesContext): Promise<RateQueryResponse> {
  const { cached, now, key } = lookUpQuote(query, ctx);
  if (!cached) return (await computeAndRemember(query, ctx, now, key)).response;
  return { ...cached.response, data: cached.response.data.map((o) => ({ ...o, id: newId('rate') })) };
}

/**
 * The same quote as JSON text, for the route. An identical request within the minute reuses
 * the serialised body of the first one and only writes fresh rate ids into it: the body is
 * kept cut at its ids, so a repeat costs a string join instead of a copy and a serialisation,
 * and is answered synchronously (no promise on the hot path).
 */
export function quoteRatesJson(query: RateQuery, ctx: QuoteRatesContext, serialize: (response: RateQueryResponse) => string): string | Promise<string> {
  const { cached, now, key } = lookUpQuote(query, ctx);
  if (!cached) return computeAndRemember(query, ctx, now, key).then((entry) => serialize(entry.response));
  cached.pieces ??= cutAtIds(
    serialize(cached.response),
    cached.response.data.map((o) => o.id),
  );
  let json = cached.pieces[0];
  for (let i = 1; i < cached.pieces.length; i++) json += newId('rate') + cached.pieces[i];
  return json;
}

/** The remembered quote of a request, looked up synchronously (a hit awaits nothing), with its key and clock. */
function lookUpQuote(query: RateQuery, ctx: QuoteRatesContext): { cached: CachedQuote | undefined; now: Date; key: string } {
  const now = ctx.now ?? new Date();
  const key = quoteKey(query, ctx, now);
  return { cached: quoteCache.get(key), now, key };
}

/** A quote computed now, and remembered when it can be. */
async function computeAndRemember(query: RateQuery, ctx: QuoteRatesContext, now: Date, key: string): Promise<CachedQuote> {
  const { response, cacheable } = await computeQuote(query, ctx, now);
  const entry = { response };
  if (cacheable) quoteCache.set(key, entry);
  return entry;
}

// Quotes are pure functions of the request, the rate tables and the minute (the cutoff and
// default ship date move with the clock), so an identical request within the same minute
// reuses the computed options; only the rate ids are new.
// The accounts asked are part of the key: options name their account, and two workspaces (or a
// changed account list) never share a quote.
function quoteKey(query: RateQuery, ctx: QuoteRatesContext, now: Date): string {
  const origin = ctx.origin ? `${ctx.origin.timezone}@${ctx.origin.cutoff_minutes}` : '-';
  return `${Math.floor(now.getTime() / 60_000)}|${ctx.carriers.version}|${sourcesKey(ctx.sources)}|${origin}|${ctx.bodyText ?? JSON.stringify(query)}`;
}

const sourceKeys = new WeakMap<readonly RateSource[], string>();

/** The accounts' ids, joined once per source list (the list is cached with the accounts). */
function sourcesKey(sources: readonly RateSource[] | undefined): string {
  if (!sources) return '-';
  let key = sourceKeys.get(sources);
  if (key === undefined) {
    key = sources.map((s) => s.accountId ?? s.carrier.slug).join(',');
    sourceKeys.set(sources, key);
  }
  return key;
}

/** `json` split around each id, in order (ids are unique strings, so each occurs once). */
function cutAtIds(json: string, ids: readonly string[]): string[] {
  const pieces: string[] = [];
  let from = 0;
  for (const id of ids) {
    const at = json.indexOf(id, from);
    pieces.push(json.slice(from, at));
    from = at + id.length;
  }
  pieces.push(json.slice(from));
  return pieces;
}

interface CachedQuote {
  response: RateQueryResponse;
  /** The serialised response cut at its rate ids, made on the first repeat. */
  pieces?: string[];
}

// ~20 kB per entry (measured): a re-quote (a checkout page asking again) comes within the
// minute, so 250 recent lanes cover it; a thousand held ~20 MiB of the heap while every request
// was a new lane (the memory target of README "Benchmarks").
const quoteCache = new TtlCache<CachedQuote>(60_000, 250);

/** The country and postal-code checks of both ends, on a body of any shape (the schema refused it). */
export function checkRateEnds(body: unknown): ErrorDetail[] {
  if (typeof body !== 'object' || body === null) return [];
  const { ship_from, ship_to, options } = body as Record<string, unknown>;
  const details: ErrorDetail[] = checkOptions(options);
  for (const [end, field] of [
    [ship_from, 'ship_from'],
    [ship_to, 'ship_to'],
  ] as const) {
    if (typeof end === 'object' && end !== null && !Array.isArray(end)) details.push(...checkCountryAndPostalCode(end, field).details);
  }
  return details;
}

/** A lane ready for carriers: both ends checked and normalised, its route facts, ship date and clock. */
export interface PreparedLane {
  ship_from: Address;
  ship_to: Address;
  route: RouteFacts;
  ship_date: string;
  residential: boolean;
  clock: LocalClock;
}

/**
 * Checks and normalises both ends of a query (400 validation_failed naming the fields) and
 * derives what carriers need: route facts, the ship date in the origin's time zone, whether the
 * destination is residential. Shared by the rate-shop and by label purchase (which re-rates one
 * service through the carrier's purchase call).
 */
export function prepareLane(query: Omit<RateQuery, 'parcel'>, now: Date, extraDetails: ErrorDetail[] = [], origin?: RateOriginClock): PreparedLane {
  const from = checkCountryAndPostalCode(query.ship_from, 'ship_from');
  const to = checkCountryAndPostalCode(query.ship_to, 'ship_to');
  const details: ErrorDetail[] = [...from.details, ...to.details, ...extraDetails];
  if (query.ship_date !== undefined && !isValidDate(query.ship_date)) {
    details.push({ field: 'ship_date', message: 'must be a calendar date (YYYY-MM-DD)' });
  }
  if (details.length > 0 || !from.country || !to.country) throw validationError(details);
  const shipFrom = toCarrierAddress(query.ship_from, from);
  const shipTo = toCarrierAddress(query.ship_to, to);
  const route = buildRoute(
    { country: from.country, postal_code: shipFrom.postal_code, state: from.zip?.state ?? null },
    { country: to.country, postal_code: shipTo.postal_code, state: to.zip?.state ?? null },
  );
  // A location keeps its own clock and cut-off; else the origin state's zone and 17:00.
  const clock = origin ? cutoffClock(now, origin.timezone, origin.cutoff_minutes) : localClock(now, originTimeZone(from.zip?.state ?? null));
  return {
    ship_from: shipFrom,
    ship_to: shipTo,
    route,
    ship_date: query.ship_date ?? clock.date,
    residential: query.residential ?? !(typeof query.ship_to.company === 'string' && query.ship_to.company.trim() !== ''),
    clock,
  };
}

/** A carrier's quote as the platform's rate option (id, delivery promise; no tags yet). */
export function toRateOption(carrier: CarrierDefinition, rate: SourcedRate, lane: PreparedLane, accountId: string | null = null): RateOption {
  return toOption(carrier, rate, lane.ship_date, lane.clock, accountId, requiresCustoms(lane.route, lane.ship_to));
}

async function computeQuote(query: RateQuery, ctx: QuoteRatesContext, now: Date): Promise<{ response: RateQueryResponse; cacheable: boolean }> {
  const serviceDetails: ErrorDetail[] = [];
  const wanted = resolveServiceFilter(query.services, ctx.carriers, serviceDetails);
  const lane = prepareLane(query, now, [...serviceDetails, ...checkOptions(query.options)], ctx.origin);
  const shipmentOptions = resolveOptions(query.options);
  const pieces = query.parcels && query.parcels.length > 1 ? query.parcels : null;
  const plainParcel = asksNothing(shipmentOptions) && !pieces;
  const dropped: RateMessage[] = [];
  const { ship_from: shipFrom, ship_to: shipTo, route, clock, ship_date: shipDate, residential } = lane;
  const needsCustoms = requiresCustoms(route, shipTo);

  const sources = ctx.sources ?? registrySources(ctx.carriers.carriers);
  const results = await Promise.all(
    sources.map(async (source) => {
      const { carrier } = source;
      const codes = wanted ? carrier.services.map((s) => s.code).filter((code) => wanted.has(code)) : undefined;
      if (codes && codes.length === 0) return null;
      const request: RateRequest = {
        ship_from: shipFrom,
        ship_to: shipTo,
        parcel: { ...query.parcel },
        ship_date: shipDate,
        residential,
        service_codes: codes,
        route,
        ...(asksNothing(shipmentOptions) && shipmentOptions.references.length === 0 && !shipmentOptions.delivery_instructions
          ? {}
          : { options: shipmentOptions }),
        // Every piece, to either driver: an api driver sends them all to its carrier, which prices the lot.
        ...(pieces ? { parcels: pieces.map((p) => ({ ...p })) } : {}),
      };
      // Another carrier's packaging: the account is not asked (a simulated driver's engine says the same).
      const foreign = foreignPackaging(carrier.name, request.parcels ?? [request.parcel], carrier.packages);
      if (foreign)
        return {
          source,
          codes,
          answer: {
            ok: true as const,
            rates: [],
            unavailable: (codes ?? carrier.services.map((s) => s.code)).map((service_code) => ({ service_code, reason: foreign })),
          },
        };
      return { source, codes, answer: await source.quote(request, { requestId: ctx.requestId, startedAt: ctx.startedAt }) };
    }),
  );

  const options: RateOption[] = [];
  const unavailable: UnavailableService[] = [];
  const messages: RateMessage[] = [];
  const versions: Record<string, string> = {};
  for (const result of results) {
    if (!result) continue;
    const { source, codes, answer } = result;
    const { carrier } = source;
    if (!answer.ok) {
      // One account failing never sinks the rate-shop: its services are listed unavailable and
      // the reason is a message naming the account.
      messages.push({ carrier_account_id: source.accountId, carrier: carrier.slug, code: answer.code, message: answer.message });
      for (const service_code of codes ?? carrier.services.map((s) => s.code))
        unavailable.push({ carrier: carrier.slug, service_code, reason: answer.message });
      continue;
    }
    if (source.rateTableVersion !== null) versions[carrier.slug] = source.rateTableVersion;
    for (const u of answer.unavailable) unavailable.push({ carrier: carrier.slug, service_code: u.service_code, reason: u.reason });
    for (const rate of answer.rates) {
      if (!plainParcel) {
        // A service that could carry the parcel but lacks an option asked for is dropped: one
        // message per service and option (services that cannot carry it stay under `unavailable`).
        const service = carrier.services.find((s) => s.code === rate.service_code);
        // The same options table for both drivers: an api driver sends what is offered to the
        // carrier, which prices it (docs/carriers.md, "Shipment options").
        const gaps = optionGaps(rate.service_name, service?.options, shipmentOptions);
        for (const gap of gaps)
          dropped.push({
            carrier_account_id: source.accountId,
            carrier: carrier.slug,
            service_code: rate.service_code,
            code: 'option_unavailable',
            option: gap.option,
            message: gap.message,
          });
        if (gaps.length > 0) continue;
        // A multi-piece query: a service that takes fewer pieces is dropped too.
        const pieceGap = pieces ? parcelsGap(rate.service_name, service?.options, pieces.length) : null;
        if (pieceGap) {
          dropped.push({
            carrier_account_id: source.accountId,
            carrier: carrier.slug,
            service_code: rate.service_code,
            code: 'option_unavailable',
            option: pieceGap.option,
            message: pieceGap.message,
          });
          continue;
        }
      }
      options.push(toOption(carrier, rate, shipDate, clock, source.accountId, needsCustoms));
    }
  }

  // Nothing can carry the parcel: 422. When accounts failed, the query itself did not: 200 with
  // no options and the messages that say why.
  const failures = messages.length;
  messages.push(...dropped);
  if (options.length === 0 && messages.length === 0) {
    throw new AppError('no_rates', 'No carrier service can carry this parcel on this lane.', { details: unavailable });
  }
  options.sort(byPrice);
  const response = {
    ship_date: shipDate,
    residential,
    requires_customs: needsCustoms,
    rate_table_versions: versions,
    data: options.length > 0 ? tagOptions(options) : options,
    unavailable,
    messages,
  };
  // An account that failed this time may answer the next time: do not remember its absence.
  // (A service dropped for an option is a property of the request: that answer is remembered.)
  return { response, cacheable: failures === 0 };
}

/** Service codes the caller asked for (carrier slugs expanded); null = all. */
function resolveServiceFilter(services: readonly string[] | undefined, registry: CarrierRegistry, details: ErrorDetail[]): Set<string> | null {
  if (!services) return null;
  const wanted = new Set<string>();
  services.forEach((code, i) => {
    const carrier = registry.get(code);
    if (carrier) for (const s of carrier.services) wanted.add(s.code);
    else if (registry.serviceCodes.has(code)) wanted.add(code);
    else details.push({ field: `services[${i}]`, message: `unknown service code "${code}"` });
  });
  return wanted;
}

function toCarrierAddress(input: RateQuery['ship_from'], check: RatingAddressCheck): Address {
  const address: Address = { postal_code: check.postal_code ?? '', country: check.country ?? '' };
  for (const f of ['name', 'company', 'street1', 'street2', 'city', 'state', 'phone', 'email'] as const) {
    const v = input[f];
    if (typeof v === 'string' && v.trim() !== '') address[f] = v;
  }
  if (check.zip && !address.state) address.state = check.zip.state;
  return address;
}

function toOption(
  carrier: CarrierDefinition,
  rate: SourcedRate,
  shipDate: string,
  clock: LocalClock,
  accountId: string | null,
  needsCustoms: boolean,
): RateOption {
  return {
    id: newId('rate'),
    service_code: rate.service_code,
    carrier: carrier.slug,
    carrier_account_id: accountId,
    service_name: rate.service_name,
    price: rate.price,
    base_price: rate.base_price,
    zone: rate.zone,
    billable_weight_oz: rate.billable_weight_oz,
    dim_weight_oz: rate.dim_weight_oz,
    dim_divisor: rate.dim_divisor,
    dim_divisor_unit: rate.dim_divisor_unit,
    surcharges: rate.surcharges,
    delivery: {
      business_days: rate.business_days,
      // A real carrier's own promise when it gave one; else the platform's calendar.
      estimated_delivery_date: rate.estimated_delivery_date ?? estimateDeliveryDate(shipDate, rate.business_days, carrier.observed_holidays, clock),
      guaranteed: rate.guaranteed,
    },
    rate_table_version: rate.rate_table_version,
    requires_customs: needsCustoms,
    tags: [],
  };
}

type Untagged = Omit<RateOption, 'tags'>;

/** Code-unit order: ISO dates and service codes are ASCII, and localeCompare (ICU) is slow. */
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byPrice(a: Untagged, b: Untagged): number {
  return (
    a.price.amount - b.price.amount || byText(a.delivery.estimated_delivery_date, b.delivery.estimated_delivery_date) || byText(a.service_code, b.service_code)
  );
}

function byDelivery(a: Untagged, b: Untagged): number {
  return (
    byText(a.delivery.estimated_delivery_date, b.delivery.estimated_delivery_date) ||
    Number(b.delivery.guaranteed) - Number(a.delivery.guaranteed) ||
    a.price.amount - b.price.amount ||
    byText(a.service_code, b.service_code)
  );
}

/** Value score: price × business days (lower is better), so a service twice as fast may cost up to twice as much. */
function byValue(a: Untagged, b: Untagged): number {
  return (
    a.price.amount * a.delivery.business_days - b.price.amount * b.delivery.business_days ||
    a.price.amount - b.price.amount ||
    byText(a.service_code, b.service_code)
  );
}

/**
 * Exactly one option each is `cheapest`, `fastest` and `best_value` (one option may hold
 * several). Tags the options in place (they are fresh from toOption) and returns them.
 */
export function tagOptions(options: RateOption[]): RateOption[] {
  const pick = (cmp: (a: Untagged, b: Untagged) => number) => options.reduce((best, o) => (cmp(o, best) < 0 ? o : best));
  pick(byPrice).tags.push('cheapest');
  pick(byDelivery).tags.push('fastest');
  pick(byValue).tags.push('best_value');
  return options;
}

/** Precomputes the lazily built reference data (ZIP3 centroids, this and next year's holidays). */
export function warmRateData(now: Date = new Date()): void {
  zip3Centroid('100');
  const year = now.getUTCFullYear();
  holidayDates(year, ALL_US_HOLIDAYS);
  holidayDates(year + 1, ALL_US_HOLIDAYS);
}
