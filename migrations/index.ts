import type { Migration } from 'kysely/migration';
import * as foundation from './2026-11-23-0001-foundation.js';
import * as ordersIntegrations from './2026-11-23-0002-orders-integrations.js';
import * as shipmentsTracking from './2026-11-23-0003-shipments-tracking.js';
import * as webhooks from './2026-11-23-0004-webhooks.js';
import * as superAdminPins from './2026-11-23-0005-super-admin-pins.js';
import * as batches from './2026-11-23-0006-batches.js';
import * as hardening from './2026-11-23-0007-hardening.js';
import * as carrierAccounts from './2026-11-25-0008-carrier-accounts.js';
import * as apiShipments from './2026-11-25-0009-api-shipments.js';
import * as shippingRules from './2026-11-25-0010-shipping-rules.js';
import * as addressValidation from './2026-11-25-0011-address-validation.js';
import * as customs from './2026-11-28-0012-customs.js';
import * as returnsRefunds from './2026-11-28-0013-returns-refunds.js';
import * as shipmentDocuments from './2026-11-28-0016-shipment-documents.js';
import * as endOfDay from './2026-11-28-0014-end-of-day.js';
import * as channels from './2026-11-28-0017-channels.js';
import * as team from './2026-11-28-0018-team.js';
import * as shipmentOptions from './2026-11-28-0019-shipment-options.js';
import * as locationsPackagesTrackers from './2026-11-28-0020-locations-packages-trackers.js';
import * as locationIds from './2026-11-29-0022-location-ids.js';
import * as trackingLookups from './2026-11-29-0023-tracking-lookups.js';
import * as integrationPlatforms from './2026-11-29-0024-integration-platforms.js';

/** Every migration, in order. Names are ISO-dated so they sort by creation. */
export const migrations: Record<string, Migration> = {
  '2026-11-23-0001-foundation': foundation,
  '2026-11-23-0002-orders-integrations': ordersIntegrations,
  '2026-11-23-0003-shipments-tracking': shipmentsTracking,
  '2026-11-23-0004-webhooks': webhooks,
  '2026-11-23-0005-super-admin-pins': superAdminPins,
  '2026-11-23-0006-batches': batches,
  '2026-11-23-0007-hardening': hardening,
  '2026-11-25-0008-carrier-accounts': carrierAccounts,
  '2026-11-25-0009-api-shipments': apiShipments,
  '2026-11-25-0010-shipping-rules': shippingRules,
  '2026-11-25-0011-address-validation': addressValidation,
  '2026-11-28-0012-customs': customs,
  '2026-11-28-0013-returns-refunds': returnsRefunds,
  '2026-11-28-0016-shipment-documents': shipmentDocuments,
  '2026-11-28-0014-end-of-day': endOfDay,
  '2026-11-28-0017-channels': channels,
  '2026-11-28-0018-team': team,
  '2026-11-28-0019-shipment-options': shipmentOptions,
  '2026-11-28-0020-locations-packages-trackers': locationsPackagesTrackers,
  '2026-11-29-0022-location-ids': locationIds,
  '2026-11-29-0023-tracking-lookups': trackingLookups,
  '2026-11-29-0024-integration-platforms': integrationPlatforms,
};
