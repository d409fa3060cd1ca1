import { migrations } from '../../migrations/index.js';
import type { DatabaseHandle } from '../platform/db/database.js';
import { migrateToLatest } from '../platform/db/migrate.js';
import { installJobQueue } from '../platform/jobs/index.js';

/** Bring a database to the current schema: our migrations, then the job queue's own tables. */
export async function prepareDatabase(handle: DatabaseHandle): Promise<void> {
  await migrateToLatest(handle.db, migrations);
  await installJobQueue(handle);
}
