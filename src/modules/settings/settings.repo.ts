import type { Executor } from '../../platform/db/types.js';
import './settings.tables.js';

/** The stored value of a setting, or undefined when it has never been set (default applies). */
export async function findSettingValue(db: Executor, key: string): Promise<unknown> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}
