/**
 * Rate quotes (`POST /rate/v1/rates/quotes`, rates-transit-times-v1-RateQuotes-Resource.json):
 * every service in one call (no `serviceType`), both the published (LIST) and the account's
 * (ACCOUNT) price, with transit times.
 */
import type { ApiRate, ApiRateRequest, ApiRateResponse, CarrierCharge } from '../../driver.js';
import { asList, num, obj, str, type Json } from '../../http/json-read.js';
import { addSurcharge } from '../../api-options.js';
import type { Money, Parcel, ShipmentOptions, Surcharge } from '../../types.js';
import { optionSurchargeOf, packageOptionFields, shipmentSpecialServiceTypes } from './options.js';
import { fedexPackaging, ONE_RATE, type FedexPackaging } from './packaging.js';
import { FEDEX_SURCHARGES, fedexServiceName, fedexServiceType, ourServiceCode, transitDays } from './units.js';
import { isoDay, money, ozFromWeight, packageDimensions, packageWeight, rateAddress, totalPounds } from './wire.js';

export const RATE_PATH = '/rate/v1/rates/quotes';

/**
 * Dropped off at FedEx, in rates and ship alike, so the quote is what the label costs; a pickup
 * is booked (and priced) on its own.
 */
export const PICKUP_TYPE = 'DROPOFF_AT_FEDEX_LOCATION';

export function parcelsOf(req: { parcel: Parcel; parcels?: readonly Parcel[] }): readonly Parcel[] {
  return req.parcels?.length ? req.parcels : [req.parcel];
}

export function buildRateRequest(req: ApiRateRequest, accountNumber: string, packaging: FedexPackaging = fedexPackaging(parcelsOf(req))): Json {
  const parcels = parcelsOf(req);
  const packagingType = packaging.ok ? packaging.packagingType : 'YOUR_PACKAGING';
  const shipment: Json = {
    shipper: { address: rateAddress(req.ship_from) },
    recipient: { address: rateAddress(req.ship_to, req.residential) },
    shipDateStamp: req.ship_date,
    pickupType: PICKUP_TYPE,
    // ACCOUNT: the account's own (discounted) price; LIST: the published one, kept beside it.
    rateRequestType: ['ACCOUNT', 'LIST'],
    packagingType,
    totalPackageCount: parcels.length,
    totalWeight: totalPounds(parcels),
    requestedPackageLineItems: parcels.map((p) => ({
      groupPackageCount: 1,
      weight: packageWeight(p),
      dimensions: packageDimensions(p),
      ...packageOptionFields(req.options, 'rates'),
    })),
  };
  // Asked for at the shipment level, so the quote prices it.
  // FedEx packaging is priced by One Rate (packaging.ts).
  const special = [...shipmentSpecialServiceTypes(req.options), ...(packaging.ok && packaging.oneRate ? [ONE_RATE] : [])];
  if (special.length) shipment.shipmentSpecialServices = { specialServiceTypes: special };
  // One service asked for: FedEx filters by serviceType. Several: ask all, filter here.
  const only = req.service_codes?.length === 1 ? fedexServiceType(req.service_codes[0]) : null;
  if (only) shipment.serviceType = only;
  return {
    accountNumber: { value: accountNumber },
    rateRequestControlParameters: { returnTransitTimes: true, servicesNeededOnRateFailure: true },
    requestedShipment: shipment,
  };
}

function surchargesOf(detail: Json, currency: string, options?: ShipmentOptions): { surcharges: Surcharge[]; other: CarrierCharge[] } {
  const shipmentLevel = asList(obj(detail.shipmentRateDetail).surCharges).map(obj);
  // Shipment-level surcharges are the packages' summed; read the packages only when it has none.
  const charges = shipmentLevel.length ? shipmentLevel : asList(detail.ratedPackages).flatMap((p) => asList(obj(obj(p).packageRateDetail).surcharges).map(obj));
  const byCode = new Map<string, Surcharge>();
  const other: CarrierCharge[] = [];
  for (const c of charges) {
    // Rate answers name it `type`, Ship answers `surchargeType`.
    const type = str(c.type) ?? str(c.surchargeType) ?? '';
    const amount = money(c.amount, currency);
    if (!amount || amount.amount === 0) continue;
    const ours = FEDEX_SURCHARGES[type] ?? optionSurchargeOf(type, options);
    if (ours) {
      addSurcharge(byCode, ours, { amount: amount.amount, currency });
    } else {
      other.push({ carrier_code: type, description: str(c.description) ?? str(c.name), amount });
    }
  }
  return { surcharges: [...byCode.values()], other };
}

