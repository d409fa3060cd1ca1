/** The shipments module's import surface (labels bought for orders, and their tracking). */
export { ShipmentsService, type ShipmentExtension } from './shipments.service.js';
export type { LabelFile } from './shipments.label-files.js';
export { TRACKING_STATUSES, TrackingEventSchema } from './shipments.schemas.js';
export {
  ShipmentSchema,
  TrackingSchema,
  PublicTrackingSchema,
  LabelFormatSchema,
  AddressValidationModeSchema,
  ReturnChargeSchema,
  LABEL_FORMAT_CODES,
  type Shipment,
  type Tracking,
  type LabelFormatCode,
} from './shipments.schemas.js';
export type { TrackerSource, TrackerJourney } from './shipments.tracking-lookup.js';
export { normalizeTrackingNumber } from './shipments.tracking-lookup.js';
export { SHIPMENT_EXAMPLE } from './shipments.examples.js';
export { SHIPMENT_STATUSES, type ShipmentStatus } from './shipments.states.js';
export { sandboxScenario, parseTimeScale, TIME_SCALE_SETTING } from './shipments.sandbox.js';
export { shipmentsRoutes, labelResponse, sendLabel } from './shipments.routes.js';
export { publicTrackingRoutes } from './public-tracking.routes.js';
export { registerShipmentJobs, POLL_TRACKING_JOB } from './shipments.jobs.js';
export { storeCarrierDocuments, customsDocumentTypes, type ShipmentDocumentListItem } from './shipments.documents.js';
export { ShipmentsEndOfDay, assertNotManifested, type EndOfDayShipment } from './shipments.end-of-day.js';
export { LabelPrints, MAX_PRINT_LABELS, type PrintLabelsInput } from './shipments.print.js';
export { lazyRenderPool, renderThreads } from './shipments.labels.js';
export { labelPrintRoutes } from './shipments.print.routes.js';
