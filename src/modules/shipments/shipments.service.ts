import { isDeepStrictEqual } from 'node:util';
import type { CarrierRegistry } from '../../carriers/registry.js';
import { CarrierError, type CarrierDefinition, type CustomsDeclaration, type ShipmentOptions } from '../../carriers/types.js';
import { assertOptionsOffered, assertParcelsTaken, checkOptions, DEFAULT_OPTIONS, resolveOptions, type ShipmentOptionsInput } from '../shipment-options/index.js';
import { AppError, rateLimited, validationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Deps } from '../../platform/deps.js';
import type { Scope, ServiceContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db/types.js';
import { paginate, type Page } from '../../platform/http/pagination.js';
import { convertCarrierLabels, issuedLabelFormat, stampVoid, type LabelData } from '../labels/index.js';
import type { ApiPurchaseResult, CarrierLabelImage } from '../../carriers/api-driver.js';
import { foreignPackaging } from '../../carriers/api-packaging.js';
import type { CarrierAccountRow, CarrierGateway } from '../carrier-accounts/index.js';
import { writeAudit } from '../audit/index.js';
import { recordEvent } from '../events/index.js';
import type { SettingsService } from '../settings/index.js';
import { findWorkspaceOrigin } from '../identity/index.js';
import { parseList } from '../../platform/http/wire.js';
import { moveOrder, nextStatus, parseInstant, type Order, type OrderAttachments, type OrderExtension, type OrdersService } from '../orders/index.js';
import { factsOfOrder, type Selection, type ShippingRulesService } from '../shipping-rules/index.js';
import { checkCustoms, customsInvalid, customsRequired, deriveCustoms, requiresCustoms, returnCustoms, withDefaults, type CustomsInput } from '../customs/index.js';
import { prepareLane, quoteRates, toRateOption, type PreparedLane, type RateQueryResponse, type SourcedRate } from '../rates/index.js';
import * as repo from './shipments.repo.js';
import { LABEL_FORMAT_CODES, TRACKING_STATUSES, type CreateShipmentInput, type LabelFormatCode, type PublicTracking, type Shipment, type ShipmentListFilter, type Tracking, type TrackingEventListFilter } from './shipments.schemas.js';
import { lazyRenderPool, packageLabelData, type LabelRenderer } from './shipments.labels.js';
import { packagesOf, type StoredPackage } from './shipments.packages.js';
import { ShipmentDocuments, storeCarrierDocuments, type DocumentFile, type ShipmentDocumentListItem } from './shipments.documents.js';
import { parseTimeScale, sandboxOptions, sandboxScenario, TIME_SCALE_SETTING } from './shipments.sandbox.js';
import { checkDestination, type AddressValidationMode, type CheckedDestination } from './shipments.address-check.js';
import { FINAL_STATUSES, SHIPMENT_STATUSES, shipmentStateError, type ShipmentStatus } from './shipments.states.js';
import type { ShipmentAddress, ShipmentRow, StoredRate } from './shipments.tables.js';
import { deliverOrder, isDue, scopeOf, TrackingSync } from './shipments.tracking.js';
import { lookupOf, TrackingReader } from './shipments.tracking-reads.js';
import type { TrackerSource, TrackingLookupDeps } from './shipments.tracking-lookup.js';
import { labelUrl, toShipment, toTracking, toTrackingEventListItem, type ReturnSummary, type ShipmentWriteBack } from './shipments.wire.js';
import { resolveReturnCharge, returnServiceOf, returnColumns, returnExpiry, returnOrderView, returnBillingOnSync, toReturnSummary, type ReturnInput, type ReturnSpec } from './shipments.returns.js';
import { assertVoidWindowOpen, DECIDE_REFUND_JOB, recordRefundUpdated, refundOnVoid, Refunds } from './shipments.refunds.js';
import { assertNotManifested } from './shipments.end-of-day.js';
import { atLocation, type LocationOrigins, type ShipmentOrigin } from './shipments.origin.js';

export interface LabelFile {
  body: Buffer;
  content_type: string;
  filename: string;
}

/** What a label purchase settled before calling the carrier (see ShipmentsService.buy). */
interface PurchasePlan {
  id: string;
  now: Date;
  carrier: CarrierDefinition;
  /** The carrier account that sells the label (simulated or the carrier's API). */
  account: CarrierAccountRow;
  serviceCode: string;
  format: LabelFormatCode;
  shipFrom: ShipmentAddress;
  /** The location it ships from (null: an address of its own). */
  locationId: string | null;
  lane: PreparedLane;
  sandbox: ReturnType<typeof sandboxOptions>;
  selection: Selection | null;
  /** The destination as checked: where the label goes, what was given, what the check said. */
  destination: CheckedDestination;
  /** A return label (shipments.returns.ts): never moves the order. */
  returning: ReturnSpec | null;
  /** The customs declaration, validated; null when the parcel stays in the country. */
  customs: CustomsDeclaration | null;
  /** The options in force: the order's, overridden key by key by the purchase's. */
  options: ShipmentOptions;
}

/** How the label is bought: its format, and how the destination is checked first (default: the setting). */
interface PurchaseOptions {
  format: LabelFormatCode;
  addressValidation?: AddressValidationMode;
  /** A return label: the order is a view with the return's addresses (see returnOrderView). */
  returning?: ReturnSpec;
  /** The declaration given with the purchase; it replaces the order's. */
  customs?: CustomsInput;
  /** Options given with the purchase: over the order's, key by key. */
  options?: ShipmentOptionsInput;
}

/** What a purchase is for: the service, the account that sells it, and how the rules chose them (if they did). */
interface PurchaseChoice {
  carrier: CarrierDefinition;
  serviceCode: string;
  account: CarrierAccountRow;
  selection?: Selection;
}

/**
 * The carrier's sale: its tracking number and the rate it charged; from a real carrier also its
 * shipment id and the label it issued (already stored in carrier_labels when this exists).
 */
type CarrierSale =
  | { driver: 'simulated'; tracking_number: string; package_tracking_numbers?: string[]; rate: SourcedRate }
  | { driver: 'api'; tracking_number: string; rate: SourcedRate; issued: ApiPurchaseResult };

/** The service codes that ask for a choice: by the shipping rules, or the plain cheapest option. */
const AUTO = 'auto';
const CHEAPEST = 'cheapest';

/** POST /v1/tracking/:id/refresh asks the carrier at most this often per shipment. */
const REFRESH_SPACING_MS = 60_000;

const fileExtension: Record<LabelFormatCode, string> = { pdf_4x6: 'pdf', pdf_letter: 'pdf', png_4x6: 'png', zpl_4x6: 'zpl' };

/** What a module that builds on shipments adds to their reads: the latest write-back of each shipment. */
export interface ShipmentExtension {
  writeBacks(executor: Executor, scope: Scope, shipmentIds: readonly string[]): Promise<Map<string, ShipmentWriteBack>>;
}

export class ShipmentsService {
  readonly tracking: TrackingSync;
  private readonly trackingReads: TrackingReader;
  /** Refund decisions and GET /v1/refunds (shipments.refunds.ts). */
  readonly refunds: Refunds;
  private readonly carriers: Promise<CarrierRegistry>;
  private readonly customsDocuments: ShipmentDocuments;
  private readonly writeBackProviders: ShipmentExtension['writeBacks'][] = [];
  private locations?: LocationOrigins;
  private lookupDeps?: TrackingLookupDeps;

  constructor(
    private readonly deps: Deps,
    private readonly orders: OrdersService,
    private readonly settings: SettingsService,
    private readonly gateway: CarrierGateway,
    private readonly rules: ShippingRulesService,
    private readonly renderer: LabelRenderer = lazyRenderPool(),
  ) {
    // The registry of the app's Deps (a promise only because TrackingSync and the awaits below take one).
    this.carriers = Promise.resolve(deps.carriers);
    this.tracking = new TrackingSync(deps, this.carriers, gateway, settings);
    this.trackingReads = new TrackingReader(() => this.lookup);
    this.refunds = new Refunds(deps, this.carriers, settings);
    this.customsDocuments = new ShipmentDocuments(
      { db: deps.db, now: () => deps.now(), baseUrl: () => this.baseUrl, carriers: this.carriers, log: deps.log },
      (data) => this.renderer.renderCustomsDocument(data),
    );
  }

  /**
   * What this module adds to orders (registered once, in src/compose.ts): the order read lists
   * its shipments. Orders cannot import this module (this module imports orders).
   */
  readonly orderExtension: OrderExtension = {
    attachments: {
      name: 'shipments',
      forOrders: (executor, scope, ids) => this.attachmentsOf(executor, scope, ids),
      json: (eb) => repo.shipmentsOfOrderJson(eb),
      decode: (rows) => ({ shipments: (rows as ShipmentSummaryRow[]).map(toShipmentSummary) }),
    },
  };

  /**
   * A module that builds on shipments (integrations: the tracking sent back to the store)
   * registers here once, when the app is composed (src/compose.ts).
   */
  extend(extension: ShipmentExtension): void {
    this.writeBackProviders.push(extension.writeBacks);
  }

  /** Where a tracker's number is found by the tracking reads (the trackers module, wired in compose.ts). */
  useTrackers(trackers: TrackerSource): void {
    this.lookup.trackers = trackers;
  }

  private get lookup(): TrackingLookupDeps {
    return (this.lookupDeps ??= { db: this.deps.db, now: () => this.deps.now(), tracking: this.tracking });
  }

  /** Where `location_id` is resolved (the locations module, wired in compose.ts). */
  useLocations(locations: LocationOrigins): void {
    this.locations = locations;
  }

  private async writeBacksOf(scope: Scope, ids: readonly string[]): Promise<Map<string, ShipmentWriteBack>> {
    const merged = new Map<string, ShipmentWriteBack>();
    if (ids.length === 0) return merged;
    for (const provider of this.writeBackProviders) for (const [id, wb] of await provider(this.deps.db, scope, ids)) merged.set(id, wb);
    return merged;
  }

  private get baseUrl(): string {
    return this.deps.config.publicBaseUrl;
  }

  /** Stops the label render workers. */
  async close(): Promise<void> {
    await this.renderer.close();
  }

  /** `sandbox.tracking_time_scale` (cached by the settings module, in force everywhere within 2 s). */
  private async timeScale(): Promise<number> {
    return parseTimeScale(await this.settings.get(TIME_SCALE_SETTING));
  }

  /**
   * Buy a label for an order (POST /v1/shipments): re-rates the service for the order's parcel
   * through the carrier's purchase, renders the label, then in one transaction moves the order
   * to shipped, stores the shipment, its label bytes and first scan, and records
   * `shipment.label_purchased`. If that transaction fails, the carrier label is voided again.
   */
  async purchase(ctx: ServiceContext, input: CreateShipmentInput): Promise<Shipment> {
    if (input.is_return) return this.createStandaloneReturn(ctx, input);
    const returnOnly = (['rma_number', 'reason', 'charge', 'expires_in_days'] as const).filter((f) => input[f] !== undefined);
    if (returnOnly.length > 0) throw validationError(returnOnly.map((field) => ({ field, message: 'only with is_return: true' })));
    const optionDetails = checkOptions(input.options);
    if (optionDetails.length > 0) throw validationError(optionDetails);
    const auto = input.service_code === AUTO;
    if (auto && input.carrier_account_id !== undefined) throw validationError([{ field: 'carrier_account_id', message: 'cannot be given with service_code auto: the shipping rules choose the account' }]);
    const carrier = auto ? undefined : (await this.carriers).byServiceCode(input.service_code);
    if (!auto && !carrier) throw validationError([{ field: 'service_code', message: `unknown service code "${input.service_code}"` }]);
    const order = await atLocation(ctx, this.locations, await this.orders.getOrder(ctx, input.order_id, { attachments: false }), input.location_id);
    if (auto) nextStatus(order.status, 'purchase_label'); // 409 before rating an order that cannot ship
    const choice = carrier
      ? { carrier, serviceCode: input.service_code, account: await this.gateway.accountForPurchase(ctx, carrier.slug, input.carrier_account_id) }
      : await this.chooseService(ctx, order, AUTO, input.options);
    const row = await this.buy(ctx, order, choice, { format: input.label_format ?? 'pdf_4x6', addressValidation: input.address_validation, customs: input.customs, options: input.options });
    // The write-back (for a store's order) was created in the purchase's transaction.
    return toShipment(row, this.baseUrl, [], (await this.writeBacksOf(ctx, [row.id])).get(row.id) ?? null);
  }

  /**
   * Admin `generate`: rate-shop the order (the given service, else its requested service, else
   * the shipping rules' choice) and buy that label. Returns the order, now shipped with its tracking number.
   */
  async generate(ctx: ServiceContext, orderId: string, input: { service_code?: string; label_format?: LabelFormatCode; address_validation?: AddressValidationMode; options?: ShipmentOptionsInput; location_id?: string }): Promise<Order> {
    const optionDetails = checkOptions(input.options);
    if (optionDetails.length > 0) throw validationError(optionDetails);
    const order = await atLocation(ctx, this.locations, await this.orders.getOrder(ctx, orderId, { attachments: false }), input.location_id);
    nextStatus(order.status, 'purchase_label');
    const choice = await this.chooseService(ctx, order, input.service_code, input.options);
    await this.buy(ctx, order, choice, { format: input.label_format ?? 'pdf_4x6', addressValidation: input.address_validation, options: input.options });
    return this.orders.getOrder(ctx, orderId);
  }

  /**
   * A batch item's purchase: the service chosen as in `generate`, and `inTransaction` run in the
   * purchase's own transaction (the batch marks its item there, so the label and the item's
   * outcome commit together or not at all).
   */
  async purchaseInBatch(
    ctx: ServiceContext,
    input: { order_id: string; service_code?: string; label_format?: LabelFormatCode; address_validation?: AddressValidationMode; options?: ShipmentOptionsInput; location_id?: string },
    inTransaction: (trx: Executor, shipment: Shipment) => Promise<void>,
  ): Promise<Shipment> {
    const optionDetails = checkOptions(input.options);
    if (optionDetails.length > 0) throw validationError(optionDetails);
    const order = await atLocation(ctx, this.locations, await this.orders.getOrder(ctx, input.order_id, { attachments: false }), input.location_id);
    nextStatus(order.status, 'purchase_label');
    const choice = await this.chooseService(ctx, order, input.service_code, input.options);
    const row = await this.buy(ctx, order, choice, { format: input.label_format ?? 'pdf_4x6', addressValidation: input.address_validation, options: input.options }, inTransaction);
    return toShipment(row, this.baseUrl);
  }

  /**
   * A return label for an outbound shipment (POST /v1/shipments/:id/return):
   * the outbound's addresses swapped, its parcel, its service (or the one its carrier returns it
   * by) unless another is named, bought
   * through the purchase saga without moving the order. See shipments.returns.ts.
   */
  async createReturn(
    ctx: ServiceContext,
    outboundId: string,
    input: ReturnInput & { label_format?: LabelFormatCode },
    inTransaction?: (trx: Executor, shipment: Shipment) => Promise<void>,
  ): Promise<Shipment> {
    const outbound = await this.findOrThrow(ctx, outboundId);
    if (outbound.is_return) throw new AppError('unprocessable', 'This shipment is itself a return label; make the return from the outbound shipment.', { details: [{ field: 'id', message: 'is a return label' }] });
    if (outbound.status === 'voided') throw shipmentStateError(outbound.status, 'be returned', 'The shipment is voided; a voided label has nothing to return.');
    const serviceCode = input.service_code ?? returnServiceOf(await this.carriers, outbound.service_code);
    const carrier = this.returnCarrier(await this.carriers, serviceCode);
    const spec: ReturnSpec = {
      returnOf: outbound.id,
      charge: resolveReturnCharge(carrier, input.charge),
      expiresAt: returnExpiry(this.deps.now(), input.expires_in_days),
      rmaNumber: input.rma_number ?? null,
      reason: input.reason ?? null,
      shipFrom: outbound.ship_to,
      shipTo: outbound.ship_from,
      customs: outbound.customs ? returnCustoms(outbound.customs) : null,
    };
    const order = await this.orders.getOrder(ctx, outbound.order_id, { attachments: false });
    // The outbound's account when the carrier is the same and the account still sells, else the carrier's default.
    const sameAccount = carrier.slug === outbound.carrier ? (outbound.carrier_account_id ?? undefined) : undefined;
    const account = await this.gateway.accountForPurchase(ctx, carrier.slug, sameAccount).catch(() => this.gateway.accountForPurchase(ctx, carrier.slug, undefined));
    // A multi-piece outbound comes back as one return shipment with a package (and a label page) per piece.
    const pieces = outbound.packages && outbound.packages.length > 1 ? outbound.packages.map((p) => p.parcel) : null;
    const row = await this.buy(ctx, returnOrderView({ ...order, parcels: pieces }, spec, outbound.parcel), { carrier, serviceCode, account }, { format: input.label_format ?? (outbound.label_format as LabelFormatCode), addressValidation: 'none', returning: spec }, inTransaction);
    return toShipment(row, this.baseUrl);
  }

  /** POST /v1/shipments with is_return: a return label for the order itself, its addresses swapped (ship_to → ship_from). */
  private async createStandaloneReturn(ctx: ServiceContext, input: CreateShipmentInput): Promise<Shipment> {
    const carrier = this.returnCarrier(await this.carriers, input.service_code);
    const order = await this.orders.getOrder(ctx, input.order_id, { attachments: false });
    const origin = await this.shipFromOf(ctx, order);
    const spec: ReturnSpec = {
      returnOf: null,
      charge: resolveReturnCharge(carrier, input.charge),
      expiresAt: returnExpiry(this.deps.now(), input.expires_in_days),
      rmaNumber: input.rma_number ?? null,
      reason: input.reason ?? null,
      shipFrom: order.ship_to as ShipmentAddress,
      shipTo: origin,
      customs: null,
    };
    const account = await this.gateway.accountForPurchase(ctx, carrier.slug, input.carrier_account_id);
    const row = await this.buy(ctx, returnOrderView(order, spec, order.parcel), { carrier, serviceCode: input.service_code, account }, { format: input.label_format ?? 'pdf_4x6', addressValidation: 'none', returning: spec });
    return toShipment(row, this.baseUrl);
  }

  /** A return names its service: auto and cheapest choose for outbound parcels only. */
  private returnCarrier(carriers: CarrierRegistry, serviceCode: string): CarrierDefinition {
    const carrier = serviceCode === AUTO || serviceCode === CHEAPEST ? undefined : carriers.byServiceCode(serviceCode);
    if (!carrier) throw validationError([{ field: 'service_code', message: `must name a service for a return label (unknown service code "${serviceCode}")` }]);
    return carrier;
  }

  /** Wire shipments with their return labels listed and their write-backs (one query each for the page). */
  private async withReturns(scope: Scope, rows: readonly ShipmentRow[]): Promise<Shipment[]> {
    const byOutbound = new Map<string, ReturnSummary[]>();
    for (const r of await repo.returnsOf(this.deps.db, scope, rows.filter((row) => !row.is_return).map((row) => row.id))) {
      const list = byOutbound.get(r.return_of!) ?? [];
      list.push(toReturnSummary(r));
      byOutbound.set(r.return_of!, list);
    }
    const writeBacks = await this.writeBacksOf(scope, rows.map((row) => row.id));
    return rows.map((row) => toShipment(row, this.baseUrl, byOutbound.get(row.id) ?? [], writeBacks.get(row.id) ?? null));
  }

  /**
   * The given service (through its carrier's default account), else the order's requested one,
   * else (or for "auto") the shipping rules' choice among the options of every enabled account;
   * "cheapest" skips the rules. Rules and cheapest alike come with their `selection`.
   */
  private async chooseService(ctx: ServiceContext, order: Order, requested: string | undefined, options?: ShipmentOptionsInput): Promise<PurchaseChoice> {
    const carriers = await this.carriers;
    const code = requested ?? order.requested_service ?? AUTO;
    if (code !== AUTO && code !== CHEAPEST) {
      const carrier = carriers.byServiceCode(code);
      if (!carrier) throw validationError([{ field: 'service_code', message: `unknown service code "${code}"` }]);
      return { carrier, serviceCode: code, account: await this.gateway.accountForPurchase(ctx, carrier.slug, undefined) };
    }
    // Only services that offer the options in force are candidates.
    const quote = await this.quoteOrder(ctx, order, options);
    if (quote.data.length === 0 && quote.messages.length > 0 && quote.messages.every((m) => m.code === 'option_unavailable')) {
      throw new AppError('option_unavailable', 'No service that can carry this parcel offers the options asked for.', {
        details: quote.messages.map((m) => ({ field: m.option === 'parcels' ? 'parcels' : `options.${m.option === 'adult_signature' ? 'signature' : m.option}`, option: m.option, service_code: m.service_code, message: m.message })),
      });
    }
    const { selection, option } = await this.rules.select(ctx, factsOfOrder(order, quote.residential), quote, { rules: code === AUTO });
    const carrier = carriers.byServiceCode(option.service_code)!;
    return { carrier, serviceCode: option.service_code, account: await this.gateway.accountForPurchase(ctx, carrier.slug, option.carrier_account_id ?? undefined), selection };
  }

  /** An order rated as its purchase would be: every enabled account, its addresses and parcel. */
  async quoteOrder(ctx: ServiceContext, order: Order, options?: ShipmentOptionsInput): Promise<RateQueryResponse> {
    const { address: shipFrom, location } = await this.originOf(ctx, order);
    const inForce = resolveOptions(options, orderOptions(order));
    return quoteRates(
      {
        ship_from: { ...shipFrom, postal_code: shipFrom.postal_code ?? '' },
        ship_to: { ...order.ship_to, postal_code: order.ship_to.postal_code ?? '', country: order.ship_to.country ?? '' },
        parcel: order.parcel,
        ...(piecesOf(order).length > 1 ? { parcels: piecesOf(order) } : {}),
        ...(isDefault(inForce) ? {} : { options: inForce as ShipmentOptionsInput }),
      },
      { carriers: await this.carriers, sources: await this.gateway.rateSources(ctx), now: this.deps.now(), requestId: ctx.requestId, ...(location ? { origin: location } : {}) },
    ).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'validation_failed') throw new AppError('address_undeliverable', 'The order\'s addresses cannot be shipped to or from.', { details: err.details });
      throw err;
    });
  }

  /** The order and its quote (POST /v1/shipping-rules/evaluate rates an order through this). */
  async rateOrder(ctx: ServiceContext, orderId: string): Promise<{ order: Order; quote: RateQueryResponse }> {
    const order = await this.orders.getOrder(ctx, orderId, { attachments: false });
    return { order, quote: await this.quoteOrder(ctx, order) };
  }

  private async shipFromOf(scope: Scope, order: Order): Promise<ShipmentAddress> {
    return (await this.originOf(scope, order)).address;
  }

  /**
   * Where an order ships from: its own address, else its location (or the default location),
   * whose time zone and cut-off date the label; else the workspace origin (no location yet).
   */
  private async originOf(scope: Scope, order: Order): Promise<ShipmentOrigin> {
    if (order.ship_from) return { address: order.ship_from as ShipmentAddress, location: null };
    // A deleted location left its orders without one (the default location ships them).
    const location = this.locations ? await this.locations.originFor(scope, order.location_id ?? undefined) : null;
    if (location) return { address: location.address as unknown as ShipmentAddress, location };
    const from = await findWorkspaceOrigin(this.deps.db, scope.workspaceId);
    if (!from || typeof from.country !== 'string') {
      throw new AppError('missing_ship_from', 'The order has no ship_from and the workspace no location or origin address (POST /v1/locations).');
    }
    return { address: from as unknown as ShipmentAddress, location: null };
  }

  /**
   * The label purchase, as the saga it is: `planPurchase` checks and prepares everything that
   * needs no outside world; `purchaseFromCarrier` is the one step with an effect outside our
   * database (the carrier sells the label); `persistPurchase` renders the label and commits
   * the order move, the shipment, its label, first scan, event and audit in one transaction.
   * If anything after the carrier's sale fails, `compensatePurchase` voids the label again.
   */
  private async buy(
    ctx: ServiceContext,
    order: Order,
    choice: PurchaseChoice,
    options: PurchaseOptions,
    inTransaction?: (trx: Executor, shipment: Shipment) => Promise<void>,
  ): Promise<ShipmentRow> {
    const plan = await this.planPurchase(ctx, order, choice, options);
    const sale = await this.purchaseFromCarrier(ctx, plan, order);
    try {
      return await this.persistPurchase(ctx, order, plan, sale, inTransaction);
    } catch (err) {
      await this.compensatePurchase(ctx, plan, sale);
      throw err;
    }
  }

  /** Step 1, no side effects: the order can be shipped, by this carrier, on this lane. */
  private async planPurchase(ctx: ServiceContext, order: Order, choice: PurchaseChoice, options: PurchaseOptions): Promise<PurchasePlan> {
    const { carrier, serviceCode, account } = choice;
    const { format } = options;
    if (!options.returning) nextStatus(order.status, 'purchase_label'); // 409 naming the state before any carrier call
    // A store's order whose lines carry no weight (WooCommerce and BigCommerce never send one):
    // a label would be bought for an empty box. The parcel must be set first (docs/channels.md).
    if (order.source.startsWith('int_') && !(order.parcel.weight_oz > 0)) {
      throw new AppError('validation_failed', 'The order has no parcel weight to buy a label for.', {
        status: 422,
        details: [{ field: 'parcel', message: 'has no weight: set the parcel first (PATCH /api/admin/orders/{id} {parcel}, or parcel.weight_oz on the order)' }],
      });
    }
    const { address: shipFrom, location } = await this.originOf(ctx, order);
    const sells = account.driver === 'api' ? this.gateway.driverOf(account) !== undefined : carrier.adapter.purchase !== undefined;
    if (!sells || !carrier.capabilities.purchase) throw new AppError('unprocessable', `${carrier.name} does not sell labels.`);
    const destination = await checkDestination(options.addressValidation ?? (await this.settings.get('shipments.address_validation')), order.ship_to as ShipmentAddress, {
      scope: ctx,
      account,
      validators: this.gateway,
      usesCarrier: this.gateway.validatesAddresses(account),
      requestId: ctx.requestId,
    });
    const shipTo = destination.shipTo;
    const now = this.deps.now();
    let lane: PreparedLane;
    try {
      // A location dates the label on its own clock and cut-off, as its rate queries do.
      lane = prepareLane({ ship_from: { ...shipFrom, postal_code: shipFrom.postal_code ?? '' }, ship_to: { ...shipTo, postal_code: shipTo.postal_code ?? '', country: shipTo.country ?? '' } }, now, [], location ?? undefined);
    } catch (err) {
      if (err instanceof AppError && err.code === 'validation_failed') {
        throw new AppError('address_undeliverable', 'The order\'s addresses cannot be shipped to or from.', { details: err.details });
      }
      throw err;
    }
    // A return declares the outbound's contents as returned merchandise; a
    // standalone one derives them from the order like any label, then declares them returned.
    const derivedReturn = () => {
      const declared = resolveCustoms(order, options.customs, lane);
      return declared ? returnCustoms(declared) : null;
    };
    const customs = options.returning ? (options.returning.customs ?? derivedReturn()) : resolveCustoms(order, options.customs, lane);
    // A return label carries no options: what the outbound needed is not the customer's to buy.
    const shipmentOptions = options.returning ? { ...DEFAULT_OPTIONS } : resolveOptions(options.options, orderOptions(order));
    assertOptionsOffered(carrier, serviceCode, shipmentOptions, 1);
    const scenario = sandboxScenario(order.ship_to.name, order.notes);
    // A multi-piece order ships as one shipment of that many packages, if the service takes them.
    assertParcelsTaken(carrier, serviceCode, piecesOf(order).length);
    const sandbox = sandboxOptions(ctx.environment, ctx.environment === 'test' ? await this.timeScale() : 1, scenario);
    return { id: newId('shipment'), now, carrier, account, serviceCode, format, shipFrom, locationId: location?.id ?? null, lane, sandbox, selection: choice.selection ?? null, destination, returning: options.returning ?? null, customs, options: shipmentOptions };
  }

  /** Step 2, the outside world: the carrier sells the label (undone by compensatePurchase). */
  private async purchaseFromCarrier(ctx: ServiceContext, plan: PurchasePlan, order: Order): Promise<CarrierSale> {
    const { carrier, lane } = plan;
    const request = {
      service_code: plan.serviceCode,
      ship_from: lane.ship_from,
      ship_to: lane.ship_to,
      parcel: order.parcel,
      ship_date: lane.ship_date,
      residential: lane.residential,
      route: lane.route,
      reference: plan.id,
      purchased_at: plan.now.toISOString(),
      customs: plan.customs,
      ...(plan.returning ? { is_return: true } : {}),
      ...(isDefault(plan.options) ? {} : { options: plan.options }),
      ...(piecesOf(order).length > 1 ? { parcels: piecesOf(order) } : {}),
    };
    if (plan.account.driver === 'api') return this.purchaseFromApi(ctx, plan, request);
    let result;
    try {
      result = await carrier.adapter.purchase!(request);
    } catch (err) {
      if (err instanceof CarrierError) throw new AppError('carrier_unavailable', `${carrier.name} is unavailable; try again.`, { cause: err, retryable: err.retryable, retryAfterSeconds: 5 });
      throw err;
    }
    if (!result.ok) {
      // A refusal on the merits (the customs declaration, say) is the carrier's, as from a real carrier's API.
      if (result.rejected) throw new AppError('carrier_rejected', `${carrier.name} refused the label: ${result.reason}`, { details: [{ field: result.field ?? 'service_code', message: result.reason }] });
      throw new AppError('no_rates', result.reason, { details: [{ field: 'service_code', message: result.reason }] });
    }
    return { driver: 'simulated', tracking_number: result.tracking_number, package_tracking_numbers: result.package_tracking_numbers, rate: result.rate };
  }

  /**
   * A real carrier's sale. The label it issued is stored before anything else can fail: if even
   * that write fails, the label is voided at once (a label that cost money is never lost silently).
   */
  private async purchaseFromApi(ctx: ServiceContext, plan: PurchasePlan, request: Parameters<NonNullable<CarrierDefinition['adapter']['purchase']>>[0]): Promise<CarrierSale> {
    const driver = this.gateway.driverOf(plan.account)!;
    // Another carrier's packaging: the carrier is not asked (a simulated carrier refuses it the same way).
    const foreign = foreignPackaging(plan.carrier.name, request.parcels ?? [request.parcel], plan.carrier.packages);
    if (foreign) throw new AppError('no_rates', foreign, { details: [{ field: 'parcel.package_id', message: foreign }] });
    const labelImage = driver.labelImage?.(plan.format) ?? DEFAULT_LABEL_IMAGES[plan.format];
    const issued = await this.gateway.call(ctx, plan.account, ctx.requestId, (d, c) => d.purchase(c, { ...request, label_image: labelImage }));
    const sale: CarrierSale = { driver: 'api', tracking_number: issued.tracking_number, rate: issued.rate ?? unpricedRate(plan), issued };
    try {
      // One row per package (a multi-piece shipment's labels, the master first), as issued.
      for (const pkg of issuedPackages(issued)) {
        await repo.insertCarrierLabel(this.deps.db, {
          id: newId('carrierLabel'),
          workspace_id: ctx.workspaceId,
          environment: ctx.environment,
          carrier_account_id: plan.account.id,
          shipment_id: plan.id,
          carrier: plan.carrier.slug,
          tracking_number: pkg.tracking_number,
          carrier_shipment_id: issued.carrier_shipment_id,
          format: pkg.label.format,
          content_type: pkg.label.mime,
          body: pkg.label.bytes,
          status: 'issued',
          created_at: plan.now,
          updated_at: plan.now,
        });
      }
    } catch (err) {
      await this.compensatePurchase(ctx, plan, sale);
      throw err;
    }
    return sale;
  }

  /** Step 3: the label rendered (before the transaction: a render must not hold a connection), then everything kept at once. */
  private async persistPurchase(
    ctx: ServiceContext,
    order: Order,
    plan: PurchasePlan,
    sale: CarrierSale,
    inTransaction?: (trx: Executor, shipment: Shipment) => Promise<void>,
  ): Promise<ShipmentRow> {
    const { id, now, carrier, account, serviceCode, format, shipFrom, lane, sandbox, selection, destination } = plan;
    const option = toRateOption(carrier, sale.rate, lane, account.id);
    const rate: StoredRate = {
      zone: option.zone,
      base_price: option.base_price,
      surcharges: option.surcharges,
      billable_weight_oz: option.billable_weight_oz,
      dim_weight_oz: option.dim_weight_oz,
      dim_divisor: option.dim_divisor,
      dim_divisor_unit: option.dim_divisor_unit,
      delivery: option.delivery,
      rate_table_version: option.rate_table_version,
      ship_date: lane.ship_date,
      residential: lane.residential,
    };
    // One package per piece, each with the carrier's number for it (the first is the master).
    const numbers = sale.driver === 'api' ? issuedPackages(sale.issued).map((p) => p.tracking_number) : (sale.package_tracking_numbers ?? [sale.tracking_number]);
    const pieces = piecesOf(order);
    const packages: StoredPackage[] | null = pieces.length > 1 ? pieces.map((parcel, i) => ({ tracking_number: numbers[i] ?? sale.tracking_number, parcel, tracking_status: 'pre_transit' })) : null;
    const draft = {
      id,
      tracking_number: sale.tracking_number,
      packages,
      carrier: carrier.slug,
      service_code: serviceCode,
      service_name: option.service_name,
      rate,
      parcel: order.parcel,
      ship_from: shipFrom,
      ship_to: destination.shipTo,
      environment: ctx.environment,
      is_return: plan.returning !== null,
      options: plan.options,
    };
    // Rendered (or converted from the carrier's image) before the transaction: that work must not
    // hold a database connection. A carrier label that cannot become the asked format is still
    // kept (carrier_labels), and GET …/label says 422 label_format_unavailable.
    const label = sale.driver === 'api'
      ? await convertCarrierLabels(issuedPackages(sale.issued).map((p) => ({ format: p.label.format, bytes: p.label.bytes })), format)
      : await this.renderer.renderPackageLabels(packageLabelData({ ...draft, carrier_driver: 'simulated', status: 'label_purchased' }, carrier, order.external_id ?? order.id), format);
    const api = sale.driver === 'api';
    // A real carrier is asked by the poll job, never on a read: first when a scan can be there.
    // (Settled before the transaction: with the embedded database, a read outside it would wait.)
    const firstCheck = api ? await this.tracking.nextApiCheck('pre_transit', now, now) : now;

    return this.deps.db.transaction().execute(async (trx) => {
      if (!plan.returning) await moveOrder(trx, ctx, order.id, 'purchase_label', now);
      let row = await repo.insertShipment(trx, {
        ...draft,
        workspace_id: ctx.workspaceId,
        order_id: order.id,
        status: 'label_purchased',
        price_amount: option.price.amount,
        price_currency: option.price.currency,
        rate: JSON.stringify(rate),
        parcel: JSON.stringify(order.parcel),
        ship_from: JSON.stringify(shipFrom),
        location_id: plan.locationId,
        ship_to: JSON.stringify(destination.shipTo),
        ship_to_original: destination.original ? JSON.stringify(destination.original) : null,
        address_validation: JSON.stringify(destination.record),
        label_format: format,
        label_created_at: now,
        tracking_status: 'pre_transit',
        tracking_status_detail: 'label_created',
        estimated_delivery_date: option.delivery.estimated_delivery_date,
        expected_milestones: '{}',
        sandbox: sandbox ? JSON.stringify(sandbox) : null,
        next_check_at: firstCheck,
        purchased_at: now,
        carrier_account_id: account.id,
        carrier_driver: account.driver,
        selection: selection ? JSON.stringify(selection) : null,
        customs: plan.customs ? JSON.stringify(plan.customs) : null,
        options: isDefault(plan.options) ? null : JSON.stringify(plan.options),
        packages: packages ? JSON.stringify(packages) : null,
        carrier_shipment_id: api ? sale.issued.carrier_shipment_id : null,
        carrier_label_format: api ? sale.issued.label.format : null,
        ...(plan.returning ? returnColumns(plan.returning) : {}),
        created_at: now,
        updated_at: now,
      });
      if (label) await repo.insertLabel(trx, { shipment_id: id, format, workspace_id: ctx.workspaceId, environment: ctx.environment, content_type: label.content_type, body: label.body, created_at: now });
      if (api) await repo.setCarrierLabelStatus(trx, id, 'kept', now);
      // Documents the carrier issued with the label (DHL Express's invoice…), kept as received.
      if (api && sale.issued.documents?.length) await storeCarrierDocuments(trx, ctx, id, sale.issued.documents, now);
      const shipment = toShipment(row, this.baseUrl);
      if (inTransaction) await inTransaction(trx, shipment);
      await recordEvent(trx, ctx, 'shipment.label_purchased', {
        shipment,
        label_url: shipment.label.url,
        label_urls: Object.fromEntries(LABEL_FORMAT_CODES.map((f) => [f, labelUrl(this.baseUrl, id, f)])),
      });
      // The first scan (label created; everything at once for SANDBOX:delivered).
      row = api ? await this.tracking.recordLabelCreated(trx, row, now) : await this.tracking.syncLocked(trx, row, now);
      if (ctx.actor.type === 'account') {
        await writeAudit(trx, ctx.actor, ctx, {
          action: 'shipment.created',
          targetType: 'shipment',
          targetId: id,
          workspaceId: ctx.workspaceId,
          environment: ctx.environment,
          changes: { order_id: order.id, service_code: serviceCode, tracking_number: row.tracking_number },
        });
      }
      return row;
    });
  }

  /**
   * Compensation: the carrier sold a label we did not keep, so it is voided (a failed void is
   * logged, not thrown; for a real carrier the stored label says `void_failed` for an operator).
   */
  private async compensatePurchase(ctx: ServiceContext, plan: PurchasePlan, sale: CarrierSale): Promise<void> {
    if (sale.driver === 'api') {
      const { issued } = sale;
      const outcome = await this.gateway
        .call(ctx, plan.account, ctx.requestId, (d, c) => d.void(c, { carrier_shipment_id: issued.carrier_shipment_id, tracking_numbers: issued.packages.map((p) => p.tracking_number) }))
        .then(() => 'compensated' as const, (err: unknown) => {
          this.deps.log.error({ err, tracking_number: sale.tracking_number, carrier_account_id: plan.account.id }, 'could not void an unrecorded carrier label');
          return 'void_failed' as const;
        });
      await repo.setCarrierLabelStatus(this.deps.db, plan.id, outcome, this.deps.now()).catch((err: unknown) => this.deps.log.error({ err, shipment_id: plan.id }, 'could not mark an unrecorded carrier label'));
      return;
    }
    // Every package of a multi-piece sale is voided.
    for (const trackingNumber of sale.package_tracking_numbers ?? [sale.tracking_number]) {
      await plan.carrier.adapter
        .void?.({ tracking_number: trackingNumber, service_code: plan.serviceCode, purchased_at: plan.now.toISOString(), now: this.deps.now().toISOString(), sandbox: plan.sandbox ?? undefined })
        .catch((voidErr: unknown) => this.deps.log.error({ err: voidErr, tracking_number: trackingNumber }, 'could not void an unrecorded label'));
    }
  }

  /** One shipment, with tracking brought up to date. */
  async getShipment(scope: Scope, id: string): Promise<Shipment> {
    return (await this.withReturns(scope, [await this.tracking.refresh(await this.findOrThrow(scope, id))]))[0];
  }

  private async findOrThrow(scope: Scope, id: string): Promise<ShipmentRow> {
    const row = await repo.findShipment(this.deps.db, scope, id);
    if (!row) throw new AppError('not_found', 'No such shipment.');
    return row;
  }

  /** Newest first, cursor paginated; rows whose scan is due are brought up to date. */
  async listShipments(scope: Scope, filter: ShipmentListFilter): Promise<Page<Shipment>> {
    const statuses = filter.status === undefined ? undefined : parseList(filter.status, SHIPMENT_STATUSES, 'status');
    const query = repo.shipmentsQuery(this.deps.db, scope, {
      statuses: statuses as ShipmentStatus[] | undefined,
      carrier: filter.carrier,
      orderId: filter.order_id,
      trackingNumber: filter.tracking_number,
      locationId: filter.location_id,
      createdAfter: filter.created_after ? parseInstant(filter.created_after, 'created_after') : undefined,
      createdBefore: filter.created_before ? parseInstant(filter.created_before, 'created_before') : undefined,
    });
    const page = await paginate(query, { limit: filter.limit, cursor: filter.cursor });
    const now = this.deps.now();
    const rows = [];
    for (const row of page.data) rows.push(isDue(row, now) ? await this.tracking.refresh(row) : row);
    return { ...page, data: await this.withReturns(scope, rows) };
  }

  /**
   * Void a label (POST /v1/shipments/:id/void; admin cancel): only from label_purchased, and
   * only while the carrier allows it (before its first scan), else 409. The order returns to
   * processing when it has no other live label.
   */
  async voidShipment(ctx: ServiceContext, id: string, action: 'shipment.voided' | 'shipment.cancelled' = 'shipment.voided'): Promise<Shipment> {
    const before = await this.tracking.refresh(await this.findOrThrow(ctx, id));
    assertNotManifested(before);
    const carriers = await this.carriers;
    // The carrier's void window (its definition says how many days): 409 once closed.
    if (before.status === 'label_purchased') assertVoidWindowOpen(carriers.get(before.carrier), before, this.deps.now());
    const refundDelaySeconds = await this.refunds.delaySeconds();
    // A real carrier is asked before the transaction (its deadline must not hold a lock); its
    // refusal is 422 carrier_rejected, no answer 503 carrier_unavailable, and nothing changes here.
    if (before.carrier_driver === 'api') {
      if (before.status !== 'label_purchased') throw shipmentStateError(before.status, 'be voided', `The shipment is ${before.status}; only a label_purchased shipment can be voided.`);
      const account = before.carrier_account_id ? await this.gateway.accountOf(ctx, before.carrier_account_id) : undefined;
      if (!account) throw new AppError('unprocessable', 'The carrier account that sold this label no longer exists.');
      // Every package: a carrier that voids package by package (UPS) is told them all.
      await this.gateway.call(ctx, account, ctx.requestId, (d, c) => d.void(c, { carrier_shipment_id: before.carrier_shipment_id ?? before.tracking_number, tracking_numbers: packagesOf(before).map((p) => p.tracking_number) }));
    }
    const now = this.deps.now();
    const row = await this.deps.db.transaction().execute(async (trx) => {
      const current = await repo.findShipment(trx, ctx, id, { forUpdate: true });
      if (!current) throw new AppError('not_found', 'No such shipment.');
      assertNotManifested(current);
      if (current.status !== 'label_purchased') throw shipmentStateError(current.status, 'be voided', `The shipment is ${current.status}; only a label_purchased shipment can be voided.`);
      const carrier = carriers.get(current.carrier);
      if (current.carrier_driver === 'simulated' && carrier?.adapter.void && carrier.capabilities.void) {
        // A void voids every package: each is asked, and one the carrier has scanned refuses it all.
        for (const pkg of packagesOf(current)) {
          const result = await carrier.adapter.void({
            tracking_number: pkg.tracking_number,
            service_code: current.service_code,
            purchased_at: new Date(current.purchased_at).toISOString(),
            now: now.toISOString(),
            sandbox: current.sandbox ?? undefined,
          });
          if (!result.ok) throw shipmentStateError(current.status, 'be voided', result.reason);
        }
      }
      const voided = await repo.updateShipment(trx, id, {
        status: 'voided',
        tracking_status: 'cancelled',
        tracking_status_detail: 'label_voided',
        ...(current.packages ? { packages: JSON.stringify(current.packages.map((p) => ({ ...p, tracking_status: 'cancelled' }))) } : {}),
        voided_at: now,
        next_check_at: null,
        updated_at: now,
        // The refund the void asks for (shipments.refunds.ts), decided by the refunds job.
        ...refundOnVoid(current, now, { driver: current.carrier_driver, delaySeconds: refundDelaySeconds }),
      });
      // Our own labels render again, marked VOID (a carrier's own is stamped on read).
      if (current.carrier_driver === 'simulated') await repo.deleteLabels(trx, id);
      if (voided.refund_status === 'submitted') await this.deps.jobs.send(DECIDE_REFUND_JOB, { shipment_id: id }, { executor: trx, startAfterSeconds: refundDelaySeconds });
      await recordRefundUpdated(trx, voided);
      await repo.insertTrackingEvents(trx, [manualEvent(voided, now, { status: 'cancelled', status_detail: 'label_voided', code: 'VOID', description: 'Label voided; the shipment was cancelled', seq: 10_000 })]);
      if (!current.is_return && (await repo.countLiveShipmentsOfOrder(trx, ctx, current.order_id, id)) === 0) {
        try {
          await moveOrder(trx, ctx, current.order_id, 'void_label', now);
        } catch (err) {
          if (!(err instanceof AppError) || err.code !== 'invalid_state') throw err;
        }
      }
      await this.tracking.recordTrackingUpdated(trx, voided, current.status);
      if (ctx.actor.type === 'account') {
        await writeAudit(trx, ctx.actor, ctx, { action, targetType: 'shipment', targetId: id, workspaceId: ctx.workspaceId, environment: ctx.environment, changes: { status: { from: current.status, to: 'voided' } } });
      }
      return voided;
    });
    return (await this.withReturns(ctx, [row]))[0];
  }

  /**
   * Admin force-delivery: any shipment but a voided one → delivered, with a manual tracking
   * event, the order → delivered, `tracking.updated` and an audit entry. Already delivered:
   * returned as it is.
   */
  async forceDelivery(ctx: ServiceContext, id: string): Promise<Shipment> {
    const now = this.deps.now();
    const row = await this.deps.db.transaction().execute(async (trx) => {
      const current = await repo.findShipment(trx, ctx, id, { forUpdate: true });
      if (!current) throw new AppError('not_found', 'No such shipment.');
      if (current.status === 'voided' || current.status === 'expired') throw shipmentStateError(current.status, 'be delivered', `The shipment is ${current.status}; its label cannot be delivered.`);
      if (current.status === 'delivered') return current;
      const delivered = await repo.updateShipment(trx, id, {
        status: 'delivered',
        tracking_status: 'delivered',
        tracking_status_detail: 'delivered_manually',
        delivered_at: now,
        next_check_at: null,
        updated_at: now,
        ...returnBillingOnSync(current, 'delivered', now).patch,
      });
      await repo.insertTrackingEvents(trx, [manualEvent(delivered, now, { status: 'delivered', status_detail: 'delivered_manually', code: 'MANUAL', description: `Marked delivered by ${ctx.actor.email ?? 'an administrator'}`, seq: 10_001, milestone: 'delivered', location: current.ship_to })]);
      if (!current.is_return) await deliverOrder(trx, ctx, current.order_id, now);
      await this.tracking.recordTrackingUpdated(trx, delivered, current.status);
      await writeAudit(trx, ctx.actor, ctx, {
        action: 'shipment.force_delivered',
        targetType: 'shipment',
        targetId: id,
        workspaceId: ctx.workspaceId,
        environment: ctx.environment,
        changes: { status: { from: current.status, to: 'delivered' } },
      });
      return delivered;
    });
    return (await this.withReturns(ctx, [row]))[0];
  }

  /**
   * What the labels of these shipments print, in the order given (a batch's merged file); the
   * reference is the order id. Ids of another scope or of no shipment are left out.
   */
  async labelData(scope: Scope, ids: readonly string[]): Promise<LabelData[]> {
    const rows = new Map((await repo.findShipmentsByIds(this.deps.db, scope, ids)).map((r) => [r.id, r]));
    const carriers = await this.carriers;
    return ids.flatMap((id) => {
      const r = rows.get(id);
      return r ? packageLabelData(r, carriers.get(r.carrier), r.order_id) : [];
    });
  }

  /** Whether any of these shipments' labels was issued by a real carrier (its own artifact, not ours to redraw). */
  async anyCarrierIssued(scope: Scope, ids: readonly string[]): Promise<boolean> {
    return (await repo.findShipmentsByIds(this.deps.db, scope, ids)).some((r) => r.carrier_driver === 'api');
  }

  /**
   * The label file: the stored artifact, or with `format` another rendering (made on demand
   * from the stored shipment, then kept beside the original so the next read is a read).
   */
  async label(scope: Scope, id: string, format?: LabelFormatCode): Promise<LabelFile> {
    const row = await this.findOrThrow(scope, id);
    const file = await this.labelOnly(scope, row, format);
    // A PDF label carries the shipment's customs documents after its own page.
    if (file.content_type !== 'application/pdf') return file;
    return { ...file, body: await this.customsDocuments.appendToLabel(scope, row, file.body) };
  }

  /**
   * GET /v1/shipments/:id/documents: the customs documents of the shipment (none for a domestic
   * parcel), each with its download URL.
   */
  async listDocuments(scope: Scope, id: string): Promise<{ data: ShipmentDocumentListItem[] }> {
    return { data: await this.customsDocuments.list(scope, await this.findOrThrow(scope, id)) };
  }

  /** GET /v1/shipments/:id/documents/:type: the document's file (rendered on first download, then kept). */
  async document(scope: Scope, id: string, type: string): Promise<DocumentFile> {
    return this.customsDocuments.file(scope, await this.findOrThrow(scope, id), type);
  }

  /** Whether any of these shipments' PDF labels carries customs documents (a batch's file then merges each shipment's own). */
  async anyWithDocuments(scope: Scope, ids: readonly string[]): Promise<boolean> {
    return this.customsDocuments.anyHaveDocuments(scope, await repo.findShipmentsByIds(this.deps.db, scope, ids));
  }

  /** The label file alone: see label(). */
  private async labelOnly(scope: Scope, row: ShipmentRow, format?: LabelFormatCode): Promise<LabelFile> {
    const wanted = (format ?? row.label_format) as LabelFormatCode;
    const filename = `label-${row.tracking_number}.${fileExtension[wanted] ?? 'bin'}`;
    const stored = await repo.findLabel(this.deps.db, scope, row.id, wanted);
    const file = stored
      ? { body: Buffer.from(stored.body.buffer, stored.body.byteOffset, stored.body.byteLength), content_type: stored.content_type, filename }
      : await this.renderLabelFile(scope, row, wanted, filename);
    // A carrier's own label is never redrawn: once voided, it is stamped VOID on every read.
    if (row.carrier_driver === 'api' && row.status === 'voided') return { ...file, body: await stampVoid(file.body, file.content_type) };
    return file;
  }

  /** A format not stored yet: the carrier's own converted, or ours rendered; then kept. */
  private async renderLabelFile(scope: Scope, row: ShipmentRow, wanted: LabelFormatCode, filename: string): Promise<LabelFile> {
    const id = row.id;
    if (row.carrier_driver === 'api') {
      // The carrier's own label, never one of ours: converted where that is lossless, else 422.
      const kept = await repo.findKeptCarrierLabels(this.deps.db, scope, id);
      const issued = kept[0];
      const converted = issued && (await convertCarrierLabels(kept.map((l) => ({ format: l.format, bytes: Buffer.from(l.body.buffer, l.body.byteOffset, l.body.byteLength) })), wanted));
      if (!converted) {
        throw new AppError('label_format_unavailable', `The carrier issued this label as ${row.carrier_label_format ?? 'another format'}; ${wanted} cannot be made from it without loss.`, {
          // Point to what the carrier issued: the purchase's own format may be one it could not give.
          details: [{ field: 'format', message: `not available for this label; ask for ${issued ? issuedLabelFormat(issued.format) : row.label_format}` }],
        });
      }
      await repo.insertLabel(this.deps.db, { shipment_id: id, format: wanted, workspace_id: row.workspace_id, environment: row.environment, content_type: converted.content_type, body: converted.body, created_at: this.deps.now() });
      return { body: converted.body, content_type: converted.content_type, filename };
    }
    const carrier = (await this.carriers).get(row.carrier);
    const order = await this.orders.getOrder(scope, row.order_id, { attachments: false }).catch(() => null);
    const rendered = await this.renderer.renderPackageLabels(packageLabelData(row, carrier, order ? (order.external_id ?? order.id) : null), wanted);
    await repo.insertLabel(this.deps.db, { shipment_id: id, format: wanted, workspace_id: row.workspace_id, environment: row.environment, content_type: rendered.content_type, body: rendered.body, created_at: this.deps.now() });
    return { body: rendered.body, content_type: rendered.content_type, filename };
  }

  /** GET /v1/tracking/:id: a shipment id, or a number of the scope's (a label's, a package's, a tracker's). */
  async getTracking(scope: Scope, idOrNumber: string): Promise<Tracking> {
    const found = await this.trackingReads.get(scope, idOrNumber);
    if (!found) throw new AppError('not_found', 'No shipment, package or tracker with this id or tracking number.');
    return found;
  }

  /**
   * POST /v1/tracking/:id/refresh: asks the carrier now (a real carrier's API, or the simulation
   * brought up to date), at most once a minute per shipment (429 with Retry-After), and answers
   * the tracking as GET does. A carrier that cannot answer is 503 carrier_unavailable.
   */
  async refreshTracking(ctx: ServiceContext, idOrNumber: string): Promise<Tracking> {
    const found = await repo.findShipmentWithEvents(this.deps.db, ctx, lookupOf(idOrNumber));
    if (!found) throw new AppError('not_found', 'No shipment with this id or tracking number.');
    const { row } = found;
    const now = this.deps.now();
    if (!(await repo.claimTrackingRefresh(this.deps.db, row.id, now, REFRESH_SPACING_MS))) {
      const last = row.tracking_refreshed_at ? new Date(row.tracking_refreshed_at).getTime() : now.getTime();
      throw rateLimited('This shipment\'s tracking was refreshed less than a minute ago; read it with GET /v1/tracking/:id.', (last + REFRESH_SPACING_MS - now.getTime()) / 1000);
    }
    if (row.carrier_driver === 'api') {
      if (row.status !== 'voided') await this.tracking.syncApi(row, { requestId: ctx.requestId });
    } else {
      await this.deps.db.transaction().execute(async (trx) => {
        const locked = await repo.lockShipment(trx, row.id);
        if (locked && !FINAL_STATUSES.includes(locked.status)) await this.tracking.syncLocked(trx, locked, now, { force: true });
      });
    }
    const fresh = await repo.findShipmentWithEvents(this.deps.db, ctx, { id: row.id });
    return toTracking(fresh!.row, fresh!.events);
  }

  /** Public tracking by number (any tenant), without names, streets, emails or phones. */
  async publicTracking(trackingNumber: string): Promise<PublicTracking> {
    const found = await this.trackingReads.getPublic(trackingNumber);
    if (!found) throw new AppError('not_found', 'No shipment with this tracking number.');
    return found;
  }

  /** GET /v1/tracking/events: the workspace's events, newest first (by when they occurred). */
  async listTrackingEvents(scope: Scope, filter: TrackingEventListFilter) {
    const statuses = filter.status === undefined ? undefined : parseList(filter.status, TRACKING_STATUSES, 'status');
    const query = repo.trackingEventsQuery(this.deps.db, scope, {
      since: filter.since ? parseInstant(filter.since, 'since') : undefined,
      trackingNumber: filter.tracking_number,
      statuses: statuses as never,
    });
    const page = await paginate(query, { limit: filter.limit, cursor: filter.cursor, createdAtColumn: 'occurred_at' });
    return { ...page, data: page.data.map(toTrackingEventListItem) };
  }

  /** The orders module's `shipments` summaries. */
  private async attachmentsOf(executor: Executor, scope: Scope, orderIds: readonly string[]): Promise<Map<string, OrderAttachments>> {
    const out = new Map<string, OrderAttachments>();
    for (const s of await repo.shipmentsOfOrders(executor, scope, orderIds)) {
      const list = out.get(s.order_id)?.shipments ?? [];
      list.push(toShipmentSummary(s));
      out.set(s.order_id, { shipments: list });
    }
    return out;
  }

  /** For tests and the shipment's own checks. */
  isDue(row: ShipmentRow): boolean {
    return isDue(row, this.deps.now());
  }

  scopeOf(row: ShipmentRow): Scope {
    return scopeOf(row);
  }
}

