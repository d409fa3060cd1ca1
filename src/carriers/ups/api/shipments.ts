/**
 * Shipping `ship` (`POST /api/shipments/{version}/ship`) and void
 * (`DELETE /api/shipments/{version}/void/cancel/{shipmentidentificationnumber}`), Shipping.yaml.
 */
import type { ApiCarrierDocument, ApiPurchaseRequest, ApiPurchaseResult, LabelArtifact } from '../../driver.js';
import { customsShipmentFields } from './customs.js';
import { packageReferences, shipmentServiceOptions, shippingPackageOptions } from './options.js';
import { parseRatedShipment } from './rates.js';
import { LABEL_MIME, UPS_RETURN_SERVICE, upsServiceCode } from './units.js';
import { asList, clip, obj, partyName, phoneDigits, str, upsAddress, upsPackages, type Json } from './wire.js';
import type { CarrierLabelImage } from '../../driver.js';

export function buildShipRequest(req: ApiPurchaseRequest, accountNumber: string, upsService: string): Json {
  const parcels = req.parcels?.length ? req.parcels : [req.parcel];
  const party = (a: ApiPurchaseRequest['ship_to'], fallback: string) => {
    const p: Json = { Name: partyName(a, fallback) };
    const attention = clip(a.name, 35);
    if (attention) p.AttentionName = attention;
    const phone = phoneDigits(a.phone);
    if (phone) p.Phone = { Number: phone };
    return p;
  };
  const shipTo = upsAddress(req.ship_to, 5);
  if (req.residential) shipTo.ResidentialAddressIndicator = 'Y';
  const customs = customsShipmentFields(req, accountNumber);
  // A return service needs a merchandise description on every package (and on the shipment).
  const returnDescription = req.is_return ? req.customs?.items.map((i) => i.description.trim()).join(', ') || 'Returned merchandise' : null;
  const packageOptions = shippingPackageOptions(req.options, req.route.domestic, upsService);
  const packages = upsPackages(parcels, 'Packaging').map((p) => ({
    ...(returnDescription ? { Description: returnDescription.slice(0, 35) } : {}),
    ...p,
    ...(packageOptions ? { PackageServiceOptions: packageOptions } : {}),
    ReferenceNumber: packageReferences(req.options, req.reference),
  }));
  const serviceOptions = { ...customs.serviceOptions, ...shipmentServiceOptions(req.options) };
  // The account holder is the Shipper: for a return that is the merchant the parcel goes back to.
  const shipperParty = req.is_return ? req.ship_to : req.ship_from;
  return {
    ShipmentRequest: {
      // validate: UPS checks the city/state/postal combination (street level is not checked).
      Request: { RequestOption: 'validate', TransactionReference: { CustomerContext: req.reference.slice(0, 512) } },
      Shipment: {
        ...(returnDescription ? { Description: returnDescription.slice(0, 50), ReturnService: { ...UPS_RETURN_SERVICE } } : {}),
        ...customs.shipment,
        Shipper: { ...party(shipperParty, 'Shipper'), ShipperNumber: accountNumber, Address: upsAddress(shipperParty, 5) },
        ShipTo: { ...party(req.ship_to, 'Recipient'), Address: shipTo },
        ShipFrom: { ...party(req.ship_from, 'Shipper'), Address: upsAddress(req.ship_from, 5) },
        PaymentInformation: { ShipmentCharge: [{ Type: '01', BillShipper: { AccountNumber: accountNumber } }, ...customs.extraCharges] },
        Service: { Code: upsService },
        ...(Object.keys(serviceOptions).length ? { ShipmentServiceOptions: serviceOptions } : {}),
        ShipmentRatingOptions: { NegotiatedRatesIndicator: 'Y' },
        Package: packages,
      },
      LabelSpecification: {
        LabelImageFormat: { Code: req.label_image },
        LabelStockSize: { Height: '6', Width: '4' },
      },
    },
  };
}

