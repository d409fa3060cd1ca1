import type { Executor } from '../../platform/db/types.js';
import './settings.tables.js';

/** The stored value of a setting, or undefined when it has never been set (default applies). */
export async function findSettingValue(db: Executor, key: string): Promise<unknown> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

export async function findSettingRows(db: Executor) {
  return db.selectFrom('settings').select(['key', 'value', 'updated_at', 'updated_by']).execute();
}

export async function upsertSetting(db: Executor, key: string, valueJson: string, updatedBy: string | null) {
  return db
    .insertInto('settings')
    .values({ key, value: valueJson, updated_at: new Date(), updated_by: updatedBy })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: valueJson, updated_at: new Date(), updated_by: updatedBy }))
    .returning(['key', 'value', 'updated_at', 'updated_by'])
    .executeTakeFirst();
}
