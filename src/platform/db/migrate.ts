import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { Db } from './types.js';

class StaticProvider implements MigrationProvider {
  constructor(private readonly all: Record<string, Migration>) {}
  async getMigrations() {
    return this.all;
  }
}

/** Bring the schema up to date. Safe to run from several processes (Kysely takes a lock). */
export async function migrateToLatest(db: Db, migrations: Record<string, Migration>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new StaticProvider(migrations) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
