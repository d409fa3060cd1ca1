/**
 * Domestic Labels (`POST /labels/v3/label`, cancel `DELETE /labels/v3/label/{trackingNumber}`,
 * domestic-labels.yaml). The label answer is multipart: a JSON `labelMetadata` part, then the
 * Base64 `labelImage` part (and a receipt, which we ask USPS not to make).
 */
import type { ApiPurchaseRequest, ApiPurchaseResult, ApiRate, CarrierLabelImage, LabelArtifact } from '../../driver.js';
import { asList, obj, str, type Json } from '../../http/json-read.js';
import type { Surcharge } from '../../types.js';
import { buildDomesticCustomsForm } from './customs.js';
import { decodeBase64, parseMultipart, type MultipartPart } from './multipart.js';
import { extraServiceCodes, insuredDollars, labelReferences, needsSignatureField, surchargeOfExtraServiceName } from './options.js';
import { DOMESTIC_IMAGE_TYPES, flatRateShape, LABEL_MIME, ourServiceCode, packageCharacteristics, surchargeOfFee, uspsServiceName } from './units.js';
import { domesticAddress, inches, pounds, usd } from './wire.js';

export const DOMESTIC_LABEL_PATH = '/labels/v3/label';
/** Return labels (`post-return-label`): cancelled like any domestic label. */
export const RETURN_LABEL_PATH = '/labels/v3/return-label';

export function domesticCancelPath(trackingNumber: string): string {
  return `${DOMESTIC_LABEL_PATH}/${encodeURIComponent(trackingNumber)}`;
}

/** Which package of a multi-package shipment a label is (printed on it as "n of N"). */
export interface PackageCount {
  packageNumber: number;
  totalPackages: number;
}

export function buildDomesticLabelRequest(req: ApiPurchaseRequest, mailClass: string, piece?: PackageCount): Json {
  const parcel = req.parcels?.length ? req.parcels[0] : req.parcel;
  // A flat-rate envelope or box goes by its rate indicator where the class prices it flat.
  const shape = flatRateShape(parcel, mailClass) ?? packageCharacteristics(parcel);
  const extras = extraServiceCodes(req.options);
  const insured = insuredDollars(req.options);
  const customsForm = req.customs?.items.length ? buildDomesticCustomsForm(req.customs) : null;
  return {
    imageInfo: {
      imageType: DOMESTIC_IMAGE_TYPES[req.label_image],
      labelType: '4X6LABEL',
      // The label alone: no receipt part, postage printed as usual.
      receiptOption: 'NONE',
      suppressPostage: false,
      ...(piece ?? {}),
    },
    toAddress: domesticAddress(req.ship_to),
    fromAddress: domesticAddress(req.ship_from),
    packageDescription: {
      mailClass,
      rateIndicator: shape.rateIndicator,
      processingCategory: shape.processingCategory,
      destinationEntryFacilityType: 'NONE',
      weightUOM: 'lb',
      weight: pounds(parcel.weight_oz),
      dimensionsUOM: 'in',
      length: inches(parcel.length_in),
      width: inches(parcel.width_in),
      height: inches(parcel.height_in),
      mailingDate: req.ship_date.slice(0, 10),
      // The caller's references (printed), then our shipment id, so the label and USPS's records can be matched.
      customerReference: labelReferences(req.options, req.reference, customsForm !== null),
      ...(extras.length ? { extraServices: extras } : {}),
      ...(needsSignatureField(extras) ? { physicalSignatureRequired: true } : {}),
      ...(insured !== null ? { packageOptions: { packageValue: insured } } : {}),
    },
    // Military (APO/FPO/DPO) and territory mail carries a customs form on the domestic label.
    ...(customsForm ? { customsForm } : {}),
  };
}

/**
 * A USPS Returns label (ReturnLabelRequest): the customer (`ship_from`) sends to the merchant
 * (`ship_to`), in the return mail class; the domestic request without what ReturnLabelRequest
 * does not take (the piece count, postage printing, a customs form).
 */
export function buildReturnLabelRequest(req: ApiPurchaseRequest, returnMailClass: string): Json {
  const out = buildDomesticLabelRequest({ ...req, customs: null }, returnMailClass);
  const image = out.imageInfo as Json;
  delete image.suppressPostage;
  return out;
}

