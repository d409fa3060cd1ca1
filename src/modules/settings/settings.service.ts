import type { Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { Deps } from '../../platform/deps.js';
import { onePerApp } from '../../platform/deps.js';
import type { Executor } from '../../platform/db/types.js';
import type { Actor, RequestMeta } from '../../platform/context.js';
import { AppError, notFound, validationError } from '../../platform/errors.js';
import { TtlCache } from '../../platform/cache/ttl-cache.js';
import { writeAudit } from '../audit/index.js';
import { isSettingKey, settingDefinitions, type SettingKey } from './settings.registry.js';
import { findSettingRows, findSettingValue, upsertSetting } from './settings.repo.js';
import type { SettingWire } from './settings.schemas.js';

const TOPIC = 'settings';

export type SettingValue<K extends SettingKey> = Static<(typeof settingDefinitions)[K]['schema']>;

/**
 * The one accessor for settings: values are cached in memory and dropped on the `settings`
 * invalidation topic (LISTEN/NOTIFY on PostgreSQL), so a change is in force on every process at
 * once; the short TTL only bounds how stale a process can be if a notification is ever lost.
 */
export class SettingsService {
  private readonly cache = new TtlCache<unknown>(2_000, 1_000);

  constructor(private readonly deps: Deps) {
    deps.bus.subscribe((topic) => {
      if (topic === TOPIC || topic === '*') this.cache.clear();
    });
  }

  /**
   * The value of a known setting, or its default. Pass `executor` when inside a transaction
   * (PGlite has one connection: reading through the root handle there would wait forever).
   */
  async get<K extends SettingKey>(key: K, executor: Executor = this.deps.db): Promise<SettingValue<K>> {
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit as SettingValue<K>;
    const stored = await findSettingValue(executor, key);
    // A stored value that no longer fits the schema (a schema tightened later) reads as the default.
    const value = stored !== undefined && Value.Check(settingDefinitions[key].schema, stored) ? stored : settingDefinitions[key].default;
    this.cache.set(key, value);
    return value as SettingValue<K>;
  }

  /** The cached value of a setting, or undefined when `get` would have to read the database. */
  cached<K extends SettingKey>(key: K): SettingValue<K> | undefined {
    return this.cache.get(key) as SettingValue<K> | undefined;
  }

  /** Every known setting with its value, default, schema and last change. */
  async list(): Promise<SettingWire[]> {
    const rows = new Map((await findSettingRows(this.deps.db)).map((r) => [r.key, r]));
    return (Object.keys(settingDefinitions) as SettingKey[]).map((key) => toWire(key, rows.get(key)));
  }

  /** Validate against the key's schema, store, audit and tell every process. */
  async set(key: string, value: unknown, actor: Actor, meta: RequestMeta): Promise<SettingWire> {
    if (!isSettingKey(key)) throw notFound('setting');
    const def = settingDefinitions[key];
    if (value === undefined) throw validationError([{ field: 'value', message: 'is required' }]);
    const errors = [...Value.Errors(def.schema, value)];
    if (errors.length > 0) {
      throw validationError(
        errors.slice(0, 20).map((e) => ({ field: `value${e.path.replaceAll('/', '.')}`, message: e.message })),
        `Invalid value for ${key}.`,
      );
    }
    const row = await this.deps.db.transaction().execute(async (tx) => {
      const before = await findSettingValue(tx, key);
      const written = await upsertSetting(tx, key, JSON.stringify(value), actor.id);
      await writeAudit(tx, actor, meta, {
        action: 'setting.updated',
        targetType: 'setting',
        targetId: key,
        changes: { value: { from: before ?? null, to: value } },
      });
      await this.deps.bus.publish(TOPIC, tx);
      return written;
    });
    this.cache.delete(key);
    if (!row) throw new AppError('internal_error');
    return toWire(key, row);
  }
}

function toWire(key: SettingKey, row?: { value: unknown; updated_at: Date | string; updated_by: string | null }): SettingWire {
  const def = settingDefinitions[key];
  return {
    key,
    value: row ? row.value : def.default,
    default: def.default,
    schema: def.schema as unknown as Record<string, unknown>,
    description: def.description,
    updated_at: row ? new Date(row.updated_at).toISOString() : null,
    updated_by: row?.updated_by ?? null,
  };
}

export const settingsService = onePerApp((deps) => new SettingsService(deps));
