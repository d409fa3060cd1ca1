import { sql, type ExpressionBuilder } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Executor, Tables } from '../../platform/db/types.js';
import type { OfficePinRow, OfficePinsTable, OfficeProduct } from './office-redeem.tables.js';
import type { Insertable } from 'kysely';
import './office-redeem.tables.js';

/** Insert unless the PIN digits (a 1-in-10^16 collision) or the order unit already exist. */
export async function insertPin(db: Executor, row: Insertable<OfficePinsTable>): Promise<OfficePinRow | undefined> {
  return db
    .insertInto('office_pins')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function findPinByUnit(db: Executor, orderId: string, lineIndex: number, unitIndex: number): Promise<OfficePinRow | undefined> {
  return db
    .selectFrom('office_pins')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('line_index', '=', lineIndex)
    .where('unit_index', '=', unitIndex)
    .executeTakeFirst();
}

/** A PIN by its 16 digits or its pin_ id. */
export async function findPin(db: Executor, pinOrId: string, opts: { forUpdate?: boolean } = {}): Promise<OfficePinRow | undefined> {
  let q = db
    .selectFrom('office_pins')
    .selectAll()
    .where(pinOrId.startsWith('pin_') ? 'id' : 'pin', '=', pinOrId);
  if (opts.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** Count a lookup and read the PIN in one statement (undefined when it does not exist). */
export async function countLookup(db: Executor, pin: string, now: Date): Promise<OfficePinRow | undefined> {
  return db
    .updateTable('office_pins')
    .set((eb) => ({ lookup_count: eb('lookup_count', '+', 1), last_lookup_at: now }))
    .where('pin', '=', pin)
    .returningAll()
    .executeTakeFirst();
}

export async function updatePin(db: Executor, id: string, set: Partial<Pick<OfficePinRow, 'status' | 'expires_at' | 'revoked_at' | 'renewed_at'>>, now: Date) {
  return db
    .updateTable('office_pins')
    .set({ ...set, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function pinsForOrders(db: Executor, orderIds: readonly string[]): Promise<OfficePinRow[]> {
  if (orderIds.length === 0) return [];
  return db.selectFrom('office_pins').selectAll().where('order_id', 'in', orderIds).orderBy('line_index').orderBy('unit_index').execute();
}

/** The same rows for the order of the enclosing select, as a JSON array (timestamps as text). */
export function pinsOfOrderJson(eb: ExpressionBuilder<Tables, 'orders'>) {
  return jsonArrayFrom(
    eb.selectFrom('office_pins').selectAll('office_pins').whereRef('office_pins.order_id', '=', 'orders.id').orderBy('line_index').orderBy('unit_index'),
  );
}

/** The version of what pinsOfOrderJson reads: each PIN's id and row version (`xmin`). */
export function pinsOfOrderVersion(eb: ExpressionBuilder<Tables, 'orders'>) {
  return eb
    .selectFrom('office_pins')
    .select(sql<string | null>`string_agg(office_pins.id || ':' || office_pins.xmin::text, ',' order by office_pins.id)`.as('version'))
    .whereRef('office_pins.order_id', '=', 'orders.id')
    .$asScalar();
}

export interface PinListFilter {
  status?: 'active' | 'expired' | 'revoked';
  product?: OfficeProduct;
  digits?: string;
  test?: boolean;
  limit: number;
  offset: number;
}

/** The super-admin list: newest first, offset paginated with a total (the spec's shape). */
export async function listPins(db: Executor, filter: PinListFilter, now: Date): Promise<{ rows: OfficePinRow[]; total: number }> {
  let q = db.selectFrom('office_pins');
  if (filter.status === 'revoked') q = q.where('status', '=', 'revoked');
  if (filter.status === 'active') q = q.where('status', '=', 'active').where('expires_at', '>', now);
  if (filter.status === 'expired') q = q.where('status', '=', 'active').where('expires_at', '<=', now);
  if (filter.product) q = q.where('product', '=', filter.product);
  if (filter.test !== undefined) q = q.where('test', '=', filter.test);
  if (filter.digits) q = q.where('pin', 'like', `%${filter.digits}%`);
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute(),
    q.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export async function findConfig(db: Executor, product: OfficeProduct) {
  return db.selectFrom('office_redeem_config').selectAll().where('product', '=', product).executeTakeFirst();
}

export async function upsertConfig(db: Executor, product: OfficeProduct, value: Record<string, unknown>, updatedBy: string | null, now: Date) {
  const json = JSON.stringify(value);
  return db
    .insertInto('office_redeem_config')
    .values({ product, value: json, updated_at: now, updated_by: updatedBy })
    .onConflict((oc) => oc.column('product').doUpdateSet({ value: json, updated_at: now, updated_by: updatedBy }))
    .returningAll()
    .executeTakeFirstOrThrow();
}