export interface LabelParts {
  metadata: Json;
  label: LabelArtifact;
  /** The parts as named objects, images as base64 text (what the published schema describes). */
  named: Record<string, unknown>;
}

const IMAGE_BY_MIME: Readonly<Record<string, CarrierLabelImage>> = {
  'application/pdf': 'PDF',
  'image/png': 'PNG',
  'image/gif': 'GIF',
  'application/zpl': 'ZPL',
  'application/x-zpl': 'ZPL',
};

function imageFormat(part: MultipartPart, requested: CarrierLabelImage): CarrierLabelImage {
  const byType = part.contentType ? IMAGE_BY_MIME[part.contentType] : undefined;
  if (byType) return byType;
  const ext = /\.([a-z]+)$/i.exec(part.filename ?? '')?.[1]?.toLowerCase();
  if (ext === 'pdf') return 'PDF';
  if (ext === 'png') return 'PNG';
  if (ext === 'gif') return 'GIF';
  if (ext === 'zpl' || ext === 'txt') return 'ZPL';
  return requested;
}

/**
 * The metadata and label image of a multipart label answer (`labelMetadata`/`labelImage`, or
 * for the international API the same names); parts without names are taken in USPS's order
 * (the first JSON part is the metadata, the first other part the label). Null when either is
 * missing or the image is not base64.
 */
export function readLabelParts(body: string, contentType: string | undefined, requested: CarrierLabelImage): LabelParts | null {
  const parts = parseMultipart(body, contentType);
  if (!parts) return null;
  const isJson = (p: MultipartPart) => p.contentType?.includes('json') ?? p.body.startsWith('{');
  const metaPart = parts.find((p) => p.name === 'labelMetadata' || p.name === 'returnLabelMetadata') ?? parts.find((p) => !p.name && isJson(p));
  const imagePart = parts.find((p) => p.name === 'labelImage' || p.name === 'returnLabelImage') ?? parts.find((p) => !p.name && !isJson(p));
  if (!metaPart || !imagePart) return null;
  let metadata: Json;
  try {
    metadata = obj(JSON.parse(metaPart.body));
  } catch {
    return null;
  }
  const bytes = decodeBase64(imagePart.body);
  if (!bytes) return null;
  const format = imageFormat(imagePart, requested);
  const named: Record<string, unknown> = {};
  for (const p of parts) {
    if (!p.name) continue;
    if (p === metaPart) named[p.name] = metadata;
    else named[p.name] = p.body.replace(/\s+/g, '');
  }
  return { metadata, label: { format, mime: LABEL_MIME[format], bytes }, named };
}

/** What USPS charged, from `labelMetadata`: postage plus fees and extra services. */
export function rateFromMetadata(m: Json, mailClass: string): ApiRate | null {
  const postage = usd(m.postage);
  if (!postage) return null;
  const surcharges = new Map<string, Surcharge>();
  const other: ApiRate['other_charges'] = [];
  const extraServices = new Set(asList(m.extraServices));
  for (const raw of [...asList(m.fees), ...extraServices]) {
    const fee = obj(raw);
    const amount = usd(fee.price);
    if (!amount || amount.amount === 0) continue;
    const name = str(fee.name) ?? '';
    const ours = extraServices.has(raw) ? surchargeOfExtraServiceName(name) : surchargeOfFee(name);
    if (ours) surcharges.set(ours, { code: ours, amount: { amount: (surcharges.get(ours)?.amount.amount ?? 0) + amount.amount, currency: 'USD' } });
    else other.push({ carrier_code: str(fee.SKU) ?? name, description: name || null, amount });
  }
  // `postage` is the label's price; fees and extra services listed beside it are part of it.
  const price = { amount: postage.amount, currency: 'USD' };
  const surchargeSum = [...surcharges.values()].reduce((s, c) => s + c.amount.amount, 0);
  const weightLb = typeof m.weight === 'number' ? m.weight : null;
  const dimLb = typeof m.dimensionalWeight === 'number' && m.dimensionalWeight > 0 ? m.dimensionalWeight : null;
  const zone = Number.parseInt(str(m.zone) ?? '', 10);
  const delivery = str(obj(m.commitment).scheduleDeliveryDate) ?? str(obj(m.commitment).expectedDeliveryDate);
  const days = /^(\d+)\s+Day/i.exec(str(obj(m.commitment).name) ?? '');
  return {
    service_code: ourServiceCode(mailClass),
    carrier_service_code: mailClass,
    service_name: uspsServiceName(mailClass),
    zone: Number.isFinite(zone) ? zone : 0,
    base_price: { amount: Math.max(0, price.amount - surchargeSum), currency: 'USD' },
    surcharges: [...surcharges.values()],
    price,
    list_price: price,
    negotiated: false,
    other_charges: other,
    billable_weight_oz: Math.round(Math.max(weightLb ?? 0, dimLb ?? 0) * 16),
    dim_weight_oz: dimLb === null ? null : Math.round(dimLb * 16),
    dim_divisor: null,
    dim_divisor_unit: null,
    business_days: days ? Number(days[1]) : 0,
    transit_known: days !== null,
    guaranteed: false,
    estimated_delivery_date: delivery && /^\d{4}-\d{2}-\d{2}/.test(delivery) ? delivery.slice(0, 10) : null,
    rate_table_version: 'usps_api',
  };
}

