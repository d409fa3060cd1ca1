/**
 * Create pickup (`POST /pickup/v1/pickups`) and cancel (`PUT /pickup/v1/pickups/cancel`),
 * pickup-request-v1-Pickup-Resource.json.
 *
 * FedEx's cancel needs more than the confirmation code: the scheduled date, the operating
 * company (FDXE Express or FDXG Ground) and, for Express, the dispatch location. The
 * confirmation this driver hands out therefore carries them, joined by `~` as FedEx joins its
 * own composite ids (`trackingNumberUniqueId`): `<code>~<yyyy-mm-dd>~<FDXE|FDXG>[~<location>]`.
 * Its first part is FedEx's confirmation code, as FedEx's customer service knows it.
 */
import type { ApiPickupRequest, ApiPickupResult } from '../../driver.js';
import { clip, obj, str, type Json } from '../../http/json-read.js';
import { fedexCarrierCode, fedexServiceType } from './units.js';
import { phoneDigits, postalCode, poundsFromOz, streetLines } from './wire.js';

export const PICKUP_PATH = '/pickup/v1/pickups';
export const PICKUP_CANCEL_PATH = '/pickup/v1/pickups/cancel';

export type PickupCarrier = 'FDXE' | 'FDXG';

/**
 * Which FedEx company collects these pieces: Express and Ground are booked separately, so
 * pieces of both (or of a service FedEx does not have) give an error message instead.
 */
export function pickupCarrier(req: ApiPickupRequest): { carrier: PickupCarrier } | { problem: string } {
  const carriers = new Set<PickupCarrier>();
  for (const p of req.pieces) {
    const type = fedexServiceType(p.service_code);
    if (!type) return { problem: `FedEx has no service ${p.service_code}` };
    carriers.add(fedexCarrierCode(type));
  }
  if (carriers.size > 1) return { problem: 'FedEx books Express and Ground pickups separately: schedule one for each' };
  return { carrier: carriers.values().next().value ?? 'FDXG' };
}

const hhmm = (t: string) => `${t.slice(0, 2)}:${t.slice(2, 4)}`;

export function buildPickupRequest(req: ApiPickupRequest, accountNumber: string, carrier: PickupCarrier): Json {
  const a = req.address;
  const address: Json = {
    streetLines: streetLines(a),
    city: clip(a.city, 35) ?? '',
    stateOrProvinceCode: clip(a.state, 2) ?? '',
    postalCode: postalCode(a) ?? '',
    countryCode: a.country.toUpperCase(),
  };
  const contact: Json = {};
  const company = clip(a.company, 35);
  if (company) contact.companyName = company;
  const person = clip(a.name, 35);
  if (person) contact.personName = person;
  const phone = phoneDigits(a.phone);
  if (phone) contact.phoneNumber = phone;
  const out: Json = {
    associatedAccountNumber: { value: accountNumber },
    originDetail: {
      pickupLocation: { contact, address },
      // The documented format is YYYY-MM-DDTHH:MM:SSZ; FedEx reads it as the pickup address's local time.
      readyDateTimestamp: `${req.pickup_date}T${hhmm(req.ready_time)}:00Z`,
      customerCloseTime: `${hhmm(req.close_time)}:00`,
    },
    carrierCode: carrier,
    pickupType: 'ON_CALL',
    packageCount: req.pieces.reduce((s, p) => s + p.quantity, 0),
    countryRelationships: req.pieces.every((p) => p.destination_country.toUpperCase() === a.country.toUpperCase()) ? 'DOMESTIC' : 'INTERNATIONAL',
  };
  if (req.total_weight_oz) out.totalWeight = { units: 'LB', value: poundsFromOz(req.total_weight_oz) };
  const remarks = clip(req.instructions, 60);
  if (remarks) out.remarks = remarks;
  return out;
}

export function confirmationOf(code: string, date: string, carrier: PickupCarrier, location: string | null): string {
  return [code, date, carrier, ...(location ? [location] : [])].join('~');
}

export function parseConfirmation(confirmation: string): { code: string; date: string; carrier: PickupCarrier; location: string | null } | null {
  const [code, date, carrier, location] = confirmation.split('~');
  if (!code || !/^\d{4}-\d{2}-\d{2}$/.test(date ?? '') || (carrier !== 'FDXE' && carrier !== 'FDXG')) return null;
  return { code, date, carrier, location: location || null };
}

/** No charge comes back: FedEx prices pickups on the invoice. */
export function parsePickupResponse(body: unknown, req: ApiPickupRequest, carrier: PickupCarrier): ApiPickupResult | null {
  const output = obj(obj(body).output);
  const code = str(output.pickupConfirmationCode);
  if (!code) return null;
  return { confirmation: confirmationOf(code, req.pickup_date, carrier, str(output.location)), charge: null };
}

export function buildPickupCancelRequest(accountNumber: string, c: NonNullable<ReturnType<typeof parseConfirmation>>): Json {
  const out: Json = { associatedAccountNumber: { value: accountNumber }, pickupConfirmationCode: c.code, scheduledDate: c.date, carrierCode: c.carrier };
  if (c.location) out.location = c.location;
  return out;
}

export function parsePickupCancelResponse(body: unknown): boolean {
  const output = obj(obj(body).output);
  return str(output.pickupConfirmationCode) !== null || str(output.cancelConfirmationMessage) !== null;
}
