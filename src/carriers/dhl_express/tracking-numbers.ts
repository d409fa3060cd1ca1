import { seededDigits } from '../simulation/seed.js';

/** DHL Express mod-7 check digit: the 9-digit serial as a number, mod 7. */
export function dhlCheckDigit(serial9: string): number {
  return Number(serial9) % 7;
}

/** 10 digits, the last being the mod-7 check digit. */
export function isValidDhlTrackingNumber(value: string): boolean {
  const s = value.replace(/\s+/g, '');
  return /^[0-9]{10}$/.test(s) && dhlCheckDigit(s.slice(0, 9)) === Number(s[9]);
}

export function dhlTrackingNumber(reference: string, _serviceCode: string): string {
  const serial = seededDigits(`dhl_express:${reference}`, 9);
  return `${serial}${dhlCheckDigit(serial)}`;
}
