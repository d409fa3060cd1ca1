import type { CarrierRegistry } from '../../carriers/registry.js';
import { checkOptions, resolveOptions, type ShipmentOptionsInput } from '../shipment-options/index.js';
import { AppError, validationError } from '../../platform/errors.js';
import type { Deps } from '../../platform/deps.js';
import type { Scope, ServiceContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db/types.js';
import { paginate, type Page } from '../../platform/http/pagination.js';
import type { LabelData } from '../labels/index.js';
import type { CarrierGateway } from '../carrier-accounts/index.js';
import type { SettingsService } from '../settings/index.js';
import { findWorkspaceOrigin } from '../identity/index.js';
import { parseList } from '../../platform/http/wire.js';
import { nextStatus, parseInstant, type Order, type OrderExtension, type OrdersService } from '../orders/index.js';
import { factsOfOrder, type ShippingRulesService } from '../shipping-rules/index.js';
import { quoteRates, type RateQueryResponse } from '../rates/index.js';
import * as repo from './shipments.repo.js';
import {
  TRACKING_STATUSES,
  type CreateShipmentInput,
  type LabelFormatCode,
  type PublicTracking,
  type Shipment,
  type ShipmentListFilter,
  type Tracking,
  type TrackingEventListFilter,
} from './shipments.schemas.js';
import { issuedByCarrier, packageLabelData, type LabelRenderer } from './shipments.labels.js';
import { LabelFiles, type LabelFile } from './shipments.label-files.js';
import { ShipmentDocuments, type DocumentFile, type ShipmentDocumentListItem } from './shipments.documents.js';
import type { AddressValidationMode } from './shipments.address-check.js';
import { SHIPMENT_STATUSES, type ShipmentStatus } from './shipments.states.js';
import type { ShipmentAddress, ShipmentRow } from './shipments.tables.js';
import { isDue, TrackingSync } from './shipments.tracking.js';
import { scopeOf } from './shipments.track-request.js';
import { lookupOf, TrackingReader } from './shipments.tracking-reads.js';
import type { TrackerSource, TrackingLookupDeps } from './shipments.tracking-lookup.js';
import { toShipment, toTrackingEventListItem, type ReturnSummary, type ShipmentWriteBack } from './shipments.wire.js';
import { toReturnSummary } from './shipments.returns.js';
import { ReturnPurchase } from './shipments.return-purchase.js';
import { shipmentsOnOrders } from './shipments.order-extension.js';
import { Refunds } from './shipments.refunds.js';
import { atLocation, type LocationOrigins, type ShipmentOrigin } from './shipments.origin.js';
import { isDefault, LabelPurchase, orderOptions, piecesOf, type PurchaseChoice } from './shipments.purchase.js';
import { markDelivered, voidLabel, type ChangeDeps } from './shipments.void.js';

/** The service codes that ask for a choice: by the shipping rules, or the plain cheapest option. */
const AUTO = 'auto';
const CHEAPEST = 'cheapest';

/** What a module that builds on shipments adds to their reads: the latest write-back of each shipment. */
export interface ShipmentExtension {
  writeBacks(executor: Executor, scope: Scope, shipmentIds: readonly string[]): Promise<Map<string, ShipmentWriteBack>>;
}

export class ShipmentsService {
  readonly tracking: TrackingSync;
  private readonly trackingReads: TrackingReader;
  private readonly purchases: LabelPurchase;
  /** Refund decisions and GET /v1/refunds (shipments.refunds.ts). */
  readonly refunds: Refunds;
  private readonly carriers: Promise<CarrierRegistry>;
  private readonly customsDocuments: ShipmentDocuments;
  private readonly labelFiles: LabelFiles;
  private readonly returns: ReturnPurchase;
  private readonly writeBackProviders: ShipmentExtension['writeBacks'][] = [];
  private readonly locations: LocationOrigins;
  private readonly lookup: TrackingLookupDeps;

  constructor(
    private readonly deps: Deps,
    private readonly orders: OrdersService,
    private readonly settings: SettingsService,
    private readonly gateway: CarrierGateway,
    private readonly rules: ShippingRulesService,
    private readonly renderer: LabelRenderer,
    /** Where `location_id` is resolved and a tracker's number found (the locations and trackers modules, handed in by src/compose.ts). */
    neighbours: { locations: LocationOrigins; trackers: TrackerSource },
  ) {
    this.locations = neighbours.locations;
    // The registry of the app's Deps (a promise only because TrackingSync and the awaits below take one).
    this.carriers = Promise.resolve(deps.carriers);
    this.tracking = new TrackingSync(deps, this.carriers, gateway, settings);
    this.lookup = { db: deps.db, now: () => deps.now(), tracking: this.tracking, trackers: neighbours.trackers };
    this.trackingReads = new TrackingReader(() => this.lookup);
    this.purchases = new LabelPurchase(deps, settings, gateway, renderer, this.tracking, (scope, order) => this.originOf(scope, order));
    this.refunds = new Refunds(deps, gateway, settings);
    this.returns = new ReturnPurchase({
      now: () => deps.now(),
      baseUrl: () => this.baseUrl,
      carriers: this.carriers,
      orders,
      gateway,
      purchases: this.purchases,
      findShipment: (ctx, id) => this.findOrThrow(ctx, id),
      shipFromOf: (ctx, order) => this.shipFromOf(ctx, order),
    });
    this.labelFiles = new LabelFiles(deps, this.carriers, renderer, async (scope, row) => {
      const order = await this.orders.getOrder(scope, row.order_id, { attachments: false }).catch(() => null);
      return order ? (order.external_id ?? order.id) : null;
    });
    this.customsDocuments = new ShipmentDocuments(
      { db: deps.db, now: () => deps.now(), baseUrl: () => this.baseUrl, carriers: this.carriers, log: deps.log },
      (data) => this.renderer.renderCustomsDocument(data),
    );
  }

  /** What this module adds to orders, registered once in src/compose.ts (shipments.order-extension.ts). */
  readonly orderExtension: OrderExtension = shipmentsOnOrders();

  /**
   * A module that builds on shipments (integrations: the tracking sent back to the store)
   * registers here once, when the app is composed (src/compose.ts).
   */
  extend(extension: ShipmentExtension): void {
    this.writeBackProviders.push(extension.writeBacks);
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

  /**
   * Buy a label for an order (POST /v1/shipments): re-rates the service for the order's parcel
   * through the carrier's purchase, renders the label, then in one transaction moves the order
   * to shipped, stores the shipment, its label bytes and first scan, and records
   * `shipment.label_purchased`. If that transaction fails, the carrier label is voided again.
   */
  async purchase(ctx: ServiceContext, input: CreateShipmentInput): Promise<Shipment> {
    if (input.is_return) return this.returns.forOrder(ctx, input);
    const returnOnly = (['rma_number', 'reason', 'charge', 'expires_in_days'] as const).filter((f) => input[f] !== undefined);
    if (returnOnly.length > 0) throw validationError(returnOnly.map((field) => ({ field, message: 'only with is_return: true' })));
    const optionDetails = checkOptions(input.options);
    if (optionDetails.length > 0) throw validationError(optionDetails);
    const auto = input.service_code === AUTO;
    if (auto && input.carrier_account_id !== undefined)
      throw validationError([{ field: 'carrier_account_id', message: 'cannot be given with service_code auto: the shipping rules choose the account' }]);
    const carrier = auto ? undefined : (await this.carriers).byServiceCode(input.service_code);
    if (!auto && !carrier) throw validationError([{ field: 'service_code', message: `unknown service code "${input.service_code}"` }]);
    const order = await atLocation(ctx, this.locations, await this.orders.getOrder(ctx, input.order_id, { attachments: false }), input.location_id);
    if (auto) nextStatus(order.status, 'purchase_label'); // 409 before rating an order that cannot ship
    const choice = carrier
      ? { carrier, serviceCode: input.service_code, account: await this.gateway.accountForPurchase(ctx, carrier.slug, input.carrier_account_id) }
      : await this.chooseService(ctx, order, AUTO, input.options);
    const row = await this.purchases.buy(ctx, order, choice, {
      format: input.label_format ?? 'pdf_4x6',
      addressValidation: input.address_validation,
      customs: input.customs,
      options: input.options,
    });
    // The write-back (for a store's order) was created in the purchase's transaction.
    return toShipment(row, this.baseUrl, [], (await this.writeBacksOf(ctx, [row.id])).get(row.id) ?? null);
  }

  /**
   * Admin `generate`: rate-shop the order (the given service, else its requested service, else
   * the shipping rules' choice) and buy that label. Returns the order, now shipped with its tracking number.
   */
  async generate(
    ctx: ServiceContext,
    orderId: string,
    input: {
      service_code?: string;
      label_format?: LabelFormatCode;
      address_validation?: AddressValidationMode;
      options?: ShipmentOptionsInput;
      location_id?: string;
    },
  ): Promise<Order> {
    const optionDetails = checkOptions(input.options);
    if (optionDetails.length > 0) throw validationError(optionDetails);
    const order = await atLocation(ctx, this.locations, await this.orders.getOrder(ctx, orderId, { attachments: false }), input.location_id);
    nextStatus(order.status, 'purchase_label');
    const choice = await this.chooseService(ctx, order, input.service_code, input.options);
    await this.purchases.buy(ctx, order, choice, {
      format: input.label_format ?? 'pdf_4x6',
      addressValidation: input.address_validation,
      options: input.options,
    });
    return this.orders.getOrder(ctx, orderId);
  }

  /**
   * A batch item's purchase: the service chosen as in `generate`, and `inTransaction` run in the
   * purchase's own transaction (the batch marks its item there, so the label and the item's
   * outcome commit together or not at all).
   */
  async purchaseInBatch(
    ctx: ServiceContext,
    input: {
      order_id: string;
      service_code?: string;
      label_format?: LabelFormatCode;
      address_validation?: AddressValidationMode;
      options?: ShipmentOptionsInput;
      location_id?: string;
    },
    inTransaction: (trx: Executor, shipment: Shipment) => Promise<void>,
  ): Promise<Shipment> {
    const optionDetails = checkOptions(input.options);
    if (optionDetails.length > 0) throw validationError(optionDetails);
    const order = await atLocation(ctx, this.locations, await this.orders.getOrder(ctx, input.order_id, { attachments: false }), input.location_id);
    nextStatus(order.status, 'purchase_label');
    const choice = await this.chooseService(ctx, order, input.service_code, input.options);
    const row = await this.purchases.buy(
      ctx,
      order,
      choice,
      { format: input.label_format ?? 'pdf_4x6', addressValidation: input.address_validation, options: input.options },
      inTransaction,
    );
    return toShipment(row, this.baseUrl);
  }

  /** POST /v1/shipments/:id/return (and the create_returns batch item): see shipments.return-purchase.ts. */
  createReturn(...args: Parameters<ReturnPurchase['forShipment']>): Promise<Shipment> {
    return this.returns.forShipment(...args);
  }

  /** Wire shipments with their return labels listed and their write-backs (one query each for the page). */
  private async withReturns(scope: Scope, rows: readonly ShipmentRow[]): Promise<Shipment[]> {
    const byOutbound = new Map<string, ReturnSummary[]>();
    for (const r of await repo.returnsOf(
      this.deps.db,
      scope,
      rows.filter((row) => !row.is_return).map((row) => row.id),
    )) {
      const list = byOutbound.get(r.return_of!) ?? [];
      list.push(toReturnSummary(r));
      byOutbound.set(r.return_of!, list);
    }
    const writeBacks = await this.writeBacksOf(
      scope,
      rows.map((row) => row.id),
    );
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
        details: quote.messages.map((m) => ({
          field: m.option === 'parcels' ? 'parcels' : `options.${m.option === 'adult_signature' ? 'signature' : m.option}`,
          option: m.option,
          service_code: m.service_code,
          message: m.message,
        })),
      });
    }
    const { selection, option } = await this.rules.select(ctx, factsOfOrder(order, quote.residential), quote, { rules: code === AUTO });
    const carrier = carriers.byServiceCode(option.service_code)!;
    return {
      carrier,
      serviceCode: option.service_code,
      account: await this.gateway.accountForPurchase(ctx, carrier.slug, option.carrier_account_id ?? undefined),
      selection,
    };
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
      {
        carriers: await this.carriers,
        sources: await this.gateway.rateSources(ctx),
        now: this.deps.now(),
        requestId: ctx.requestId,
        ...(location ? { origin: location } : {}),
      },
    ).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'validation_failed')
        throw new AppError('address_undeliverable', "The order's addresses cannot be shipped to or from.", { details: err.details });
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
    const location = await this.locations.originFor(scope, order.location_id ?? undefined);
    if (location) return { address: location.address as unknown as ShipmentAddress, location };
    const from = await findWorkspaceOrigin(this.deps.db, scope.workspaceId);
    if (!from || typeof from.country !== 'string') {
      throw new AppError('missing_ship_from', 'The order has no ship_from and the workspace no location or origin address (POST /v1/locations).');
    }
    return { address: from as unknown as ShipmentAddress, location: null };
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
   * only while the carrier allows it (before its first scan), else 409 (shipments.void.ts).
   */
  async voidShipment(ctx: ServiceContext, id: string, action: 'shipment.voided' | 'shipment.cancelled' = 'shipment.voided'): Promise<Shipment> {
    const before = await this.tracking.refresh(await this.findOrThrow(ctx, id));
    return (await this.withReturns(ctx, [await voidLabel(this.changeDeps, ctx, before, action)]))[0];
  }

  /** Admin force-delivery (shipments.void.ts). */
  async forceDelivery(ctx: ServiceContext, id: string): Promise<Shipment> {
    return (await this.withReturns(ctx, [await markDelivered(this.changeDeps, ctx, id)]))[0];
  }

  private get changeDeps(): ChangeDeps {
    return { deps: this.deps, carriers: this.carriers, gateway: this.gateway, tracking: this.tracking, refunds: this.refunds };
  }

  /**
   * What a merged file of these shipments is made from, from one read of them (a batch's file
   * reads 10,000): `own_files` when any label was issued by a real carrier (its own artifact, not
   * ours to redraw) or, with `documents`, any PDF label carries customs documents after its page;
   * else what each package's label prints, in the order given (the reference is the order id).
   * Ids of another scope or of no shipment are left out.
   */
  async mergeSources(scope: Scope, ids: readonly string[], documents: boolean): Promise<{ own_files: true } | { own_files: false; data: LabelData[] }> {
    const found = await repo.findShipmentsByIds(this.deps.db, scope, ids);
    if (found.some(issuedByCarrier) || (documents && (await this.customsDocuments.anyHaveDocuments(scope, found)))) return { own_files: true };
    const rows = new Map(found.map((r) => [r.id, r]));
    const carriers = await this.carriers;
    const data = ids.flatMap((id) => {
      const r = rows.get(id);
      return r ? packageLabelData(r, carriers.get(r.carrier), r.order_id) : [];
    });
    return { own_files: false, data };
  }

  /**
   * The label file: the stored artifact, or with `format` another rendering (made on demand
   * from the stored shipment, then kept beside the original so the next read is a read).
   */
  async label(scope: Scope, id: string, format?: LabelFormatCode): Promise<LabelFile> {
    const row = await this.findOrThrow(scope, id);
    const file = await this.labelFiles.file(scope, row, format);
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
    await this.tracking.refreshOnRequest(ctx, lookupOf(idOrNumber));
    return this.getTracking(ctx, idOrNumber);
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

  /** For tests and the shipment's own checks. */
  isDue(row: ShipmentRow): boolean {
    return isDue(row, this.deps.now());
  }

  scopeOf(row: ShipmentRow): Scope {
    return scopeOf(row);
  }
}