function labelOf(pkg: Json, requested: CarrierLabelImage): LabelArtifact | null {
  const label = obj(pkg.ShippingLabel);
  const image = str(label.GraphicImage);
  if (!image) return null;
  const code = (str(obj(label.ImageFormat).Code) ?? requested).toUpperCase();
  const format: CarrierLabelImage = code === 'PNG' || code === 'ZPL' || code === 'GIF' || code === 'PDF' ? code : requested;
  return { format, mime: LABEL_MIME[format], bytes: Buffer.from(image, 'base64') };
}

/**
 * `ShipmentResults.Form`: the international forms UPS printed (the commercial invoice we ask for,
 * `Form.Code` 01 "All Requested International Forms"), PDF or PNG per `Image.ImageFormat.Code`.
 */
export function parseShipForms(results: Json): ApiCarrierDocument[] {
  return asList(results.Form)
    .map(obj)
    .flatMap((form) => {
      const image = obj(form.Image);
      const data = str(image.GraphicImage);
      if (!data) return [];
      const code = (str(obj(image.ImageFormat).Code) ?? 'PDF').toUpperCase();
      const format: CarrierLabelImage = code === 'PNG' ? 'PNG' : code === 'GIF' ? 'GIF' : 'PDF';
      return [{ type: 'commercial_invoice', artifact: { format, mime: LABEL_MIME[format], bytes: Buffer.from(data, 'base64') } }];
    });
}

/** Null when the answer lacks a tracking number or a label (then nothing was bought that we can use). */
export function parseShipResponse(body: unknown, req: ApiPurchaseRequest, upsService: string): ApiPurchaseResult | null {
  const results = obj(obj(obj(body).ShipmentResponse).ShipmentResults);
  const packages = asList(results.PackageResults).map(obj);
  const parsed = packages.map((p) => ({ tracking_number: str(p.TrackingNumber), label: labelOf(p, req.label_image) }));
  const shipmentId = str(results.ShipmentIdentificationNumber) ?? parsed[0]?.tracking_number ?? null;
  if (!shipmentId || parsed.length === 0 || parsed.some((p) => !p.tracking_number || !p.label)) return null;
  const charges = obj(results.ShipmentCharges);
  const rate =
    Object.keys(charges).length > 0
      ? parseRatedShipment(
          {
            Service: { Code: upsService },
            TotalCharges: charges.TotalCharges,
            ItemizedCharges: charges.ItemizedCharges,
            NegotiatedRateCharges: results.NegotiatedRateCharges,
            BillingWeight: results.BillingWeight,
          },
          req.options,
        )
      : null;
  const pkgs = parsed as { tracking_number: string; label: LabelArtifact }[];
  const documents = parseShipForms(results);
  return {
    tracking_number: pkgs[0].tracking_number,
    carrier_shipment_id: shipmentId,
    packages: pkgs,
    label: pkgs[0].label,
    rate,
    ...(documents.length ? { documents } : {}),
  };
}

export function serviceForPurchase(serviceCode: string): string | null {
  return upsServiceCode(serviceCode);
}

export function voidPath(version: string, shipmentId: string, trackingNumbers?: readonly string[]): string {
  const q = trackingNumbers?.length
    ? `?trackingnumber=${encodeURIComponent(trackingNumbers.length === 1 ? trackingNumbers[0] : JSON.stringify(trackingNumbers))}`
    : '';
  return `/api/shipments/${version}/void/cancel/${encodeURIComponent(shipmentId)}${q}`;
}

/** SummaryResult.Status.Code `1` = voided. */
export function parseVoidResponse(body: unknown): { voided: boolean; description: string | null } | null {
  const status = obj(obj(obj(obj(body).VoidShipmentResponse).SummaryResult).Status);
  const code = str(status.Code);
  if (code === null) return null;
  return { voided: code === '1', description: str(status.Description) };
}
