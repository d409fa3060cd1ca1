/**
 * International Labels (`POST /international-labels/v3/international-label`, cancel `DELETE
 * /international-labels/v3/international-label/{trackingNumber}`, international-labels.yaml).
 *
 * `customsForm` is required by USPS for every international label; it is filled by a
 * `CustomsFormBuilder`, the seam below: by default from the purchase's own `customs`
 * (customs.ts), or one passed to the driver. A purchase without either is refused before
 * calling USPS (`customs_required`), so no label is ever bought without customs data.
 */
import { extraServiceCodes, insuredDollars, labelReferences } from './options.js';
import { createRequire } from 'node:module';
import type { ApiPurchaseRequest } from '../../driver.js';
import { clip, type Json } from '../../http/json-read.js';
import { internationalPackageCustoms, type CustomsFormBuilder } from './customs.js';
import { INTERNATIONAL_IMAGE_TYPES, packageCharacteristics } from './units.js';
import { domesticAddress, inches, phone, pounds, splitName } from './wire.js';

const require = createRequire(import.meta.url);
/** English country names by ISO alpha-2 (`i18n-iso-countries`' data; no locale registration needed). */
const COUNTRY_NAMES = (require('i18n-iso-countries/langs/en.json') as { countries: Record<string, string | string[]> }).countries;

/** USPS's `toAddress.country` is the country's name, required beside its ISO code: upper case, as USPS prints it. */
export function countryName(alpha2: string): string {
  const name = COUNTRY_NAMES[alpha2.toUpperCase()];
  return (Array.isArray(name) ? name[0] : (name ?? alpha2)).toUpperCase();
}

export const INTERNATIONAL_LABEL_PATH = '/international-labels/v3/international-label';
/** `carrier_shipment_id` of an international label: the prefix tells void which API to call. */
export const INTERNATIONAL_ID_PREFIX = 'intl:';

export function internationalCancelPath(trackingNumber: string): string {
  return `${INTERNATIONAL_LABEL_PATH}/${encodeURIComponent(trackingNumber)}`;
}

/** The customs seam (customs.ts), re-exported where the driver options name it. */
export type { CustomsFormBuilder };

/** The destination address of an international label (InternationalLabelAddress). */
export function internationalAddress(a: ApiPurchaseRequest['ship_to']): Json {
  const out: Json = { ...splitName(a.name) };
  const firm = clip(a.company, 50);
  if (firm) out.firm = firm;
  const street = clip(a.street1, 50);
  if (street) out.streetAddress = street;
  const secondary = clip(a.street2, 50);
  if (secondary) out.secondaryAddress = secondary;
  const city = clip(a.city, 28);
  if (city) out.city = city;
  const province = clip(a.state, 40);
  if (province) out.province = province;
  const postal = clip(a.postal_code, 11);
  if (postal) out.postalCode = postal;
  out.country = countryName(a.country);
  out.countryISOAlpha2Code = a.country.toUpperCase();
  const tel = phone(a.phone);
  if (tel) out.phone = tel;
  return out;
}

/** Every field but `customsForm`, which `customs` supplies (null: the caller must refuse). */
export function buildInternationalLabelRequest(req: ApiPurchaseRequest, mailClass: string, customs: CustomsFormBuilder | null): Json | null {
  const customsForm = customs?.(req) ?? null;
  if (!customsForm) return null;
  const parcel = req.parcels?.length ? req.parcels[0] : req.parcel;
  return {
    imageInfo: { imageType: INTERNATIONAL_IMAGE_TYPES[req.label_image], labelType: '4X6LABEL' },
    toAddress: internationalAddress(req.ship_to),
    fromAddress: domesticAddress(req.ship_from),
    packageDescription: {
      mailClass,
      rateIndicator: 'SP',
      processingCategory: packageCharacteristics(parcel).processingCategory,
      destinationEntryFacilityType: 'NONE',
      weightUOM: 'lb',
      weight: pounds(parcel.weight_oz),
      dimensionsUOM: 'in',
      length: inches(parcel.length_in),
      width: inches(parcel.width_in),
      height: inches(parcel.height_in),
      mailingDate: req.ship_date.slice(0, 10),
      ...internationalOptions(req),
    },
    customsForm,
  };
}

/**
 * The package's customs fields with the options international mail takes: insurance (930/931,
 * `packageValue` the insured value) and the caller's references (two at most).
 */
function internationalOptions(req: ApiPurchaseRequest): Json {
  const out: Json = req.customs?.items.length ? internationalPackageCustoms(req.customs) : {};
  const insured = insuredDollars(req.options);
  if (insured !== null) {
    out.extraServices = extraServiceCodes({ ...req.options!, signature: 'none', dangerous_goods: null });
    out.packageOptions = { ...((out.packageOptions as Json | undefined) ?? {}), packageValue: insured };
  }
  const refs = labelReferences(req.options, req.reference, true).filter((r) => r.printReferenceNumber);
  if (refs.length) out.customerReference = refs.map((r) => ({ referenceNumber: r.referenceNumber }));
  return out;
}
