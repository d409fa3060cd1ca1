/** The addresses module's import surface for other modules (orders, shipments, rates, batches). */
export { AddressSchema, AddressOutputSchema, AddressValidationRequestSchema, AddressValidationResultSchema } from './addresses.schemas.js';
export type { AddressInput, AddressOutput, AddressMessage, AddressValidationResult } from './addresses.schemas.js';
export { validateAddress, validateAddressWithCarrier, checkShippingAddress, checkCountryAndPostalCode } from './addresses.service.js';
export type { RatingAddressCheck, CarrierAddressValidator, CarrierAddressValidators } from './addresses.service.js';
export { normalizeCountry, checkPostalCodeFormat, countryUsesPostalCode, lookupUsZip, usZipRecords, US_ZIP_COUNTRIES } from './postal-codes.js';
export type { UsZipRecord, PostalCodeCheck } from './postal-codes.js';
export { addressesRoutes } from './addresses.routes.js';
