import { seededChars, seededDigits } from '../simulation/seed.js';

/** UPS service indicator digits inside a 1Z number. */
const SERVICE_INDICATORS: Record<string, string> = {
  ups_next_day_air: '01',
  ups_2nd_day_air: '02',
  ups_ground: '03',
  ups_3_day_select: '12',
  ups_worldwide_saver: '65',
};

const UPS_FORMAT = /^1Z[0-9A-Z]{6}[0-9A-Z]{2}[0-9]{7}[0-9]$/;

/**
 * UPS mod-10 check digit over the 15 characters after "1Z". Letters count as
 * (char code − 63) mod 10 (A=2 … I=0 … Z=7); characters in even positions (1-based) are
 * doubled; the check digit brings the sum to a multiple of 10.
 */
export function upsCheckDigit(body15: string): number {
  let sum = 0;
  for (let i = 0; i < body15.length; i++) {
    const c = body15[i];
    const value = c >= '0' && c <= '9' ? c.charCodeAt(0) - 48 : (c.charCodeAt(0) - 63) % 10;
    sum += i % 2 === 1 ? 2 * value : value;
  }
  return (10 - (sum % 10)) % 10;
}

/** 1Z + 6-char shipper + 2-digit service + 7-digit package id + check digit (18 chars). */
export function isValidUpsTrackingNumber(value: string): boolean {
  const s = value.replace(/\s+/g, '').toUpperCase();
  return UPS_FORMAT.test(s) && upsCheckDigit(s.slice(2, 17)) === Number(s[17]);
}

export function upsTrackingNumber(reference: string, serviceCode: string): string {
  const shipper = seededChars(`ups:shipper:${reference}`, 6, '0123456789ABCDEFGHJKLMNPRSTUVWXYZ');
  const body = `${shipper}${SERVICE_INDICATORS[serviceCode] ?? '03'}${seededDigits(`ups:${reference}`, 7)}`;
  return `1Z${body}${upsCheckDigit(body)}`;
}
