import { isDeepStrictEqual } from 'node:util';
import type { AliasableExpression, ExpressionBuilder, Updateable } from 'kysely';
import { AppError, validationError, type ErrorDetail } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { VersionedReads } from '../../platform/cache/versioned-reads.js';
import type { Deps } from '../../platform/deps.js';
import type { Actor, Scope, ServiceContext } from '../../platform/context.js';
import type { Executor, Tables } from '../../platform/db/types.js';
import type { Page } from '../../platform/http/pagination.js';
import { writeAudit } from '../audit/index.js';
import type { SettingsService } from '../settings/index.js';
import { checkShippingAddress, normalizeCountry, type AddressInput } from '../addresses/index.js';
import { withDefaults } from '../customs/index.js';
import { checkOptions } from '../shipment-options/index.js';
import * as repo from './orders.repo.js';
import type { Order, OrderCounts, OrderCountsFilter, OrderExportFilter, OrderInput, OrderListFilter, OrderPatch } from './orders.schemas.js';
import { toQueryFilter } from './orders.filter.js';
import { DEFAULT_ORDER_SORT, paginateOrders, sortOrders } from './orders.sort.js';
import { assertEditable, nextStatus, ORDER_MOVES, ORDER_STATUSES, type OrderMove } from './orders.states.js';
import { FALLBACK_BOX, deriveParcel, isParcelDerived, itemsWeightOz, needsBox, type Box } from './orders.parcel.js';

/** The location an order ships from: the named one (404 when not the scope's), else the default one (null: none). */
export interface LocationResolver {
  locationIdFor(scope: Scope, id: string | undefined, executor: Executor): Promise<string | null>;
}

/** Resolves `parcel: {package_id, weight_oz}` to the parcel it stands for (404 for an unknown package). */
export interface PackageResolver {
  resolveParcel(scope: Scope, parcel: { package_id: string; weight_oz: number }, field: string, executor: Executor): Promise<StoredParcel>;
}
import type { NeedsReview, OrderRow, OrdersTable, ParcelInput, StoredAddress, StoredLineItem, StoredParcel } from './orders.tables.js';

/** One version of a store's order, mapped to our order fields (the integrations module maps it). */
export interface ChannelOrderVersion {
  external_id: string;
  external_number: string | null;
  /** The platform's updated_at (ISO): versions are ordered by it. */
  version: string;
  /** In one of the integration's import statuses (only such an order is created). */
  importable: boolean;
  cancelled: boolean;
  order: Pick<OrderInput, 'customer' | 'ship_to' | 'requested_service'> & { line_items: (OrderInput['line_items'][number] & { external_line_id?: string })[] };
}

export interface ChannelApplyResult {
  decision: 'created' | 'updated' | 'unchanged' | 'stale' | 'skipped_status' | 'needs_review';
  /** Order field paths that changed (or would have, for needs_review). */
  changes: string[];
  order: Order | null;
  needsReview?: NeedsReview;
}
import { toOrder, type OrderAttachments } from './orders.wire.js';
import { parseInstant } from '../../platform/http/wire.js';

export { parseInstant };

/** Orders created through /v1 carry this source; intake uses the integration id. */
export const API_SOURCE = 'api';

const ADDRESS_FIELDS = ['name', 'company', 'street1', 'street2', 'city', 'state', 'postal_code', 'country', 'phone', 'email'] as const;

/** The ten address fields, verbatim (unknown keys dropped); the country as its upper-case code. */
export function toStoredAddress(address: AddressInput): StoredAddress {
  const out: StoredAddress = {};
  for (const field of ADDRESS_FIELDS) {
    const value = (address as Record<string, unknown>)[field];
    if (typeof value === 'string') out[field] = value;
  }
  if (out.country !== undefined) out.country = normalizeCountry(out.country) ?? out.country;
  return out;
}

function toStoredLineItems(items: OrderInput['line_items']): StoredLineItem[] {
  return items.map((item) => ({
    sku: item.sku ?? null,
    name: item.name ?? null,
    quantity: item.quantity,
    unit_price: item.unit_price ? { amount: item.unit_price.amount, currency: item.unit_price.currency } : null,
    weight_oz: item.weight_oz ?? null,
    ...(item.hs_tariff_number != null ? { hs_tariff_number: item.hs_tariff_number } : {}),
  }));
}

const blank = (v: string | null | undefined) => v == null || v.trim() === '';

