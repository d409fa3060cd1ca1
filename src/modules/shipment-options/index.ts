/** The shipment-options module's import surface (rates, orders, shipments, batches, carrier types). */
export { parcelsGap, assertParcelsTaken } from './options.rules.js';
export { ShipmentOptionsInputSchema, ShipmentOptionsSchema, ServiceOptionsSchema, SIGNATURE_OPTIONS, type ShipmentOptionsInput } from './options.schemas.js';
export {
  DEFAULT_OPTIONS,
  checkOptions,
  checkOptionsOfBody,
  resolveOptions,
  asksNothing,
  optionGaps,
  assertOptionsOffered,
  type OptionGap,
} from './options.rules.js';
