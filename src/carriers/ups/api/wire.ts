/**
 * Small pure helpers shared by the UPS builders and parsers: UPS's JSON quirks (a one-element
 * list sometimes arrives as a bare object), its money and weight strings, its address shape.
 */
import { asList, clip, obj, phoneDigits, str, type Json } from '../../http/json-read.js';
import { packagingOf } from '../../api-packaging.js';
import type { Address, Money, Parcel } from '../../types.js';
import { upsPackages as upsPackaging } from '../packages.js';

// The generic readers live in http/json-read.ts (every driver shares them); re-exported for this folder.
export { asList, clip, obj, phoneDigits, str, type Json };

/** `{CurrencyCode, MonetaryValue: "12.34"}` → integer minor units. */
export function money(value: unknown): Money | null {
  const o = obj(value);
  const amount = str(o.MonetaryValue);
  const currency = str(o.CurrencyCode);
  if (amount === null || currency === null || !/^-?\d+(\.\d+)?$/.test(amount.trim())) return null;
  return { amount: Math.round(Number(amount) * 100), currency };
}

/** Ounces → pounds as UPS takes them: one decimal, rounded up, at least 0.1. */
export function poundsFromOz(oz: number): string {
  return Math.max(0.1, Math.ceil((oz / 16) * 10 - 1e-9) / 10).toFixed(1);
}

/** UPS bills whole inches (and Shipping allows 3 characters): round up. */
export function wholeInches(inches: number): string {
  return String(Math.max(1, Math.ceil(inches - 1e-9)));
}

/** `"5.0"` pounds → ounces. */
export function ozFromPounds(value: unknown): number | null {
  const s = str(value);
  if (s === null || !/^\s*\d+(\.\d+)?\s*$/.test(s)) return null;
  return Math.round(Number(s) * 16);
}

export function yyyymmdd(isoDate: string): string {
  return isoDate.slice(0, 10).replace(/-/g, '');
}

export function isoDate(upsDate: unknown): string | null {
  const s = str(upsDate);
  return s && /^\d{8}$/.test(s) ? `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}` : null;
}

/** US ZIP+4 `12345-6789` → `123456789` (UPS PostalCode max 9). */
export function upsPostalCode(postal: string): string {
  return postal.replace(/[\s-]/g, '').slice(0, 9);
}

export function addressLines(a: Address): string[] {
  const lines = [a.street1, a.street2].map((l) => clip(l, 35)).filter((l): l is string => !!l);
  return lines.length ? lines : [''];
}

/** The `Address` object of Rating/Shipping. */
export function upsAddress(a: Address, stateMax: number): Json {
  const out: Json = { AddressLine: addressLines(a) };
  const city = clip(a.city, 30);
  if (city) out.City = city;
  const state = clip(a.state, stateMax);
  if (state) out.StateProvinceCode = state;
  if (a.postal_code) out.PostalCode = upsPostalCode(a.postal_code);
  out.CountryCode = a.country.toUpperCase();
  return out;
}

export function partyName(a: Address, fallback: string): string {
  return clip(a.company, 35) ?? clip(a.name, 35) ?? fallback;
}

/**
 * One `Package` per piece. Its packaging (Rating `PackagingType`, Shipping `Packaging`) is the
 * UPS package it travels in (packages.ts `carrier_code`: 01 UPS Letter, 04 PAK), else 02
 * Customer Supplied Package.
 */
export function upsPackages(parcels: readonly Parcel[], packagingKey: 'PackagingType' | 'Packaging'): Json[] {
  const packaging = packagingOf(parcels, upsPackaging);
  return parcels.map((p, i) => ({
    [packagingKey]: packaging[i] ? { Code: packaging[i].carrier_code, Description: packaging[i].name.slice(0, 35) } : { Code: '02', Description: 'Package' },
    Dimensions: {
      UnitOfMeasurement: { Code: 'IN', Description: 'Inches' },
      Length: wholeInches(p.length_in),
      Width: wholeInches(p.width_in),
      Height: wholeInches(p.height_in),
    },
    PackageWeight: {
      UnitOfMeasurement: { Code: 'LBS', Description: 'Pounds' },
      Weight: poundsFromOz(p.weight_oz),
    },
  }));
}
