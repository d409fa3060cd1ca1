import { loadConfig } from './config.js';
import { openDatabase } from './platform/db/database.js';
import { prepareDatabase } from './bootstrap/database.js';

/** `npm run migrate`: bring the configured database to the current schema, then exit. */
const config = loadConfig();
const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir });
try {
  await prepareDatabase(handle);
  process.stdout.write('Database is up to date.\n');
} finally {
  await handle.close();
}