/**
 * The declaration a purchase ships with: none when the parcel stays in the
 * country (a declaration given for a domestic parcel is ignored); else the one given with the
 * purchase, else the order's, else one derived from the order's lines (422 customs_required
 * naming each missing line field when it cannot be). Checked before anything is bought: 422
 * customs_invalid with one detail per problem.
 */
function resolveCustoms(order: Order, given: CustomsInput | undefined, lane: PreparedLane): CustomsDeclaration | null {
  if (!requiresCustoms(lane.route, lane.ship_to)) return null;
  let declaration: CustomsDeclaration;
  if (given) declaration = withDefaults(given);
  else if (order.customs) declaration = order.customs;
  else {
    const derived = deriveCustoms(order.line_items, lane.ship_from.country);
    if (!derived.ok) throw customsRequired(derived.details);
    declaration = derived.declaration;
  }
  // One declaration covers every piece of a multi-piece shipment: the items weigh against them all.
  const checked = checkCustoms(declaration, { origin_country: lane.ship_from.country, destination_country: lane.ship_to.country, parcel_weight_oz: piecesOf(order).reduce((sum, p) => sum + p.weight_oz, 0) });
  if (!checked.ok) throw customsInvalid(checked.details);
  return checked.declaration;
}

function manualEvent(
  row: ShipmentRow,
  now: Date,
  e: { status: 'cancelled' | 'delivered'; status_detail: string; code: string; description: string; seq: number; milestone?: 'delivered'; location?: ShipmentAddress },
) {
  return {
    id: newId('trackingEvent'),
    workspace_id: row.workspace_id,
    environment: row.environment,
    shipment_id: row.id,
    tracking_number: row.tracking_number,
    carrier: row.carrier,
    event_key: `${e.code}|${now.toISOString()}`,
    seq: e.seq,
    occurred_at: now,
    status: e.status,
    status_detail: e.status_detail,
    milestone: e.milestone ?? null,
    description: e.description,
    location: JSON.stringify({ city: e.location?.city ?? null, state: e.location?.state ?? null, postal_code: e.location?.postal_code ?? null, country: e.location?.country ?? null }),
    carrier_status_code: e.code,
    created_at: now,
  };
}


