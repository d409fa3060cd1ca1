import { seededDigits } from '../simulation/seed.js';

/** Weights 3, 1, 7 repeating over the 11-digit serial, left to right. */
const WEIGHTS = [3, 1, 7];

/** FedEx Express mod-11 check digit (a remainder of 10 becomes 0). */
export function fedexCheckDigit(serial11: string): number {
  let sum = 0;
  for (let i = 0; i < serial11.length; i++) sum += (serial11.charCodeAt(i) - 48) * WEIGHTS[i % 3];
  return (sum % 11) % 10;
}

/** 12 digits, the last being the mod-11 check digit. */
export function isValidFedexTrackingNumber(value: string): boolean {
  const s = value.replace(/\s+/g, '');
  return /^[0-9]{12}$/.test(s) && fedexCheckDigit(s.slice(0, 11)) === Number(s[11]);
}

export function fedexTrackingNumber(reference: string, serviceCode: string): string {
  // A leading 7 or 8, as on live FedEx labels, then 10 seeded digits.
  const lead = serviceCode === 'fedex_ground' || serviceCode === 'fedex_home_delivery' ? '8' : '7';
  const serial = lead + seededDigits(`fedex:${reference}`, 10);
  return `${serial}${fedexCheckDigit(serial)}`;
}
