/**
 * Address standardisation (`GET /addresses/v3/address`, addresses.yaml): USPS's CASS/DPV
 * check of one US address. US addresses only (the API's `state` is a US state or territory).
 */
import type { ApiAddressValidation } from '../../driver.js';
import { asList, clip, obj, str } from '../../http/json-read.js';
import type { Address } from '../../types.js';
import { zipParts } from './wire.js';

const US_STATE =
  /^(AA|AE|AL|AK|AP|AS|AZ|AR|CA|CO|CT|DE|DC|FM|FL|GA|GU|HI|ID|IL|IN|IA|KS|KY|LA|ME|MH|MD|MA|MI|MN|MS|MO|MP|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PW|PA|PR|RI|SC|SD|TN|TX|UT|VT|VI|VA|WA|WV|WI|WY)$/;

/** Null when USPS cannot be asked: not a US address, or no street or state to send. */
export function addressPath(a: Address): string | null {
  const state = (a.state ?? '').trim().toUpperCase();
  const street = clip(a.street1, 100);
  if (a.country.toUpperCase() !== 'US' || !street || !US_STATE.test(state)) return null;
  const q = new URLSearchParams();
  const firm = clip(a.company, 50);
  if (firm) q.set('firm', firm);
  q.set('streetAddress', street);
  const secondary = clip(a.street2, 100);
  if (secondary) q.set('secondaryAddress', secondary);
  const city = clip(a.city, 100);
  if (city) q.set('city', city);
  q.set('state', state);
  const zip = zipParts(a.postal_code);
  if (/^\d{5}$/.test(zip.ZIPCode)) q.set('ZIPCode', zip.ZIPCode);
  if (zip.ZIPPlus4) q.set('ZIPPlus4', zip.ZIPPlus4);
  return `/addresses/v3/address?${q.toString()}`;
}

const norm = (s: string | undefined) =>
  (s ?? '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();

/**
 * `AddressResponse` → our verdict. DPVConfirmation Y = a deliverable address; S/D = the
 * building is, the secondary (apartment, suite) is missing or wrong; N = not deliverable.
 * Correction codes (32: more information needed, 22: several matches) make it unverified.
 * `business` says whether the address is commercial (so residential is its opposite).
 */
export function parseAddressResponse(body: unknown, original: Address): ApiAddressValidation | null {
  const r = obj(body);
  const a = obj(r.address);
  if (!str(a.streetAddress) && !str(a.ZIPCode)) return null;
  const info = obj(r.additionalInfo);
  const zip = str(a.ZIPCode) ?? '';
  const plus4 = str(a.ZIPPlus4);
  const normalized: Address = {
    ...original,
    street1: str(a.streetAddress) ?? original.street1,
    city: str(a.city) ?? original.city,
    state: str(a.state) ?? original.state,
    postal_code: zip ? (plus4 ? `${zip}-${plus4}` : zip) : original.postal_code,
    country: 'US',
  };
  const secondary = str(a.secondaryAddress);
  if (secondary) normalized.street2 = secondary;
  else delete normalized.street2;
  const firm = str(r.firm);
  if (firm) normalized.company = firm;
  const business = str(info.business);
  const residential = business === 'Y' ? 'no' : business === 'N' ? 'yes' : 'unknown';
  const corrections = asList(r.corrections).map(obj);
  const warnings = asList<unknown>(r.warnings)
    .map(str)
    .filter((w): w is string => !!w);
  const messages: ApiAddressValidation['messages'] = [
    ...corrections.map((c) => ({ code: `usps_${str(c.code) ?? 'correction'}`, message: str(c.text) ?? 'USPS suggests a correction' })),
    ...warnings.map((w) => ({ code: 'usps_warning', message: w })),
  ];
  const dpv = str(info.DPVConfirmation);
  if (dpv === 'N') {
    return {
      status: 'invalid',
      residential,
      normalized,
      candidates: [normalized],
      messages: [{ code: 'address_not_deliverable', message: 'USPS has no delivery point at this address' }, ...messages],
    };
  }
  if (dpv === 'S' || dpv === 'D' || corrections.length > 0) {
    return {
      status: 'unverified',
      residential,
      normalized,
      candidates: [normalized],
      messages: messages.length
        ? messages
        : [{ code: 'address_secondary_missing', field: 'street2', message: 'USPS needs the apartment, suite or box number' }],
    };
  }
  const changed = (['street1', 'street2', 'city', 'state', 'postal_code'] as const).filter((f) => norm(normalized[f]) !== norm(original[f]));
  return {
    status: changed.length ? 'corrected' : 'verified',
    residential,
    normalized,
    candidates: [normalized],
    messages: [...changed.map((field) => ({ code: 'address_corrected', field, message: `USPS standardised ${field}` })), ...messages],
  };
}
