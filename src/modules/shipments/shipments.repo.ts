import { sql, type ExpressionBuilder, type Insertable, type Updateable } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Executor, Tables } from '../../platform/db/types.js';
import { inScope } from '../../platform/db/scope.js';
import { precompiled } from '../../platform/db/precompiled.js';
import { nameStatement } from '../../platform/db/database.js';
import type { Scope } from '../../platform/context.js';
import type { TrackingStatus } from '../../carriers/types.js';
import type { ShipmentStatus } from './shipments.states.js';
import type { CarrierLabelsTable, NewShipmentRow, NewTrackingEventRow, ShipmentRow, ShipmentsTable, TrackingEventRow } from './shipments.tables.js';
import './shipments.tables.js';

// Every function that serves a tenant takes the scope (workspace + environment) first and
// filters on it; only public tracking and the poll job look across tenants, by design.

export async function insertShipment(db: Executor, row: NewShipmentRow): Promise<ShipmentRow> {
  return db.insertInto('shipments').values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * A new shipment with its rendered label and its first tracking events, in one statement (a
 * label purchase: one round trip, not three). The rows are new, so nothing conflicts; the
 * events' and the label's references to the shipment are checked at the statement's end, when
 * it exists.
 */
export async function insertShipmentWith(
  db: Executor,
  row: NewShipmentRow,
  label: NewLabelRow | null,
  events: readonly NewTrackingEventRow[],
): Promise<ShipmentRow> {
  if (!label && events.length === 0) return insertShipment(db, row);
  let q = db.with('shipment', (qc) => qc.insertInto('shipments').values(row).returningAll());
  if (label) q = q.with('label', (qc) => qc.insertInto('shipment_labels').values(label).returning('shipment_id')) as unknown as typeof q;
  if (events.length > 0)
    q = q.with('scans', (qc) =>
      qc
        .insertInto('tracking_events')
        .values([...events])
        .returning('id'),
    ) as unknown as typeof q;
  const compiled = q.selectFrom('shipment').selectAll().compile();
  nameShape(compiled.sql);
  const [inserted] = (await db.executeQuery(compiled)).rows as ShipmentRow[];
  if (!inserted) throw new Error('the shipment insert returned no row');
  return inserted;
}

/**
 * The purchase's insert as a named prepared statement, per shape (its text depends on which
 * columns are set, a label or not, how many first scans): a batch sends the same few shapes
 * thousands of times, each parsed and planned per label before (see nameStatement). The first
 * MAX_NAMED_SHAPES shapes of the process are named; a rarer one runs unnamed, as before.
 */
const namedShapes = new Set<string>();
const MAX_NAMED_SHAPES = 16;
function nameShape(text: string): void {
  if (namedShapes.has(text) || namedShapes.size >= MAX_NAMED_SHAPES) return;
  namedShapes.add(text);
  nameStatement(text, `shipments.insert_with.${namedShapes.size}`);
}

export async function findShipment(db: Executor, scope: Scope, id: string, opts: { forUpdate?: boolean } = {}): Promise<ShipmentRow | undefined> {
  let q = db.selectFrom('shipments').selectAll().where(inScope(scope)).where('id', '=', id);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

/**
 * The tracking read in one statement: the shipment (by id or tracking number, in the scope) with
 * its events as a JSON array beside it, newest first (timestamps as text). Two round trips were
 * half of the read's cost (as for the order read).
 */
export async function findShipmentWithEvents(
  db: Executor,
  scope: Scope,
  by: { id: string } | { trackingNumber: string },
): Promise<{ row: ShipmentRow; events: TrackingEventRow[] } | undefined> {
  const values = { workspaceId: scope.workspaceId, environment: scope.environment };
  const [found] =
    'id' in by ? await selectTrackingById(db, { ...values, id: by.id }) : await selectTrackingByNumber(db, { ...values, trackingNumber: by.trackingNumber });
  return found && withEventDates(found);
}

/** The same for public tracking: any tenant's shipment with this number (numbers embed a random serial per shipment). */
export async function findShipmentWithEventsAnywhere(
  db: Executor,
  trackingNumber: string,
): Promise<{ row: ShipmentRow; events: TrackingEventRow[] } | undefined> {
  const [found] = await selectTrackingAnywhere(db, { trackingNumber });
  return found && withEventDates(found);
}

type WithEventsJson = Awaited<ReturnType<typeof selectTrackingById>>[number];

function withEventDates(found: WithEventsJson): { row: ShipmentRow; events: TrackingEventRow[] } {
  const { tracking_events: events, ...row } = found;
  // JSON carries the event timestamps as text; rows elsewhere carry Dates.
  return { row, events: events.map((e) => ({ ...e, occurred_at: new Date(e.occurred_at), created_at: new Date(e.created_at) })) };
}

function eventsOfShipmentJson(eb: ExpressionBuilder<Tables, 'shipments'>) {
  return jsonArrayFrom(
    eb
      .selectFrom('tracking_events')
      .selectAll('tracking_events')
      .whereRef('tracking_events.shipment_id', '=', 'shipments.id')
      .orderBy('tracking_events.occurred_at', 'desc')
      .orderBy('tracking_events.seq', 'desc'),
  );
}

/** Shipments with their events as a JSON array column, `tracking_events`. */
function withEventsJson(db: Executor) {
  return db
    .selectFrom('shipments')
    .selectAll('shipments')
    .select((eb) => eventsOfShipmentJson(eb).as('tracking_events'));
}

const scopeOfValues = (v: Record<string, unknown>): Scope => ({ workspaceId: v.workspaceId as string, environment: v.environment as Scope['environment'] });

const selectTrackingById = precompiled(
  ['workspaceId', 'environment', 'id'],
  (db, v) =>
    withEventsJson(db)
      .where(inScope(scopeOfValues(v)))
      .where('shipments.id', '=', v.id as string),
  { statement: 'shipments.tracking_by_id' },
);

const selectTrackingByNumber = precompiled(
  ['workspaceId', 'environment', 'trackingNumber'],
  (db, v) =>
    withEventsJson(db)
      .where(inScope(scopeOfValues(v)))
      .where('shipments.tracking_number', '=', v.trackingNumber as string)
      .orderBy('shipments.created_at', 'desc')
      // A literal, not a parameter: a precompiled statement binds only the named values.
      .limit(sql.lit(1)),
  { statement: 'shipments.tracking_by_number' },
);

const selectTrackingAnywhere = precompiled(
  ['trackingNumber'],
  (db, v) =>
    withEventsJson(db)
      .where('shipments.tracking_number', '=', v.trackingNumber as string)
      .orderBy('shipments.created_at', 'desc')
      .limit(sql.lit(1)),
  { statement: 'shipments.tracking_anywhere' },
);

/**
 * What tells whether a cached tracking read still holds (shipments.tracking-reads.ts): the row's
 * `xmin`, which every update of the row moves (insertTrackingEvents touches the row of each new
 * event, so events move it too), and what says a scan is due. One narrow indexed read.
 */
export interface TrackingVersion {
  id: string;
  version: string;
  status: ShipmentStatus;
  next_check_at: Date | null;
  carrier: string;
  carrier_driver: ShipmentRow['carrier_driver'];
  carrier_account_id: string | null;
}

function versionOf(db: Executor) {
  return db
    .selectFrom('shipments')
    .select([
      'shipments.id',
      'shipments.status',
      'shipments.next_check_at',
      'shipments.carrier',
      'shipments.carrier_driver',
      'shipments.carrier_account_id',
      sql<string>`shipments.xmin::text`.as('version'),
    ]);
}

const selectVersionById = precompiled(
  ['workspaceId', 'environment', 'id'],
  (db, v) =>
    versionOf(db)
      .where(inScope(scopeOfValues(v)))
      .where('shipments.id', '=', v.id as string),
  {
    statement: 'shipments.tracking_version_by_id',
  },
);

// Ordered as the full reads above, so the version is of the row they return.
const selectVersionByNumber = precompiled(
  ['workspaceId', 'environment', 'trackingNumber'],
  (db, v) =>
    versionOf(db)
      .where(inScope(scopeOfValues(v)))
      .where('shipments.tracking_number', '=', v.trackingNumber as string)
      .orderBy('shipments.created_at', 'desc')
      .limit(sql.lit(1)),
  { statement: 'shipments.tracking_version_by_number' },
);

const selectVersionAnywhere = precompiled(
  ['trackingNumber'],
  (db, v) =>
    versionOf(db)
      .where('shipments.tracking_number', '=', v.trackingNumber as string)
      .orderBy('shipments.created_at', 'desc')
      .limit(sql.lit(1)),
  { statement: 'shipments.tracking_version_anywhere' },
);

export async function trackingVersion(
  db: Executor,
  scope: Scope | null,
  by: { id: string } | { trackingNumber: string },
): Promise<TrackingVersion | undefined> {
  if (!scope) return 'trackingNumber' in by ? (await selectVersionAnywhere(db, { trackingNumber: by.trackingNumber }))[0] : undefined;
  const values = { workspaceId: scope.workspaceId, environment: scope.environment };
  const [found] =
    'id' in by ? await selectVersionById(db, { ...values, id: by.id }) : await selectVersionByNumber(db, { ...values, trackingNumber: by.trackingNumber });
  return found;
}

/**
 * A shipment one of whose packages carries this number (a multi-piece shipment's later package),
 * in the scope, or anywhere for public tracking (scope null). Containment on the packages column
 * (its GIN index, migration 0023) so a miss costs an index probe, not a scan of the scope.
 */
export async function findShipmentWithEventsByPackage(
  db: Executor,
  scope: Scope | null,
  trackingNumber: string,
): Promise<{ row: ShipmentRow; events: TrackingEventRow[] } | undefined> {
  let q = withEventsJson(db).where(sql<boolean>`shipments.packages @> ${JSON.stringify([{ tracking_number: trackingNumber }])}::jsonb`);
  if (scope) q = q.where(inScope(scope));
  const found = await q.orderBy('shipments.created_at', 'desc').limit(1).executeTakeFirst();
  return found && withEventDates(found);
}

/** By id alone, unlocked: the poll job reads a due row it found across tenants. */
export async function shipmentById(db: Executor, id: string): Promise<ShipmentRow | undefined> {
  return db.selectFrom('shipments').selectAll().where('id', '=', id).executeTakeFirst();
}

/** By id alone, locked: the tracking sync re-reads a row it found through a scoped or public lookup. */
export async function lockShipment(db: Executor, id: string): Promise<ShipmentRow | undefined> {
  return db.selectFrom('shipments').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function updateShipment(db: Executor, id: string, patch: Updateable<ShipmentsTable>): Promise<ShipmentRow> {
  return db.updateTable('shipments').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Shipments of these orders, oldest first (the order's summaries). */
export async function shipmentsOfOrders(db: Executor, scope: Scope, orderIds: readonly string[]) {
  if (orderIds.length === 0) return [];
  return db
    .selectFrom('shipments')
    .select(['id', 'order_id', 'carrier', 'service_code', 'tracking_number', 'status', 'created_at'])
    .where(inScope(scope))
    .where('order_id', 'in', [...orderIds])
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

/** The same summaries for the order of the enclosing select, as a JSON array (timestamps as text). */
export function shipmentsOfOrderJson(eb: ExpressionBuilder<Tables, 'orders'>) {
  return jsonArrayFrom(
    eb
      .selectFrom('shipments')
      .select([
        'shipments.id',
        'shipments.order_id',
        'shipments.carrier',
        'shipments.service_code',
        'shipments.tracking_number',
        'shipments.status',
        'shipments.created_at',
      ])
      .whereRef('shipments.workspace_id', '=', 'orders.workspace_id')
      .whereRef('shipments.environment', '=', 'orders.environment')
      .whereRef('shipments.order_id', '=', 'orders.id')
      .orderBy('shipments.created_at', 'asc')
      .orderBy('shipments.id', 'asc'),
  );
}

/** The version of what shipmentsOfOrderJson reads: each shipment's id and row version (`xmin`). */
export function shipmentsOfOrderVersion(eb: ExpressionBuilder<Tables, 'orders'>) {
  return eb
    .selectFrom('shipments')
    .select(sql<string | null>`string_agg(shipments.id || ':' || shipments.xmin::text, ',' order by shipments.id)`.as('version'))
    .whereRef('shipments.workspace_id', '=', 'orders.workspace_id')
    .whereRef('shipments.environment', '=', 'orders.environment')
    .whereRef('shipments.order_id', '=', 'orders.id')
    .$asScalar();
}

export async function countLiveShipmentsOfOrder(db: Executor, scope: Scope, orderId: string, exceptId: string): Promise<number> {
  const row = await db
    .selectFrom('shipments')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where(inScope(scope))
    .where('order_id', '=', orderId)
    .where('id', '!=', exceptId)
    .where('status', '!=', 'voided')
    // A return label never counts as the order's shipment.
    .where('is_return', '=', false)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The return labels of these outbound shipments, oldest first (each outbound's `returns`). */
export async function returnsOf(db: Executor, scope: Scope, outboundIds: readonly string[]) {
  if (outboundIds.length === 0) return [];
  return db
    .selectFrom('shipments')
    .select(['id', 'return_of', 'tracking_number', 'status', 'billing_status'])
    .where(inScope(scope))
    .where('return_of', 'in', [...outboundIds])
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

export interface ShipmentsQueryFilter {
  statuses?: ShipmentStatus[];
  carrier?: string;
  orderId?: string;
  trackingNumber?: string;
  locationId?: string;
  createdAfter?: Date;
  createdBefore?: Date;
}

export function shipmentsQuery(db: Executor, scope: Scope, filter: ShipmentsQueryFilter) {
  let q = db.selectFrom('shipments').selectAll().where(inScope(scope));
  if (filter.statuses?.length) q = q.where('status', 'in', filter.statuses);
  if (filter.carrier !== undefined) q = q.where('carrier', '=', filter.carrier);
  if (filter.orderId !== undefined) q = q.where('order_id', '=', filter.orderId);
  if (filter.trackingNumber !== undefined) q = q.where('tracking_number', '=', filter.trackingNumber);
  if (filter.locationId !== undefined) q = q.where('location_id', '=', filter.locationId);
  if (filter.createdAfter) q = q.where('created_at', '>=', filter.createdAfter);
  if (filter.createdBefore) q = q.where('created_at', '<', filter.createdBefore);
  return q;
}

/** Shipments whose next scan is due (the poll job), across tenants, oldest due first. */
export async function dueShipments(
  db: Executor,
  now: Date,
  limit: number,
): Promise<Pick<ShipmentRow, 'id' | 'carrier' | 'carrier_driver' | 'carrier_account_id'>[]> {
  return db
    .selectFrom('shipments')
    .select(['id', 'carrier', 'carrier_driver', 'carrier_account_id'])
    .where('next_check_at', '<=', now)
    .orderBy('next_check_at')
    .limit(limit)
    .execute();
}

// ---- labels ----

export interface NewLabelRow {
  shipment_id: string;
  format: string;
  workspace_id: string;
  environment: string;
  content_type: string;
  body: Buffer | Uint8Array;
  created_at: Date;
}

export async function insertLabel(db: Executor, row: NewLabelRow): Promise<void> {
  await db
    .insertInto('shipment_labels')
    .values(row)
    .onConflict((oc) => oc.columns(['shipment_id', 'format']).doNothing())
    .execute();
}

/** Forgets a shipment's rendered labels (a voided one renders again, marked VOID). */
export async function deleteLabels(db: Executor, shipmentId: string): Promise<void> {
  await db.deleteFrom('shipment_labels').where('shipment_id', '=', shipmentId).execute();
}

/** Several shipments of the scope by id (any order; missing and foreign ids are simply absent). */
export async function findShipmentsByIds(db: Executor, scope: Scope, ids: readonly string[]): Promise<ShipmentRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('shipments').selectAll().where(inScope(scope)).where('id', 'in', ids).execute();
}

export async function findLabel(db: Executor, scope: Scope, shipmentId: string, format: string) {
  return db
    .selectFrom('shipment_labels')
    .select(['content_type', 'body', 'created_at'])
    .where(inScope(scope))
    .where('shipment_id', '=', shipmentId)
    .where('format', '=', format)
    .executeTakeFirst();
}

// ---- customs documents ----

/** Keeps a document: a rendering is kept once (a concurrent render of the same bytes loses); a carrier's replaces what was there. */
export async function insertDocument(
  db: Executor,
  row: {
    shipment_id: string;
    type: string;
    workspace_id: string;
    environment: string;
    source: 'platform' | 'carrier';
    content_type: string;
    body: Buffer | Uint8Array;
    created_at: Date;
  },
): Promise<void> {
  await db
    .insertInto('shipment_documents')
    .values(row)
    .onConflict((oc) =>
      row.source === 'carrier'
        ? oc.columns(['shipment_id', 'type']).doUpdateSet({ source: 'carrier', content_type: row.content_type, body: row.body, created_at: row.created_at })
        : oc.columns(['shipment_id', 'type']).doNothing(),
    )
    .execute();
}

/** The documents kept for a shipment, without their bytes. */
export async function listDocuments(db: Executor, scope: Scope, shipmentId: string) {
  return db
    .selectFrom('shipment_documents')
    .select(['type', 'source', 'content_type'])
    .where(inScope(scope))
    .where('shipment_id', '=', shipmentId)
    .orderBy('created_at')
    .orderBy('type')
    .execute();
}

/** Whether any of these shipments has a kept document. */
export async function anyDocuments(db: Executor, scope: Scope, shipmentIds: readonly string[]): Promise<boolean> {
  if (shipmentIds.length === 0) return false;
  return (
    (await db
      .selectFrom('shipment_documents')
      .select('shipment_id')
      .where(inScope(scope))
      .where('shipment_id', 'in', shipmentIds)
      .limit(1)
      .executeTakeFirst()) !== undefined
  );
}

export async function findDocument(db: Executor, scope: Scope, shipmentId: string, type: string) {
  return db
    .selectFrom('shipment_documents')
    .select(['type', 'source', 'content_type', 'body'])
    .where(inScope(scope))
    .where('shipment_id', '=', shipmentId)
    .where('type', '=', type)
    .executeTakeFirst();
}

// ---- carrier labels (what a real carrier issued, as received) ----

export async function insertCarrierLabel(db: Executor, row: Insertable<CarrierLabelsTable>): Promise<void> {
  await db.insertInto('carrier_labels').values(row).execute();
}

export async function setCarrierLabelStatus(db: Executor, shipmentId: string, status: CarrierLabelsTable['status'], now: Date): Promise<void> {
  await db.updateTable('carrier_labels').set({ status, updated_at: now }).where('shipment_id', '=', shipmentId).execute();
}

/** The labels the carrier issued for a shipment we kept: one per package, in the order written (the master first). */
export async function findKeptCarrierLabels(db: Executor, scope: Scope, shipmentId: string) {
  return db
    .selectFrom('carrier_labels')
    .select(['format', 'content_type', 'body'])
    .where(inScope(scope))
    .where('shipment_id', '=', shipmentId)
    .where('status', '=', 'kept')
    .orderBy('id')
    .execute();
}

/** Claims the once-a-minute tracking refresh of a shipment: false when one ran within the minute. */
export async function claimTrackingRefresh(db: Executor, id: string, now: Date, spacingMs: number): Promise<boolean> {
  const claimed = await db
    .updateTable('shipments')
    .set({ tracking_refreshed_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('tracking_refreshed_at', 'is', null), eb('tracking_refreshed_at', '<=', new Date(now.getTime() - spacingMs))]))
    .returning('id')
    .executeTakeFirst();
  return claimed !== undefined;
}

// ---- tracking events ----

/** Insert events, dropping those already stored (same shipment and carrier event key); returns the new ones. */
export async function insertTrackingEvents(db: Executor, rows: NewTrackingEventRow[], opts: { rowWritten?: boolean } = {}): Promise<TrackingEventRow[]> {
  if (rows.length === 0) return [];
  const added = await db
    .insertInto('tracking_events')
    .values(rows)
    .onConflict((oc) => oc.columns(['shipment_id', 'event_key']).doNothing())
    .returningAll()
    .execute();
  // A new event moves its shipment's row version (trackingVersion), whatever else the caller
  // writes: cached tracking reads of it are then stale. Not when the caller writes the row in
  // the same transaction (`rowWritten`: inserted or updated there), which moves it already.
  const touched = [...new Set(added.map((e) => e.shipment_id))];
  if (touched.length > 0 && !opts.rowWritten)
    await db
      .updateTable('shipments')
      .set({ updated_at: sql`updated_at` })
      .where('id', 'in', touched)
      .execute();
  return added;
}

/** A shipment's events, newest first (ties in journey order, latest first). */
export async function eventsOfShipment(db: Executor, shipmentId: string): Promise<TrackingEventRow[]> {
  return db.selectFrom('tracking_events').selectAll().where('shipment_id', '=', shipmentId).orderBy('occurred_at', 'desc').orderBy('seq', 'desc').execute();
}

export async function maxEventSeq(db: Executor, shipmentId: string): Promise<number> {
  const row = await db
    .selectFrom('tracking_events')
    .select((eb) => eb.fn.max('seq').as('m'))
    .where('shipment_id', '=', shipmentId)
    .executeTakeFirst();
  return row?.m == null ? -1 : Number(row.m);
}

export interface TrackingEventsQueryFilter {
  since?: Date;
  trackingNumber?: string;
  statuses?: TrackingStatus[];
}

export function trackingEventsQuery(db: Executor, scope: Scope, filter: TrackingEventsQueryFilter) {
  let q = db.selectFrom('tracking_events').selectAll().where(inScope(scope));
  if (filter.since) q = q.where('occurred_at', '>=', filter.since);
  if (filter.trackingNumber !== undefined) q = q.where('tracking_number', '=', filter.trackingNumber);
  if (filter.statuses?.length) q = q.where('status', 'in', filter.statuses);
  return q;
}