type ShipmentSummaryRow = Awaited<ReturnType<typeof repo.shipmentsOfOrders>>[number];

/** A shipment as its order shows it (created_at is text when it comes through JSON). */
function toShipmentSummary(s: ShipmentSummaryRow) {
  return { id: s.id, carrier: s.carrier, service_code: s.service_code, tracking_number: s.tracking_number, status: s.status, created_at: new Date(s.created_at).toISOString() };
}

/** The image a driver is asked for when it does not say (each driver maps our formats itself). */
const DEFAULT_LABEL_IMAGES: Record<LabelFormatCode, CarrierLabelImage> = { pdf_4x6: 'PDF', pdf_letter: 'PDF', png_4x6: 'PNG', zpl_4x6: 'ZPL' };

/** A carrier that issued a label without saying what it charged: kept at zero, marked as such. */
function unpricedRate(plan: PurchasePlan): SourcedRate {
  const zero = { amount: 0, currency: 'USD' };
  const service = plan.carrier.services.find((s) => s.code === plan.serviceCode);
  return {
    service_code: plan.serviceCode,
    service_name: service?.name ?? plan.serviceCode,
    zone: 0,
    base_price: zero,
    surcharges: [],
    price: zero,
    billable_weight_oz: 0,
    dim_weight_oz: null,
    dim_divisor: null,
    dim_divisor_unit: null,
    business_days: 0,
    guaranteed: false,
    rate_table_version: `${plan.carrier.slug}_api_unpriced`,
  };
}

/** The order's options as the carriers see them (every key; defaults where none were given). */
/** Every piece an order ships as (a multi-piece order's `parcels`, else its one parcel). */
function piecesOf(order: Order): Order['parcel'][] {
  return order.parcels && order.parcels.length > 1 ? order.parcels : [order.parcel];
}

function orderOptions(order: Order): ShipmentOptions {
  return (order.options as ShipmentOptions | undefined) ?? DEFAULT_OPTIONS;
}

/** Nothing asked beyond the defaults. */
function isDefault(options: ShipmentOptions): boolean {
  return isDeepStrictEqual(resolveOptions(null, options), DEFAULT_OPTIONS);
}

/** A carrier's packages as issued (a driver that gave none stands for its one label). */
function issuedPackages(issued: ApiPurchaseResult): ApiPurchaseResult['packages'] {
  return issued.packages.length > 0 ? issued.packages : [{ tracking_number: issued.tracking_number, label: issued.label }];
}
