import { isDeepStrictEqual } from 'node:util';
import type { CarrierDefinition, CustomsDeclaration, ShipmentOptions } from '../../carriers/types.js';
import { assertOptionsOffered, assertParcelsTaken, DEFAULT_OPTIONS, resolveOptions, type ShipmentOptionsInput } from '../shipment-options/index.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Deps } from '../../platform/deps.js';
import type { Scope, ServiceContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db/types.js';
import { convertCarrierLabels } from '../labels/index.js';
import type { CarrierDriver, CarrierLabelImage, LabelArtifact, PurchaseAnswer } from '../../carriers/driver.js';
import { foreignPackaging } from '../../carriers/api-packaging.js';
import type { CarrierAccountRow, CarrierGateway } from '../carrier-accounts/index.js';
import { writeAudit } from '../audit/index.js';
import { recordEvent } from '../events/index.js';
import type { SettingsService } from '../settings/index.js';
import { moveOrder, nextStatus, type Order } from '../orders/index.js';
import type { Selection } from '../shipping-rules/index.js';
import {
  checkCustoms,
  customsInvalid,
  customsRequired,
  deriveCustoms,
  requiresCustoms,
  returnCustoms,
  withDefaults,
  type CustomsInput,
} from '../customs/index.js';
import { prepareLane, toRateOption, type PreparedLane, type SourcedRate } from '../rates/index.js';
import * as repo from './shipments.repo.js';
import { LABEL_FORMAT_CODES, type LabelFormatCode, type Shipment } from './shipments.schemas.js';
import { packageLabelData, type LabelRenderer } from './shipments.labels.js';
import type { StoredPackage } from './shipments.packages.js';
import { storeCarrierDocuments } from './shipments.documents.js';
import { parseTimeScale, sandboxOptions, sandboxScenario, TIME_SCALE_SETTING } from './shipments.sandbox.js';
import { checkDestination, type AddressValidationMode, type CheckedDestination } from './shipments.address-check.js';
import type { NewShipmentRow, ShipmentAddress, ShipmentRow, StoredRate } from './shipments.tables.js';
import type { FirstScan, TrackingSync } from './shipments.tracking.js';
import { labelUrl, toShipment } from './shipments.wire.js';
import { returnColumns, type ReturnSpec } from './shipments.returns.js';
import type { ShipmentOrigin } from './shipments.origin.js';

/** What a label purchase settled before calling the carrier (see LabelPurchase.buy). */
interface PurchasePlan {
  id: string;
  now: Date;
  carrier: CarrierDefinition;
  /** The carrier account that sells the label (simulated or the carrier's API). */
  account: CarrierAccountRow;
  /** The account's driver (the gateway's), simulated or the carrier's API. */
  driver: CarrierDriver;
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
export interface PurchaseOptions {
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
export interface PurchaseChoice {
  carrier: CarrierDefinition;
  serviceCode: string;
  account: CarrierAccountRow;
  selection?: Selection;
}

/**
 * The carrier's sale: its tracking number, the rate it charged, and what its driver answered:
 * the shipment id and, from a carrier that issues label images, the labels (already stored in
 * carrier_labels when this exists).
 */
interface CarrierSale {
  tracking_number: string;
  rate: SourcedRate;
  issued: PurchaseAnswer;
  /** The carrier issued its own label images (a real carrier); else the platform draws them. */
  imaged: boolean;
}

/**
 * The label purchase (docs/architecture.md, "Inside a module"): every way a label is bought (a
 * purchase, `generate`, a batch item, a return) ends here, in one saga.
 */
export class LabelPurchase {
  constructor(
    private readonly deps: Deps,
    private readonly settings: SettingsService,
    private readonly gateway: CarrierGateway,
    private readonly renderer: LabelRenderer,
    private readonly tracking: TrackingSync,
    /** Where an order ships from (its address, its location, or the workspace origin). */
    private readonly originOf: (scope: Scope, order: Order) => Promise<ShipmentOrigin>,
  ) {}

  private get baseUrl(): string {
    return this.deps.config.publicBaseUrl;
  }

  /** `sandbox.tracking_time_scale` (cached by the settings module, in force everywhere within 2 s). */
  private async timeScale(): Promise<number> {
    return parseTimeScale(await this.settings.get(TIME_SCALE_SETTING));
  }

  /**
   * The label purchase, as the saga it is: `planPurchase` checks and prepares everything that
   * needs no outside world; `purchaseFromCarrier` is the one step with an effect outside our
   * database (the carrier sells the label); `persistPurchase` renders the label and commits
   * the order move, the shipment, its label, first scan, event and audit in one transaction.
   * If anything after the carrier's sale fails, `compensatePurchase` voids the label again.
   */
  async buy(
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
        details: [
          { field: 'parcel', message: 'has no weight: set the parcel first (PATCH /api/admin/orders/{id} {parcel}, or parcel.weight_oz on the order)' },
        ],
      });
    }
    const { address: shipFrom, location } = await this.originOf(ctx, order);
    const driver = this.gateway.driverOf(account);
    if (!driver || !carrier.capabilities.purchase) throw new AppError('unprocessable', `${carrier.name} does not sell labels.`);
    const destination = await checkDestination(
      options.addressValidation ?? (await this.settings.get('shipments.address_validation')),
      order.ship_to as ShipmentAddress,
      {
        scope: ctx,
        account,
        validators: this.gateway,
        usesCarrier: this.gateway.validatesAddresses(account),
        requestId: ctx.requestId,
      },
    );
    const shipTo = destination.shipTo;
    const now = this.deps.now();
    let lane: PreparedLane;
    try {
      // A location dates the label on its own clock and cut-off, as its rate queries do.
      lane = prepareLane(
        {
          ship_from: { ...shipFrom, postal_code: shipFrom.postal_code ?? '' },
          ship_to: { ...shipTo, postal_code: shipTo.postal_code ?? '', country: shipTo.country ?? '' },
        },
        now,
        [],
        location ?? undefined,
      );
    } catch (err) {
      if (err instanceof AppError && err.code === 'validation_failed') {
        throw new AppError('address_undeliverable', "The order's addresses cannot be shipped to or from.", { details: err.details });
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
    return {
      id: newId('shipment'),
      now,
      carrier,
      account,
      driver,
      serviceCode,
      format,
      shipFrom,
      locationId: location?.id ?? null,
      lane,
      sandbox,
      selection: choice.selection ?? null,
      destination,
      returning: options.returning ?? null,
      customs,
      options: shipmentOptions,
    };
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
    // Another carrier's packaging: the carrier is not asked.
    const foreign = foreignPackaging(carrier.name, request.parcels ?? [request.parcel], carrier.packages);
    if (foreign) throw new AppError('no_rates', foreign, { details: [{ field: 'parcel.package_id', message: foreign }] });
    const labelImage = plan.driver.labelImage?.(plan.format) ?? DEFAULT_LABEL_IMAGES[plan.format];
    const issued = await this.gateway.call(ctx, plan.account, ctx.requestId, (d, c) => d.purchase(c, { ...request, label_image: labelImage }));
    const sale: CarrierSale = { tracking_number: issued.tracking_number, rate: issued.rate ?? unpricedRate(plan), issued, imaged: issued.label !== null };
    if (sale.imaged) await this.keepCarrierLabels(ctx, plan, sale);
    return sale;
  }

  /**
   * The labels a carrier issued are stored before anything else can fail: if even that write
   * fails, the label is voided at once (a label that cost money is never lost silently).
   */
  private async keepCarrierLabels(ctx: ServiceContext, plan: PurchasePlan, sale: CarrierSale): Promise<void> {
    const { issued } = sale;
    try {
      // One row per package (a multi-piece shipment's labels, the master first), as issued.
      for (const pkg of imagedPackages(issued)) {
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
    const numbers = issuedPackages(sale.issued).map((p) => p.tracking_number);
    const pieces = piecesOf(order);
    const packages: StoredPackage[] | null =
      pieces.length > 1 ? pieces.map((parcel, i) => ({ tracking_number: numbers[i] ?? sale.tracking_number, parcel, tracking_status: 'pre_transit' })) : null;
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
    const label = sale.imaged
      ? await convertCarrierLabels(
          imagedPackages(sale.issued).map((p) => ({ format: p.label.format, bytes: p.label.bytes })),
          format,
        )
      : await this.renderer.renderPackageLabels(
          packageLabelData({ ...draft, carrier_driver: 'simulated', status: 'label_purchased' }, carrier, order.external_id ?? order.id),
          format,
        );
    // A driver in process plays the first scan at once; a real carrier is asked by the poll job,
    // never on a read: first when a scan can be there. (Settled before the transaction: with the
    // embedded database, a read outside it would wait.)
    const inProcess = plan.driver.inProcess === true;
    const firstCheck = inProcess ? now : await this.tracking.nextApiCheck('pre_transit', now, now);

    const values: NewShipmentRow = {
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
      carrier_shipment_id: sale.imaged ? sale.issued.carrier_shipment_id : null,
      carrier_label_format: sale.issued.label?.format ?? null,
      ...(plan.returning ? returnColumns(plan.returning) : {}),
      created_at: now,
      updated_at: now,
    };
    // The first scan (label created; everything at once for SANDBOX:delivered) from a driver in
    // process is worked out now and inserted with the row: one statement, not an insert and an
    // update. A return keeps the update (its billing columns have defaults of the database's).
    const first =
      inProcess && !plan.returning
        ? await this.tracking.firstScan(
            {
              ...values,
              rate,
              parcel: order.parcel,
              ship_from: shipFrom,
              ship_to: destination.shipTo,
              sandbox,
              packages,
              expected_milestones: {},
              is_return: false,
            } as unknown as ShipmentRow,
            now,
          )
        : null;

    return this.deps.db.transaction().execute(async (trx) => {
      if (!plan.returning) await moveOrder(trx, ctx, order.id, 'purchase_label', now);
      const labelRow = label
        ? {
            shipment_id: id,
            format,
            workspace_id: ctx.workspaceId,
            environment: ctx.environment,
            content_type: label.content_type,
            body: label.body,
            created_at: now,
          }
        : null;
      // The shipment, its label and its first scan's events: one statement.
      let row = await repo.insertShipmentWith(trx, first ? { ...values, ...first.patch } : values, labelRow, first?.events ?? []);
      // The shipment as the label left it, before its first scan: what the purchase's event and
      // the caller's own step see (as when the scan was a second statement).
      const bought: ShipmentRow = first ? { ...row, ...labelState(values, first) } : row;
      if (sale.imaged) await repo.setCarrierLabelStatus(trx, id, 'kept', now);
      // Documents the carrier issued with the label (DHL Express's invoice…), kept as received.
      if (sale.issued.documents?.length) await storeCarrierDocuments(trx, ctx, id, sale.issued.documents, now);
      const shipment = toShipment(bought, this.baseUrl);
      if (inTransaction) await inTransaction(trx, shipment);
      await recordEvent(trx, ctx, 'shipment.label_purchased', {
        shipment,
        label_url: shipment.label.url,
        label_urls: Object.fromEntries(LABEL_FORMAT_CODES.map((f) => [f, labelUrl(this.baseUrl, id, f)])),
      });
      if (first) await this.tracking.recordFirstScan(trx, row, bought.status, first, now);
      // A return's first scan from a driver in process (label created), or a real carrier's label-created event.
      else row = inProcess ? await this.tracking.syncLocked(trx, row, now) : await this.tracking.recordLabelCreated(trx, row, now);
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
    const { issued } = sale;
    // Every package of a multi-piece sale is voided.
    const outcome = await this.gateway
      .call(ctx, plan.account, ctx.requestId, (d, c) =>
        d.void(c, {
          carrier_shipment_id: issued.carrier_shipment_id,
          tracking_numbers: issuedPackages(issued).map((p) => p.tracking_number),
          service_code: plan.serviceCode,
          purchased_at: plan.now.toISOString(),
          now: this.deps.now().toISOString(),
          sandbox: plan.sandbox ?? undefined,
        }),
      )
      .then(
        () => 'compensated' as const,
        (err: unknown) => {
          this.deps.log.error(
            { err, tracking_number: sale.tracking_number, carrier_account_id: plan.account.id },
            'could not void an unrecorded carrier label',
          );
          return 'void_failed' as const;
        },
      );
    if (sale.imaged)
      await repo
        .setCarrierLabelStatus(this.deps.db, plan.id, outcome, this.deps.now())
        .catch((err: unknown) => this.deps.log.error({ err, shipment_id: plan.id }, 'could not mark an unrecorded carrier label'));
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
  const checked = checkCustoms(declaration, {
    origin_country: lane.ship_from.country,
    destination_country: lane.ship_to.country,
    parcel_weight_oz: piecesOf(order).reduce((sum, p) => sum + p.weight_oz, 0),
  });
  if (!checked.ok) throw customsInvalid(checked.details);
  return checked.declaration;
}

/**
 * The columns a first scan set, as they were before it (the row's own values as inserted
 * without it; JSON columns parsed, as the database returns them).
 */
function labelState(values: NewShipmentRow, first: FirstScan): Partial<ShipmentRow> {
  const before: Record<string, unknown> = {};
  for (const key of Object.keys(first.patch) as (keyof NewShipmentRow)[]) {
    const value = values[key];
    before[key] = JSON_COLUMNS.has(key) && typeof value === 'string' ? JSON.parse(value) : (value ?? null);
  }
  return before as Partial<ShipmentRow>;
}
const JSON_COLUMNS = new Set<string>(['packages', 'expected_milestones']);

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

/** Every piece an order ships as (a multi-piece order's `parcels`, else its one parcel). */
export function piecesOf(order: Order): Order['parcel'][] {
  return order.parcels && order.parcels.length > 1 ? order.parcels : [order.parcel];
}

/** The order's options as the carriers see them (every key; defaults where none were given). */
export function orderOptions(order: Order): ShipmentOptions {
  return (order.options as ShipmentOptions | undefined) ?? DEFAULT_OPTIONS;
}

/** Nothing asked beyond the defaults. */
export function isDefault(options: ShipmentOptions): boolean {
  return isDeepStrictEqual(resolveOptions(null, options), DEFAULT_OPTIONS);
}

/** A carrier's packages as issued (a driver that gave none stands for its one label). */
function issuedPackages(issued: PurchaseAnswer): PurchaseAnswer['packages'] {
  return issued.packages.length > 0 ? issued.packages : [{ tracking_number: issued.tracking_number, label: issued.label }];
}

/** The packages whose label image the carrier issued (all of them, or none from a simulated driver). */
function imagedPackages(issued: PurchaseAnswer): { tracking_number: string; label: LabelArtifact }[] {
  return issuedPackages(issued).flatMap((p) => (p.label ? [{ tracking_number: p.tracking_number, label: p.label }] : []));
}
