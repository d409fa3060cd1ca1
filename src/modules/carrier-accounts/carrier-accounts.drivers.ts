import type { CarrierApiDriver } from '../../carriers/api-driver.js';

/** The carriers' api drivers by carrier slug, handed in where the app is composed. */
export type ApiDriverCatalogue = ReadonlyMap<string, CarrierApiDriver>;
