import type { CarrierApiDriver } from './api-driver.js';
import { createDhlExpressApiDriver } from './dhl_express/api/client.js';
import { createFedexApiDriver } from './fedex/api/client.js';
import type { CarrierHttpClient } from './http/client.js';
import { withSecretScrubbing } from './scrubbing-driver.js';
import { createUpsApiDriver } from './ups/api/client.js';
import { createUspsApiDriver } from './usps/api/client.js';

/**
 * The real-protocol drivers there are, by carrier slug, all on the one shared HTTP client. A
 * carrier without an entry offers only its simulated driver (GET /v1/carrier-types says so).
 * Each is wrapped so nothing it returns or throws carries the account's secrets (scrubbing-driver.ts).
 */
export function builtInApiDrivers(http: CarrierHttpClient): ReadonlyMap<string, CarrierApiDriver> {
  const drivers = [createUpsApiDriver(http), createUspsApiDriver(http), createFedexApiDriver(http), createDhlExpressApiDriver(http)];
  return new Map(drivers.map((d) => [d.carrier, withSecretScrubbing(d, http.tokens)]));
}
