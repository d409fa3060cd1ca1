/**
 * Rating (`POST /rates`, `supermodelIoLogisticsExpressRateRequest` → `…Rates`): every product
 * DHL offers on the lane in one call. POST rather than `GET /rates`, whose query describes one
 * piece (weight, length, width, height): the JSON body takes up to 999 packages and the account
 * as an `accounts` entry.
 */
import type { ApiRate, ApiRateRequest, ApiRateResponse, CarrierCharge } from '../../driver.js';
import { asList, num, obj, str, type Json } from '../../http/json-read.js';
import type { Money, Surcharge } from '../../types.js';
import { DHL_OPTION_SURCHARGES, optionValueAddedServices } from './options.js';
import { DHL_SURCHARGES, dhlServiceName, ourServiceCode } from './units.js';
import { isoDateOf, moneyOf, ozFrom, packagesOf, plannedShippingTime, rateAddress } from './wire.js';

/**
 * Customs: DHL prices a dutiable (non-document) shipment differently and offers other products,
 * so any lane that crosses a border is declared dutiable.
 */
export function isCustomsDeclarable(fromCountry: string, toCountry: string): boolean {
  return fromCountry.toUpperCase() !== toCountry.toUpperCase();
}

export function buildRateRequest(req: ApiRateRequest, accountNumber: string | null, now: Date): Json {
  const parcels = req.parcels?.length ? req.parcels : [req.parcel];
  const body: Json = {
    customerDetails: { shipperDetails: rateAddress(req.ship_from), receiverDetails: rateAddress(req.ship_to) },
    plannedShippingDateAndTime: plannedShippingTime(req.ship_date, now),
    unitOfMeasurement: 'imperial',
    isCustomsDeclarable: isCustomsDeclarable(req.ship_from.country, req.ship_to.country),
    packages: packagesOf(parcels, false),
    // QDDC: the delivery date counting customs clearance days (QDDF is the fastest transit).
    estimatedDeliveryDate: { isRequested: true, typeCode: 'QDDC' },
  };
  // The account's own prices; without one DHL quotes public rates for the payer's country.
  // The options' services, so DHL prices them (and offers only the products that carry them).
  const services = optionValueAddedServices(req.options, 'rates');
  if (services.length) body.valueAddedServices = services;
  if (accountNumber) body.accounts = [{ typeCode: 'shipper', number: accountNumber }];
  else body.payerCountryCode = req.ship_from.country.toUpperCase();
  return body;
}

type PriceType = 'BILLC' | 'PULCL' | 'BASEC';

function totalOf(product: Json, type: PriceType): Money | null {
  const entry = asList(product.totalPrice)
    .map(obj)
    .find((p) => str(p.currencyType) === type);
  return entry ? moneyOf(num(entry.price), str(entry.priceCurrency)) : null;
}

function chargesOf(product: Json, currencyType: string | null, currency: string): { surcharges: Surcharge[]; other: CarrierCharge[] } {
  const detailed = asList(product.detailedPriceBreakdown).map(obj);
  const block = detailed.find((d) => str(d.currencyType) === currencyType) ?? detailed[0];
  const byCode = new Map<string, Surcharge>();
  const other: CarrierCharge[] = [];
  // Amounts in another currency than the price cannot be subtracted from it: left out.
  if (block && (str(block.priceCurrency) ?? currency).toUpperCase() === currency) {
    for (const b of asList(block.breakdown).map(obj)) {
      const code = str(b.serviceCode);
      const amount = moneyOf(num(b.price), currency);
      // The first entry (no serviceCode) is the product's own price; unpriced entries are offers.
      if (!code || !amount || amount.amount === 0) continue;
      const ours = DHL_SURCHARGES[code] ?? DHL_OPTION_SURCHARGES[code];
      if (ours) {
        const prev = byCode.get(ours);
        byCode.set(ours, { code: ours, amount: { amount: (prev?.amount.amount ?? 0) + amount.amount, currency } });
      } else {
        other.push({ carrier_code: code, description: str(b.name), amount });
      }
    }
  }
  // Tax (STTXA) is inside the total: shown beside the other charges, never dropped.
  const totals = asList(product.totalPriceBreakdown).map(obj);
  const totalBlock = totals.find((t) => str(t.currencyType) === currencyType) ?? totals[0];
  if (totalBlock && (str(totalBlock.priceCurrency) ?? currency).toUpperCase() === currency) {
    const tax = asList(totalBlock.priceBreakdown)
      .map(obj)
      .find((p) => str(p.typeCode) === 'STTXA');
    const amount = tax ? moneyOf(num(tax.price), currency) : null;
    if (amount && amount.amount > 0) other.push({ carrier_code: 'STTXA', description: 'Total tax', amount });
  }
  return { surcharges: [...byCode.values()], other };
}

