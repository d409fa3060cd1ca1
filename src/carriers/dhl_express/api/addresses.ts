/**
 * Address validation (`GET /address-validate`, `…AddressValidateResponse`). MyDHL checks a
 * country + postal code + city against its service areas (can DHL pick up or deliver there?);
 * it never sees the street. The verdict says exactly that much:
 * - no address back → `invalid` (DHL does not serve, or does not know, that postal code/city);
 * - a match on the postal code and city as given → `verified`, with a `street_not_checked` note;
 * - matches that spell the city or postal code differently → `corrected` (the first match's
 *   city/postal code, the street kept as given) or, with several, `unverified`.
 */
import type { ApiAddressValidation } from '../../driver.js';
import { asList, clip, obj, str } from '../../http/json-read.js';
import type { Address } from '../../types.js';

export function addressValidatePath(a: Address, type: 'delivery' | 'pickup' = 'delivery'): string {
  const q = new URLSearchParams({ type, countryCode: a.country.toUpperCase() });
  const postal = a.postal_code?.trim().slice(0, 12);
  if (postal) q.set('postalCode', postal);
  const city = clip(a.city, 45);
  if (city) q.set('cityName', city);
  // Not strict: near matches come back as candidates (a corrected city spelling) instead of nothing.
  q.set('strictValidation', 'false');
  return `/address-validate?${q.toString()}`;
}

const norm = (s: string | undefined | null) =>
  (s ?? '')
    .toUpperCase()
    .normalize('NFKD')
    .replace(/[^A-Z0-9]/g, '');

const STREET_NOT_CHECKED = { code: 'street_not_checked', message: 'DHL Express checks the city and postal code against its service areas, not the street' };

export function parseAddressValidateResponse(body: unknown, original: Address): ApiAddressValidation | null {
  const b = obj(body);
  if (!('address' in b) && !('warnings' in b)) return null;
  const found = asList(b.address).map(obj);
  if (found.length === 0) {
    const warning = asList(b.warnings)
      .map((w) => str(w))
      .find((w): w is string => !!w);
    return {
      status: 'invalid',
      residential: 'unknown',
      normalized: null,
      candidates: [],
      messages: [{ code: 'address_not_served', message: warning ?? 'DHL Express found no service area for this postal code and city' }],
    };
  }
  const candidates: Address[] = found.map((f) => ({
    ...original,
    postal_code: str(f.postalCode) ?? original.postal_code,
    city: str(f.cityName) ?? original.city,
    country: (str(f.countryCode) ?? original.country).toUpperCase(),
  }));
  const exact = candidates.find((c) => norm(c.postal_code) === norm(original.postal_code) && (!original.city || norm(c.city) === norm(original.city)));
  if (exact) return { status: 'verified', residential: 'unknown', normalized: exact, candidates, messages: [STREET_NOT_CHECKED] };
  const best = candidates[0];
  const changed = (['city', 'postal_code'] as const).filter((f) => norm(best[f]) !== norm(original[f]));
  return {
    status: candidates.length === 1 ? 'corrected' : 'unverified',
    residential: 'unknown',
    normalized: best,
    candidates,
    messages: [
      ...(candidates.length === 1
        ? changed.map((field) => ({ code: 'address_corrected', field, message: `DHL Express corrected ${field}` }))
        : [{ code: 'address_ambiguous', message: `DHL Express found ${candidates.length} possible service areas` }]),
      STREET_NOT_CHECKED,
    ],
  };
}
