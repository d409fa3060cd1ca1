import type { ApiAddressValidation } from '../../carriers/driver.js';
import type { Address } from '../../carriers/types.js';
import type { Scope } from '../../platform/context.js';
import type { ErrorDetail } from '../../platform/errors.js';
import type { AddressInput, AddressMessage, AddressOutput, AddressValidationResult } from './addresses.schemas.js';
import { checkPostalCodeFormat, countryUsesPostalCode, lookupUsZip, normalizeCountry, US_ZIP_COUNTRIES, type UsZipRecord } from './postal-codes.js';
import { cityKey, standardizeCity, standardizeSecondaryLine, standardizeState, standardizeStreetLine } from './street-standardizer.js';

const FIELDS = ['name', 'company', 'street1', 'street2', 'city', 'state', 'postal_code', 'country', 'phone', 'email'] as const;
type Field = (typeof FIELDS)[number];

/** Message codes that make an address invalid; the others are corrections or notes. */
const ERROR_CODES = new Set([
  'missing_field',
  'invalid_country',
  'invalid_postal_code',
  'unknown_postal_code',
  'postal_code_country_mismatch',
  'invalid_state',
]);
const CORRECTION_CODES = new Set(['city_corrected', 'state_corrected']);

type LooseAddress = Partial<Record<Field, unknown>>;

function stringField(address: LooseAddress, field: Field): string | undefined {
  const v = address[field];
  return typeof v === 'string' ? v : undefined;
}

function filled(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}

