/**
 * UPS's error bodies (`{response: {errors: [{code, message}]}}`, every yaml's ErrorResponse)
 * → our normalised messages. Which of them are refused credentials rather than a refused
 * request is decided here, once.
 */
import type { CarrierMessage } from '../../http/errors.js';
import { asList, obj, str } from './wire.js';

/** UPS error codes that mean "these credentials are not accepted". */
const CREDENTIAL_CODES = new Set(['250001', '250002', '250003', '250004', '250007', '250009', '250019']);

/** UPS error codes that point at one of our request fields. */
const FIELD_BY_CODE: Readonly<Record<string, string>> = {
  '111285': 'ship_to.postal_code', // The postal code is invalid for the state/country.
  '111286': 'ship_to.state',
  '111057': 'parcel.weight_oz', // Package weight exceeds the maximum.
  '111500': 'service_code', // The selected service is not valid for the origin/destination.
  '111210': 'service_code', // The requested service is unavailable between the selected locations.
  '120802': 'ship_to', // Address validation error on ShipTo address.
  '120206': 'ship_to.state',
  '120208': 'ship_to.postal_code',
  '120100': 'account_number', // Missing or invalid shipper number.
  '151018': 'tracking_number', // Invalid tracking number.
};

export interface UpsErrors {
  messages: CarrierMessage[];
  credentialsRefused: boolean;
}

export function parseUpsErrors(status: number, body: unknown): UpsErrors {
  const errors = asList(obj(obj(body).response).errors).map(obj);
  const credentialsRefused = status === 401 || status === 403 || errors.some((e) => CREDENTIAL_CODES.has(str(e.code) ?? ''));
  const code = credentialsRefused ? 'carrier_account_invalid' : 'carrier_rejected';
  const messages: CarrierMessage[] = errors.map((e) => {
    const carrierCode = str(e.code) ?? String(status);
    const m: CarrierMessage = { code, carrier_code: carrierCode, message: str(e.message) ?? `UPS answered ${status}` };
    const field = FIELD_BY_CODE[carrierCode];
    if (field) m.field = field;
    return m;
  });
  if (messages.length === 0) {
    messages.push({ code, carrier_code: String(status), message: credentialsRefused ? 'UPS refused the credentials' : `UPS refused the request (${status})` });
  }
  return { messages, credentialsRefused };
}
