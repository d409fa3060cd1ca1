/**
 * Create shipment (`POST /ship/v1/shipments`) and cancel (`PUT /ship/v1/shipments/cancel`),
 * ship-v1-Shipment-Resource.json. Labels come back in the answer (`labelResponseOptions: LABEL`),
 * base64 in `packageDocuments[].encodedLabel`.
 */
import type { ShipmentOptions } from '../../types.js';
import type { ApiPurchaseRequest, ApiPurchaseResult, ApiRate, CarrierLabelImage, LabelArtifact } from '../../driver.js';
import { asList, LABEL_MIME, obj, str, type Json } from '../../http/json-read.js';
import { buildCustomsClearanceDetail, buildShippingDocumentSpecification, importerTins, parseShipmentDocuments } from './customs.js';
import { customerReferences, packageOptionFields, shipmentSpecialServiceTypes } from './options.js';
import { fedexPackaging, ONE_RATE, type FedexPackaging } from './packaging.js';
import { parcelsOf, parseRateReplyDetail, PICKUP_TYPE } from './rates.js';
import { FEDEX_RETURN_SERVICE, FEDEX_SERVICES, fedexImageSpec, imageFromFedex } from './units.js';
import { packageDimensions, packageWeight, partyAddress, partyContact, phoneDigits, totalPounds } from './wire.js';

export const SHIP_PATH = '/ship/v1/shipments';
export const CANCEL_PATH = '/ship/v1/shipments/cancel';

/**
 * FedEx requires a contact phone on both parties. The recipient's falls back to the shipper's
 * (FedEx then calls the shipper about a delivery); a shipper without one is refused before
 * calling (null here).
 */
export function shipPhones(req: ApiPurchaseRequest): { shipper: string; recipient: string } | null {
  const shipper = phoneDigits(req.ship_from.phone);
  if (!shipper) return null;
  return { shipper, recipient: phoneDigits(req.ship_to.phone) ?? shipper };
}

export function isGroundService(serviceType: string): boolean {
  return FEDEX_SERVICES.find((s) => s.fedex === serviceType)?.ground ?? /GROUND|SMART_POST/.test(serviceType);
}

export function buildShipRequest(
  req: ApiPurchaseRequest,
  accountNumber: string,
  serviceType: string,
  phones: { shipper: string; recipient: string },
  packaging: FedexPackaging = fedexPackaging(parcelsOf(req), isGroundService(serviceType)),
): Json {
  const parcels = parcelsOf(req);
  const ground = isGroundService(serviceType);
  const references = customerReferences(req.options, req.reference, ground);
  const oneRate = packaging.ok && packaging.oneRate ? [ONE_RATE] : [];
  const special = [...(req.is_return ? [FEDEX_RETURN_SERVICE.specialServiceType] : []), ...shipmentSpecialServiceTypes(req.options), ...oneRate];
  const customs = req.customs?.items.length ? req.customs : null;
  const recipient: Json = { contact: partyContact(req.ship_to, phones.recipient), address: partyAddress(req.ship_to, req.residential) };
  const tins = customs ? importerTins(customs) : [];
  if (tins.length) recipient.tins = tins;
  const documents = customs ? buildShippingDocumentSpecification(customs) : null;
  return {
    labelResponseOptions: 'LABEL',
    accountNumber: { value: accountNumber },
    requestedShipment: {
      shipDatestamp: req.ship_date,
      shipper: { contact: partyContact(req.ship_from, phones.shipper), address: partyAddress(req.ship_from) },
      recipients: [recipient],
      pickupType: PICKUP_TYPE,
      serviceType,
      packagingType: packaging.ok ? packaging.packagingType : 'YOUR_PACKAGING',
      totalWeight: totalPounds(parcels),
      totalPackageCount: parcels.length,
      shippingChargesPayment: { paymentType: 'SENDER', payor: { responsibleParty: { accountNumber: { value: accountNumber } } } },
      labelSpecification: { labelFormatType: 'COMMON2D', ...fedexImageSpec(req.label_image) },
      ...(customs ? { customsClearanceDetail: buildCustomsClearanceDetail(req, customs, accountNumber) } : {}),
      ...(documents ? { shippingDocumentSpecification: documents } : {}),
      ...(special.length
        ? {
            shipmentSpecialServices: {
              specialServiceTypes: special,
              ...(req.is_return ? { returnShipmentDetail: { returnType: FEDEX_RETURN_SERVICE.returnType } } : {}),
            },
          }
        : {}),
      rateRequestType: ['ACCOUNT', 'LIST'],
      requestedPackageLineItems: parcels.map((p, i) => ({
        sequenceNumber: i + 1,
        weight: packageWeight(p, customs ? 'KG' : 'LB'),
        dimensions: packageDimensions(p),
        ...(references.length ? { customerReferences: references } : {}),
        ...packageOptionFields(req.options, 'ship'),
      })),
    },
  };
}

