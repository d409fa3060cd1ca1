import type { Deps } from './platform/deps.js';
import { createIdentity, type Identity } from './modules/identity/index.js';
import { settingsService, type SettingsService } from './modules/settings/index.js';
import { OrdersService } from './modules/orders/index.js';
import { OfficeRedeemService } from './modules/office-redeem/index.js';
import { LabelPrints, lazyRenderPool, renderThreads, ShipmentsEndOfDay, ShipmentsService } from './modules/shipments/index.js';
import { ManifestsService } from './modules/manifests/index.js';
import { PickupsService } from './modules/pickups/index.js';
import { TrackersService } from './modules/trackers/index.js';
import { PackagesService } from './modules/packages/index.js';
import { LocationsService } from './modules/locations/index.js';
import { BatchesService } from './modules/batches/index.js';
import { CarrierAccountsService, CarrierGateway, type ApiDriverCatalogue } from './modules/carrier-accounts/index.js';
import { ShippingRulesService } from './modules/shipping-rules/index.js';
import {
  ChannelApply,
  ChannelCredentials,
  ChannelDeliveries,
  ChannelHub,
  ChannelSync,
  ChannelWriteBacks,
  IntegrationsService,
} from './modules/integrations/index.js';
import { WebhooksService } from './modules/webhooks/index.js';
import { MtlsService } from './modules/mtls/index.js';
import { AnalyticsService } from './modules/analytics/index.js';
import type { ChannelHttpClient } from './channels/http/client.js';

/** The domain services of one app, each made once, with the services it calls in its constructor. */
export interface Services {
  settings: SettingsService;
  identity: Identity;
  orders: OrdersService;
  officeRedeem: OfficeRedeemService;
  shipments: ShipmentsService;
  batches: BatchesService;
  /** Many shipments' labels as one file (a batch's, a print of selected labels). */
  labelPrints: LabelPrints;
  carrierAccounts: CarrierAccountsService;
  /** Rating, buying, voiding and tracking through a carrier account. */
  carrierGateway: CarrierGateway;
  shippingRules: ShippingRulesService;
  manifests: ManifestsService;
  pickups: PickupsService;
  /** Labels bought elsewhere, tracked like our own. */
  trackers: TrackersService;
  /** Package presets, the carriers' packaging, packaged parcels resolved to dimensions. */
  packages: PackagesService;
  /** Where a workspace ships from. */
  locations: LocationsService;
  /** Webhook endpoints and their deliveries (the dispatch itself runs in the jobs). */
  webhooks: WebhooksService;
  /** Client certificates of the workspaces that require them on /v1. */
  mtls: MtlsService;
  /** The super-admin's figures. */
  analytics: AnalyticsService;
  /** Store and push connections: their records, ingest keys and health. */
  integrations: IntegrationsService;
  /** The one apply step of store orders (webhooks, reconciliation, manual syncs). */
  channelApply: ChannelApply;
  /** Store webhook deliveries: verified, stored once, applied by a job. */
  channelDeliveries: ChannelDeliveries;
  /** Reading stores: activation, reconciliation, manual syncs. */
  channelSync: ChannelSync;
  /** Tracking back to stores (write-backs created with the label, delivered by a job). */
  channelWriteBacks: ChannelWriteBacks;
  /** Store credentials as calls need them (OAuth tokens refreshed ahead), and the OAuth install. */
  channelCredentials: ChannelCredentials;
}

/**
 * The composition of the modules: who calls whom reads here, top to bottom, and nowhere else.
 * Orders is a leaf (it imports no module that builds on it): shipments and office-redeem
 * extend it here, once each, before the app serves a request, with their summaries on the
 * order read and their reactions to order moves.
 *
 * Every service is made here, once, with the services it calls passed to its constructor, and
 * reaches its routes and jobs through `Services` (docs/architecture.md, "Wiring"). Settings are
 * the one exception: every module reads them, so `settingsService(deps)` hands out the app's one
 * store (the instance made here).
 */
export function composeServices(deps: Deps, apiDrivers: ApiDriverCatalogue, channelHttp: ChannelHttpClient): Services {
  const settings = settingsService(deps);
  const carrierAccounts = new CarrierAccountsService(deps, deps.carriers, apiDrivers);
  const carrierGateway = new CarrierGateway(carrierAccounts, deps.carriers, apiDrivers, deps.log);
  const identity = createIdentity(deps, settings);
  const locations = new LocationsService(deps);
  const packages = new PackagesService(deps);
  const trackers = new TrackersService(deps, carrierGateway, settings);
  const orders = new OrdersService(deps, settings, { packages, locations });
  const officeRedeem = new OfficeRedeemService(deps, settings);
  // Rules rate an order through shipments (evaluate), and shipments choose through rules: the
  // closure is called only once both exist.
  const shippingRules: ShippingRulesService = new ShippingRulesService(deps, carrierGateway, (ctx, orderId) => shipments.rateOrder(ctx, orderId));
  // One set of render threads for every label the app renders (purchases, reprints, merged files).
  const labelRenderer = lazyRenderPool({ threads: renderThreads(deps.database.engine) });
  const shipments: ShipmentsService = new ShipmentsService(deps, orders, settings, carrierGateway, shippingRules, labelRenderer, {
    locations,
    trackers: trackers.source,
  });
  const labelPrints = new LabelPrints(deps, shipments, orders, labelRenderer);
  const batches = new BatchesService(deps, orders, shipments, locations, labelPrints);
  // End of day reaches shipments through what they expose for it (labels to list, the acceptance scan).
  const endOfDay = new ShipmentsEndOfDay(deps, shipments.tracking);
  const manifests = new ManifestsService(deps, carrierGateway, endOfDay, locations);
  const pickups = new PickupsService(deps, carrierGateway, endOfDay, locations);
  identity.workspaces.onOriginChanged((trx, workspaceId, origin) => locations.adoptOrigin(trx, workspaceId, origin));

  orders.extend(officeRedeem.orderExtension);
  orders.extend(shipments.orderExtension);
  const channelApply = new ChannelApply(deps, orders);
  const channelHub = new ChannelHub(channelHttp);
  const integrations = new IntegrationsService(deps);
  const channelCredentials = new ChannelCredentials(deps, channelHub, integrations);
  const channelDeliveries = new ChannelDeliveries(deps, channelHub, integrations, channelApply, channelCredentials);
  const channelWriteBacks = new ChannelWriteBacks(deps, integrations, channelCredentials);
  shipments.extend({ writeBacks: (executor, scope, ids) => channelWriteBacks.summariesFor(executor, scope, ids) });
  const channelSync = new ChannelSync(deps, channelHub, integrations, channelApply, channelWriteBacks, channelCredentials);

  return {
    settings,
    identity,
    orders,
    officeRedeem,
    shipments,
    batches,
    labelPrints,
    carrierAccounts,
    carrierGateway,
    shippingRules,
    manifests,
    pickups,
    trackers,
    packages,
    locations,
    webhooks: new WebhooksService(deps),
    mtls: new MtlsService(deps),
    analytics: new AnalyticsService(deps),
    integrations,
    channelApply,
    channelDeliveries,
    channelSync,
    channelWriteBacks,
    channelCredentials,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
