/**
 * Domestic Prices total rates (`POST /prices/v3/total-rates/search`, domestic-prices.yaml).
 *
 * Why total rates and not base rates + extra-service rates: `/base-rates/search` prices one
 * mail class per call and requires the rate indicator, processing category and entry facility
 * up front; `/total-rates/search` takes the same package and a list of mail classes, and
 * answers every eligible rate option with its fees (nonstandard length/volume) in one call, the
 * shape a rate shop needs. We ask for no extra services (USPS Tracking is free and included).
 */
import type { ApiRate, ApiRateRequest, ApiRateResponse, CarrierCharge } from '../../driver.js';
import { asList, obj, str, type Json } from '../../http/json-read.js';
import { addSurcharge } from '../../api-options.js';
import type { Surcharge } from '../../types.js';
import type { UspsCredentials } from './credentials.js';
import {
  flatRateShape,
  OWN_PACKAGING_RATE_INDICATORS,
  ourServiceCode,
  packageCharacteristics,
  surchargeOfFee,
  USPS_SERVICES,
  uspsMailClass,
  uspsServiceName,
} from './units.js';
import { extraServiceCodes, extraServicesOf, insuredDollars, surchargeOfExtraService } from './options.js';
import { inches, pounds, usd, zipParts } from './wire.js';

export const TOTAL_RATES_PATH = '/prices/v3/total-rates/search';

/** The domestic mail classes to price: the requested ones we can name, else our three. */
export function mailClassesFor(serviceCodes: readonly string[] | undefined): string[] {
  const domestic = USPS_SERVICES.filter((s) => s.domestic).map((s) => s.usps);
  if (!serviceCodes?.length) return domestic;
  return [...new Set(serviceCodes.map(uspsMailClass).filter((m): m is string => m !== null && !m.includes('INTERNATIONAL')))];
}

/** Null when there is nothing USPS could price (no US ZIPs, or no domestic class asked for). */
export function buildRateRequest(req: ApiRateRequest, credentials: UspsCredentials | null): Json | null {
  if (req.ship_from.country.toUpperCase() !== 'US' || req.ship_to.country.toUpperCase() !== 'US') return null;
  const mailClasses = mailClassesFor(req.service_codes);
  if (mailClasses.length === 0) return null;
  // Several parcels: USPS prices one package per query; the heaviest and largest is priced.
  // (A multi-parcel USPS shipment is several labels: the lead's fan-out prices each parcel.)
  const parcels = req.parcels?.length ? req.parcels : [req.parcel];
  const parcel = parcels.reduce((a, b) => (b.weight_oz > a.weight_oz ? b : a));
  const body: Json = {
    originZIPCode: zipParts(req.ship_from.postal_code).ZIPCode,
    destinationZIPCode: zipParts(req.ship_to.postal_code).ZIPCode,
    weight: pounds(parcel.weight_oz),
    length: inches(parcel.length_in),
    width: inches(parcel.width_in),
    height: inches(parcel.height_in),
    mailClasses,
    // Commercial: the price a shipper buying labels through the API pays.
    priceType: 'COMMERCIAL',
    mailingDate: req.ship_date.slice(0, 10),
  };
  // The options' extra services, so USPS prices them (insurance on the value asked).
  const extras = extraServiceCodes(req.options);
  if (extras.length) body.extraServices = extras;
  const insured = insuredDollars(req.options);
  if (insured !== null) body.itemValue = insured;
  // The paying account, so USPS answers its contract price where it has one.
  if (credentials?.payment_account_number && credentials.payment_account_type) {
    body.accountType = credentials.payment_account_type;
    body.accountNumber = credentials.payment_account_number;
  }
  return body;
}

interface Option {
  rate: Json;
  total: number;
  /** The priced extra services (total-rates answers list them beside `rates`). */
  extras: ReturnType<typeof extraServicesOf>;
}

function optionOf(o: Json): Option | null {
  const rate = obj(asList(o.rates)[0]);
  const total = typeof o.totalPrice === 'number' ? o.totalPrice : typeof o.totalBasePrice === 'number' ? o.totalBasePrice : null;
  if (!str(rate.mailClass) || total === null) return null;
  return { rate, total, extras: extraServicesOf(o) };
}

