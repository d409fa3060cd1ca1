/** The shipping-rules module's import surface (routes, the service, the selection shape for shipments). */
export { shippingRulesRoutes } from './shipping-rules.routes.js';
export { ShippingRulesService, type OrderRater } from './shipping-rules.service.js';
export { SelectionSchema, SelectionObjectSchema, type Selection } from './shipping-rules.schemas.js';
export { factsOfOrder } from './shipping-rules.facts.js';