function labelOf(piece: Json, requested: CarrierLabelImage): LabelArtifact | null {
  const docs = asList(piece.packageDocuments).map(obj);
  const doc = docs.find((d) => d.contentType === 'LABEL' && str(d.encodedLabel)) ?? docs.find((d) => str(d.encodedLabel));
  const encoded = doc ? str(doc.encodedLabel) : null;
  if (!doc || !encoded) return null;
  const format = imageFromFedex(str(doc.docType), requested);
  return { format, mime: LABEL_MIME[format], bytes: Buffer.from(encoded, 'base64') };
}

/** The completed shipment's rating, read as a rate reply (Ship's rate types are PAYOR_ACCOUNT_* / PAYOR_LIST_*). */
function rateOf(shipment: Json, serviceType: string, shipDate: string, options?: ShipmentOptions): ApiRate | null {
  const details = asList(obj(obj(shipment.completedShipmentDetail).shipmentRating).shipmentRateDetails).map(obj);
  if (details.length === 0) return null;
  const ratedShipmentDetails = details.map((d) => {
    const type = str(d.rateType) ?? '';
    return {
      rateType: /ACCOUNT/.test(type) ? 'ACCOUNT' : /LIST/.test(type) ? 'LIST' : type,
      totalNetCharge: d.totalNetCharge ?? d.totalNetFedExCharge,
      currency: d.currency,
      shipmentRateDetail: {
        surCharges: d.surcharges,
        totalBillingWeight: d.totalBillingWeight,
        totalDimWeight: d.totalDimWeight,
        dimDivisor: d.dimDivisor,
        rateZone: d.rateZone,
        currency: d.currency,
      },
    };
  });
  return parseRateReplyDetail({ serviceType, serviceName: shipment.serviceName, ratedShipmentDetails }, shipDate, options);
}

/** Null when the answer lacks a tracking number or a label (then nothing was bought that we can use). */
export function parseShipResponse(body: unknown, req: ApiPurchaseRequest, serviceType: string): ApiPurchaseResult | null {
  const shipment = obj(asList(obj(obj(body).output).transactionShipments)[0]);
  const pieces = asList(shipment.pieceResponses).map(obj);
  const parsed = pieces.map((p) => ({ tracking_number: str(p.trackingNumber), label: labelOf(p, req.label_image) }));
  const master = str(shipment.masterTrackingNumber) ?? parsed[0]?.tracking_number ?? null;
  if (!master || parsed.length === 0 || parsed.some((p) => !p.tracking_number || !p.label)) return null;
  const pkgs = parsed as { tracking_number: string; label: LabelArtifact }[];
  const documents = parseShipmentDocuments(shipment);
  return {
    tracking_number: pkgs[0].tracking_number,
    // Cancel takes the master tracking number (the first piece's on a single-piece shipment).
    carrier_shipment_id: master,
    packages: pkgs,
    label: pkgs[0].label,
    rate: rateOf(shipment, serviceType, req.ship_date, req.options),
    ...(documents.length ? { documents } : {}),
  };
}

/** `DELETE_ALL_PACKAGES`: a multi-piece shipment is voided whole, as our void is. */
export function buildCancelRequest(accountNumber: string, trackingNumber: string, senderCountry?: string): Json {
  const out: Json = { accountNumber: { value: accountNumber }, trackingNumber, deletionControl: 'DELETE_ALL_PACKAGES' };
  if (senderCountry) out.senderCountryCode = senderCountry;
  return out;
}

/** `cancelledShipment: true` = voided; null when the body is not a cancel answer. */
export function parseCancelResponse(body: unknown): { cancelled: boolean; message: string | null } | null {
  const output = obj(obj(body).output);
  if (typeof output.cancelledShipment !== 'boolean') return null;
  return { cancelled: output.cancelledShipment, message: str(output.message) };
}
