import { seededDigits } from '../simulation/seed.js';

/** IMpb channel application identifier (first two digits, 92–95) per service. */
const APPLICATION_IDS: Record<string, string> = {
  usps_priority_mail_express: '92',
  usps_ground_advantage: '93',
  usps_priority_mail: '94',
  usps_first_class_international: '95',
};

/** Service type codes (3 digits) as on IMpb labels. */
const SERVICE_TYPE_CODES: Record<string, string> = {
  usps_priority_mail_express: '701',
  usps_ground_advantage: '001',
  usps_priority_mail: '055',
  usps_first_class_international: '611',
};

/**
 * USPS mod-10 check digit: from the rightmost digit of the 21-digit body, weights 3, 1, 3, 1 …;
 * the check digit brings the weighted sum to a multiple of 10.
 */
export function uspsCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const fromRight = body.length - 1 - i;
    sum += (body.charCodeAt(i) - 48) * (fromRight % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** IMpb: 22 digits beginning 92–95, last digit the USPS mod-10 check digit. */
export function isValidUspsTrackingNumber(value: string): boolean {
  const s = value.replace(/\s+/g, '');
  return /^9[2-5][0-9]{20}$/.test(s) && uspsCheckDigit(s.slice(0, 21)) === Number(s[21]);
}

/** Application id (2) + service type (3) + mailer id (9) + serial (7) + check (1). */
export function uspsTrackingNumber(reference: string, serviceCode: string): string {
  const body =
    (APPLICATION_IDS[serviceCode] ?? '94') +
    (SERVICE_TYPE_CODES[serviceCode] ?? '001') +
    seededDigits(`usps:mid:${reference}`, 9) +
    seededDigits(`usps:${reference}`, 7);
  return `${body}${uspsCheckDigit(body)}`;
}
