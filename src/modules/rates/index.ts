/** The rates module's import surface (orders `generate`, shipments purchase, batches). */
export { quoteRates, warmRateData, prepareLane, toRateOption, type QuoteRatesContext, type PreparedLane } from './rates.service.js';
export { RateQuerySchema, RateQueryResponseSchema, RateOptionSchema, ParcelSchema } from './rates.schemas.js';
export type { RateQuery, RateQueryResponse, RateOption, UnavailableService, RateTag } from './rates.schemas.js';
export { buildRoute, countryGroup, groundZoneForDistance } from './zones.js';
export { addBusinessDays, estimateDeliveryDate, holidayDates, isBusinessDay, isValidDate, localClock, originTimeZone, tenderDate } from './delivery-dates.js';
export { ratesRoutes } from './rates.routes.js';
export {
  simulatedSource,
  sourceAnswer,
  registrySources,
  type RateQuoteMeta,
  type RateSource,
  type RateSourceAnswer,
  type RateMessage,
  type SourcedRate,
} from './rates.sources.js';
