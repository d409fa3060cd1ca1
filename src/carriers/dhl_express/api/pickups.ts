/**
 * Pickups: book (`POST /pickups`, `…PickupRequest` → `…PickupResponse`) and cancel
 * (`DELETE /pickups/{dispatchConfirmationNumber}?requestorName&reason`, no body back).
 */
import type { ApiPickupRequest, ApiPickupResult } from '../../driver.js';
import { asList, clip, obj, str, type Json } from '../../http/json-read.js';
import { dhlProductCode } from './units.js';
import { dhlDateTime, hhColonMm, party, poundsFromOz } from './wire.js';

/**
 * DHL wants a weight per package. Without a total weight each package is declared at 1 lb: the
 * courier plans the vehicle by it, DHL bills by the shipments.
 */
const DEFAULT_PACKAGE_OZ = 16;

/** Null when a piece names a service that is not DHL's. */
export function buildPickupRequest(req: ApiPickupRequest, accountNumber: string): Json | null {
  const count = req.pieces.reduce((s, p) => s + p.quantity, 0);
  const eachOz = req.total_weight_oz && count > 0 ? req.total_weight_oz / count : DEFAULT_PACKAGE_OZ;
  const shipmentDetails: Json[] = [];
  for (const p of req.pieces) {
    const productCode = dhlProductCode(p.service_code);
    if (!productCode) return null;
    shipmentDetails.push({
      productCode,
      isCustomsDeclarable: p.destination_country.toUpperCase() !== req.address.country.toUpperCase(),
      unitOfMeasurement: 'imperial',
      packages: Array.from({ length: Math.max(1, Math.min(999, p.quantity)) }, () => ({ weight: poundsFromOz(eachOz) })),
    });
  }
  const body: Json = {
    plannedPickupDateAndTime: dhlDateTime(req.pickup_date, req.ready_time),
    closeTime: hhColonMm(req.close_time),
    locationType: req.residential ? 'residence' : 'business',
    accounts: [{ typeCode: 'shipper', number: accountNumber }],
    customerDetails: { shipperDetails: party(req.address, 'Shipper') },
    shipmentDetails,
  };
  const instructions = clip(req.instructions, 80);
  if (instructions) body.specialInstructions = [{ value: instructions }];
  return body;
}

/** `dispatchConfirmationNumbers[0]`; DHL quotes no pickup charge. */
export function parsePickupResponse(body: unknown): ApiPickupResult | null {
  const confirmation = str(asList(obj(body).dispatchConfirmationNumbers)[0]);
  return confirmation ? { confirmation, charge: null } : null;
}

/** Who asks and why: both required by DHL; we have no person's name at hand. */
export const PICKUP_CANCEL_REQUESTOR = 'Shipping platform';
export const PICKUP_CANCEL_REASON = 'not needed';

export function pickupCancelPath(confirmation: string): string {
  const q = new URLSearchParams({ requestorName: PICKUP_CANCEL_REQUESTOR, reason: PICKUP_CANCEL_REASON });
  return `/pickups/${encodeURIComponent(confirmation)}?${q.toString()}`;
}