/** One product → our rate; null when it has no usable code or total. */
export function parseProduct(product: Json): ApiRate | null {
  const productCode = str(product.productCode);
  if (!productCode) return null;
  // BILLC is what the account is billed; PULCL the country's public rate. A product that only
  // carries another currency type is priced by its first total.
  const billed = totalOf(product, 'BILLC');
  const published = totalOf(product, 'PULCL');
  const first = obj(asList(product.totalPrice)[0]);
  const price = billed ?? published ?? moneyOf(num(first.price), str(first.priceCurrency));
  if (!price) return null;
  const priceType = billed ? 'BILLC' : published ? 'PULCL' : str(first.currencyType);
  const list = published ?? price;
  const { surcharges, other } = chargesOf(product, priceType, price.currency);
  const surchargeSum = surcharges.reduce((s, c) => s + c.amount.amount, 0);
  const weight = obj(product.weight);
  const unit = str(weight.unitOfMeasurement);
  const volumetric = ozFrom(num(weight.volumetric), unit);
  const delivery = obj(product.deliveryCapabilities);
  const days = num(delivery.totalTransitDays);
  return {
    service_code: ourServiceCode(productCode),
    carrier_service_code: productCode,
    service_name: dhlServiceName(productCode, str(product.productName)),
    // DHL prices by its own zones and does not say which one applied.
    zone: 0,
    base_price: { amount: Math.max(0, price.amount - surchargeSum), currency: price.currency },
    surcharges,
    price,
    list_price: list,
    negotiated: billed !== null && published !== null && (billed.amount !== published.amount || billed.currency !== published.currency),
    other_charges: other,
    billable_weight_oz: ozFrom(num(weight.provided), unit) ?? 0,
    dim_weight_oz: volumetric !== null && volumetric > 0 ? volumetric : null,
    // DHL reports the volumetric weight, not the divisor it used.
    dim_divisor: null,
    dim_divisor_unit: null,
    business_days: days !== null && days >= 0 ? Math.round(days) : 0,
    transit_known: days !== null && days >= 0,
    // Time Definite network products carry DHL's delivery-time commitment; Day Definite ones do not.
    guaranteed: str(product.networkTypeCode) === 'TD',
    estimated_delivery_date: isoDateOf(str(delivery.estimatedDeliveryDateAndTime)),
    rate_table_version: 'dhl_express_api',
  };
}

export function parseRateResponse(body: unknown, requested?: readonly string[]): ApiRateResponse | null {
  const b = obj(body);
  if (!Array.isArray(b.products)) return null;
  const all = b.products.map((p) => parseProduct(obj(p))).filter((r): r is ApiRate => r !== null);
  const rates = requested?.length ? all.filter((r) => requested.includes(r.service_code)) : all;
  const unavailable = (requested ?? [])
    .filter((code) => !rates.some((r) => r.service_code === code))
    .map((service_code) => ({ service_code, reason: 'not_offered_by_carrier' }));
  rates.sort((a, b) => a.price.amount - b.price.amount);
  return { rates, unavailable };
}
