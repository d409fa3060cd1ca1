/**
 * Small pure helpers shared by the MyDHL builders and parsers: our units → DHL's imperial
 * numbers (pounds and inches, at most 3 decimals: every `multipleOf: 0.001`), DHL's date-time
 * text, its address and contact shapes.
 */
import { clip, type Json } from '../../http/json-read.js';
import type { Address, Money, Parcel } from '../../types.js';

/** Ounces → pounds, rounded up to DHL's 3 decimals (at least the schemas' minimum 0.001). */
export function poundsFromOz(oz: number): number {
  return Math.max(0.001, Math.ceil((oz / 16) * 1000 - 1e-6) / 1000);
}

/** Inches to DHL's 3 decimals (at least 0.001). */
export function inches(value: number): number {
  return Math.max(0.001, Math.round(value * 1000) / 1000);
}

/** A DHL weight in its unit of measurement (`metric` kg, `imperial` lb) → ounces. */
export function ozFrom(weight: number | null, unit: string | null): number | null {
  if (weight === null || weight < 0) return null;
  return Math.round(weight * ((unit ?? '').toLowerCase() === 'metric' ? 35.27396195 : 16));
}

/** DHL prices are decimal numbers; ours are integer minor units. */
export function moneyOf(price: number | null, currency: string | null): Money | null {
  if (price === null || !currency) return null;
  return { amount: Math.round(price * 100), currency: currency.toUpperCase() };
}

/**
 * `plannedShippingDateAndTime` / `plannedPickupDateAndTime`: `YYYY-MM-DDTHH:MM:SS GMT+hh:mm`,
 * local time at the origin. We know the date, not the origin's zone: the offset is GMT+00:00
 * (DHL reads the date for the products it offers; see NOTES.md).
 */
export function dhlDateTime(isoDate: string, hhmm = '1200'): string {
  const t = hhmm.replace(/\D/g, '').padStart(4, '0');
  return `${isoDate.slice(0, 10)}T${t.slice(0, 2)}:${t.slice(2, 4)}:00 GMT+00:00`;
}

/**
 * The planned shipping time: noon on the ship date, or, when the ship date is today (UTC), a few
 * minutes from now if that is later, because DHL refuses a time already past ("it may be
 * evaluated as being in the past", the field's description).
 */
export function plannedShippingTime(shipDate: string, now: Date): string {
  const today = now.toISOString().slice(0, 10);
  if (shipDate.slice(0, 10) !== today) return dhlDateTime(shipDate);
  const soon = new Date(Math.min(now.getTime() + 10 * 60_000, Date.parse(`${today}T23:59:00Z`)));
  const hhmm = soon.toISOString().slice(11, 16).replace(':', '');
  return dhlDateTime(shipDate, hhmm > '1200' ? hhmm : '1200');
}

/** `HHmm` → DHL's `HH:MM` (closeTime). */
export function hhColonMm(hhmm: string): string {
  const t = hhmm.replace(/\D/g, '').padStart(4, '0');
  return `${t.slice(0, 2)}:${t.slice(2, 4)}`;
}

/** A YYYY-MM-DD from DHL's date-time text (`2022-12-28T23:59:00Z`, `2023-08-11T23:59:00`). */
export function isoDateOf(value: string | null): string | null {
  return value && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null;
}

/**
 * One `packages[]` entry per piece. No `typeCode`: MyDHL's list is DHL's boxes, card envelopes,
 * tubes and the Express Envelope (XPD), each "if you wish to use a DHL specific package" by
 * arrangement with DHL; the Flyer (../packages.ts) has no code there, so a piece in it is
 * described by its weight and dimensions like any box (NOTES.md, "Packaging").
 */
export function packagesOf(parcels: readonly Parcel[], withReference: boolean): Json[] {
  return parcels.map((p, i) => ({
    weight: poundsFromOz(p.weight_oz),
    dimensions: { length: inches(p.length_in), width: inches(p.width_in), height: inches(p.height_in) },
    // Links each label to its package (getAdditionalInformation linkLabelsByPieces).
    ...(withReference ? { referenceNumber: i + 1 } : {}),
  }));
}

/** The rating address (`supermodelIoLogisticsExpressAddressRatesRequest`): no contact. */
export function rateAddress(a: Address): Json {
  const out: Json = { postalCode: (a.postal_code ?? '').trim().slice(0, 12), cityName: clip(a.city, 45) ?? '', countryCode: a.country.toUpperCase() };
  const province = clip(a.state, 35);
  if (province && province.length >= 2) out.provinceCode = province;
  const line1 = clip(a.street1, 45);
  if (line1) out.addressLine1 = line1;
  const line2 = clip(a.street2, 45);
  if (line2) out.addressLine2 = line2;
  return out;
}

/** A postal address of shipments and pickups (addressLine1 required there). */
export function postalAddress(a: Address): Json {
  return { ...rateAddress(a), addressLine1: clip(a.street1, 45) ?? clip(a.street2, 45) ?? '' };
}

/**
 * `contactInformation`: phone, companyName and fullName are required by every party schema. A
 * missing phone is refused before calling DHL (see `missingFields`), never invented.
 */
export function contact(a: Address, fallbackName: string): Json {
  const name = clip(a.name, 255) ?? clip(a.company, 255) ?? fallbackName;
  const out: Json = {
    phone: clip(a.phone, 70) ?? '',
    companyName: clip(a.company, 100) ?? clip(a.name, 100) ?? fallbackName,
    fullName: name,
  };
  const email = clip(a.email, 70);
  if (email) out.email = email;
  return out;
}

export function party(a: Address, fallbackName: string): Json {
  return { postalAddress: postalAddress(a), contactInformation: contact(a, fallbackName) };
}

/** Address fields DHL requires (`cityName`, `addressLine1`, `contactInformation.phone`: minLength 1). */
export type RequiredAddressField = 'city' | 'street1' | 'phone';

const LABELS: Record<RequiredAddressField, string> = { city: 'a city', street1: 'a street address', phone: 'a phone number' };

/**
 * Our request fields DHL needs and we lack (`ship_to.phone`, …), each with its message: refused
 * before calling DHL rather than sent empty or invented.
 */
export function missingFields(parties: Record<string, Address>, fields: readonly RequiredAddressField[]): { field: string; message: string }[] {
  return Object.entries(parties).flatMap(([party, a]) =>
    fields.filter((f) => !clip(a[f], 70)).map((f) => ({ field: `${party}.${f}`, message: `DHL Express requires ${LABELS[f]}` })),
  );
}