/** Null when the answer lacks a tracking number or a readable label. */
export function parseLabelResponse(
  body: string,
  contentType: string | undefined,
  req: ApiPurchaseRequest,
  mailClass: string,
  idPrefix = '',
): ApiPurchaseResult | null {
  const parts = readLabelParts(body, contentType, req.label_image);
  if (!parts) return null;
  const tracking = str(parts.metadata.trackingNumber);
  if (!tracking) return null;
  return {
    tracking_number: tracking,
    carrier_shipment_id: `${idPrefix}${tracking}`,
    packages: [{ tracking_number: tracking, label: parts.label }],
    label: parts.label,
    rate: rateFromMetadata(parts.metadata, mailClass),
  };
}

/**
 * Several labels bought for one shipment → one result: the first label's tracking number leads
 * (as with UPS), every package is listed, the charges are summed, and the carrier shipment id
 * names every label (`<n1>,<n2>,…`, behind the international prefix when there is one), so a
 * void of the shipment voids them all.
 */
export function combinePackages(bought: readonly ApiPurchaseResult[]): ApiPurchaseResult {
  const first = bought[0];
  const rates = bought.map((b) => b.rate);
  let rate: ApiRate | null = null;
  if (rates.every((r): r is ApiRate => r !== null)) {
    const sum = (pick: (r: ApiRate) => number) => rates.reduce((s, r) => s + pick(r), 0);
    const surcharges = new Map<string, Surcharge>();
    for (const s of rates.flatMap((r) => r.surcharges)) {
      surcharges.set(s.code, { code: s.code, amount: { amount: (surcharges.get(s.code)?.amount.amount ?? 0) + s.amount.amount, currency: 'USD' } });
    }
    rate = {
      ...rates[0],
      price: { amount: sum((r) => r.price.amount), currency: 'USD' },
      list_price: { amount: sum((r) => r.list_price.amount), currency: 'USD' },
      base_price: { amount: sum((r) => r.base_price.amount), currency: 'USD' },
      surcharges: [...surcharges.values()],
      other_charges: rates.flatMap((r) => r.other_charges),
      billable_weight_oz: sum((r) => r.billable_weight_oz),
      dim_weight_oz: rates.some((r) => r.dim_weight_oz !== null) ? sum((r) => r.dim_weight_oz ?? 0) : null,
      business_days: Math.max(...rates.map((r) => r.business_days)),
    };
  }
  return {
    tracking_number: first.tracking_number,
    carrier_shipment_id: first.carrier_shipment_id.replace(first.tracking_number, bought.map((b) => b.tracking_number).join(',')),
    packages: bought.flatMap((b) => b.packages),
    label: first.label,
    rate,
  };
}

/** CancelResponse: `CANCELED`, or `DISPUTED` (USPS opened a refund dispute: not voided). */
export function parseCancelResponse(body: unknown): { status: string; trackingNumber: string | null } | null {
  const o = obj(body);
  const status = str(o.status);
  return status ? { status, trackingNumber: str(o.trackingNumber) } : null;
}
