/**
 * BigCommerce's codes ↔ ours, one table each (docs/channels-bigcommerce.md explains every
 * choice): order statuses, webhook scopes, tracking carriers, dates, money.
 */

/**
 * `status_id` → a word for it, for messages. `platform_status` (and so `import_statuses`) is
 * the id itself as a string (`"11"`): merchants rename statuses (`custom_label`), the ids and
 * their meaning are fixed (Orders V2 `/order_statuses`).
 */
const STATUS_WORDS: Readonly<Record<number, string>> = {
  0: 'incomplete',
  1: 'pending',
  2: 'shipped',
  3: 'partially_shipped',
  4: 'refunded',
  5: 'cancelled',
  6: 'declined',
  7: 'awaiting_payment',
  8: 'awaiting_pickup',
  9: 'awaiting_shipment',
  10: 'completed',
  11: 'awaiting_fulfillment',
  12: 'manual_verification_required',
  13: 'disputed',
  14: 'partially_refunded',
};

export function statusWord(statusId: unknown): string {
  const id = typeof statusId === 'number' ? statusId : typeof statusId === 'string' && /^\d+$/.test(statusId) ? Number(statusId) : NaN;
  if (Number.isNaN(id)) return 'unknown';
  return STATUS_WORDS[id] ?? `status_${id}`;
}

/** Cancelled by the merchant, or declined (never paid): nothing of the order is to ship. */
export const CANCELLED_STATUS_IDS: ReadonlySet<number> = new Set([5, 6]);

/** A write-back finds nothing to do: abandoned, refunded, cancelled, declined. */
export const CLOSED_STATUS_IDS: ReadonlySet<number> = new Set([0, 4, 5, 6]);

/** Not ready to ship yet (payment, verification, dispute): a write-back waits (`on_hold`). */
export const HELD_STATUS_IDS: ReadonlySet<number> = new Set([1, 7, 12, 13]);

/** `platform_status`: the status id as a string, `"unknown"` without one. */
export function statusKey(statusId: unknown): string {
  const id = typeof statusId === 'number' ? statusId : typeof statusId === 'string' && /^\d+$/.test(statusId) ? Number(statusId) : NaN;
  return Number.isNaN(id) ? 'unknown' : String(id);
}

/** Awaiting Fulfillment (11) and Awaiting Shipment (9): paid and not shipped. */
export const DEFAULT_IMPORT_STATUSES: readonly string[] = ['11', '9'];

/**
 * The scopes subscribed to on activation, as `createWebhookSubscription` takes them: the order
 * scopes only. `store/app/uninstalled` is an app's; a store API account has no install to lose,
 * and its deletion shows as 401 on the next call (docs/channels-bigcommerce.md).
 */
export const WEBHOOK_TOPICS: readonly string[] = ['store/order/created', 'store/order/updated', 'store/order/statusUpdated'];

/** The header each hook of ours carries (set in the hook's `headers`): how a delivery is authenticated. */
export const SECRET_HEADER = 'X-Service-Webhook-Token';

/**
 * Our carrier slug → BigCommerce's `tracking_carrier` (the AfterShip courier slugs its
 * shipments take; docs/channels-bigcommerce.md). Null: no tracking carrier, the link alone.
 */
const TRACKING_CARRIER: Readonly<Record<string, string>> = {
  usps: 'usps',
  ups: 'ups',
  fedex: 'fedex',
  dhl_express: 'dhl',
};

export function trackingCarrier(carrierSlug: string): string | null {
  return TRACKING_CARRIER[carrierSlug] ?? null;
}

/** BigCommerce's RFC-2822 dates (`Tue, 05 Mar 2019 21:40:11 +0000`) as UTC ISO with milliseconds; null when unreadable. */
export function isoFromRfc2822(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/**
 * An ISO instant as the `min_date_modified` filter takes it. The description accepts RFC-2822
 * or ISO-8601; its ISO example has milliseconds and an offset, so that form, in UTC.
 */
export function dateFilter(iso: string): string | null {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : new Date(t).toISOString().replace('Z', '+00:00');
}

export { toMinorUnits } from '../money.js';

/**
 * Orders V2 addresses carry the state's name (`Texas`), not its code; carriers want the code
 * for the US and Canada. Names compare case-insensitively; other countries keep the name.
 */
const STATE_CODES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  US: {
    alabama: 'AL',
    alaska: 'AK',
    arizona: 'AZ',
    arkansas: 'AR',
    california: 'CA',
    colorado: 'CO',
    connecticut: 'CT',
    delaware: 'DE',
    'district of columbia': 'DC',
    florida: 'FL',
    georgia: 'GA',
    hawaii: 'HI',
    idaho: 'ID',
    illinois: 'IL',
    indiana: 'IN',
    iowa: 'IA',
    kansas: 'KS',
    kentucky: 'KY',
    louisiana: 'LA',
    maine: 'ME',
    maryland: 'MD',
    massachusetts: 'MA',
    michigan: 'MI',
    minnesota: 'MN',
    mississippi: 'MS',
    missouri: 'MO',
    montana: 'MT',
    nebraska: 'NE',
    nevada: 'NV',
    'new hampshire': 'NH',
    'new jersey': 'NJ',
    'new mexico': 'NM',
    'new york': 'NY',
    'north carolina': 'NC',
    'north dakota': 'ND',
    ohio: 'OH',
    oklahoma: 'OK',
    oregon: 'OR',
    pennsylvania: 'PA',
    'rhode island': 'RI',
    'south carolina': 'SC',
    'south dakota': 'SD',
    tennessee: 'TN',
    texas: 'TX',
    utah: 'UT',
    vermont: 'VT',
    virginia: 'VA',
    washington: 'WA',
    'west virginia': 'WV',
    wisconsin: 'WI',
    wyoming: 'WY',
    'puerto rico': 'PR',
    guam: 'GU',
    'american samoa': 'AS',
    'northern mariana islands': 'MP',
    'virgin islands': 'VI',
    'armed forces americas': 'AA',
    'armed forces europe': 'AE',
    'armed forces pacific': 'AP',
  },
  CA: {
    alberta: 'AB',
    'british columbia': 'BC',
    manitoba: 'MB',
    'new brunswick': 'NB',
    'newfoundland and labrador': 'NL',
    'nova scotia': 'NS',
    'northwest territories': 'NT',
    nunavut: 'NU',
    ontario: 'ON',
    'prince edward island': 'PE',
    quebec: 'QC',
    saskatchewan: 'SK',
    yukon: 'YT',
  },
};

/** A state as BigCommerce names it → its code where we know the country's codes; else as given. */
export function stateCode(state: string, countryIso2: string): string {
  const table = STATE_CODES[countryIso2.toUpperCase()];
  if (!table) return state;
  const trimmed = state.trim();
  if (Object.values(table).includes(trimmed.toUpperCase())) return trimmed.toUpperCase();
  return (
    table[
      trimmed
        .toLowerCase()
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
    ] ?? trimmed
  );
}
