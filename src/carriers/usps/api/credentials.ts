import type { DriverMode } from '../../driver.js';

/**
 * The USPS `api` driver's credentials (JSON Schema 2020-12), as `GET /v1/carrier-types` shows
 * them. USPS v3 needs two things: an app's OAuth client credentials (developers.usps.com), and
 * for labels the Enterprise Payment account the postage is charged to, named by the Business
 * Customer Gateway ids (CRID, MID, manifest MID) that the Payments API turns into a payment
 * authorization token. The payment account number is write-only like the secret: with the
 * CRID it names the account postage is drawn from, so it is masked (last 4 shown) everywhere.
 */
export const uspsCredentialsSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'USPS v3 OAuth client credentials and payment account',
  description:
    'Consumer Key and Secret of your app on developers.usps.com; your Customer Registration ID (CRID), Mailer IDs and the Enterprise Payment (EPS) account or permit that pays for labels, from the Business Customer Gateway.',
  type: 'object',
  additionalProperties: false,
  required: ['client_id', 'client_secret', 'crid', 'mid', 'manifest_mid', 'payment_account_number', 'payment_account_type'],
  properties: {
    client_id: { type: 'string', minLength: 1, maxLength: 256, title: 'Consumer key (client ID)' },
    client_secret: { type: 'string', minLength: 1, maxLength: 256, title: 'Consumer secret', writeOnly: true },
    // Payments.yaml `CRID`: 2–18 characters (CRIDs are digits in practice; the schema says no more).
    crid: { type: 'string', minLength: 2, maxLength: 18, title: 'Customer Registration ID (CRID)' },
    // Payments.yaml `MID` / `manifestMID`: ^(\d{6}|\d{9})$.
    mid: { type: 'string', pattern: '^(\\d{6}|\\d{9})$', title: 'Mailer ID (MID)' },
    manifest_mid: { type: 'string', pattern: '^(\\d{6}|\\d{9})$', title: 'Manifest Mailer ID' },
    // Domestic Prices `accountNumber`: ^\d+$ (the same number prices contract rates).
    payment_account_number: { type: 'string', pattern: '^\\d+$', maxLength: 32, title: 'EPS account or permit number', writeOnly: true },
    // The README's Domestic Label section: labels are paid from an EPS account or a PERMIT
    // (Payments.yaml also lists METER and OMAS, which the label APIs do not take).
    payment_account_type: { type: 'string', enum: ['EPS', 'PERMIT'], title: 'Payment account type' },
    // Payments.yaml `permitZIP` (max 5): required for a PERMIT account, not for EPS.
    permit_zip: { type: 'string', pattern: '^\\d{5}$', title: 'Permit ZIP Code' },
  },
  if: { properties: { payment_account_type: { const: 'PERMIT' } }, required: ['payment_account_type'] },
  then: { required: ['permit_zip'] },
} as const;

export type UspsPaymentAccountType = 'EPS' | 'PERMIT';

export interface UspsCredentials {
  client_id: string;
  client_secret: string;
  crid: string | null;
  mid: string | null;
  manifest_mid: string | null;
  payment_account_number: string | null;
  payment_account_type: UspsPaymentAccountType | null;
  permit_zip: string | null;
}

/** Hosts per mode, from every v3 document's `servers` (production, then "Testing Environment"). */
export const USPS_HOSTS: Record<DriverMode, string> = {
  sandbox: 'https://apis-tem.usps.com',
  production: 'https://apis.usps.com',
};

export function uspsHost(mode: DriverMode, baseUrl?: string | null): string {
  return (baseUrl ?? USPS_HOSTS[mode]).replace(/\/+$/, '');
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** Null without the OAuth pair; the payment fields may be absent (rates and tracking do without them). */
export function readUspsCredentials(credentials: Record<string, unknown>): UspsCredentials | null {
  const id = text(credentials.client_id);
  const secret = text(credentials.client_secret);
  if (!id || !secret) return null;
  const type = text(credentials.payment_account_type);
  return {
    client_id: id,
    client_secret: secret,
    crid: text(credentials.crid),
    mid: text(credentials.mid),
    manifest_mid: text(credentials.manifest_mid),
    payment_account_number: text(credentials.payment_account_number),
    payment_account_type: type === 'EPS' || type === 'PERMIT' ? type : null,
    permit_zip: text(credentials.permit_zip),
  };
}
