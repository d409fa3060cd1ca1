/**
 * Customs in UPS's own fields (Shipping.yaml): `ShipmentServiceOptions.InternationalForms` with a
 * commercial invoice (FormType `01`), its products, sold-to party, reason for export, terms of
 * shipment and declaration statement; `Shipment.Description`; `InvoiceLineTotal` to Canada and
 * Puerto Rico; and a duties-and-taxes charge billed to the shipper for DDP. Pure.
 */
import type { ApiPurchaseRequest } from '../../driver.js';
import type { CustomsDeclaration, CustomsItem } from '../../types.js';
import { UPS_REASONS_FOR_EXPORT, UPS_RETURN_FORM_TYPE, UPS_TERMS_OF_SHIPMENT } from './units.js';
import { clip, partyName, phoneDigits, poundsFromOz, upsAddress, yyyymmdd, type Json } from './wire.js';

/** UPS's declaration statement, printed on the invoice above the signer. */
export const UPS_DECLARATION_STATEMENT =
  'I hereby certify that the information on this invoice is true and correct and the contents and value of this shipment is as stated above.';

/** Minor units → UPS's decimal string (`"12.50"`). */
export function decimal(amountMinor: number): string {
  return (amountMinor / 100).toFixed(2);
}

/** The invoice currency: the items' (the platform validates that they share one). */
export function customsCurrency(customs: CustomsDeclaration): string {
  return customs.items[0]?.unit_value.currency ?? 'USD';
}

export function customsTotalMinor(customs: CustomsDeclaration): number {
  return customs.items.reduce((sum, i) => sum + i.unit_value.amount * i.quantity, 0);
}

/** A description cut into UPS's `Description` lines (at most 3 of 35 characters). */
function descriptionLines(description: string): string[] {
  const text = description.trim();
  const lines: string[] = [];
  for (let i = 0; i < text.length && lines.length < 3; i += 35) lines.push(text.slice(i, i + 35).trim());
  return lines.filter(Boolean);
}

function product(item: CustomsItem): Json {
  const p: Json = {
    Description: descriptionLines(item.description),
    Unit: { Number: String(item.quantity), UnitOfMeasurement: { Code: 'PCS' }, Value: decimal(item.unit_value.amount) },
    OriginCountryCode: item.origin_country.toUpperCase(),
    // ProductWeight is read by the CO and EEI forms; sent for the line's whole weight (pounds, one decimal).
    ProductWeight: { UnitOfMeasurement: { Code: 'LBS' }, Weight: poundsFromOz(item.weight_oz * item.quantity) },
  };
  const hs = item.hs_tariff_number?.replace(/\./g, '');
  if (hs) p.CommodityCode = hs;
  const sku = clip(item.sku, 35);
  if (sku) p.PartNumber = sku;
  return p;
}

/** The EEL/PFC or the ITN, as a commercial invoice carries it (`NOEEI 30.37(a)`, `AES X20260302123456`). */
export function exportFiling(customs: CustomsDeclaration): string | null {
  if (customs.aes_itn) return `AES ${customs.aes_itn}`;
  return customs.eel_pfc ?? null;
}

export function buildInternationalForms(req: ApiPurchaseRequest, customs: CustomsDeclaration): Json {
  const to = req.ship_to;
  const soldTo: Json = {
    Name: partyName(to, 'Recipient'),
    AttentionName: clip(to.name, 35) ?? partyName(to, 'Recipient'),
    Address: upsAddress(to, 5),
  };
  const taxId = clip(customs.importer?.vat ?? customs.importer?.eori ?? customs.importer?.tax_id ?? customs.importer?.ioss, 15);
  if (taxId) soldTo.TaxIdentificationNumber = taxId;
  const phone = phoneDigits(to.phone);
  if (phone) soldTo.Phone = { Number: phone };
  const reason =
    customs.contents_type === 'other'
      ? (clip(customs.contents_explanation, 20) ?? UPS_REASONS_FOR_EXPORT.other)
      : UPS_REASONS_FOR_EXPORT[customs.contents_type];
  const forms: Json = {
    // A return may carry only the partial invoice (05), whose reason is always RETURN.
    FormType: [req.is_return ? UPS_RETURN_FORM_TYPE : '01'],
    Contacts: { SoldTo: soldTo },
    Product: customs.items.map(product),
    InvoiceNumber: req.reference.slice(0, 35),
    InvoiceDate: yyyymmdd(req.ship_date),
    TermsOfShipment: UPS_TERMS_OF_SHIPMENT[customs.incoterm],
    ReasonForExport: req.is_return ? UPS_REASONS_FOR_EXPORT.return_merchandise : reason,
    DeclarationStatement: customs.signer ? `${UPS_DECLARATION_STATEMENT} Signed: ${customs.signer}`.slice(0, 550) : UPS_DECLARATION_STATEMENT,
    CurrencyCode: customsCurrency(customs),
  };
  const filing = exportFiling(customs);
  if (filing) forms.Comments = filing.slice(0, 150);
  return forms;
}

/** `Shipment.Description` (50): the items' descriptions, joined. */
export function goodsDescription(customs: CustomsDeclaration): string {
  return customs.items
    .map((i) => i.description.trim())
    .join(', ')
    .slice(0, 50);
}

/** Customs fields of `ShipmentRequest.Shipment`, merged by the ship builder; empty without customs. */
export function customsShipmentFields(req: ApiPurchaseRequest, accountNumber: string): { shipment: Json; serviceOptions: Json; extraCharges: Json[] } {
  const customs = req.customs;
  if (!customs || customs.items.length === 0) return { shipment: {}, serviceOptions: {}, extraCharges: [] };
  const shipment: Json = { Description: goodsDescription(customs) };
  const origin = req.ship_from.country.toUpperCase();
  const dest = req.ship_to.country.toUpperCase();
  if (customs.contents_type === 'documents') {
    // Documents of no commercial value travel without an invoice. UPS takes
    // DocumentsOnlyIndicator only from a non-US origin to a destination other than CA, PR, MX.
    if (origin !== 'US' && !['CA', 'PR', 'MX'].includes(dest)) shipment.DocumentsOnlyIndicator = '';
    return { shipment, serviceOptions: {}, extraCharges: [] };
  }
  // Shipping.yaml: InvoiceLineTotal is required US → CA/PR and "not available for any other shipments".
  if (origin === 'US' && (dest === 'CA' || dest === 'PR')) {
    shipment.InvoiceLineTotal = { CurrencyCode: customsCurrency(customs), MonetaryValue: String(Math.max(1, Math.ceil(customsTotalMinor(customs) / 100))) };
  }
  // DDP: the shipper pays duties and taxes (ShipmentCharge Type 02), beside the transportation charge.
  const extraCharges = customs.incoterm === 'DDP' ? [{ Type: '02', BillShipper: { AccountNumber: accountNumber } }] : [];
  return { shipment, serviceOptions: { InternationalForms: buildInternationalForms(req, customs) }, extraCharges };
}
