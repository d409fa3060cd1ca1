/** The customs module's import surface (orders, shipments, rates, returns, documents). */
export {
  CustomsInputSchema,
  OrderCustomsSchema,
  ShipmentCustomsSchema,
  CUSTOMS_CONTENTS_TYPES,
  CUSTOMS_INCOTERMS,
  CUSTOMS_NON_DELIVERY,
} from './customs.schemas.js';
export type { CustomsInput, ShipmentCustoms } from './customs.schemas.js';
export {
  requiresCustoms,
  isMilitaryState,
  deriveCustoms,
  withDefaults,
  checkCustoms,
  deriveEelPfc,
  declaredValue,
  returnCustoms,
  isVagueDescription,
  normalizeHsTariffNumber,
  normalizeAesItn,
} from './customs.rules.js';
export type { CustomsSourceLine, CustomsContext, CheckedCustoms, DerivedCustoms } from './customs.rules.js';
export { customsRequired, customsInvalid } from './customs.errors.js';
export { purchaseUnprocessableResponse } from './customs.openapi.js';
export { CUSTOMS_EXAMPLE, CUSTOMS_INPUT_EXAMPLE } from './customs.examples.js';
export { toOrderCustoms, toShipmentCustoms, type OrderCustoms } from './customs.wire.js';
