/**
 * A carrier's own packaging (`CarrierDefinition.packages`, its folder's `packages.ts`) through an
 * api driver (docs/carriers.md, "Carrier packaging through an api account"): which of the
 * carrier's packages each piece travels in, and the reason a carrier cannot carry a parcel in
 * another carrier's. Pure: the drivers map the package to their carrier's own field.
 */
import type { CarrierPackage, Parcel } from './types.js';

/** Per piece, the carrier's package it travels in; null: the shipper's own box (or a package of another carrier: see foreignPackaging). */
export function packagingOf(parcels: readonly Parcel[], own: readonly CarrierPackage[]): (CarrierPackage | null)[] {
  return parcels.map((p) => (p.package_id === undefined ? null : (own.find((o) => o.id === p.package_id) ?? null)));
}

/**
 * Why `carrierName` cannot carry these pieces: one travels in another carrier's packaging (a
 * simulated carrier's rate engine says the same, simulation/rate-engine.ts). Null when it can.
 */
export function foreignPackaging(carrierName: string, parcels: readonly Parcel[], own: readonly CarrierPackage[] | undefined): string | null {
  const foreign = parcels.find((p) => p.package_id !== undefined && !(own ?? []).some((o) => o.id === p.package_id));
  return foreign ? `${carrierName} does not carry another carrier's packaging (${foreign.package_id})` : null;
}

/** The one package every piece shares (a carrier whose packaging is per shipment); undefined when the pieces differ. */
export function sharedPackaging(parcels: readonly Parcel[], own: readonly CarrierPackage[]): CarrierPackage | null | undefined {
  const each = packagingOf(parcels, own);
  const first = each[0] ?? null;
  return each.every((p) => p === first) ? first : undefined;
}
