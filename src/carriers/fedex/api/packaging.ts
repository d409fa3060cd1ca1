/**
 * FedEx's own packaging (../packages.ts: FedEx Envelope, FedEx Pak) in rates and ship.
 * `packagingType` is one per shipment (requestedShipment), so every piece must travel in the
 * same packaging. FedEx prices its packaging flat by FedEx One Rate: the shipment special
 * service `FEDEX_ONE_RATE` (ship-v1's example sends it beside a FedEx packaging type); Ground
 * services travel as `YOUR_PACKAGING` whatever they are in (the Rate description: "For
 * Ground/SmartPost will always be YOUR_PACKAGING"), so they are asked without One Rate.
 */
import { sharedPackaging } from '../../api-packaging.js';
import type { Parcel } from '../../types.js';
import { fedexPackages } from '../packages.js';

export const ONE_RATE = 'FEDEX_ONE_RATE';

export type FedexPackaging = { ok: true; packagingType: string; oneRate: boolean } | { ok: false; message: string };

/** `ground`: the service asked for is a Ground one (ship); undefined: every service at once (rates). */
export function fedexPackaging(parcels: readonly Parcel[], ground?: boolean): FedexPackaging {
  const shared = sharedPackaging(parcels, fedexPackages);
  if (shared === undefined) return { ok: false, message: 'FedEx takes one packaging type per shipment: every piece must travel in the same packaging' };
  if (shared === null || ground === true) return { ok: true, packagingType: 'YOUR_PACKAGING', oneRate: false };
  return { ok: true, packagingType: shared.carrier_code, oneRate: Object.keys(shared.flat_rates).length > 0 };
}
