import type { CarrierApiDriver } from './driver.js';
import type { CarrierHttpClient } from './http/client.js';
import type { CarrierRegistry } from './registry.js';
import { withSecretScrubbing } from './scrubbing-driver.js';

/**
 * The real-protocol drivers there are, by carrier slug: each carrier folder declares its own
 * (`export const apiDriver` in its index.ts, found by the registry), all made on the one shared
 * HTTP client. A carrier without one offers only its simulated driver (GET /v1/carrier-types
 * says so). Each is wrapped so nothing it returns or throws carries the account's secrets
 * (scrubbing-driver.ts).
 */
export function builtInApiDrivers(http: CarrierHttpClient, registry: CarrierRegistry): ReadonlyMap<string, CarrierApiDriver> {
  return new Map([...registry.apiDrivers].map(([slug, make]) => [slug, withSecretScrubbing(make(http), http.tokens)]));
}
