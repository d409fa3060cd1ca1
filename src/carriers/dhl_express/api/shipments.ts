/**
 * Shipments (`POST /shipments`, `supermodelIoLogisticsExpressCreateShipmentRequest` → `…Response`).
 * MyDHL has no cancel operation: an unused label is simply not handed over, so a void is local
 * (client.ts), except for a pickup booked with the shipment, which is cancelled.
 */
import type { ApiPurchaseRequest, ApiPurchaseResult, ApiRate, CarrierLabelImage, LabelArtifact } from '../../driver.js';
import { asList, num, obj, str, type Json } from '../../http/json-read.js';
import type { Money, Surcharge } from '../../types.js';
import { customsContent, customsValueAddedServices, invoiceImageOptions, parseShipmentDocuments, receiverRegistrationNumbers } from './customs.js';
import { isCustomsDeclarable } from './rates.js';
import { DHL_OPTION_SURCHARGES, optionValueAddedServices, shipmentReferences } from './options.js';
import { DHL_ENCODING, dhlServiceName, LABEL_MIME, ourServiceCode } from './units.js';
import { isoDateOf, moneyOf, packagesOf, party, plannedShippingTime } from './wire.js';

/**
 * `content.description` is required (1–70 characters) and printed on the waybill: with customs it
 * is the items' descriptions; without (a domestic parcel) a neutral one is sent.
 */
const CONTENT_DESCRIPTION = 'Merchandise';
/** `content.incoterm` is required, even domestic; DAP = delivered, duties and taxes for the receiver. */
const DEFAULT_INCOTERM = 'DAP';

export function buildShipmentRequest(req: ApiPurchaseRequest, accountNumber: string, productCode: string): Json {
  const parcels = req.parcels?.length ? req.parcels : [req.parcel];
  const reference = req.reference.slice(0, 35);
  const receiver: Json = { ...party(req.ship_to, 'Recipient'), typeCode: req.residential ? 'private' : 'business' };
  const customs = req.customs?.items.length ? req.customs : null;
  const registrations = customs ? receiverRegistrationNumbers(customs, req.ship_to.country) : [];
  if (registrations.length) receiver.registrationNumbers = registrations;
  const imageOptions = customs ? invoiceImageOptions(customs, req.is_return === true) : [];
  const services = [...(customs ? customsValueAddedServices(customs) : []), ...optionValueAddedServices(req.options, 'shipments')];
  return {
    // The purchase's own timestamp is "now": the builder stays pure.
    plannedShippingDateAndTime: plannedShippingTime(req.ship_date, new Date(req.purchased_at)),
    pickup: { isRequested: false },
    productCode,
    getRateEstimates: true,
    // A return (the customer ships to the merchant) is billed to the merchant's account as payer.
    accounts: req.is_return
      ? [
          { typeCode: 'shipper', number: accountNumber },
          { typeCode: 'payer', number: accountNumber },
        ]
      : [{ typeCode: 'shipper', number: accountNumber }],
    outputImageProperties: { encodingFormat: DHL_ENCODING[req.label_image].encoding, ...(imageOptions.length ? { imageOptions } : {}) },
    customerReferences: shipmentReferences(req.options, req.reference),
    ...(services.length ? { valueAddedServices: services } : {}),
    customerDetails: { shipperDetails: party(req.ship_from, 'Shipper'), receiverDetails: receiver },
    content: {
      packages: packagesOf(parcels, true).map((p) => ({ ...p, customerReferences: [{ value: reference, typeCode: 'CU' }] })),
      isCustomsDeclarable: isCustomsDeclarable(req.ship_from.country, req.ship_to.country),
      description: CONTENT_DESCRIPTION,
      incoterm: DEFAULT_INCOTERM,
      unitOfMeasurement: 'imperial',
      ...(customs ? customsContent(req, customs) : {}),
    },
    // Each label document names its package (packageReferenceNumber), so multi-piece labels pair up.
    getAdditionalInformation: [{ typeCode: 'linkLabelsByPieces', isRequested: true }],
    estimatedDeliveryDate: { isRequested: true, typeCode: 'QDDC' },
  };
}

function artifact(doc: Json, requested: CarrierLabelImage): LabelArtifact | null {
  const content = str(doc.content);
  if (!content) return null;
  const code = (str(doc.imageFormat) ?? '').toUpperCase();
  const format: CarrierLabelImage = code === 'PDF' || code === 'ZPL' || code === 'PNG' || code === 'GIF' ? code : DHL_ENCODING[requested].image;
  return { format, mime: LABEL_MIME[format], bytes: Buffer.from(content, 'base64') };
}

/**
 * One label per package: by `packageReferenceNumber` (we number packages 1…n); else, when DHL
 * returned one label per package, in order; else one label for the whole shipment, shared.
 */