/** One rate option → our rate. */
export function parseRateOption(o: Option): ApiRate {
  const mailClass = str(o.rate.mailClass)!;
  const price = usd(o.total)!;
  const surcharges = new Map<string, Surcharge>();
  const other: CarrierCharge[] = [];
  for (const fee of asList(o.rate.fees).map(obj)) {
    const amount = usd(fee.price);
    if (!amount || amount.amount === 0) continue;
    const name = str(fee.name) ?? '';
    const ours = surchargeOfFee(name);
    if (ours) {
      const prev = surcharges.get(ours);
      surcharges.set(ours, { code: ours, amount: { amount: (prev?.amount.amount ?? 0) + amount.amount, currency: 'USD' } });
    } else {
      other.push({ carrier_code: str(fee.SKU) ?? name, description: name || null, amount });
    }
  }
  for (const extra of o.extras) {
    const amount = usd(extra.price);
    if (!amount || amount.amount === 0) continue;
    const ours = surchargeOfExtraService(extra.code);
    if (ours) addSurcharge(surcharges, ours, amount);
    else other.push({ carrier_code: extra.code, description: extra.name, amount });
  }
  const surchargeSum = [...surcharges.values()].reduce((s, c) => s + c.amount.amount, 0);
  const weightLb = typeof o.rate.weight === 'number' ? o.rate.weight : null;
  const dimLb = typeof o.rate.dimWeight === 'number' && o.rate.dimWeight > 0 ? o.rate.dimWeight : null;
  const zone = Number.parseInt(str(o.rate.zone) ?? '', 10);
  return {
    service_code: ourServiceCode(mailClass),
    carrier_service_code: mailClass,
    service_name: uspsServiceName(mailClass, str(o.rate.productName)),
    zone: Number.isFinite(zone) ? zone : 0,
    base_price: { amount: Math.max(0, price.amount - surchargeSum), currency: 'USD' },
    surcharges: [...surcharges.values()],
    price,
    list_price: price,
    // COMMERCIAL prices are published prices; a CONTRACT/NSA price type is the account's own.
    negotiated: ['CONTRACT', 'NSA'].includes(str(o.rate.priceType) ?? ''),
    other_charges: other,
    billable_weight_oz: Math.round(Math.max(weightLb ?? 0, dimLb ?? 0) * 16),
    dim_weight_oz: dimLb === null ? null : Math.round(dimLb * 16),
    // USPS gives the dimensional weight, not the divisor it used.
    dim_divisor: null,
    dim_divisor_unit: null,
    // Prices carry no transit time (that is the Service Standards API, not described here).
    business_days: 0,
    transit_known: false,
    guaranteed: false,
    estimated_delivery_date: null,
    rate_table_version: 'usps_api',
  };
}

/**
 * Per mail class, the option for the shipper's own packaging: the one priced as the label will
 * be bought (single piece, the parcel's processing category), else the cheapest own-packaging
 * option. A parcel in a USPS flat-rate envelope or box takes, for each class that prices it
 * flat, the option of its rate indicator (none: that class is not offered). Other flat-rate and
 * cubic options are left out (they need USPS containers or a contract).
 */
export function parseRateResponse(body: unknown, req: ApiRateRequest): ApiRateResponse | null {
  const root = obj(body);
  if (!Array.isArray(root.rateOptions)) return null;
  const parcels = req.parcels?.length ? req.parcels : [req.parcel];
  const parcel = parcels.reduce((a, b) => (b.weight_oz > a.weight_oz ? b : a));
  const wanted = packageCharacteristics(parcel);
  const byClass = new Map<string, Option>();
  const options = root.rateOptions
    .map(obj)
    .map(optionOf)
    .filter((o): o is Option => o !== null);
  // A flat-rate package: its flat-rate classes are priced by its rate indicator alone (units.ts flatRateShape).
  const flatClasses = new Set<string>();
  for (const o of options) {
    const mailClass = str(o.rate.mailClass)!;
    const flat = flatRateShape(parcel, mailClass);
    if (!flat) continue;
    flatClasses.add(mailClass);
    if (str(o.rate.rateIndicator) === flat.rateIndicator && (!byClass.has(mailClass) || o.total < byClass.get(mailClass)!.total)) byClass.set(mailClass, o);
  }
  for (const o of options) {
    if (!OWN_PACKAGING_RATE_INDICATORS.has(str(o.rate.rateIndicator) ?? '')) continue;
    const mailClass = str(o.rate.mailClass)!;
    if (flatClasses.has(mailClass)) continue;
    const exact = str(o.rate.rateIndicator) === wanted.rateIndicator && str(o.rate.processingCategory) === wanted.processingCategory;
    const prev = byClass.get(mailClass);
    const prevExact = prev && str(prev.rate.rateIndicator) === wanted.rateIndicator && str(prev.rate.processingCategory) === wanted.processingCategory;
    if (!prev || (exact && !prevExact) || (exact === !!prevExact && o.total < prev.total)) byClass.set(mailClass, o);
  }
  const all = [...byClass.values()].map(parseRateOption);
  const requested = req.service_codes;
  const rates = requested?.length ? all.filter((r) => requested.includes(r.service_code)) : all;
  const unavailable = (requested ?? [])
    .filter((code) => !rates.some((r) => r.service_code === code))
    .map((service_code) => ({ service_code, reason: 'not_offered_by_carrier' }));
  rates.sort((a, b) => a.price.amount - b.price.amount);
  return { rates, unavailable };
}
