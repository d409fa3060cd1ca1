/**
 * USPS's error bodies → our normalised messages, decided once for every v3 API. Every document
 * declares the same `ErrorMessage`: `{apiVersion, error: {code, message, errors: [{status,
 * code, title, detail, source: {parameter, example}}]}}`. The OAuth endpoint has no document;
 * it answers in OAuth's own shape (`{error, error_description}`, RFC 6749 §5.2), read too.
 */
import type { CarrierMessage } from '../../http/errors.js';
import { asList, obj, str } from '../../http/json-read.js';

/**
 * USPS `source.parameter` (a JSON path into the request it refused) → our request field, by
 * the path's last segments. First match wins, so the specific ones come first.
 */
const FIELD_BY_PARAMETER: readonly [RegExp, string][] = [
  [/(^|\.)toAddress\.ZIPCode$|(^|\.)destinationZIPCode$/i, 'ship_to.postal_code'],
  [/(^|\.)toAddress\.state$/i, 'ship_to.state'],
  [/(^|\.)toAddress\.city$/i, 'ship_to.city'],
  [/(^|\.)toAddress\.streetAddress$/i, 'ship_to.street1'],
  [/(^|\.)toAddress\b/i, 'ship_to'],
  [/(^|\.)fromAddress\.ZIPCode$|(^|\.)originZIPCode$/i, 'ship_from.postal_code'],
  [/(^|\.)fromAddress\.state$/i, 'ship_from.state'],
  [/(^|\.)fromAddress\b/i, 'ship_from'],
  [/(^|\.)weight$/i, 'parcel.weight_oz'],
  [/(^|\.)length$/i, 'parcel.length_in'],
  [/(^|\.)width$/i, 'parcel.width_in'],
  [/(^|\.)height$/i, 'parcel.height_in'],
  [/(^|\.)mailClass(es)?$/i, 'service_code'],
  [/(^|\.)mailingDate$/i, 'ship_date'],
  [/^trackingNumber$/i, 'tracking_number'],
  [/^confirmationNumber$/i, 'confirmation'],
  [/^ZIPCode$/, 'postal_code'],
  [/^state$/, 'state'],
  [/^city$/, 'city'],
  [/^streetAddress$/, 'street1'],
];

export function fieldOf(parameter: string | null): string | undefined {
  if (!parameter) return undefined;
  return FIELD_BY_PARAMETER.find(([re]) => re.test(parameter))?.[1];
}

export interface UspsErrors {
  messages: CarrierMessage[];
  credentialsRefused: boolean;
}

/** 401 and 403 (USPS: "Unauthorized request", "Access is denied") are the account's, not the request's. */
export function parseUspsErrors(status: number, body: unknown): UspsErrors {
  const credentialsRefused = status === 401 || status === 403;
  const code = credentialsRefused ? 'carrier_account_invalid' : 'carrier_rejected';
  const error = obj(obj(body).error);
  const top = { code: str(error.code), message: str(error.message) };
  const messages: CarrierMessage[] = asList(error.errors)
    .map(obj)
    .map((e) => {
      const m: CarrierMessage = {
        code,
        carrier_code: str(e.code) ?? top.code ?? String(status),
        message: str(e.detail) ?? str(e.title) ?? top.message ?? `USPS answered ${status}`,
      };
      const field = fieldOf(str(obj(e.source).parameter));
      if (field) m.field = field;
      return m;
    });
  if (messages.length === 0) {
    // OAuth's own shape, or an ErrorMessage without its list.
    const oauthError = str(obj(body).error);
    const oauthText = str(obj(body).error_description);
    messages.push({
      code,
      carrier_code: top.code ?? oauthError ?? String(status),
      message: top.message ?? oauthText ?? (credentialsRefused ? 'USPS refused the credentials' : `USPS refused the request (${status})`),
    });
  }
  return { messages, credentialsRefused };
}