/** Weekdays after `from` up to and including `to` (holidays are FedEx's to know; it gave the date). */
export function weekdaysBetween(from: string, to: string): number | null {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end) || end < start) return null;
  let days = 0;
  for (let t = start + 86_400_000; t <= end; t += 86_400_000) {
    const dow = new Date(t).getUTCDay();
    if (dow !== 0 && dow !== 6) days += 1;
  }
  return days;
}

function totalOf(detail: Json): Money | null {
  const currency = str(detail.currency) ?? str(obj(detail.shipmentRateDetail).currency);
  return money(detail.totalNetCharge, currency) ?? money(detail.totalNetFedExCharge, currency);
}

/**
 * One RateReplyDetail → our rate; null when it has no usable total. The ACCOUNT price is the
 * price when FedEx returned one; the LIST price is kept as `list_price`.
 */
export function parseRateReplyDetail(reply: Json, shipDate: string, options?: ShipmentOptions): ApiRate | null {
  const fedexType = str(reply.serviceType);
  const details = asList(reply.ratedShipmentDetails).map(obj);
  const account = details.find((d) => d.rateType === 'ACCOUNT' && totalOf(d));
  const list = details.find((d) => d.rateType === 'LIST' && totalOf(d));
  const chosen = account ?? list ?? details.find((d) => totalOf(d));
  if (!fedexType || !chosen) return null;
  const price = totalOf(chosen)!;
  const listPrice = list ? totalOf(list)! : price;
  const rateDetail = obj(chosen.shipmentRateDetail);
  const { surcharges, other } = surchargesOf(chosen, price.currency, options);
  const surchargeSum = surcharges.reduce((s, c) => s + c.amount.amount, 0);
  const commit = obj(reply.commit);
  const operational = obj(reply.operationalDetail);
  const dateDetail = obj(commit.dateDetail);
  // The schema names it dayFormat; FedEx's own example answers dayCxsFormat: read both.
  const estimated = isoDay(dateDetail.dayFormat) ?? isoDay(dateDetail.dayCxsFormat) ?? isoDay(operational.deliveryDate) ?? isoDay(operational.commitDate);
  const days =
    transitDays(str(commit.daysInTransit)) ??
    transitDays(str(obj(commit.transitDays).minimumTransitTime)) ??
    transitDays(str(operational.transitTime)) ??
    (estimated ? weekdaysBetween(shipDate, estimated) : null);
  const billable = ozFromWeight(obj(rateDetail.totalBillingWeight));
  const dimWeight = ozFromWeight(obj(rateDetail.totalDimWeight));
  const divisor = num(rateDetail.dimDivisor);
  const zone = /^\d+$/.test(str(rateDetail.rateZone) ?? '') ? Number(rateDetail.rateZone) : 0;
  const hasDim = dimWeight !== null && dimWeight > 0 && divisor !== null && divisor > 0;
  return {
    service_code: ourServiceCode(fedexType),
    carrier_service_code: fedexType,
    service_name: fedexServiceName(fedexType, str(reply.serviceName)),
    zone,
    base_price: { amount: Math.max(0, price.amount - surchargeSum), currency: price.currency },
    surcharges,
    price,
    list_price: listPrice,
    negotiated: account !== undefined,
    other_charges: other,
    billable_weight_oz: billable ?? 0,
    dim_weight_oz: hasDim ? dimWeight : null,
    dim_divisor: hasDim ? divisor : null,
    dim_divisor_unit: hasDim ? (obj(rateDetail.totalDimWeight).units === 'KG' ? 'cm3_per_kg' : 'in3_per_lb') : null,
    business_days: days ?? 0,
    transit_known: days !== null,
    guaranteed: str(commit.guaranteedType) !== null,
    estimated_delivery_date: estimated,
    rate_table_version: 'fedex_api',
  };
}

/** Null when the body is not a rate answer (no `output.rateReplyDetails`). */
export function parseRateResponse(body: unknown, shipDate: string, requested?: readonly string[], options?: ShipmentOptions): ApiRateResponse | null {
  const output = obj(obj(body).output);
  if (!Array.isArray(output.rateReplyDetails)) return null;
  const all = output.rateReplyDetails.map((r) => parseRateReplyDetail(obj(r), shipDate, options)).filter((r): r is ApiRate => r !== null);
  const rates = requested?.length ? all.filter((r) => requested.includes(r.service_code)) : all;
  const unavailable = (requested ?? [])
    .filter((code) => !rates.some((r) => r.service_code === code))
    .map((service_code) => ({ service_code, reason: 'not_offered_by_carrier' }));
  rates.sort((a, b) => a.price.amount - b.price.amount);
  return { rates, unavailable };
}
