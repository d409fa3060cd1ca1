/**
 * Rating `Shop` (Rating.yaml, `POST /api/rating/{version}/{requestoption}`): every service in
 * one call. We ask `Shoptimeintransit` so each RatedShipment carries its TimeInTransit (the
 * path parameter says maxLength 10, but `Shoptimeintransit`, 17 characters, is one of the
 * values the same parameter lists: we follow the listed value).
 */
import type { ApiRate, ApiRateRequest, ApiRateResponse, CarrierCharge } from '../../driver.js';
import { addSurcharge } from '../../api-options.js';
import type { Money, ShipmentOptions, Surcharge } from '../../types.js';
import { optionSurchargeOf, ratingPackageOptions, shipmentServiceOptions } from './options.js';
import { ourServiceCode, upsServiceName, UPS_SURCHARGES } from './units.js';
import { asList, clip, isoDate, money, obj, ozFromPounds, partyName, poundsFromOz, str, upsAddress, upsPackages, yyyymmdd, type Json } from './wire.js';

export const RATE_REQUEST_OPTION = 'Shoptimeintransit';

export function buildRateRequest(req: ApiRateRequest, accountNumber: string | null, reference?: string): Json {
  const parcels = req.parcels?.length ? req.parcels : [req.parcel];
  const totalOz = parcels.reduce((s, p) => s + p.weight_oz, 0);
  const shipTo = upsAddress(req.ship_to, 2);
  if (req.residential) shipTo.ResidentialAddressIndicator = 'Y';
  const shipment: Json = {
    Shipper: {
      Name: partyName(req.ship_from, 'Shipper'),
      ...(accountNumber ? { ShipperNumber: accountNumber } : {}),
      Address: upsAddress(req.ship_from, 2),
    },
    ShipTo: { Name: partyName(req.ship_to, 'Recipient'), Address: shipTo },
    ShipFrom: { Name: partyName(req.ship_from, 'Shipper'), Address: upsAddress(req.ship_from, 2) },
    NumOfPieces: String(parcels.length),
    ShipmentTotalWeight: {
      UnitOfMeasurement: { Code: 'LBS', Description: 'Pounds' },
      Weight: poundsFromOz(totalOz),
    },
    Package: withPackageOptions(upsPackages(parcels, 'PackagingType'), ratingPackageOptions(req)),
    // Time in transit needs the bill type (03 = non-document) and the pickup date.
    DeliveryTimeInformation: { PackageBillType: '03', Pickup: { Date: yyyymmdd(req.ship_date) } },
  };
  const serviceOptions = shipmentServiceOptions(req.options);
  if (Object.keys(serviceOptions).length) shipment.ShipmentServiceOptions = serviceOptions;
  if (accountNumber) {
    shipment.PaymentDetails = { ShipmentCharge: [{ Type: '01', BillShipper: { AccountNumber: accountNumber } }] };
    // Negotiated (contract) rates come back only when asked for and the account has them.
    shipment.ShipmentRatingOptions = { NegotiatedRatesIndicator: 'Y' };
  }
  // RequestOption: the schema requires it (with no constraints) though every example omits it.
  const request: Json = { RequestOption: RATE_REQUEST_OPTION };
  const context = clip(reference, 512);
  if (context) request.TransactionReference = { CustomerContext: context };
  return { RateRequest: { Request: request, Shipment: shipment } };
}

/** The same options on every package (a shipment's options are each package's). */
export function withPackageOptions(packages: Json[], options: Json | null): Json[] {
  return options ? packages.map((p) => ({ ...p, PackageServiceOptions: options })) : packages;
}

function surchargesOf(rated: Json, options?: ShipmentOptions): { surcharges: Surcharge[]; other: CarrierCharge[] } {
  const itemized = [...asList(rated.ItemizedCharges), ...asList(rated.RatedPackage).flatMap((p) => asList(obj(p).ItemizedCharges))].map(obj);
  const byCode = new Map<string, Surcharge>();
  const other: CarrierCharge[] = [];
  for (const c of itemized) {
    const code = str(c.Code) ?? '';
    const amount = money(c);
    if (!amount || amount.amount === 0) continue;
    const ours = UPS_SURCHARGES[code] ?? optionSurchargeOf(code, options);
    if (ours) {
      addSurcharge(byCode, ours, amount);
    } else {
      other.push({ carrier_code: code, description: str(c.Description) ?? str(c.SubType), amount });
    }
  }
  return { surcharges: [...byCode.values()], other };
}

/** One RatedShipment → our rate; null when it has no usable total. */
export function parseRatedShipment(rated: Json, options?: ShipmentOptions): ApiRate | null {
  const service = obj(rated.Service);
  const upsCode = str(service.Code);
  const list = money(rated.TotalCharges);
  if (!upsCode || !list) return null;
  const negotiatedTotal = money(obj(rated.NegotiatedRateCharges).TotalCharge);
  const price: Money = negotiatedTotal ?? list;
  const { surcharges, other } = surchargesOf(rated, options);
  const surchargeSum = surcharges.reduce((s, c) => s + c.amount.amount, 0);
  const tit = obj(rated.TimeInTransit);
  const summary = obj(tit.ServiceSummary);
  const arrival = obj(summary.EstimatedArrival);
  const guaranteed = obj(rated.GuaranteedDelivery);
  const daysRaw = str(arrival.BusinessDaysInTransit) ?? str(guaranteed.BusinessDaysInTransit);
  const days = daysRaw !== null && /^\d+$/.test(daysRaw.trim()) ? Number(daysRaw) : null;
  const billable = ozFromPounds(obj(rated.BillingWeight).Weight);
  const zone = Number.parseInt(str(rated.Zone) ?? '', 10);
  return {
    service_code: ourServiceCode(upsCode),
    carrier_service_code: upsCode,
    service_name: upsServiceName(upsCode, str(service.Description)),
    zone: Number.isFinite(zone) ? zone : 0,
    base_price: { amount: Math.max(0, price.amount - surchargeSum), currency: price.currency },
    surcharges,
    price,
    list_price: list,
    negotiated: negotiatedTotal !== null,
    other_charges: other,
    billable_weight_oz: billable ?? 0,
    // UPS reports the billed weight, not the dimensional weight or divisor it used.
    dim_weight_oz: null,
    dim_divisor: null,
    dim_divisor_unit: null,
    business_days: days ?? 0,
    transit_known: days !== null,
    guaranteed: Object.keys(guaranteed).length > 0 || summary.GuaranteedIndicator !== undefined,
    estimated_delivery_date: isoDate(obj(arrival.Arrival).Date),
    rate_table_version: 'ups_api',
  };
}

export function parseRateResponse(body: unknown, requested?: readonly string[], options?: ShipmentOptions): ApiRateResponse | null {
  const response = obj(obj(body).RateResponse);
  if (!('RatedShipment' in response)) return null;
  const all = asList(response.RatedShipment)
    .map((r) => parseRatedShipment(obj(r), options))
    .filter((r): r is ApiRate => r !== null);
  const rates = requested?.length ? all.filter((r) => requested.includes(r.service_code)) : all;
  const unavailable = (requested ?? [])
    .filter((code) => !rates.some((r) => r.service_code === code))
    .map((service_code) => ({ service_code, reason: 'not_offered_by_carrier' }));
  rates.sort((a, b) => a.price.amount - b.price.amount);
  return { rates, unavailable };
}
