/**
 * Small pure helpers shared by the USPS builders and parsers: USPS's address object, its
 * pounds and inches as JSON numbers, its dollars as JSON numbers, names split in two.
 */
import { clip, type Json } from '../../http/json-read.js';
import type { Address, Money } from '../../types.js';

/** Ounces → pounds, rounded up to the hundredth (USPS prices by the pound, any fraction). */
export function pounds(oz: number): number {
  return Math.max(0.01, Math.ceil((oz / 16) * 100 - 1e-9) / 100);
}

/** Inches to the hundredth. */
export function inches(value: number): number {
  return Math.round(value * 100) / 100;
}

/** A USPS price (dollars as a JSON number) → minor units. */
export function usd(value: unknown): Money | null {
  return typeof value === 'number' && Number.isFinite(value) ? { amount: Math.round(value * 100), currency: 'USD' } : null;
}

/** `30005-1234` → ZIPCode `30005`, ZIPPlus4 `1234`. */
export function zipParts(postal: string): { ZIPCode: string; ZIPPlus4?: string } {
  const digits = postal.replace(/[^0-9]/g, '');
  return digits.length >= 9 ? { ZIPCode: digits.slice(0, 5), ZIPPlus4: digits.slice(5, 9) } : { ZIPCode: digits.slice(0, 5) };
}

/** USPS wants first and last names: the last word is the last name; a company alone is the firm. */
export function splitName(name: string | undefined): { firstName?: string; lastName?: string } {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return {};
  if (words.length === 1) return { firstName: words[0].slice(0, 50) };
  return { firstName: words.slice(0, -1).join(' ').slice(0, 50), lastName: words[words.length - 1].slice(0, 50) };
}

/** E.164-ish digits as the label schemas take them (`^\+?[1-9][0-9]{7,14}$|^[0-9]{6,15}$`). */
export function phone(value: string | undefined): string | undefined {
  let d = (value ?? '').replace(/[^0-9]/g, '');
  // A US number written with its country code: USPS wants the 10 digits.
  if (d.length === 11 && d.startsWith('1')) d = d.slice(1);
  return d.length >= 6 && d.length <= 15 ? d : undefined;
}

/** The domestic address object of the label APIs (DomesticLabelAddress). */
export function domesticAddress(a: Address): Json {
  const out: Json = { ...splitName(a.name) };
  const firm = clip(a.company, 50);
  if (firm) out.firm = firm;
  const street = clip(a.street1, 50);
  if (street) out.streetAddress = street;
  const secondary = clip(a.street2, 50);
  if (secondary) out.secondaryAddress = secondary;
  const city = clip(a.city, 28);
  if (city) out.city = city;
  const state = clip(a.state, 2)?.toUpperCase();
  if (state) out.state = state;
  Object.assign(out, zipParts(a.postal_code));
  const tel = phone(a.phone);
  if (tel) out.phone = tel;
  return out;
}
