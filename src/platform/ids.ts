import { typeid } from 'typeid-js';

/**
 * The one prefix table. Ids are TypeIDs (UUIDv7 in base32 behind a prefix), so they sort by
 * creation time and say what they identify. DESIGN.md §4 writes them with an underscore.
 */
export const idPrefixes = {
  account: 'acct',
  session: 'sess',
  workspace: 'ws',
  apiKey: 'key',
  order: 'ord',
  shipment: 'shp',
  rate: 'rate',
  tracking: 'trk',
  trackingEvent: 'tev',
  batch: 'bat',
  batchItem: 'bti',
  webhook: 'whk',
  event: 'evt',
  delivery: 'dlv',
  integration: 'int',
  pin: 'pin',
  audit: 'aud',
  request: 'req',
} as const;

export type IdKind = keyof typeof idPrefixes;

export function newId(kind: IdKind): string {
  return typeid(idPrefixes[kind]).toString();
}

/** True when `value` looks like an id of `kind` (prefix + 26 base32 chars). */
export function isId(kind: IdKind, value: string): boolean {
  return new RegExp(`^${idPrefixes[kind]}_[0-7][0-9a-hjkmnp-tv-z]{25}$`).test(value);
}