/** Domain checks the schema cannot express, with one detail per field. */
export function checkOrderContent(
  input: Partial<Pick<OrderInput, 'ship_to' | 'ship_from' | 'location_id' | 'line_items' | 'external_id' | 'options'>>,
): ErrorDetail[] {
  const details: ErrorDetail[] = checkOptions(input.options);
  if (input.location_id !== undefined && input.ship_from) details.push({ field: 'location_id', message: 'give location_id or ship_from, not both' });
  if (input.external_id != null && blank(input.external_id)) details.push({ field: 'external_id', message: 'must not be blank' });
  if (input.ship_to) details.push(...checkShippingAddress(input.ship_to, 'ship_to'));
  if (input.ship_from) details.push(...checkShippingAddress(input.ship_from, 'ship_from'));
  if (input.line_items) {
    let currency: { value: string; index: number } | undefined;
    input.line_items.forEach((item, i) => {
      if (blank(item.sku) && blank(item.name)) details.push({ field: `line_items[${i}].sku`, message: 'a line item needs a sku or a name' });
      if (item.unit_price) {
        if (!currency) currency = { value: item.unit_price.currency, index: i };
        else if (item.unit_price.currency !== currency.value) {
          details.push({
            field: `line_items[${i}].unit_price.currency`,
            message: `must be the order's currency ${currency.value} (as in line_items[${currency.index}])`,
          });
        }
      }
    });
  }
  return details;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * checkOrderContent on a body of any shape (the schema refused it): only the parts that have
 * the right shape are checked, so the answer can name every bad field at once.
 */
export function checkOrderBody(body: unknown): ErrorDetail[] {
  if (!isObject(body)) return [];
  const input: Parameters<typeof checkOrderContent>[0] = {};
  if (isObject(body.ship_to)) input.ship_to = body.ship_to as never;
  if (isObject(body.ship_from)) input.ship_from = body.ship_from as never;
  if (typeof body.location_id === 'string') input.location_id = body.location_id;
  if (typeof body.external_id === 'string') input.external_id = body.external_id;
  if (isObject(body.options)) input.options = body.options as never;
  if (Array.isArray(body.line_items)) {
    // Only items whose sku/name/unit_price have the right types (or are absent).
    const wellFormed = body.line_items.every(
      (item) =>
        isObject(item) &&
        (item.sku == null || typeof item.sku === 'string') &&
        (item.name == null || typeof item.name === 'string') &&
        (item.unit_price == null || (isObject(item.unit_price) && typeof item.unit_price.currency === 'string')),
    );
    if (wellFormed) input.line_items = body.line_items as never;
  }
  return [...checkOrderContent(input), ...checkPiecesChoice(body)];
}

/** `parcel` or `parcels` (a multi-piece order), not both; any value (a body the schema refused too). */
export function checkPiecesChoice(input: unknown): ErrorDetail[] {
  if (!isObject(input) || input.parcel == null || input.parcels == null) return [];
  return [{ field: 'parcels', message: 'give parcel or parcels, not both' }];
}

interface OrderFieldChange {
  from: unknown;
  to: unknown;
}

/** Timestamps a move sets. */
function moveTimestamps(move: OrderMove, now: Date): Updateable<OrdersTable> {
  switch (move) {
    case 'process':
      return { processed_at: now };
    case 'purchase_label':
      return { shipped_at: now };
    case 'void_label':
      return { shipped_at: null };
    case 'deliver':
      return { delivered_at: now };
    case 'cancel':
      return { cancelled_at: now };
  }
}

/** Where an order came from: `api` or an integration, and its ids there. */
export interface OrderOrigin {
  source: string;
  external_id: string | null;
  external_line_ids: string[];
}

function originOf(row: OrderRow): OrderOrigin {
  return {
    source: row.source,
    external_id: row.external_id,
    external_line_ids: row.line_items.flatMap((l) => (l.external_line_id ? [l.external_line_id] : [])),
  };
}

/**
 * The origins of the orders a transaction moved (moveOrder), by order id: a label purchase moves
 * its order, then its event's hooks ask where that order came from (the channels' write-back),
 * in the same transaction. A move changes none of these fields, so the hook is answered without
 * reading the row again (a round trip per label in a batch). Kept per transaction object, so
 * it ends with the transaction.
 */
const movedOrigins = new WeakMap<Executor, Map<string, OrderOrigin>>();

/** Where an order came from (`api` or an integration) and its id there: read in the caller's transaction. */
export async function orderOrigin(executor: Executor, scope: Scope, orderId: string): Promise<OrderOrigin | undefined> {
  const moved = movedOrigins.get(executor)?.get(orderId);
  if (moved) return moved;
  const row = await repo.findOrder(executor, scope, orderId);
  return row ? originOf(row) : undefined;
}

/**
 * Apply a state-machine move to an order inside the caller's transaction (shipments and
 * tracking call this with their own change): 404 when the order is not in scope, 409
 * invalid_state naming the current state and the allowed moves when the move is illegal.
 * One statement when the move is allowed: the update itself checks the status under the row's
 * lock (a concurrent move that committed first makes it miss), and the row is read only to say
 * why it missed. Returns the order as moved.
 */
export async function moveOrder(executor: Executor, scope: Scope, orderId: string, move: OrderMove, now: Date): Promise<OrderRow> {
  const { from, to } = ORDER_MOVES[move];
  const after = await repo.updateOrderForMove(executor, scope, orderId, { status: to, ...moveTimestamps(move, now), updated_at: now }, from);
  if (after) {
    if (executor.isTransaction) {
      let origins = movedOrigins.get(executor);
      if (!origins) movedOrigins.set(executor, (origins = new Map()));
      origins.set(orderId, originOf(after));
    }
    return after;
  }
  const current = await repo.findOrder(executor, scope, orderId);
  if (!current) throw new AppError('not_found', 'No such order.');
  nextStatus(current.status, move);
  // The status allows the move again: it changed between the update and this read.
  throw new AppError('conflict', 'The order changed concurrently; retry.', { retryable: true });
}

/**
 * Summaries another module attaches to orders (shipments, office PINs), since orders cannot
 * import the modules that build on it. `forOrders` answers a page of orders in one query.
 * `json` is the same rows as a JSON array subquery correlated with the `orders` row (on its
 * id, workspace_id and environment; no parameters of its own), so the single-order read
 * fetches the order and every summary in one round trip (each query is a protocol
 * round trip on PostgreSQL and ~0.6 ms of CPU in the embedded engine); `decode` turns that
 * array into the summary, exactly as `forOrders` does for its rows.
 */
export interface AttachmentsProvider {
  name: string;
  forOrders(executor: Executor, scope: Scope, orderIds: readonly string[], opts: { reveal: boolean }): Promise<Map<string, OrderAttachments>>;
  json(eb: ExpressionBuilder<Tables, 'orders'>): AliasableExpression<unknown>;
  /** The version of the rows `json` reads (e.g. their ids and `xmin`s as one text; null for none). */
  version(eb: ExpressionBuilder<Tables, 'orders'>): AliasableExpression<string | null>;
  decode(rows: unknown[], opts: { reveal: boolean }): OrderAttachments;
  /** Until when (epoch ms) what `decode` made of these rows holds, when it follows the clock. */
  holdsUntil?(rows: unknown[]): number;
}

/**
 * Whether an answer shows whole office PINs: only a session (the admin dashboard) reading one
 * order. Lists, /v1 keys and integrations see the last four digits (a leaked API key must not
 * leak redeemable PINs).
 */
function revealsPins(scope: Scope & { actor?: Actor }): boolean {
  return scope.actor?.type === 'account';
}

/**
 * What a module that builds on orders adds to them, registered once in the app's composition
 * (src/compose.ts): its summaries on the order read, and its reaction to order moves.
 */
export interface OrderExtension {
  attachments?: AttachmentsProvider;
  /**
   * Runs in the transaction of a move, after the status changed and before the audit entry is
   * written; what it returns is added to that entry's changes (a throw rolls the move back).
   */
  onMove?(executor: Executor, move: OrderMove, order: OrderRow): Promise<Record<string, unknown>>;
}

/** A kept order read: the order, and its JSON text once a route has sent it. */
interface KeptOrder {
  order: Order;
  json?: string;
}

export class OrdersService {
  private readonly attachmentProviders: AttachmentsProvider[] = [];
  private readonly moveReactions: NonNullable<OrderExtension['onMove']>[] = [];
  private readonly withAttachments = repo.orderWithAttachments(() => this.attachmentProviders);
  /** Order reads kept until the order or its attachments move (see readOrder); shared, never mutated. */
  private readonly keptReads = new VersionedReads<KeptOrder>(2_000, () => this.deps.now().getTime());

  /**
   * `places` resolves `parcel.package_id` and `location_id` (the packages and locations modules,
   * handed in by src/compose.ts): orders are a leaf module and import none that builds on them.
   */
  constructor(
    private readonly deps: Deps,
    private readonly settings: SettingsService,
    places: { packages: PackageResolver; locations: LocationResolver },
  ) {
    this.#packages = places.packages;
    this.#locations = places.locations;
  }

  /**
   * A module that builds on orders (shipments, office-redeem) registers here, once, when the app
   * is composed: before any request (the single-order read compiles its query with every
   * provider at its first call).
   */
  extend(extension: OrderExtension): void {
    if (extension.attachments) this.attachmentProviders.push(extension.attachments);
    if (extension.onMove) this.moveReactions.push(extension.onMove);
  }

  /** Rows on the wire, with every provider's summaries: one query per kind for the whole page. */
  private async present(executor: Executor, scope: Scope, rows: OrderRow[], reveal = false): Promise<Order[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const merged = new Map<string, OrderAttachments>();
    for (const provider of this.attachmentProviders) {
      for (const [id, att] of await provider.forOrders(executor, scope, ids, { reveal })) merged.set(id, { ...merged.get(id), ...att });
    }
    return rows.map((r) => toOrder(r, { office_pins: [], ...merged.get(r.id) }));
  }

  private async presentOne(executor: Executor, scope: Scope & { actor?: Actor }, row: OrderRow): Promise<Order> {
    return (await this.present(executor, scope, [row], revealsPins(scope)))[0];
  }

  /**
   * The box used for missing parcel dimensions (setting `orders.default_box`). Read through
   * `executor` (the caller's open transaction: PGlite has one connection, so reading through
   * the root handle inside a transaction would wait for it forever).
   */
  async defaultBox(executor: Executor = this.deps.db): Promise<Box> {
    return this.settings.get('orders.default_box', executor);
  }

  readonly #packages: PackageResolver;
  readonly #locations: LocationResolver;

  /** An order with no address of its own ships from the named location, else the default one. */
  private async locationFor(executor: Executor, scope: Scope, id: string | undefined): Promise<string | null> {
    return this.#locations.locationIdFor(scope, id, executor);
  }

  private async parcelFor(executor: Executor, input: ParcelInput | null, items: StoredLineItem[], scope?: Scope) {
    return this.pieceFor(executor, input, items, scope, 'parcel');
  }

  /** A parcel (or one piece of a multi-piece order, named by `field` in errors) resolved. */
  private async pieceFor(executor: Executor, input: ParcelInput | null, items: StoredLineItem[], scope: Scope | undefined, field: string) {
    if (input?.package_id !== undefined && scope) {
      const given = (['length_in', 'width_in', 'height_in'] as const).filter((d) => input[d] !== undefined);
      if (given.length) throw validationError(given.map((d) => ({ field: `${field}.${d}`, message: 'give package_id or the dimensions, not both' })));
      const weight = input.weight_oz ?? itemsWeightOz(items);
      if (!(weight > 0)) throw validationError([{ field: `${field}.weight_oz`, message: 'is required with package_id when the line items carry no weight' }]);
      return this.#packages.resolveParcel(scope, { package_id: input.package_id, weight_oz: weight }, field, executor);
    }
    return deriveParcel(input, items, needsBox(input) ? await this.defaultBox(executor) : FALLBACK_BOX).parcel;
  }

  /** A multi-piece order's pieces, each resolved as a parcel is (every piece carries its weight). */
  private async parcelsFor(executor: Executor, inputs: readonly ParcelInput[], items: StoredLineItem[], scope?: Scope): Promise<StoredParcel[]> {
    const out: StoredParcel[] = [];
    for (const [i, input] of inputs.entries()) out.push(await this.pieceFor(executor, input, items, scope, `parcels[${i}]`));
    return out;
  }

  /**
   * Create an order, or, when `external_id` is already known for this source, update it while
   * it is open (awaiting_fulfillment or processing; else 409 invalid_state). `created` tells
   * the route whether to answer 201 or 200. Fields absent from an update keep their values.
   * `inTransaction` runs inside the write's transaction with the result (a batch marks its item
   * done there, so the order and the mark commit together or not at all).
   */
  async upsertOrder(
    scope: Scope,
    source: string,
    input: OrderInput,
    inTransaction?: (trx: Executor, result: { order: Order; created: boolean }) => Promise<void>,
  ): Promise<{ order: Order; created: boolean }> {
    const details = [...checkOrderContent(input), ...checkPiecesChoice(input)];
    if (details.length) throw validationError(details);
    const now = this.deps.now();
    const lineItems = toStoredLineItems(input.line_items);
    const pieces = input.parcels ? await this.parcelsFor(this.deps.db, input.parcels, lineItems, scope) : null;
    const parcelInput = input.parcels?.[0] ?? input.parcel ?? null;
    const row = {
      id: newId('order'),
      workspace_id: scope.workspaceId,
      environment: scope.environment,
      source,
      external_id: input.external_id ?? null,
      status: 'awaiting_fulfillment' as const,
      customer_name: input.customer?.name ?? null,
      customer_email: input.customer?.email ?? null,
      customer_phone: input.customer?.phone ?? null,
      ship_to: JSON.stringify(toStoredAddress(input.ship_to)),
      ship_from: input.ship_from ? JSON.stringify(toStoredAddress(input.ship_from)) : null,
      location_id: input.ship_from ? null : await this.locationFor(this.deps.db, scope, input.location_id),
      line_items: JSON.stringify(lineItems),
      parcel: JSON.stringify(pieces ? pieces[0] : await this.parcelFor(this.deps.db, parcelInput, lineItems, scope)),
      parcel_input: parcelInput ? JSON.stringify(parcelInput) : null,
      parcels: pieces ? JSON.stringify(pieces) : null,
      requested_service: input.requested_service ?? null,
      customs: input.customs ? JSON.stringify(withDefaults(input.customs)) : null,
      options: input.options ? JSON.stringify(input.options) : null,
      notes: input.notes ?? null,
      created_at: now,
      updated_at: now,
    };
    const externalId = input.external_id;
    // The API's plain create stays one statement (no transaction): the hot path of POST /v1/orders.
    if (externalId == null && !inTransaction) return { order: toOrder(await repo.insertOrder(this.deps.db, row)), created: true };

    const { external_id: _ignored, ...patch } = input;
    return this.deps.db.transaction().execute(async (trx) => {
      const done = async (result: { order: Order; created: boolean }) => {
        if (inTransaction) await inTransaction(trx, result);
        return result;
      };
      if (externalId == null) return done({ order: toOrder(await repo.insertOrder(trx, row)), created: true });
      // Twice at most: a concurrent creator of the same external id wins the insert, then we update.
      for (let attempt = 0; attempt < 2; attempt++) {
        const existing = await repo.findOrderByExternalId(trx, scope, source, externalId, { forUpdate: true });
        if (existing) {
          assertEditable(existing.status);
          const { set } = await this.applyPatch(trx, existing, patch, now);
          const updated = set ? await repo.updateOrder(trx, scope, existing.id, set) : existing;
          return done({ order: await this.presentOne(trx, scope, updated ?? existing), created: false });
        }
        const inserted = await repo.insertOrderUnlessExternalIdExists(trx, row);
        if (inserted) return done({ order: toOrder(inserted), created: true });
      }
      throw new AppError('conflict', 'The order was changed concurrently; retry.', { retryable: true });
    });
  }

  /**
   * Apply one version of a store's order (docs/channels.md), inside the caller's transaction: the
   * single step that webhooks, reconciliation and manual syncs all converge on. One order per
   * platform order whatever arrives twice, late or out of order: a version older than or equal
   * to the applied one changes nothing (`stale`). A new order is imported only in an importable
   * status; an edit applies while the order is open, after a label it flags `needs_review`;
   * a cancellation cancels an open order and flags one with a live label (never a silent void).
   */
  async applyChannelVersion(executor: Executor, scope: Scope, source: string, incoming: ChannelOrderVersion): Promise<ChannelApplyResult> {
    const now = this.deps.now();
    const lineItems = toStoredLineItems(incoming.order.line_items).map((line, i) => ({
      ...line,
      external_line_id: incoming.order.line_items[i].external_line_id,
    }));
    for (let attempt = 0; attempt < 2; attempt++) {
      const existing = await repo.findOrderByExternalId(executor, scope, source, incoming.external_id, { forUpdate: true });
      if (existing) return this.applyToExisting(executor, scope, existing, incoming, lineItems, now);
      if (!incoming.importable) return { decision: 'skipped_status', changes: [], order: null };
      const inserted = await repo.insertOrderUnlessExternalIdExists(executor, {
        id: newId('order'),
        workspace_id: scope.workspaceId,
        environment: scope.environment,
        source,
        external_id: incoming.external_id,
        external_number: incoming.external_number,
        channel_version: incoming.version,
        status: 'awaiting_fulfillment',
        customer_name: incoming.order.customer?.name ?? null,
        customer_email: incoming.order.customer?.email ?? null,
        customer_phone: incoming.order.customer?.phone ?? null,
        ship_to: JSON.stringify(toStoredAddress(incoming.order.ship_to)),
        ship_from: null,
        location_id: await this.locationFor(executor, scope, undefined),
        line_items: JSON.stringify(lineItems),
        parcel: JSON.stringify(await this.parcelFor(executor, null, lineItems)),
        parcel_input: null,
        requested_service: incoming.order.requested_service ?? null,
        customs: null,
        notes: null,
        created_at: now,
        updated_at: now,
      });
      // Lost the insert to a concurrent apply of the same order: read it and compare versions.
      if (inserted) return { decision: 'created', changes: [], order: toOrder(inserted) };
    }
    throw new AppError('conflict', 'The order was changed concurrently; retry.', { retryable: true });
  }

  private async applyToExisting(
    executor: Executor,
    scope: Scope,
    row: OrderRow,
    incoming: ChannelOrderVersion,
    lineItems: StoredLineItem[],
    now: Date,
  ): Promise<ChannelApplyResult> {
    if (row.channel_version && Date.parse(incoming.version) <= Date.parse(row.channel_version)) return { decision: 'stale', changes: [], order: toOrder(row) };
    const stamp: Updateable<OrdersTable> = { channel_version: incoming.version, external_number: incoming.external_number };
    const open = row.status === 'awaiting_fulfillment' || row.status === 'processing';
    const labelled = row.status === 'shipped' || row.status === 'delivered';
    const review = async (reason: NeedsReview['reason'], changes: string[]): Promise<ChannelApplyResult> => {
      const needsReview: NeedsReview = { reason, changes, at: now.toISOString() };
      const updated = await repo.updateOrder(executor, scope, row.id, { ...stamp, needs_review: JSON.stringify(needsReview), updated_at: now });
      return { decision: 'needs_review', changes, order: toOrder(updated!), needsReview };
    };
    if (incoming.cancelled) {
      if (open) {
        const after = await moveOrder(executor, scope, row.id, 'cancel', now);
        const updated = await repo.updateOrder(executor, scope, row.id, stamp);
        return { decision: 'updated', changes: ['status'], order: toOrder(updated ?? after) };
      }
      if (labelled && row.needs_review?.reason !== 'cancelled_on_channel') return review('cancelled_on_channel', ['status']);
      await repo.updateOrder(executor, scope, row.id, stamp);
      return { decision: 'unchanged', changes: [], order: toOrder(row) };
    }
    const patch: OrderPatch = {
      customer: incoming.order.customer,
      ship_to: incoming.order.ship_to,
      line_items: incoming.order.line_items,
      requested_service: incoming.order.requested_service ?? null,
    };
    const { set, changes } = await this.applyPatch(
      executor,
      { ...row, line_items: row.line_items.map(({ external_line_id: _id, ...line }) => line) },
      patch,
      now,
    );
    const changed = Object.keys(changes).filter((field) => field !== 'parcel_derived');
    if (!set || changed.length === 0) {
      await repo.updateOrder(executor, scope, row.id, stamp);
      return { decision: 'unchanged', changes: [], order: toOrder(row) };
    }
    if (!open) return labelled ? review('edited_after_label', changed) : { decision: 'unchanged', changes: [], order: toOrder(row) };
    const updated = await repo.updateOrder(executor, scope, row.id, { ...set, ...stamp, line_items: JSON.stringify(lineItems) });
    return { decision: 'updated', changes: changed, order: toOrder(updated!) };
  }

  /** The columns a patch changes and the audit `changes` ({field: {from, to}}); set is null when nothing changes. */
  private async applyPatch(
    executor: Executor,
    row: OrderRow,
    patch: OrderPatch,
    now: Date,
  ): Promise<{ set: Updateable<OrdersTable> | null; changes: Record<string, OrderFieldChange> }> {
    const before = toOrder(row);
    const set: Updateable<OrdersTable> = {};
    const changes: Record<string, OrderFieldChange> = {};
    // Deep equality, not JSON text: jsonb gives keys back in its own order.
    const note = (field: string, from: unknown, to: unknown) => {
      if (!isDeepStrictEqual(from, to)) changes[field] = { from, to };
    };

    if (patch.customer) {
      const customer = {
        name: patch.customer.name === undefined ? row.customer_name : patch.customer.name,
        email: patch.customer.email === undefined ? row.customer_email : patch.customer.email,
        phone: patch.customer.phone === undefined ? row.customer_phone : patch.customer.phone,
      };
      note('customer', before.customer, customer);
      Object.assign(set, { customer_name: customer.name, customer_email: customer.email, customer_phone: customer.phone });
    }
    if (patch.ship_to) {
      const shipTo = toStoredAddress(patch.ship_to);
      note('ship_to', before.ship_to, shipTo);
      set.ship_to = JSON.stringify(shipTo);
    }
    if (patch.ship_from !== undefined) {
      const shipFrom = patch.ship_from ? toStoredAddress(patch.ship_from) : null;
      note('ship_from', before.ship_from, shipFrom);
      set.ship_from = shipFrom ? JSON.stringify(shipFrom) : null;
    }
    // location_id and ship_from stand for each other: a location clears the address, an address
    // clears the location, and `ship_from: null` goes back to the default location.
    if (patch.location_id !== undefined || patch.ship_from !== undefined) {
      const locationId = patch.ship_from
        ? null
        : await this.locationFor(executor, { workspaceId: row.workspace_id, environment: row.environment }, patch.location_id);
      note('location_id', row.location_id, locationId);
      set.location_id = locationId;
      if (patch.location_id !== undefined && row.ship_from) {
        note('ship_from', before.ship_from, null);
        set.ship_from = null;
      }
    }
    let lineItems = row.line_items;
    if (patch.line_items) {
      lineItems = toStoredLineItems(patch.line_items);
      note('line_items', before.line_items, lineItems);
      set.line_items = JSON.stringify(lineItems);
    }
    let parcelInput = row.parcel_input ?? null;
    if (patch.parcel !== undefined) {
      parcelInput = patch.parcel ?? null;
      set.parcel_input = parcelInput ? JSON.stringify(parcelInput) : null;
    }
    // Pieces given replace the parcel (the first piece is `parcel`); a parcel given (or null)
    // ends a multi-piece order; otherwise its pieces stay as they were.
    const scope = { workspaceId: row.workspace_id, environment: row.environment };
    if (patch.parcels) {
      const pieces = await this.parcelsFor(executor, patch.parcels, lineItems, scope);
      note('parcels', before.parcels, pieces);
      note('parcel', before.parcel, pieces[0]);
      parcelInput = patch.parcels[0]!;
      Object.assign(set, { parcels: JSON.stringify(pieces), parcel: JSON.stringify(pieces[0]), parcel_input: JSON.stringify(parcelInput) });
    } else if ((patch.parcels === null || patch.parcel !== undefined) && row.parcels) {
      note('parcels', before.parcels, null);
      set.parcels = null;
    }
    if (!patch.parcels && (patch.parcel !== undefined || ((patch.parcels === null || !row.parcels) && patch.line_items))) {
      const parcel = await this.parcelFor(executor, parcelInput, lineItems, scope);
      note('parcel', before.parcel, parcel);
      note('parcel_derived', before.parcel_derived, isParcelDerived(parcelInput));
      set.parcel = JSON.stringify(parcel);
    }
    if (patch.requested_service !== undefined) {
      note('requested_service', row.requested_service, patch.requested_service);
      set.requested_service = patch.requested_service;
    }
    if (patch.customs !== undefined) {
      const customs = patch.customs ? withDefaults(patch.customs) : null;
      note('customs', before.customs, customs);
      set.customs = customs ? JSON.stringify(customs) : null;
    }
    if (patch.options !== undefined) {
      note('options', row.options ?? null, patch.options ?? null);
      set.options = patch.options ? JSON.stringify(patch.options) : null;
    }
    if (patch.notes !== undefined) {
      note('notes', row.notes, patch.notes);
      set.notes = patch.notes;
    }
    if (
      Object.keys(changes).length === 0 &&
      (patch.parcel === undefined || JSON.stringify(parcelInput) === JSON.stringify(row.parcel_input ?? null)) &&
      !patch.parcels
    ) {
      return { set: null, changes };
    }
    set.updated_at = now;
    return { set, changes };
  }

  /**
   * One order of the scope (optionally only one source's: intake reads its own orders only).
   * `attachments: false` skips the other modules' summaries (a caller that only needs the order).
   */
  async getOrder(scope: Scope & { actor?: Actor }, id: string, opts: { source?: string; attachments?: boolean } = {}): Promise<Order> {
    if (opts.source === undefined && opts.attachments !== false) return (await this.readOrder(scope, id)).order;
    const row = await repo.findOrder(this.deps.db, scope, id, { source: opts.source });
    if (!row) throw new AppError('not_found', 'No such order.');
    return opts.attachments === false ? toOrder(row) : this.presentOne(this.deps.db, scope, row);
  }

  /**
   * The order read's JSON text, made by `serialize` (the route's own serializer) once per kept
   * answer: a repeated read is sent as the text it was the first time.
   */
  async getOrderJson(scope: Scope & { actor?: Actor }, id: string, serialize: (order: Order) => string): Promise<string> {
    const kept = await this.readOrder(scope, id);
    return (kept.json ??= serialize(kept.order));
  }

  /**
   * The order read (GET /v1/orders/:id), kept per order until it or its attachments move
   * (docs/architecture.md, "Kept reads"): stores, dashboards and scripts poll an order far more
   * often than it changes, and the full read (the row with its attachments as JSON, then the
   * wire shape and its text) costs more than the version's narrow read.
   */
  private async readOrder(scope: Scope & { actor?: Actor }, id: string): Promise<KeptOrder> {
    const reveal = revealsPins(scope);
    const key = `${scope.workspaceId}|${scope.environment}|${id}|${reveal}`;
    const version = await this.withAttachments.version(this.deps.db, scope, id);
    if (version === undefined) throw new AppError('not_found', 'No such order.');
    const kept = this.keptReads.get(key, version);
    if (kept) return kept;
    const found = await this.withAttachments.find(this.deps.db, scope, id);
    if (!found) throw new AppError('not_found', 'No such order.');
    const attachments: OrderAttachments = { office_pins: [] };
    let until = Infinity;
    this.attachmentProviders.forEach((p, i) => {
      Object.assign(attachments, p.decode(found.attachments[i], { reveal }));
      until = Math.min(until, p.holdsUntil?.(found.attachments[i]) ?? Infinity);
    });
    const read: KeptOrder = { order: toOrder(found.row, attachments) };
    this.keptReads.set(key, version, read, until);
    return read;
  }

  /** Newest first unless sorted otherwise, cursor paginated; archived orders only when asked for. */
  async listOrders(scope: Scope, filter: OrderListFilter): Promise<Page<Order>> {
    const query = repo.ordersQuery(this.deps.db, scope, toQueryFilter(filter));
    const page = await paginateOrders(query, filter.sort ?? DEFAULT_ORDER_SORT, { limit: filter.limit, cursor: filter.cursor });
    return { ...page, data: await this.present(this.deps.db, scope, page.data) };
  }

  /** The queue's tabs: the list's filters but the status, counted per status (every status, zeros too). */
  async countOrders(scope: Scope, filter: OrderCountsFilter): Promise<OrderCounts> {
    // A status the query string carries (the list's, sent as is) is not a filter here.
    const found = await repo.countOrdersByStatus(this.deps.db, scope, toQueryFilter({ ...filter, status: undefined }));
    const data = ORDER_STATUSES.map((status) => ({ status, count: found.find((f) => f.status === status)?.count ?? 0 }));
    return { data, total: data.reduce((n, s) => n + s.count, 0) };
  }

  /**
   * The list's orders in its sort, up to `max` rows (the rows as stored: an export carries no
   * attachments); `truncated` when more matched.
   */
  async exportOrders(scope: Scope, filter: OrderExportFilter, max: number): Promise<{ rows: OrderRow[]; truncated: boolean }> {
    const query = sortOrders(repo.ordersQuery(this.deps.db, scope, toQueryFilter(filter)), filter.sort ?? DEFAULT_ORDER_SORT);
    const rows = (await query.limit(max + 1).execute()) as OrderRow[];
    return { rows: rows.slice(0, max), truncated: rows.length > max };
  }

  /** Admin edit of an open order (409 invalid_state once shipped, delivered or cancelled); audited. */
  async updateOrder(ctx: ServiceContext, id: string, patch: OrderPatch): Promise<Order> {
    const details = [...checkOrderContent(patch), ...checkPiecesChoice(patch)];
    if (details.length) throw validationError(details);
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await repo.findOrder(trx, ctx, id, { forUpdate: true });
      if (!row) throw new AppError('not_found', 'No such order.');
      assertEditable(row.status);
      const now = this.deps.now();
      const { set, changes } = await this.applyPatch(trx, row, patch, now);
      if (!set) return this.presentOne(trx, ctx, row);
      const updated = (await repo.updateOrder(trx, ctx, id, set))!;
      await writeAudit(trx, ctx.actor, ctx, {
        action: 'order.updated',
        targetType: 'order',
        targetId: id,
        workspaceId: ctx.workspaceId,
        environment: ctx.environment,
        changes,
      });
      return this.presentOne(trx, ctx, updated);
    });
  }

  /**
   * awaiting_fulfillment → processing. The extensions react in the same transaction (office
   * redeem issues one PIN per unit of a line item whose SKU maps to an Office product).
   * `inTransaction` runs in that transaction too, with the processed order (a batch's item mark).
   */
  async processOrder(ctx: ServiceContext, id: string, inTransaction?: (trx: Executor, order: Order) => Promise<void>): Promise<Order> {
    return this.move(ctx, id, 'process', 'order.processed', inTransaction);
  }

  /** Any state before shipped → cancelled. */
  async cancelOrder(ctx: ServiceContext, id: string): Promise<Order> {
    return this.move(ctx, id, 'cancel', 'order.cancelled');
  }

  private async move(
    ctx: ServiceContext,
    id: string,
    move: OrderMove,
    action: string,
    inTransaction?: (trx: Executor, order: Order) => Promise<void>,
  ): Promise<Order> {
    return this.deps.db.transaction().execute(async (trx) => {
      // The status it moves from, for the audit entry (locked: nothing moves it in between).
      const before = await repo.findOrder(trx, ctx, id, { forUpdate: true });
      if (!before) throw new AppError('not_found', 'No such order.');
      const after = await moveOrder(trx, ctx, id, move, this.deps.now());
      const extra: Record<string, unknown> = {};
      for (const react of this.moveReactions) Object.assign(extra, await react(trx, move, after));
      await writeAudit(trx, ctx.actor, ctx, {
        action,
        targetType: 'order',
        targetId: id,
        workspaceId: ctx.workspaceId,
        environment: ctx.environment,
        changes: { status: { from: before.status, to: after.status }, ...extra },
      });
      const order = await this.presentOne(trx, ctx, after);
      if (inTransaction) await inTransaction(trx, order);
      return order;
    });
  }

  /**
   * Archive or unarchive (a flag beside the state, allowed in every state). Idempotent: an
   * order already in the wanted state is returned as it is, with no audit entry.
   */
  async setArchived(ctx: ServiceContext, id: string, archived: boolean): Promise<Order> {
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await repo.findOrder(trx, ctx, id, { forUpdate: true });
      if (!row) throw new AppError('not_found', 'No such order.');
      if (row.archived === archived) return this.presentOne(trx, ctx, row);
      const now = this.deps.now();
      const updated = (await repo.updateOrder(trx, ctx, id, { archived, archived_at: archived ? now : null, updated_at: now }))!;
      await writeAudit(trx, ctx.actor, ctx, {
        action: archived ? 'order.archived' : 'order.unarchived',
        targetType: 'order',
        targetId: id,
        workspaceId: ctx.workspaceId,
        environment: ctx.environment,
        changes: { archived: { from: row.archived, to: archived } },
      });
      return this.presentOne(trx, ctx, updated);
    });
  }
}
