/**
 * Address Validation, street level (`POST /api/addressvalidation/{version}/{requestoption}`,
 * AddressValidation.yaml). Request option 3 = validation and classification (residential).
 * UPS covers the US and Puerto Rico (the test environment answers only for NY and CA).
 */
import type { ApiAddressValidation } from '../../driver.js';
import type { Address } from '../../types.js';
import { asList, clip, obj, str, type Json } from './wire.js';

export const XAV_REQUEST_OPTION = '3';

export function buildAddressValidationRequest(a: Address): Json {
  const postal = a.postal_code.replace(/\s/g, '');
  const [primary, extended] = postal.includes('-') ? postal.split('-', 2) : [postal.slice(0, 5), postal.slice(5)];
  const key: Json = {};
  const consignee = clip(a.company ?? a.name, 40);
  if (consignee) key.ConsigneeName = consignee;
  const lines = [a.street1, a.street2].map((l) => clip(l, 100)).filter((l): l is string => !!l);
  if (lines.length) key.AddressLine = lines;
  const city = clip(a.city, 30);
  if (city) key.PoliticalDivision2 = city;
  const state = clip(a.state, 30);
  if (state) key.PoliticalDivision1 = state;
  if (primary) key.PostcodePrimaryLow = primary.slice(0, 10);
  if (extended) key.PostcodeExtendedLow = extended.slice(0, 10);
  key.CountryCode = a.country.toUpperCase();
  return { XAVRequest: { AddressKeyFormat: key } };
}

function fromCandidate(c: Json, original: Address): Address {
  const k = obj(c.AddressKeyFormat);
  const lines = asList<string>(k.AddressLine).filter((l) => typeof l === 'string');
  const primary = str(k.PostcodePrimaryLow) ?? '';
  const ext = str(k.PostcodeExtendedLow);
  const out: Address = {
    ...original,
    street1: lines[0] ?? original.street1,
    city: str(k.PoliticalDivision2) ?? original.city,
    state: str(k.PoliticalDivision1) ?? original.state,
    postal_code: primary ? (ext ? `${primary}-${ext}` : primary) : original.postal_code,
    country: str(k.CountryCode) ?? original.country,
  };
  if (lines[1]) out.street2 = lines[1];
  else delete out.street2;
  return out;
}

function residentialOf(c: Json): 'yes' | 'no' | 'unknown' {
  const code = str(obj(c.AddressClassification).Code);
  return code === '2' ? 'yes' : code === '1' ? 'no' : 'unknown';
}

const norm = (s: string | undefined) => (s ?? '').toUpperCase().replace(/\s+/g, ' ').trim();

export function parseAddressValidationResponse(body: unknown, original: Address): ApiAddressValidation | null {
  const r = obj(obj(body).XAVResponse);
  if (!('Response' in r)) return null;
  const candidates = asList(r.Candidate).map(obj);
  const addresses = candidates.map((c) => fromCandidate(c, original));
  if ('NoCandidatesIndicator' in r || candidates.length === 0) {
    return {
      status: 'invalid',
      residential: 'unknown',
      normalized: null,
      candidates: [],
      messages: [{ code: 'address_not_found', message: 'UPS found no matching address' }],
    };
  }
  const best = addresses[0];
  if ('AmbiguousAddressIndicator' in r && !('ValidAddressIndicator' in r)) {
    return {
      status: 'unverified',
      residential: residentialOf(candidates[0]),
      normalized: best,
      candidates: addresses,
      messages: [{ code: 'address_ambiguous', message: `UPS found ${addresses.length} possible matches` }],
    };
  }
  const changed = (['street1', 'street2', 'city', 'state', 'postal_code'] as const).filter((f) => norm(best[f]) !== norm(original[f]));
  return {
    status: changed.length ? 'corrected' : 'verified',
    residential:
      residentialOf(candidates[0]) !== 'unknown' ? residentialOf(candidates[0]) : residentialOf(obj({ AddressClassification: r.AddressClassification })),
    normalized: best,
    candidates: addresses,
    messages: changed.map((field) => ({ code: 'address_corrected', field, message: `UPS corrected ${field}` })),
  };
}
