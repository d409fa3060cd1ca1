/** The integrations module's import surface. */
export {
  IntegrationsService,
  HEALTH_CHANGED_EVENT,
  ACTIVATE_JOB,
  type ActivateJob,
  type VerifiedIngestKey,
  type HealthChangedData,
} from './integrations.service.js';
export { IntegrationSchema, type Integration } from './integrations.schemas.js';
export { INTEGRATION_HEALTH, HEALTH_WINDOW_MS, DEGRADED_AFTER_FAILURES, DOWN_AFTER_FAILURES, type IntegrationHealth } from './integrations.health.js';
export { adminIntegrationsRoutes } from './admin-integrations.routes.js';
export { integrationIntakeRoutes } from './intake.routes.js';
export { ChannelApply, toOrderVersion, ORDER_IMPORTED_EVENT, ORDER_NEEDS_REVIEW_EVENT, type AppliedVersion } from './channels.apply.js';
export { ChannelHub } from './channels.hub.js';
export { ChannelDeliveries, APPLY_DELIVERY_JOB, type ApplyDeliveryJob } from './channels.deliveries.js';
export { channelReceiverRoutes } from './channels.receiver.routes.js';
export { ChannelSync, SYNC_JOB, type SyncJob } from './channels.sync.js';
export { ChannelWriteBacks, WRITE_BACK_JOB, WRITE_BACK_FAILED_EVENT, type WriteBackJob } from './channels.write-backs.js';
export { writeBacksRoutes } from './write-backs.routes.js';
export { ChannelCredentials } from './channels.credentials.js';
export { channelExchangeSink, purgeOldChannelExchanges } from './channels.exchanges.js';
export { syncLagByPlatform } from './channels.repo.js';
