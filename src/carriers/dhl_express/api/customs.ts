/**
 * Customs in MyDHL's own fields (`POST /shipments`): `content.isCustomsDeclarable`,
 * `declaredValue`/`declaredValueCurrency`, `content.exportDeclaration` (lineItems, invoice,
 * exportReason…), the importer's registration numbers on the receiver, and the commercial
 * invoice asked for as an image beside the label (`outputImageProperties.imageOptions`). Also the
 * documents DHL returns beside the labels (`documents[]`), decoded. Pure.
 */
import type { ApiCarrierDocument, ApiPurchaseRequest, CarrierLabelImage } from '../../driver.js';
import { clip, str, type Json } from '../../http/json-read.js';
import type { CustomsDeclaration, CustomsItem } from '../../types.js';
import { DHL_DOCUMENT_TYPES, DHL_EXPORT_REASON_TYPES, DHL_INCOTERMS, DHL_REGISTRATION_TYPES, LABEL_MIME } from './units.js';
import { poundsFromOz } from './wire.js';

/** Minor units → DHL's decimal number (at most 3 decimals). */
function amount(minor: number): number {
  return Math.round(minor) / 100;
}

export function customsCurrency(customs: CustomsDeclaration): string {
  return customs.items[0]?.unit_value.currency ?? 'USD';
}

export function customsTotalMinor(customs: CustomsDeclaration): number {
  return customs.items.reduce((s, i) => s + i.unit_value.amount * i.quantity, 0);
}

/** A dutiable shipment (DHL: "if the shipment is dutiable, exportDeclaration must be provided"); documents are not. */
export function isDutiable(customs: CustomsDeclaration): boolean {
  return customs.contents_type !== 'documents';
}

function lineItem(item: CustomsItem, index: number, reasonType: string): Json {
  // Weights in the shipment's unit of measurement (imperial: pounds), for the whole line.
  const pounds = poundsFromOz(item.weight_oz * item.quantity);
  const line: Json = {
    number: index + 1,
    description: item.description.trim().slice(0, 512),
    price: amount(item.unit_value.amount),
    quantity: { value: item.quantity, unitOfMeasurement: 'PCS' },
    exportReasonType: reasonType,
    manufacturerCountry: item.origin_country.toUpperCase(),
    weight: { netValue: pounds, grossValue: pounds },
  };
  const hs = item.hs_tariff_number?.replace(/\./g, '');
  if (hs) line.commodityCodes = [{ typeCode: 'outbound', value: hs }];
  const sku = clip(item.sku, 35);
  // PAN: part number (DHL's reference data guide; the description lists the codes without meanings).
  if (sku) line.customerReferences = [{ typeCode: 'PAN', value: sku }];
  return line;
}

export function buildExportDeclaration(req: ApiPurchaseRequest, customs: CustomsDeclaration): Json {
  // A return goes back as `return` whatever its declared contents.
  const reasonType = req.is_return ? DHL_EXPORT_REASON_TYPES.return_merchandise : DHL_EXPORT_REASON_TYPES[customs.contents_type];
  const invoice: Json = { number: req.reference.slice(0, 35), date: req.ship_date.slice(0, 10) };
  const signer = clip(customs.signer, 35);
  if (signer) invoice.signatureName = signer;
  // The ITN, or the EEL/PFC exemption (FTR: Foreign Trade Regulations), on the invoice.
  const refs: Json[] = [];
  if (customs.aes_itn) refs.push({ typeCode: 'ITN', value: customs.aes_itn });
  else if (customs.eel_pfc) refs.push({ typeCode: 'FTR', value: customs.eel_pfc.slice(0, 35) });
  if (refs.length) invoice.customerReferences = refs;
  const declaration: Json = {
    lineItems: customs.items.map((item, i) => lineItem(item, i, reasonType)),
    invoice,
    exportReasonType: reasonType,
    shipmentType: customs.contents_type === 'gift' ? 'personal' : 'commercial',
  };
  const reason = customs.contents_type === 'other' ? clip(customs.contents_explanation, 30) : undefined;
  if (reason) declaration.exportReason = reason;
  if (customs.aes_itn || customs.eel_pfc) declaration.declarationNotes = [{ value: customs.aes_itn ? `AES ${customs.aes_itn}` : customs.eel_pfc! }];
  return declaration;
}

/** The importer's ids as the receiver's `registrationNumbers`, issued by the destination country. */
export function receiverRegistrationNumbers(customs: CustomsDeclaration, destinationCountry: string): Json[] {
  const importer = customs.importer;
  if (!importer) return [];
  return (['vat', 'eori', 'ioss', 'tax_id'] as const)
    .filter((k) => importer[k])
    .map((k) => ({ typeCode: DHL_REGISTRATION_TYPES[k], number: importer[k]!.slice(0, 35), issuerCountryCode: destinationCountry.toUpperCase() }));
}

/** `content` fields of a shipment with customs (merged over the defaults by the builder). */
export function customsContent(req: ApiPurchaseRequest, customs: CustomsDeclaration): Json {
  const description = customs.items
    .map((i) => i.description.trim())
    .join(', ')
    .slice(0, 70);
  const content: Json = {
    isCustomsDeclarable: isDutiable(customs),
    description,
    incoterm: DHL_INCOTERMS[customs.incoterm],
  };
  if (isDutiable(customs)) {
    content.declaredValue = amount(customsTotalMinor(customs));
    content.declaredValueCurrency = customsCurrency(customs);
    content.exportDeclaration = buildExportDeclaration(req, customs);
  }
  return content;
}

/**
 * DDP: the shipper pays duties and taxes, which MyDHL books as the value-added service `DD`
 * (Duties and Taxes Paid); the incoterm alone does not move the bill.
 */
export function customsValueAddedServices(customs: CustomsDeclaration): Json[] {
  return customs.incoterm === 'DDP' && isDutiable(customs) ? [{ serviceCode: 'DD' }] : [];
}

/** The invoice DHL should print beside the label (dutiable shipments only): commercial, or MyDHL's returns invoice for a return. */
export function invoiceImageOptions(customs: CustomsDeclaration, isReturn = false): Json[] {
  return isDutiable(customs) ? [{ typeCode: 'invoice', isRequested: true, invoiceType: isReturn ? 'returns' : 'commercial' }] : [];
}

/** `documents[]` other than labels → ours: `invoice` → commercial_invoice, `waybillDoc` → waybill, … else snake_case. */
export function parseShipmentDocuments(docs: Json[]): ApiCarrierDocument[] {
  return docs.flatMap((d) => {
    const typeCode = str(d.typeCode) ?? '';
    const content = str(d.content);
    if (!content || typeCode.toLowerCase() === 'label') return [];
    const code = (str(d.imageFormat) ?? 'PDF').toUpperCase();
    const format: CarrierLabelImage = code === 'PNG' || code === 'ZPL' || code === 'GIF' ? code : 'PDF';
    const type = DHL_DOCUMENT_TYPES[typeCode] ?? snakeCase(typeCode || 'document');
    return [{ type, artifact: { format, mime: LABEL_MIME[format], bytes: Buffer.from(content, 'base64') } }];
  });
}

export function snakeCase(s: string): string {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}
