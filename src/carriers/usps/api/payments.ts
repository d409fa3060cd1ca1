/**
 * Payment authorization (`POST /payments/v3/payment-authorization`, payments.yaml): the token
 * the label APIs take in `X-Payment-Authorization-Token`. PAYER and LABEL_OWNER are the two
 * roles every label transaction needs (the operation's description); both are the account's
 * own CRID, MIDs and payment account (the README's "Set the payment account" example).
 */
import type { AccessToken } from '../../http/token-cache.js';
import { obj, str, type Json } from '../../http/json-read.js';
import type { UspsCredentials } from './credentials.js';

export const PAYMENT_AUTHORIZATION_PATH = '/payments/v3/payment-authorization';
/** "Tokens are valid for eight hours after issuance" (the operation's description). */
export const PAYMENT_TOKEN_LIFETIME_S = 8 * 3600;

export type PaymentCredentials = UspsCredentials & {
  crid: string;
  mid: string;
  manifest_mid: string;
  payment_account_number: string;
  payment_account_type: 'EPS' | 'PERMIT';
};

/** The credential fields a label needs that this account lacks (empty: it can buy labels). */
export function missingPaymentFields(c: UspsCredentials): string[] {
  const missing = (['crid', 'mid', 'manifest_mid', 'payment_account_number', 'payment_account_type'] as const).filter((k) => !c[k]);
  if (c.payment_account_type === 'PERMIT' && !c.permit_zip) missing.push('permit_zip' as never);
  return missing;
}

export function buildPaymentAuthorizationRequest(c: PaymentCredentials): Json {
  const account: Json = { accountType: c.payment_account_type, accountNumber: c.payment_account_number };
  if (c.payment_account_type === 'PERMIT' && c.permit_zip) account.permitZIP = c.permit_zip;
  const ids = { CRID: c.crid, MID: c.mid, manifestMID: c.manifest_mid };
  return {
    roles: [
      { roleName: 'PAYER', ...ids, ...account },
      { roleName: 'LABEL_OWNER', ...ids, ...account },
    ],
  };
}

export function parsePaymentAuthorizationResponse(body: unknown): AccessToken | null {
  const token = str(obj(body).paymentAuthorizationToken);
  return token ? { accessToken: token, expiresInS: PAYMENT_TOKEN_LIFETIME_S } : null;
}