function labelsFor(packages: Json[], docs: Json[], requested: CarrierLabelImage): (LabelArtifact | null)[] {
  const labels = docs.filter((d) => (str(d.typeCode) ?? '').toLowerCase() === 'label');
  const linked = labels.filter((d) => num(d.packageReferenceNumber) !== null);
  if (linked.length > 0) {
    return packages.map((p, i) => {
      const ref = num(p.referenceNumber) ?? i + 1;
      const doc = linked.find((d) => num(d.packageReferenceNumber) === ref);
      return doc ? artifact(doc, requested) : null;
    });
  }
  if (labels.length === packages.length) return labels.map((d) => artifact(d, requested));
  if (labels.length === 1) {
    const shared = artifact(labels[0], requested);
    return packages.map(() => shared);
  }
  return packages.map(() => null);
}

const SURCHARGE_BY_NAME: readonly [RegExp, Surcharge['code']][] = [
  [/fuel/i, 'fuel'],
  [/remote area/i, 'remote_area'],
];

/** `shipmentCharges` (asked with getRateEstimates) → what DHL will bill, as a rate. */
function rateOf(body: Json, productCode: string): ApiRate | null {
  const charges = asList(body.shipmentCharges).map(obj);
  const of = (type: string) => charges.find((c) => str(c.currencyType) === type);
  const billedEntry = of('BILLC') ?? charges[0];
  if (!billedEntry) return null;
  const price = moneyOf(num(billedEntry.price), str(billedEntry.priceCurrency));
  if (!price) return null;
  const publishedEntry = of('PULCL');
  const published: Money | null = publishedEntry ? moneyOf(num(publishedEntry.price), str(publishedEntry.priceCurrency)) : null;
  const surcharges: Surcharge[] = [];
  const other: ApiRate['other_charges'] = [];
  // The first entry of serviceBreakdown is the product itself; the rest are named charges.
  for (const b of asList(billedEntry.serviceBreakdown).map(obj).slice(1)) {
    const name = str(b.name) ?? '';
    const amount = moneyOf(num(b.price), price.currency);
    if (!amount || amount.amount === 0) continue;
    const code = DHL_OPTION_SURCHARGES[str(b.typeCode) ?? ''] ?? SURCHARGE_BY_NAME.find(([re]) => re.test(name))?.[1];
    const prev = code ? surcharges.find((s) => s.code === code) : undefined;
    if (prev) prev.amount.amount += amount.amount;
    else if (code) surcharges.push({ code, amount });
    else other.push({ carrier_code: str(b.typeCode) ?? name, description: name || null, amount });
  }
  const surchargeSum = surcharges.reduce((s, c) => s + c.amount.amount, 0);
  const details = obj(asList(body.shipmentDetails)[0]);
  const pickup = obj(details.pickupDetails);
  const days = num(pickup.totalTransitDays);
  return {
    service_code: ourServiceCode(productCode),
    carrier_service_code: productCode,
    service_name: dhlServiceName(productCode, str(details.productShortName)),
    zone: 0,
    base_price: { amount: Math.max(0, price.amount - surchargeSum), currency: price.currency },
    surcharges,
    price,
    list_price: published ?? price,
    negotiated: published !== null && (published.amount !== price.amount || published.currency !== price.currency),
    other_charges: other,
    billable_weight_oz: 0,
    dim_weight_oz: null,
    dim_divisor: null,
    dim_divisor_unit: null,
    business_days: days !== null ? Math.round(days) : 0,
    transit_known: days !== null,
    guaranteed: false,
    estimated_delivery_date: isoDateOf(str(obj(body.estimatedDeliveryDate).estimatedDeliveryDate)),
    rate_table_version: 'dhl_express_api',
  };
}

/** Null when the answer lacks the waybill number, a piece number or a label: nothing usable was bought. */
export function parseShipmentResponse(body: unknown, req: ApiPurchaseRequest, productCode: string): ApiPurchaseResult | null {
  const b = obj(body);
  const awb = str(b.shipmentTrackingNumber);
  const packages = asList(b.packages).map(obj);
  if (!awb || packages.length === 0) return null;
  const docs = asList(b.documents).map(obj);
  const labels = labelsFor(packages, docs, req.label_image);
  const parsed = packages.map((p, i) => ({ tracking_number: str(p.trackingNumber), label: labels[i] }));
  if (parsed.some((p) => !p.tracking_number || !p.label)) return null;
  const pkgs = parsed as { tracking_number: string; label: LabelArtifact }[];
  const documents = parseShipmentDocuments(docs);
  return {
    // The waybill number is what DHL tracks the shipment by; piece numbers (JD…) are per package.
    tracking_number: awb,
    carrier_shipment_id: awb,
    packages: pkgs,
    label: pkgs[0].label,
    rate: rateOf(b, productCode),
    pickup_confirmation: str(b.dispatchConfirmationNumber),
    ...(documents.length ? { documents } : {}),
  };
}
