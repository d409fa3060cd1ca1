/**
 * Customs in USPS's own fields: the international label's `customsForm`
 * (InternationalCustomsForm, international-labels.yaml), the domestic label's (DomesticCustomsForm,
 * domestic-labels.yaml: military APO/FPO/DPO and territories), `packageOptions
 * {nonDeliveryOption, packageValue}` and `prepayDutiesTaxesFees` for DDP. Pure.
 */
import type { ApiPurchaseRequest } from '../../driver.js';
import { clip, type Json } from '../../http/json-read.js';
import type { CustomsDeclaration, CustomsItem } from '../../types.js';
import { USPS_CUSTOMS_CONTENT_TYPES, USPS_IMPORTER_REFERENCES, USPS_NON_DELIVERY_OPTIONS } from './units.js';

/** The customs seam: the request's customs data → USPS `customsForm` (InternationalCustomsForm). */
export type CustomsFormBuilder = (req: ApiPurchaseRequest) => Json | null;

/** USPS customs values are US dollars and forms carry at most 30 lines. */
export const USPS_CUSTOMS_MAX_ITEMS = 30;

/** Why a declaration cannot go on a USPS form (null: it can), with the field it concerns. */
export function uspsCustomsProblem(customs: CustomsDeclaration): { carrier_code: string; message: string; field: string } | null {
  if (customs.items.some((i) => i.unit_value.currency.toUpperCase() !== 'USD')) {
    return { carrier_code: 'customs_currency', message: 'USPS customs forms take values in US dollars only', field: 'customs.items' };
  }
  if (customs.items.length > USPS_CUSTOMS_MAX_ITEMS) {
    return { carrier_code: 'customs_too_many_items', message: `A USPS customs form holds at most ${USPS_CUSTOMS_MAX_ITEMS} lines`, field: 'customs.items' };
  }
  return null;
}

/**
 * `AESITN`: the ITN as `AES X…`, or the exemption legend as USPS prints it (its sample is
 * `NO EEI 30.37(a)`; ours is written `NOEEI 30.37(a)`).
 */
export function uspsAesItn(customs: CustomsDeclaration): string | null {
  if (customs.aes_itn) return `AES ${customs.aes_itn}`;
  const eel = customs.eel_pfc?.trim();
  return eel ? eel.replace(/^NO\s*EEI\b/i, 'NO EEI').slice(0, 35) : null;
}

function dollars(minor: number): number {
  return Math.max(0.01, Math.round(minor) / 100);
}

/** Pounds to USPS's two decimals, above zero. */
function pounds(oz: number): number {
  return Math.max(0.01, Math.ceil((oz / 16) * 100 - 1e-9) / 100);
}

function content(item: CustomsItem): Json {
  const c: Json = {
    itemDescription: item.description.trim().slice(0, 30),
    itemQuantity: item.quantity,
    itemTotalValue: dollars(item.unit_value.amount * item.quantity),
    weightUOM: 'lb',
    itemTotalWeight: pounds(item.weight_oz * item.quantity),
    countryofOrigin: item.origin_country.toUpperCase(),
  };
  const hs = item.hs_tariff_number?.replace(/\./g, '');
  if (hs) c.HSTariffNumber = hs.slice(0, 14);
  return c;
}

function importerReference(customs: CustomsDeclaration): { type: string; value: string } | null {
  const importer = customs.importer;
  if (!importer) return null;
  for (const r of USPS_IMPORTER_REFERENCES) {
    const value = importer[r.key]?.trim();
    if (value) return { type: r.type, value };
  }
  return null;
}

function commonForm(customs: CustomsDeclaration): Json {
  const form: Json = { customsContentType: USPS_CUSTOMS_CONTENT_TYPES[customs.contents_type], contents: customs.items.map(content) };
  if (customs.contents_type === 'other') form.contentComments = clip(customs.contents_explanation, 25) ?? 'Other';
  const aes = uspsAesItn(customs);
  if (aes) form.AESITN = aes;
  return form;
}

/** InternationalCustomsForm (AESITN, contents and customsContentType required). */
export function buildInternationalCustomsForm(customs: CustomsDeclaration): Json {
  const form = commonForm(customs);
  // USPS requires AESITN on every international form: the platform derives the EEL/PFC, so it is there.
  if (!form.AESITN) form.AESITN = 'NO EEI 30.37(a)';
  const ref = importerReference(customs);
  if (ref) form.importersReference = { referenceType: ref.type, reference: ref.value.slice(0, 28) };
  return form;
}

/** DomesticCustomsForm (military and territories): references are plain text there. */
export function buildDomesticCustomsForm(customs: CustomsDeclaration): Json {
  const form = commonForm(customs);
  const ref = importerReference(customs);
  if (ref) form.importersReference = ref.value.slice(0, 40);
  return form;
}

/** The seam's default: the purchase's own customs declaration, or null when it carries none. */
export const customsFormFromRequest: CustomsFormBuilder = (req: ApiPurchaseRequest) =>
  req.customs?.items.length ? buildInternationalCustomsForm(req.customs) : null;

/** `packageDescription` fields an international label with customs adds. */
export function internationalPackageCustoms(customs: CustomsDeclaration): Json {
  const total = customs.items.reduce((s, i) => s + i.unit_value.amount * i.quantity, 0);
  const out: Json = { packageOptions: { packageValue: Math.round(total) / 100, nonDeliveryOption: USPS_NON_DELIVERY_OPTIONS[customs.non_delivery] } };
  // DDP: USPS (through its duties partner) prepays duties, taxes and fees for the recipient.
  if (customs.incoterm === 'DDP') out.prepayDutiesTaxesFees = true;
  return out;
}
