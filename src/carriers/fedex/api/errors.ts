/**
 * FedEx's error bodies (`{transactionId, errors: [{code, message, parameterList}]}`, every
 * document's ErrorResponseVO) → our normalised messages. Which of them are refused credentials
 * rather than a refused request is decided here, once.
 */
import type { CarrierMessage } from '../../http/errors.js';
import { asList, obj, str } from '../../http/json-read.js';

/**
 * Codes that mean "this account cannot act": the token or its permissions (the documents'
 * 401/403 examples) and an account number FedEx does not know (the ship 400 example). The
 * account number is part of the carrier account's setup, so it marks the account invalid
 * rather than the one request.
 */
const CREDENTIAL_CODES = new Set([
  'NOT.AUTHORIZED.ERROR',
  'FORBIDDEN.ERROR',
  'AUTHENTICATION.TOKEN.INVALID',
  'LOGIN.REAUTHENTICATE.ERROR',
  'UNAUTHORIZED.USAGE',
  'ACCOUNTNUMBER.REGISTRATION.REQUIRED',
  'ACCOUNTNUMBER.REGISTRATION.REQUIRED.INVALID',
]);

/**
 * FedEx codes are dotted words naming the element they are about; these rules point the words
 * at our request fields (first match wins).
 */
const FIELD_RULES: readonly [RegExp, string][] = [
  [/^(SHIP\.)?RECIPIENT.*POSTAL/, 'ship_to.postal_code'],
  [/^(SHIP\.)?RECIPIENT.*STATE/, 'ship_to.state'],
  [/^(SHIP\.)?RECIPIENT.*PHONE/, 'ship_to.phone'],
  [/^(SHIP\.)?RECIPIENT/, 'ship_to'],
  [/^(SHIP\.)?SHIPPER.*POSTAL/, 'ship_from.postal_code'],
  [/^(SHIP\.)?SHIPPER.*STATE/, 'ship_from.state'],
  [/^(SHIP\.)?SHIPPER/, 'ship_from'],
  [/^ACCOUNT/, 'account_number'],
  [/^SERVICE(TYPE)?\.(?!UNAVAILABLE\.ERROR)/, 'service_code'],
  [/^TRACKING(NUMBER)?\./, 'tracking_number'],
  [/WEIGHT/, 'parcel.weight_oz'],
  [/DIMENSION/, 'parcel'],
];

export interface FedexErrors {
  messages: CarrierMessage[];
  credentialsRefused: boolean;
}

export function fieldOf(code: string): string | undefined {
  return FIELD_RULES.find(([re]) => re.test(code))?.[1];
}

export function parseFedexErrors(status: number, body: unknown): FedexErrors {
  const errors = asList(obj(body).errors).map(obj);
  const credentialsRefused = status === 401 || status === 403 || errors.some((e) => CREDENTIAL_CODES.has(str(e.code) ?? ''));
  const code = credentialsRefused ? 'carrier_account_invalid' : 'carrier_rejected';
  const messages: CarrierMessage[] = errors.map((e) => {
    const carrierCode = str(e.code) ?? String(status);
    const m: CarrierMessage = { code, carrier_code: carrierCode, message: str(e.message)?.trim() || `FedEx answered ${status}` };
    const field = fieldOf(carrierCode);
    if (field) m.field = field;
    return m;
  });
  if (messages.length === 0) {
    messages.push({
      code,
      carrier_code: String(status),
      message: credentialsRefused ? 'FedEx refused the credentials' : `FedEx refused the request (${status})`,
    });
  }
  return { messages, credentialsRefused };
}
