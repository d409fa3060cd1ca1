/**
 * Small pure helpers shared by the FedEx builders and parsers: its address and contact shapes,
 * pounds and whole inches, amounts as decimal numbers beside a currency.
 */
import { clip, num, phoneDigits, type Json } from '../../http/json-read.js';
import type { Address, Money, Parcel } from '../../types.js';

/** Ounces → pounds as FedEx takes them (a number): one decimal, rounded up, at least 0.1. */
export function poundsFromOz(oz: number): number {
  return Math.max(0.1, Math.ceil((oz / 16) * 10 - 1e-9) / 10);
}

/** Dimensions are integers ("no implied decimal places"): round up. */
export function wholeInches(inches: number): number {
  return Math.max(1, Math.ceil(inches - 1e-9));
}

/** A FedEx weight `{units, value}` → ounces (KG converted). */
export function ozFromWeight(weight: Json): number | null {
  const value = num(weight.value);
  if (value === null) return null;
  return Math.round(value * (weight.units === 'KG' ? 35.27396195 : 16));
}

/** A decimal amount and its currency → integer minor units. */
export function money(amount: unknown, currency: string | null): Money | null {
  const n = num(amount);
  return n === null || !currency ? null : { amount: Math.round(n * 100), currency };
}

/** `2026-03-05T10:30:00` (or a date) → `2026-03-05`. */
export function isoDay(value: unknown): string | null {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null;
}

export function streetLines(a: Address): string[] {
  const lines = [a.street1, a.street2].map((l) => clip(l, 35)).filter((l): l is string => !!l);
  return lines.length ? lines : [''];
}

/** US ZIP+4 stays `12345-6789` (FedEx takes it as written); spaces trimmed. */
export function postalCode(a: Address): string | undefined {
  return clip(a.postal_code, 10);
}

/** RateAddress: no street lines in the rate description. */
export function rateAddress(a: Address, residential?: boolean): Json {
  const out: Json = {};
  const city = clip(a.city, 35);
  if (city) out.city = city;
  const state = clip(a.state, 2);
  if (state) out.stateOrProvinceCode = state;
  out.postalCode = postalCode(a) ?? '';
  out.countryCode = a.country.toUpperCase();
  if (residential !== undefined) out.residential = residential;
  return out;
}

/** PartyAddress (Ship, Pickup): street lines and city required. */
export function partyAddress(a: Address, residential?: boolean): Json {
  const out: Json = { streetLines: streetLines(a), city: clip(a.city, 35) ?? '' };
  const state = clip(a.state, 2);
  if (state) out.stateOrProvinceCode = state;
  const postal = postalCode(a);
  if (postal) out.postalCode = postal;
  out.countryCode = a.country.toUpperCase();
  if (residential !== undefined) out.residential = residential;
  return out;
}

/** PartyContact: `phoneNumber` is required; the caller decides what stands in when there is none. */
export function partyContact(a: Address, phone: string): Json {
  const out: Json = {};
  const person = clip(a.name, 70);
  if (person) out.personName = person;
  const company = clip(a.company, 35);
  if (company) out.companyName = company;
  out.phoneNumber = phone;
  const email = clip(a.email, 80);
  if (email) out.emailAddress = email;
  return out;
}

export { phoneDigits };

/**
 * A package's weight in pounds, or in kilograms (two decimals, rounded up) for a shipment with
 * customs: commodity weights are kilograms only (`Weight_4.units` enum `KG`) and FedEx refuses a
 * package unit that differs from the commodities'.
 */
export function packageWeight(p: Parcel, units: 'LB' | 'KG' = 'LB'): Json {
  if (units === 'KG') return { units: 'KG', value: Math.max(0.01, Math.ceil(p.weight_oz * 0.028349523125 * 100 - 1e-9) / 100) };
  return { units: 'LB', value: poundsFromOz(p.weight_oz) };
}

export function packageDimensions(p: Parcel): Json {
  return { length: wholeInches(p.length_in), width: wholeInches(p.width_in), height: wholeInches(p.height_in), units: 'IN' };
}

/** Sum of the packages' pounds as sent, so `totalWeight` equals what FedEx adds up. */
export function totalPounds(parcels: readonly Parcel[]): number {
  return Math.round(parcels.reduce((s, p) => s + poundsFromOz(p.weight_oz), 0) * 10) / 10;
}
