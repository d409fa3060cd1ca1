import { sql } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { Db } from './types.js';

class StaticProvider implements MigrationProvider {
  constructor(private readonly all: Record<string, Migration>) {}
  async getMigrations() {
    return this.all;
  }
}

/** True when every known migration is recorded as applied (one cheap query). */
async function isUpToDate(db: Db, names: string[]): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    const applied = new Set(rows.map((r) => r.name));
    return names.every((n) => applied.has(n));
  } catch {
    return false; // no migration table yet
  }
}

/**
 * Bring the schema up to date. Safe to run from several processes (Kysely takes a lock).
 * A restart on an up-to-date database skips the migrator (its lock dance costs ~0.4 s on PGlite).
 */
export async function migrateToLatest(db: Db, migrations: Record<string, Migration>): Promise<string[]> {
  if (await isUpToDate(db, Object.keys(migrations))) return [];
  const migrator = new Migrator({ db, provider: new StaticProvider(migrations) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
