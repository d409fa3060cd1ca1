import type { CarrierApiDriver } from '../../carriers/api-driver.js';

/** The carriers' api drivers by carrier slug, handed in where the app is composed. */
export type ApiDriverCatalogue = ReadonlyMap<string, CarrierApiDriver>;

/**
 * What a carrier's api driver does beyond rates, labels, void and tracking (GET
 * /v1/carrier-types `capabilities`). A capability belongs to the api driver: the simulated
 * drivers validate no addresses and book no pickups (the built-in validator answers
 * POST /v1/addresses/validate without an account).
 */
export function apiDriverCapabilities(driver: CarrierApiDriver | undefined): { address_validation: boolean; pickups: boolean } {
  return {
    address_validation: typeof driver?.validateAddress === 'function',
    pickups: typeof driver?.schedulePickup === 'function' && typeof driver.cancelPickup === 'function',
  };
}
