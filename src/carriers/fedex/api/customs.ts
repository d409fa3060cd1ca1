/**
 * Customs in FedEx's own fields (ship-v1 `RequestedShipment.customsClearanceDetail`): commodities,
 * duties payment, total customs value, commercial invoice (purpose, terms of sale, declaration,
 * references), the export detail with the ITN or the FTR exemption, and the importer's tax ids on
 * the recipient. The commercial invoice is asked for as a PDF shipping document
 * (`shippingDocumentSpecification`), returned in `shipmentDocuments`. Pure.
 */
import type { ApiCarrierDocument, ApiPurchaseRequest } from '../../driver.js';
import { asList, clip, LABEL_MIME, obj, str, type Json } from '../../http/json-read.js';
import type { CustomsDeclaration, CustomsItem } from '../../types.js';
import { FEDEX_DUTIES_PAYERS, FEDEX_SHIPMENT_PURPOSES, FEDEX_TERMS_OF_SALE } from './units.js';

const DECLARATION = 'I hereby certify that the information on this invoice is true and correct and the contents and value of this shipment is as stated above.';

/** Minor units → FedEx's decimal amount (a number). */
function amount(minor: number): number {
  return Math.round(minor) / 100;
}

/** Commodity weights are kilograms only (`Weight_4.units` enum `KG`): two decimals, at least 0.01. */
export function kilogramsFromOz(oz: number): number {
  return Math.max(0.01, Math.ceil(oz * 0.028349523125 * 100 - 1e-9) / 100);
}

export function customsCurrency(customs: CustomsDeclaration): string {
  return customs.items[0]?.unit_value.currency ?? 'USD';
}

function commodity(item: CustomsItem, currency: string): Json {
  const c: Json = {
    description: item.description.trim().slice(0, 450),
    quantity: item.quantity,
    quantityUnits: 'EA',
    numberOfPieces: 1,
    unitPrice: { amount: amount(item.unit_value.amount), currency },
    customsValue: { amount: amount(item.unit_value.amount * item.quantity), currency },
    weight: { units: 'KG', value: kilogramsFromOz(item.weight_oz * item.quantity) },
    countryOfManufacture: item.origin_country.toUpperCase(),
  };
  const hs = item.hs_tariff_number?.replace(/\./g, '');
  if (hs) c.harmonizedCode = hs;
  const sku = clip(item.sku, 35);
  if (sku) c.partNumber = sku;
  return c;
}

/** The ITN as FedEx prints it (`AES X20260302123456`), else the FTR exemption (`NOEEI 30.37(a)`). */
export function exportComplianceStatement(customs: CustomsDeclaration): string | null {
  if (customs.aes_itn) return `AES ${customs.aes_itn}`;
  return customs.eel_pfc ?? null;
}

/** The importer's tax ids as FedEx `tins` on the recipient: VAT and tax id national, EORI union-wide. */
export function importerTins(customs: CustomsDeclaration): Json[] {
  const i = customs.importer;
  if (!i) return [];
  const tins: Json[] = [];
  if (i.vat) tins.push({ number: i.vat, tinType: 'BUSINESS_NATIONAL' });
  if (i.eori) tins.push({ number: i.eori, tinType: 'BUSINESS_UNION' });
  if (i.tax_id) tins.push({ number: i.tax_id, tinType: 'BUSINESS_NATIONAL' });
  // IOSS (EU import one-stop shop) has no tinType of its own at FedEx: BUSINESS_UNION, usage says which.
  if (i.ioss) tins.push({ number: i.ioss, tinType: 'BUSINESS_UNION', usage: 'IOSS' });
  return tins;
}

export function buildCustomsClearanceDetail(req: ApiPurchaseRequest, customs: CustomsDeclaration, accountNumber: string): Json {
  const currency = customsCurrency(customs);
  const total = customs.items.reduce((s, i) => s + i.unit_value.amount * i.quantity, 0);
  const payer = FEDEX_DUTIES_PAYERS[customs.incoterm];
  const invoice: Json = {
    shipmentPurpose: FEDEX_SHIPMENT_PURPOSES[customs.contents_type],
    termsOfSale: FEDEX_TERMS_OF_SALE[customs.incoterm],
    declarationStatement: DECLARATION,
    customerReferences: [{ customerReferenceType: 'INVOICE_NUMBER', value: req.reference.slice(0, 30) }],
  };
  const signer = clip(customs.signer, 70);
  if (signer) invoice.originatorName = signer;
  if (customs.contents_type === 'other' && customs.contents_explanation) invoice.specialInstructions = customs.contents_explanation.slice(0, 100);
  const detail: Json = {
    dutiesPayment:
      payer === 'SENDER' ? { paymentType: 'SENDER', payor: { responsibleParty: { accountNumber: { value: accountNumber } } } } : { paymentType: 'RECIPIENT' },
    isDocumentOnly: customs.contents_type === 'documents',
    commercialInvoice: invoice,
    commodities: customs.items.map((i) => commodity(i, currency)),
    totalCustomsValue: { amount: amount(total), currency },
  };
  const statement = exportComplianceStatement(customs);
  if (statement) detail.exportDetail = { exportComplianceStatement: statement };
  return detail;
}

/** The commercial invoice asked for beside the label (none for documents). */
export function buildShippingDocumentSpecification(customs: CustomsDeclaration): Json | null {
  if (customs.contents_type === 'documents') return null;
  return {
    shippingDocumentTypes: ['COMMERCIAL_INVOICE'],
    commercialInvoiceDetail: { documentFormat: { docType: 'PDF', stockType: 'PAPER_LETTER' } },
  };
}

/** FedEx `contentType` → our document type. */
const DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  COMMERCIAL_INVOICE: 'commercial_invoice',
  PROFORMA_INVOICE: 'commercial_invoice',
};

/** `transactionShipments[].shipmentDocuments[]` (encoded, not URLs) → documents; the labels stay labels. */
export function parseShipmentDocuments(shipment: Json): ApiCarrierDocument[] {
  return asList(shipment.shipmentDocuments)
    .map(obj)
    .flatMap((d) => {
      const encoded = str(d.encodedLabel);
      const contentType = str(d.contentType) ?? 'DOCUMENT';
      if (!encoded || contentType === 'LABEL') return [];
      const docType = (str(d.docType) ?? 'PDF').toUpperCase();
      const format = docType === 'PNG' ? 'PNG' : docType === 'ZPL' || docType === 'ZPLII' ? 'ZPL' : 'PDF';
      return [
        {
          type: DOCUMENT_TYPES[contentType] ?? contentType.toLowerCase(),
          artifact: { format, mime: LABEL_MIME[format], bytes: Buffer.from(encoded, 'base64') },
        },
      ];
    });
}