function tidy(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

/**
 * Validates and normalises one address (POST /v1/addresses/validate, batch
 * `validate_addresses`). Never throws for bad content: a malformed postal code or an unknown
 * country is a result with status `invalid`.
 *
 * - US (and US territories): Pub 28 standardisation of street lines, city and state; ZIP
 *   (ZIP+4 kept) must exist; a city or state that disagrees with the ZIP data is corrected
 *   (status `corrected`), a missing one filled in from the ZIP.
 * - Elsewhere: ISO country, postal-code format (canonical spacing, upper case), whitespace
 *   tidied; street data cannot be checked, so a valid address is `unverified`.
 * - `original` echoes the input strings verbatim (no Unicode normalisation).
 */
export function validateAddress(input: AddressInput): AddressValidationResult {
  const address = input as LooseAddress;
  const original = originalOf(address);

  const messages: AddressMessage[] = [];
  const normalized: AddressOutput = {};
  for (const f of ['name', 'company', 'phone', 'email'] as const) {
    const v = stringField(address, f);
    if (filled(v)) normalized[f] = tidy(v);
  }

  const rawCountry = stringField(address, 'country');
  const country = normalizeCountry(rawCountry);
  if (!filled(rawCountry)) {
    messages.push({ code: 'missing_field', field: 'country', message: 'country is required' });
  } else if (!country) {
    messages.push({
      code: 'invalid_country',
      field: 'country',
      message: `"${tidy(rawCountry)}" is not an ISO 3166-1 alpha-2 country code`,
    });
  }
  normalized.country = country ?? (filled(rawCountry) ? tidy(rawCountry).toUpperCase() : '');

  let residentialUnit = false;
  if (country && US_ZIP_COUNTRIES.has(country)) {
    residentialUnit = normalizeUs(address, country, normalized, messages);
  } else {
    normalizeInternational(address, country, normalized, messages);
  }
  requireField(address, 'street1', normalized, messages);

  const company = stringField(address, 'company');
  const residential = filled(company) ? 'no' : residentialUnit ? 'yes' : 'unknown';
  const invalid = messages.some((m) => ERROR_CODES.has(m.code));
  const corrected = messages.some((m) => CORRECTION_CODES.has(m.code));
  let status: AddressValidationResult['status'];
  if (invalid) status = 'invalid';
  else if (corrected) status = 'corrected';
  else if (country && US_ZIP_COUNTRIES.has(country)) status = 'verified';
  else {
    status = 'unverified';
    messages.push({
      code: 'not_verified',
      field: 'street1',
      message: `Street-level data is not available for ${country}; the country and postal-code format were checked.`,
    });
  }
  messages.sort((a, b) => FIELDS.indexOf(a.field as Field) - FIELDS.indexOf(b.field as Field));
  return { status, residential, original, normalized: orderFields(normalized), messages };
}

/** The input strings verbatim, the ten address fields only. */
function originalOf(address: LooseAddress): AddressOutput {
  const original: AddressOutput = {};
  for (const f of FIELDS) {
    const v = stringField(address, f);
    if (v !== undefined) original[f] = v;
  }
  return original;
}

/** A carrier account's validator, its account resolved. */
export interface CarrierAddressValidator {
  carrier: string;
  accountId: string;
  /** Asks the carrier; its failures are thrown as the platform's errors (503/422). */
  validate(address: Address, requestId?: string): Promise<ApiAddressValidation>;
}

/** Where an address check finds a carrier account's validator (the carrier-accounts gateway). */
export interface CarrierAddressValidators {
  /** 400 `validation_failed` on carrier_account_id when the account cannot validate addresses. */
  addressValidator(scope: Scope, accountId: string): Promise<CarrierAddressValidator>;
}

/**
 * Validates one address with a carrier account's own validator (POST /v1/addresses/validate
 * with `carrier_account_id`), its verdict on the built-in result's
 * fields plus `candidates` and `source`. The account is checked first (400 on
 * carrier_account_id). An address whose country is missing or not ISO alpha-2 is not sent:
 * no carrier can route it, so the built-in check's `invalid` answers (source `built_in`).
 * Carrier failures are the gateway's errors: 503 `carrier_unavailable`, 422
 * `carrier_account_invalid` or `carrier_rejected`.
 */
export async function validateAddressWithCarrier(
  validators: CarrierAddressValidators,
  scope: Scope,
  accountId: string,
  input: AddressInput,
  requestId?: string,
): Promise<AddressValidationResult> {
  const validator = await validators.addressValidator(scope, accountId);
  const address = input as LooseAddress;
  const country = normalizeCountry(stringField(address, 'country'));
  if (!country) return { ...validateAddress(input), source: { type: 'built_in' } };
  const sent = carrierAddress(address, country);
  const verdict = await validator.validate(sent, requestId);
  return {
    status: verdict.status,
    residential: verdict.residential,
    original: originalOf(address),
    normalized: outputOf(verdict.normalized ?? sent),
    // A carrier message about the whole address goes on street1, as the built-in not_verified does.
    messages: verdict.messages.map((m) => ({ code: m.code, field: m.field ?? 'street1', message: m.message })),
    candidates: verdict.candidates.map(outputOf),
    source: { type: 'carrier', carrier: validator.carrier, carrier_account_id: validator.accountId },
  };
}

/** What a carrier is asked: the filled fields, whitespace tidied, the country as its ISO code. */
function carrierAddress(address: LooseAddress, country: string): Address {
  const out: Address = { postal_code: '', country };
  for (const f of FIELDS) {
    if (f === 'country') continue;
    const v = stringField(address, f);
    if (filled(v)) out[f] = tidy(v);
  }
  return out;
}

/** A carrier's address on the wire: the ten fields, in order, empty ones left out. */
function outputOf(address: Address): AddressOutput {
  const out: AddressOutput = {};
  for (const f of FIELDS) {
    const v = address[f];
    if (typeof v === 'string' && v.trim() !== '') out[f] = v;
  }
  return out;
}

function requireField(address: LooseAddress, field: Field, normalized: AddressOutput, messages: AddressMessage[]) {
  if (!filled(stringField(address, field)) && !filled(normalized[field])) {
    messages.push({ code: 'missing_field', field, message: `${field} is required` });
  }
}

/** US rules; returns whether a dwelling-unit designator (APT, UNIT) was found. */
function normalizeUs(address: LooseAddress, country: string, out: AddressOutput, messages: AddressMessage[]): boolean {
  const designators: string[] = [];
  const street1 = stringField(address, 'street1');
  if (filled(street1)) {
    const line = standardizeStreetLine(street1);
    out.street1 = line.text;
    designators.push(...line.designators);
  }
  const street2 = stringField(address, 'street2');
  if (filled(street2)) {
    const line = standardizeSecondaryLine(street2);
    if (line.text !== '') out.street2 = line.text;
    designators.push(...line.designators);
  }

  const rawCity = stringField(address, 'city');
  const rawState = stringField(address, 'state');
  const givenState = filled(rawState) ? standardizeState(rawState) : null;
  const rawPostal = stringField(address, 'postal_code');

  let record: UsZipRecord | undefined;
  if (!filled(rawPostal)) {
    messages.push({ code: 'missing_field', field: 'postal_code', message: 'postal_code is required' });
  } else {
    const format = checkPostalCodeFormat(country, rawPostal);
    if (!format.ok) {
      messages.push({ code: 'invalid_postal_code', field: 'postal_code', message: `postal_code ${format.message}` });
      out.postal_code = tidy(rawPostal);
    } else {
      out.postal_code = format.normalized;
      record = lookupUsZip(format.normalized.slice(0, 5));
      if (!record) {
        messages.push({
          code: 'unknown_postal_code',
          field: 'postal_code',
          message: `ZIP code ${format.normalized.slice(0, 5)} does not exist`,
        });
      } else if (country !== 'US' && record.state !== country) {
        messages.push({
          code: 'postal_code_country_mismatch',
          field: 'postal_code',
          message: `ZIP code ${format.normalized.slice(0, 5)} is in ${record.state}, not ${country}`,
        });
      }
    }
  }

  if (record) {
    const zip = record.zip;
    const dataCity = record.city.toUpperCase();
    if (!filled(rawCity)) {
      messages.push({ code: 'city_corrected', field: 'city', message: `City filled in from ZIP code ${zip}: ${dataCity}` });
    } else if (cityKey(rawCity) !== cityKey(dataCity)) {
      messages.push({
        code: 'city_corrected',
        field: 'city',
        message: `City "${tidy(rawCity)}" does not match ZIP code ${zip}; corrected to ${dataCity}`,
      });
    }
    out.city = dataCity;
    if (!filled(rawState)) {
      messages.push({ code: 'state_corrected', field: 'state', message: `State filled in from ZIP code ${zip}: ${record.state}` });
    } else if (givenState !== record.state) {
      messages.push({
        code: 'state_corrected',
        field: 'state',
        message: `State "${tidy(rawState)}" does not match ZIP code ${zip}; corrected to ${record.state}`,
      });
    }
    out.state = record.state;
  } else {
    if (filled(rawCity)) out.city = standardizeCity(rawCity);
    else messages.push({ code: 'missing_field', field: 'city', message: 'city is required' });
    if (filled(rawState)) {
      out.state = givenState ?? tidy(rawState).toUpperCase();
      if (!givenState) messages.push({ code: 'invalid_state', field: 'state', message: `"${tidy(rawState)}" is not a US state` });
    } else {
      messages.push({ code: 'missing_field', field: 'state', message: 'state is required' });
    }
  }
  return designators.includes('APT') || designators.includes('UNIT');
}

function normalizeInternational(address: LooseAddress, country: string | null, out: AddressOutput, messages: AddressMessage[]) {
  for (const f of ['street1', 'street2', 'city'] as const) {
    const v = stringField(address, f);
    if (filled(v)) out[f] = tidy(v);
  }
  const state = stringField(address, 'state');
  // Short region codes (ON, NSW, BY) are codes: upper-case them; names keep their case.
  if (filled(state)) out.state = tidy(state).length <= 3 ? tidy(state).toUpperCase() : tidy(state);
  requireField(address, 'city', out, messages);

  const rawPostal = stringField(address, 'postal_code');
  if (!country) {
    if (filled(rawPostal)) out.postal_code = tidy(rawPostal).toUpperCase();
    return;
  }
  if (!filled(rawPostal)) {
    if (countryUsesPostalCode(country)) {
      messages.push({ code: 'missing_field', field: 'postal_code', message: `postal_code is required for ${country}` });
    }
    return;
  }
  const format = checkPostalCodeFormat(country, rawPostal);
  if (format.ok) out.postal_code = format.normalized;
  else {
    out.postal_code = tidy(rawPostal).toUpperCase();
    messages.push({ code: 'invalid_postal_code', field: 'postal_code', message: `postal_code ${format.message}` });
  }
}

function orderFields(address: AddressOutput): AddressOutput {
  const out: AddressOutput = {};
  for (const f of FIELDS) if (address[f] !== undefined) out[f] = address[f];
  return out;
}

/**
 * Field-level problems that stop an address from being shipped to (orders, shipments):
 * street1, city and an ISO alpha-2 country are required, and a postal code where the country
 * uses one, in that country's format (a US ZIP must also exist). Fields are prefixed, e.g.
 * `ship_to.postal_code`. Correctable details (a city that disagrees with the ZIP) are not
 * problems here; `validateAddress` reports those.
 */
export function checkShippingAddress(address: Partial<AddressInput> | LooseAddress, fieldPrefix: string): ErrorDetail[] {
  const a = address as LooseAddress;
  const details: ErrorDetail[] = [];
  const at = (f: string) => (fieldPrefix ? `${fieldPrefix}.${f}` : f);
  if (!filled(stringField(a, 'street1'))) details.push({ field: at('street1'), message: 'is required' });
  if (!filled(stringField(a, 'city'))) details.push({ field: at('city'), message: 'is required' });
  details.push(...checkCountryAndPostalCode(a, fieldPrefix).details);
  return details;
}

export interface RatingAddressCheck {
  details: ErrorDetail[];
  /** Upper-case alpha-2, when valid. */
  country: string | null;
  /** Canonical postal code, when valid. */
  postal_code: string | null;
  /** The ZIP's record for US-style addresses. */
  zip: UsZipRecord | null;
}

/**
 * The checks a rate query needs on each end: a valid ISO alpha-2 country and a postal code in
 * its format (a US ZIP must exist). Other fields are optional for rating.
 */
export function checkCountryAndPostalCode(address: Partial<AddressInput> | LooseAddress, fieldPrefix: string): RatingAddressCheck {
  const a = address as LooseAddress;
  const at = (f: string) => (fieldPrefix ? `${fieldPrefix}.${f}` : f);
  const result: RatingAddressCheck = { details: [], country: null, postal_code: null, zip: null };
  const rawCountry = stringField(a, 'country');
  const country = normalizeCountry(rawCountry);
  if (!filled(rawCountry)) {
    result.details.push({ field: at('country'), message: 'is required' });
    return result;
  }
  if (!country) {
    result.details.push({ field: at('country'), message: `"${tidy(rawCountry)}" is not an ISO 3166-1 alpha-2 country code` });
    return result;
  }
  result.country = country;
  const rawPostal = stringField(a, 'postal_code');
  if (!filled(rawPostal)) {
    if (US_ZIP_COUNTRIES.has(country) || countryUsesPostalCode(country)) {
      result.details.push({ field: at('postal_code'), message: `is required for ${country}` });
    } else result.postal_code = '';
    return result;
  }
  const format = checkPostalCodeFormat(country, rawPostal);
  if (!format.ok) {
    result.details.push({ field: at('postal_code'), message: format.message });
    return result;
  }
  if (US_ZIP_COUNTRIES.has(country)) {
    const zip5 = format.normalized.slice(0, 5);
    const record = lookupUsZip(zip5);
    if (!record) {
      result.details.push({ field: at('postal_code'), message: `ZIP code ${zip5} does not exist` });
      return result;
    }
    if (country !== 'US' && record.state !== country) {
      result.details.push({ field: at('postal_code'), message: `ZIP code ${zip5} is in ${record.state}, not ${country}` });
      return result;
    }
    result.zip = record;
  }
  result.postal_code = format.normalized;
  return result;
}
