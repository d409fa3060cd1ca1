import type { CarrierDriver } from '../../carriers/driver.js';

/** The carriers' api drivers by carrier slug, handed in where the app is composed. */
export type ApiDriverCatalogue = ReadonlyMap<string, CarrierDriver>;

/**
 * What a carrier's api driver does beyond rates, labels, void and tracking. Address validation
 * belongs to the api driver (the simulated drivers validate none: the built-in validator
 * answers POST /v1/addresses/validate without an account), and so is GET /v1/carrier-types'
 * `address_validation`; `pickups` here says the driver can book at the carrier (the carrier
 * type's own `pickups` is the carrier's end-of-day offer).
 */
export function apiDriverCapabilities(driver: CarrierDriver | undefined): { address_validation: boolean; pickups: boolean } {
  return {
    address_validation: typeof driver?.validateAddress === 'function',
    pickups: typeof driver?.schedulePickup === 'function' && typeof driver.cancelPickup === 'function',
  };
}
