import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
// The package's core without its node entry, which loads every locale's names (~0.9 MB): only
// codes are looked up here (docs/architecture.md, "Start-up").
import countries from 'i18n-iso-countries/index.js';
import postalCodes from 'postal-codes-js';

/**
 * Reference data behind address checks: ISO countries (`i18n-iso-countries`), postal-code
 * formats (`postal-codes-js`) and US ZIP codes with their city, state and centroid
 * (`zipcodes`, GeoNames data). Loaded once per process.
 */

const require = createRequire(import.meta.url);

export interface UsZipRecord {
  zip: string;
  city: string;
  state: string;
  latitude: number;
  longitude: number;
}

interface ZipcodesModule {
  codes: Record<string, { zip: string; city: string; state: string; latitude: number; longitude: number; country: string }>;
}

interface PostalCountry {
  postalCodeFormat?: string;
}

// CommonJS packages without typings (or with JSON data outside their typed surface).
// `zipcodes` is a 5 MB module: loaded on first use, not at boot.
let zipcodes: ZipcodesModule | null = null;
function zipData(): ZipcodesModule {
  zipcodes ??= readZipcodes();
  return zipcodes;
}

/**
 * `zipcodes` ships its data as one 5 MB JavaScript statement, `exports.codes = {…};`, whose
 * object is JSON. Requiring it makes V8 parse and compile it as code: ~50 MiB of parser memory
 * that the allocator keeps for the life of the process (measured: glibc's main arena went from
 * 6 to 58 MiB at the first rate query), and the source stays in the heap. Read as JSON instead;
 * the module itself only if its layout ever changes.
 */
function readZipcodes(): ZipcodesModule {
  const text = readFileSync(require.resolve('zipcodes/lib/codes.js'), 'utf8');
  const prefix = 'exports.codes = ';
  const end = text.indexOf(';\n');
  if (text.startsWith(prefix) && end > 0) {
    try {
      return { codes: JSON.parse(text.slice(prefix.length, end)) as ZipcodesModule['codes'] };
    } catch {
      // Not JSON after all: the module below.
    }
  }
  return require('zipcodes') as ZipcodesModule;
}
const postalCountries = require('postal-codes-js/generated/postal-codes-alpha2.json') as Record<string, PostalCountry>;

/** Countries and territories addressed with USPS ZIP codes. */
export const US_ZIP_COUNTRIES: ReadonlySet<string> = new Set(['US', 'PR', 'GU', 'VI', 'AS', 'MP', 'FM', 'MH', 'PW']);

/** Upper-cased ISO 3166-1 alpha-2 code, or null when the input is not one. */
export function normalizeCountry(input: string | undefined | null): string | null {
  if (typeof input !== 'string') return null;
  const code = input.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) && countries.isValid(code) ? code : null;
}

/** Whether addresses in this country carry a postal code (per postal-codes-js). */
export function countryUsesPostalCode(country: string): boolean {
  return Boolean(postalCountries[country]?.postalCodeFormat);
}

export function lookupUsZip(zip5: string): UsZipRecord | undefined {
  if (!/^\d{5}$/.test(zip5)) return undefined;
  const r = zipData().codes[zip5];
  return r ? { zip: r.zip, city: r.city, state: r.state, latitude: r.latitude, longitude: r.longitude } : undefined;
}

/** Every US ZIP record (for ZIP3 centroids). */
export function* usZipRecords(): Generator<UsZipRecord> {
  for (const [key, r] of Object.entries(zipData().codes)) {
    if (/^\d{5}$/.test(key)) yield { zip: r.zip, city: r.city, state: r.state, latitude: r.latitude, longitude: r.longitude };
  }
}

/**
 * Canonical layouts for postal codes whose format has a fixed space or hyphen, applied to the
 * code with spaces and hyphens removed. Codes of other countries are only trimmed and
 * upper-cased.
 */
const LAYOUTS: Record<string, { length: number | number[]; format(compact: string): string }> = {
  GB: { length: [5, 6, 7], format: (c) => `${c.slice(0, -3)} ${c.slice(-3)}` },
  GG: { length: [5, 6], format: (c) => `${c.slice(0, -3)} ${c.slice(-3)}` },
  JE: { length: [5, 6], format: (c) => `${c.slice(0, -3)} ${c.slice(-3)}` },
  IM: { length: [5, 6], format: (c) => `${c.slice(0, -3)} ${c.slice(-3)}` },
  CA: { length: 6, format: (c) => `${c.slice(0, 3)} ${c.slice(3)}` },
  IE: { length: 7, format: (c) => `${c.slice(0, 3)} ${c.slice(3)}` },
  NL: { length: 6, format: (c) => `${c.slice(0, 4)} ${c.slice(4)}` },
  PL: { length: 5, format: (c) => `${c.slice(0, 2)}-${c.slice(2)}` },
  PT: { length: 7, format: (c) => `${c.slice(0, 4)}-${c.slice(4)}` },
  BR: { length: 8, format: (c) => `${c.slice(0, 5)}-${c.slice(5)}` },
  JP: { length: 7, format: (c) => `${c.slice(0, 3)}-${c.slice(3)}` },
  SE: { length: 5, format: (c) => `${c.slice(0, 3)} ${c.slice(3)}` },
  CZ: { length: 5, format: (c) => `${c.slice(0, 3)} ${c.slice(3)}` },
  SK: { length: 5, format: (c) => `${c.slice(0, 3)} ${c.slice(3)}` },
  GR: { length: 5, format: (c) => `${c.slice(0, 3)} ${c.slice(3)}` },
};

function canonicalLayout(country: string, code: string): string {
  const layout = LAYOUTS[country];
  const compact = code.replace(/[\s-]+/g, '').toUpperCase();
  if (!layout) return code.replace(/\s+/g, ' ').trim().toUpperCase();
  const lengths = Array.isArray(layout.length) ? layout.length : [layout.length];
  return lengths.includes(compact.length) ? layout.format(compact) : code.replace(/\s+/g, ' ').trim().toUpperCase();
}

export type PostalCodeCheck = { ok: true; normalized: string } | { ok: false; message: string };

/**
 * Checks a postal code's format for a (valid, upper-case) country and returns its canonical
 * form. US-style ZIPs must be `12345` or `12345-6789` (also accepted: `123456789` and
 * `12345 6789`, written back as `12345-6789`). Existence of a US ZIP is checked separately.
 */
export function checkPostalCodeFormat(country: string, raw: string): PostalCodeCheck {
  const code = raw.trim();
  if (US_ZIP_COUNTRIES.has(country)) {
    const m = /^(\d{5})(?:[-\s]?(\d{4}))?$/.exec(code);
    if (!m) return { ok: false, message: 'must be a 5-digit ZIP code or ZIP+4 (12345 or 12345-6789)' };
    return { ok: true, normalized: m[2] ? `${m[1]}-${m[2]}` : m[1] };
  }
  if (!countryUsesPostalCode(country)) {
    return { ok: true, normalized: code.replace(/\s+/g, ' ').toUpperCase() };
  }
  if (code === '') return { ok: false, message: 'is required' };
  const canonical = canonicalLayout(country, code);
  // The library strips separators before matching, except where they are significant (PL,
  // PT): try the code as written, then its canonical layout.
  if (postalCodes.validate(country, code) === true || postalCodes.validate(country, canonical) === true) {
    return { ok: true, normalized: canonical };
  }
  return { ok: false, message: `is not a valid postal code for ${country}` };
}
