/**
 * Address resolution (`POST /address/v1/addresses/resolve`,
 * address-validation-v1-Addresses-Resource.json): one address in, FedEx's standardised form,
 * its classification (residential or business) and its match attributes out.
 */
import type { ApiAddressValidation } from '../../driver.js';
import type { CarrierMessage } from '../../http/errors.js';
import { asList, clip, obj, str, type Json } from '../../http/json-read.js';
import type { Address } from '../../types.js';
import { postalCode, streetLines } from './wire.js';

export const RESOLVE_PATH = '/address/v1/addresses/resolve';

/** FedEx's answer (a 400) when it cannot standardise the address at all. */
export const ADDRESS_NOT_FOUND = 'STANDARDIZED.ADDRESS.NOTFOUND';

export function buildResolveRequest(a: Address): Json {
  const address: Json = { streetLines: streetLines(a), city: clip(a.city, 35) ?? '' };
  const state = clip(a.state, 2);
  if (state) address.stateOrProvinceCode = state;
  address.postalCode = postalCode(a) ?? '';
  address.countryCode = a.country.toUpperCase();
  return { addressesToValidate: [{ address }] };
}

/** The schema types the attributes as booleans; FedEx's answers also carry them as "true"/"false". */
function flag(value: unknown): boolean | null {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return null;
}

const norm = (s: string | undefined) => (s ?? '').toUpperCase().replace(/\s+/g, ' ').trim();

const NOT_FOUND: ApiAddressValidation = {
  status: 'invalid',
  residential: 'unknown',
  normalized: null,
  candidates: [],
  messages: [{ code: 'address_not_found', message: 'FedEx could not find or standardise this address' }],
};

/** A refusal that only says "no such address" is a verdict (`invalid`), not a failed call. */
export function verdictForRejection(messages: readonly CarrierMessage[]): ApiAddressValidation | null {
  return messages.length > 0 && messages.every((m) => m.carrier_code === ADDRESS_NOT_FOUND) ? NOT_FOUND : null;
}

function fromResolved(r: Json, original: Address): Address {
  const lines = asList<string>(r.streetLinesToken).filter((l) => typeof l === 'string' && l.trim());
  const parsed = obj(r.parsedPostalCode);
  const base = str(parsed.base);
  const addOn = str(parsed.addOn);
  const out: Address = {
    ...original,
    street1: lines[0] ?? original.street1,
    city: str(r.city) ?? original.city,
    state: str(r.stateOrProvinceCode) ?? original.state,
    postal_code: base ? (addOn ? `${base}-${addOn}` : base) : original.postal_code,
    country: str(r.countryCode) ?? original.country,
  };
  if (lines[1]) out.street2 = lines[1];
  else delete out.street2;
  return out;
}

export function parseResolveResponse(body: unknown, original: Address): ApiAddressValidation | null {
  const output = obj(obj(body).output);
  if (!Array.isArray(output.resolvedAddresses)) return null;
  const resolved = output.resolvedAddresses.map(obj);
  if (resolved.length === 0) return NOT_FOUND;
  const best = resolved[0];
  const attributes = obj(best.attributes);
  const classification = str(best.classification);
  const residential = classification === 'RESIDENTIAL' ? 'yes' : classification === 'BUSINESS' ? 'no' : 'unknown';
  const normalized = fromResolved(best, original);
  const candidates = resolved.map((r) => fromResolved(r, original));
  const carrierMessages = [...asList(best.customerMessage), ...asList(output.alerts)]
    .map(obj)
    .filter((m) => str(m.code))
    .map((m) => ({ code: str(m.code)!, message: str(m.message) ?? str(m.code)! }));
  if (flag(attributes.SuiteRequiredButMissing))
    carrierMessages.push({ code: 'suite_required', message: 'FedEx says this address needs a suite or unit number' });
  if (flag(attributes.InvalidSuiteNumber)) carrierMessages.push({ code: 'suite_invalid', message: 'FedEx does not know this suite or unit number' });
  if (flag(attributes.Resolved) === false) {
    return {
      status: 'invalid',
      residential,
      normalized: null,
      candidates,
      messages: [{ code: 'address_not_resolved', message: 'FedEx could not resolve this address' }, ...carrierMessages],
    };
  }
  // Resolved to a street but not to a delivery point (US: USPS DPV), or several matches: unverified.
  if (flag(attributes.DPV) === false || flag(attributes.MultipleMatches) === true || flag(attributes.Matched) === false) {
    return {
      status: 'unverified',
      residential,
      normalized,
      candidates,
      messages: [{ code: 'address_unconfirmed', message: 'FedEx resolved the street but could not confirm the delivery point' }, ...carrierMessages],
    };
  }
  const changed = (['street1', 'street2', 'city', 'state', 'postal_code'] as const).filter((f) => norm(normalized[f]) !== norm(original[f]));
  return {
    status: changed.length ? 'corrected' : 'verified',
    residential,
    normalized,
    candidates,
    messages: [...changed.map((field) => ({ code: 'address_corrected', field, message: `FedEx corrected ${field}` })), ...carrierMessages],
  };
}
