import type { Scope } from '../../platform/context.js';
import type { Order } from '../orders/index.js';
import type { LocationsService, ShippingOrigin } from '../locations/index.js';
import type { ShipmentAddress } from './shipments.tables.js';

/** What a purchase needs of the locations module: a location (or the default one) as an origin. */
export type LocationOrigins = Pick<LocationsService, 'originFor' | 'origin'>;

/** Where a label ships from: the address, and the location whose clock dates it (null: none). */
export interface ShipmentOrigin {
  address: ShipmentAddress;
  location: ShippingOrigin | null;
}

/**
 * The order as a purchase naming `location_id` sees it: shipped from that location in place of
 * its own ship_from or location (404 `not_found` when the location is not this scope's).
 */
export async function atLocation(scope: Scope, locations: LocationOrigins | undefined, order: Order, locationId: string | undefined): Promise<Order> {
  if (locationId === undefined || !locations) return order;
  await locations.origin(scope, locationId);
  return { ...order, ship_from: null, location_id: locationId };
}
