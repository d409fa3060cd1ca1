/** The carrier-accounts module's import surface. */
export { carrierAccountsRoutes } from './carrier-accounts.routes.js';
export { CarrierAccountsService, EXCHANGE_RETENTION_MS } from './carrier-accounts.service.js';
export { CarrierGateway, type CallTarget } from './carrier-accounts.gateway.js';
export { purgeOldExchanges, exchangeLogSink } from './carrier-accounts.exchanges.js';
export type { ApiDriverCatalogue } from './carrier-accounts.drivers.js';
export type { CarrierAccountRow } from './carrier-accounts.tables.js';
