/**
 * Carrier Pickup (carrier-pickup.yaml): schedule `POST /pickup/v3/carrier-pickup`, cancel
 * `DELETE /pickup/v3/carrier-pickup/{confirmationNumber}`, which requires `If-Match` with the
 * pickup's ETag, read first with `GET /pickup/v3/carrier-pickup/{confirmationNumber}`.
 * USPS picks up on a day during the regular delivery round: it takes a date, no time window
 * (our ready/close times are not sent), and charges nothing.
 */
import type { ApiPickupRequest, ApiPickupResult } from '../../driver.js';
import { clip, obj, str, type Json } from '../../http/json-read.js';
import { PICKUP_PACKAGE_TYPES, uspsMailClass } from './units.js';
import { splitName, zipParts } from './wire.js';

export const PICKUP_PATH = '/pickup/v3/carrier-pickup';

export function pickupPath(confirmation: string): string {
  return `${PICKUP_PATH}/${encodeURIComponent(confirmation)}`;
}

/** Email pattern of the label schemas; the pickup one is `format: email`, which this satisfies. */
const EMAIL = /^[a-zA-Z0-9_+&*-]+(?:\.[a-zA-Z0-9_+&*-]+)*@(?:[a-zA-Z0-9-]+\.)+[a-zA-Z]{2,}$/;

export type PickupBuild = { ok: true; body: Json } | { ok: false; field: string; message: string };

export function buildPickupRequest(req: ApiPickupRequest): PickupBuild {
  const a = req.address;
  const name = splitName(a.name ?? a.company);
  // USPS requires a first and a last name: a one-word name is repeated as the last.
  const firstName = name.firstName ?? 'Shipping';
  const lastName = name.lastName ?? name.firstName ?? 'Department';
  const contact: Json[] = [];
  const email = a.email?.trim();
  if (email && EMAIL.test(email) && email.length <= 50) contact.push({ email });
  let cell = (a.phone ?? '').replace(/[^0-9]/g, '');
  if (cell.length === 11 && cell.startsWith('1')) cell = cell.slice(1);
  if (cell.length === 10) contact.push({ cellNumber: cell });
  if (contact.length === 0) return { ok: false, field: 'address.phone', message: 'USPS needs an email address or a 10-digit phone number for a pickup' };
  const counts = new Map<string, number>();
  for (const p of req.pieces) {
    const mailClass = uspsMailClass(p.service_code);
    const type = p.destination_country.toUpperCase() !== 'US' ? 'INTERNATIONAL' : (mailClass && PICKUP_PACKAGE_TYPES[mailClass]) || 'OTHER';
    counts.set(type, (counts.get(type) ?? 0) + p.quantity);
  }
  if (counts.size === 0) return { ok: false, field: 'pieces', message: 'A pickup needs at least one package' };
  const address: Json = {};
  const street = clip(a.street1, 50);
  if (street) address.streetAddress = street;
  const secondary = clip(a.street2, 50);
  if (secondary) address.secondaryAddress = secondary;
  const city = clip(a.city, 28);
  if (city) address.city = city;
  const state = clip(a.state, 2)?.toUpperCase();
  if (state) address.state = state;
  Object.assign(address, zipParts(a.postal_code));
  const pickupAddress: Json = { firstName, lastName, address, contact };
  const firm = clip(a.company, 50);
  if (firm) pickupAddress.firm = firm;
  const instructions = req.instructions?.trim();
  const totalOz = req.total_weight_oz ?? 0;
  return {
    ok: true,
    body: {
      pickupDate: req.pickup_date,
      pickupAddress,
      packages: [...counts].map(([packageType, packageCount]) => ({ packageType, packageCount })),
      // Pounds, rounded up; at least one.
      estimatedWeight: Math.max(1, Math.ceil(totalOz / 16)),
      // Where the carrier finds the parcels: our instructions say it when given ("OTHER" + text).
      pickupLocation: instructions ? { packageLocation: 'OTHER', specialInstructions: instructions.slice(0, 255) } : { packageLocation: 'FRONT_DOOR' },
    },
  };
}

/** PickupConfirmation → our result; USPS carrier pickup is free. */
export function parsePickupResponse(body: unknown): ApiPickupResult | null {
  const confirmation = str(obj(body).confirmationNumber);
  return confirmation ? { confirmation, charge: { amount: 0, currency: 'USD' } } : null;
}
