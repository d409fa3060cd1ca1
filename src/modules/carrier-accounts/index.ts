/** The carrier-accounts module's import surface. */
export { carrierAccountsRoutes } from './carrier-accounts.routes.js';
export { CarrierAccountsService, EXCHANGE_RETENTION_MS } from './carrier-accounts.service.js';
export type { ApiDriverCatalogue, ApiDriverEntry, ConnectedAccount, HealthCheck } from './carrier-accounts.drivers.js';
export type { CarrierAccountRow } from './carrier-accounts.tables.js';
