import type { CarrierApiDriver } from './api-driver.js';
import { createDhlExpressApiDriver } from './dhl_express/api/client.js';
import { createFedexApiDriver } from './fedex/api/client.js';
import type { CarrierHttpClient } from './http/client.js';
import { createUpsApiDriver } from './ups/api/client.js';
import { createUspsApiDriver } from './usps/api/client.js';

/**
 * The real-protocol drivers there are, by carrier slug, all on the one shared HTTP client. A
 * carrier without an entry offers only its simulated driver (GET /v1/carrier-types says so).
 */
export function builtInApiDrivers(http: CarrierHttpClient): ReadonlyMap<string, CarrierApiDriver> {
  return new Map([
    ['ups', createUpsApiDriver(http)],
    ['usps', createUspsApiDriver(http)],
    ['fedex', createFedexApiDriver(http)],
    ['dhl_express', createDhlExpressApiDriver(http)],
  ]);
}
