/**
 * MyDHL's problem bodies (`supermodelIoLogisticsExpressErrorResponse`: instance, detail, title,
 * message, status, additionalDetails) → our normalised messages. Which answers are refused
 * credentials rather than a refused request is decided here, once.
 */
import { asList, obj, str } from '../../http/json-read.js';
import type { CarrierMessage } from '../../http/errors.js';

/** A JSON pointer in DHL's detail (`#/customerDetails/receiverDetails/postalAddress/postalCode`) → our field. */
const FIELD_BY_POINTER: readonly [RegExp, string][] = [
  [/^#?\/customerDetails\/receiverDetails\/postalAddress\/postalCode/, 'ship_to.postal_code'],
  [/^#?\/customerDetails\/receiverDetails\/postalAddress\/cityName/, 'ship_to.city'],
  [/^#?\/customerDetails\/receiverDetails/, 'ship_to'],
  [/^#?\/customerDetails\/shipperDetails\/postalAddress\/postalCode/, 'ship_from.postal_code'],
  [/^#?\/customerDetails\/shipperDetails\/postalAddress\/cityName/, 'ship_from.city'],
  [/^#?\/customerDetails\/shipperDetails/, 'ship_from'],
  [/^#?\/content\/packages/, 'parcels'],
  [/^#?\/productCode/, 'service_code'],
  [/^#?\/accounts/, 'account_number'],
];

/** DHL's details name the party in words too ("…receiver postal code…"). */
const FIELD_BY_WORDS: readonly [RegExp, string][] = [
  [/(receiver|destination|consignee)\b[^.]*postal ?code|postal ?code[^.]*\b(receiver|destination|consignee)/i, 'ship_to.postal_code'],
  [/(shipper|origin|pickup)\b[^.]*postal ?code|postal ?code[^.]*\b(shipper|origin|pickup)/i, 'ship_from.postal_code'],
  [/account number/i, 'account_number'],
  [/product\(?s?\)?[^.]*not available/i, 'service_code'],
];

function fieldOf(text: string): string | undefined {
  const pointer = /#?\/[A-Za-z0-9_/]+/.exec(text)?.[0];
  if (pointer) {
    const hit = FIELD_BY_POINTER.find(([re]) => re.test(pointer));
    if (hit) return hit[1];
  }
  return FIELD_BY_WORDS.find(([re]) => re.test(text))?.[1];
}

/** `"7008: The requested Special Service…"` → carrier code `7008`, message the rest. */
function split(detail: string, status: number): { code: string; message: string } {
  const m = /^\s*(\d{3,7})\s*:\s*(.+)$/s.exec(detail);
  return m ? { code: m[1], message: m[2].trim() } : { code: String(status), message: detail.trim() };
}

export interface DhlErrors {
  messages: CarrierMessage[];
  credentialsRefused: boolean;
}

export function parseDhlErrors(status: number, body: unknown): DhlErrors {
  const b = obj(body);
  // 401: the key/secret are refused; 403: the key has no access to this product (reference-data documents it).
  const credentialsRefused = status === 401 || status === 403;
  const code = credentialsRefused ? 'carrier_account_invalid' : 'carrier_rejected';
  const texts = [str(b.detail), ...asList(b.additionalDetails).map((d) => str(d) ?? str(obj(d).detail) ?? str(obj(d).message))].filter(
    (t): t is string => !!t && t.trim() !== '',
  );
  const messages: CarrierMessage[] = texts.map((t) => {
    const { code: carrierCode, message } = split(t, status);
    const m: CarrierMessage = { code, carrier_code: carrierCode, message };
    const field = fieldOf(t);
    if (field) m.field = field;
    return m;
  });
  if (messages.length === 0) {
    const title = str(b.title) ?? str(b.message);
    messages.push({
      code,
      carrier_code: String(status),
      message: title ?? (credentialsRefused ? 'DHL Express refused the credentials' : `DHL Express refused the request (${status})`),
    });
  }
  return { messages, credentialsRefused };
}
