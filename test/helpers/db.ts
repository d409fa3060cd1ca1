import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/platform/db/database.js';

/**
 * A fresh, migrated database for one test file, copied from the template that
 * test/global-setup.ts migrated once for the run: a PGlite dump loaded in memory, or a
 * PostgreSQL `CREATE DATABASE … TEMPLATE` when the run targets PostgreSQL.
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const target = inject('testDb');
  if (target.engine === 'pglite') {
    const dump = await readFile(target.templatePath);
    return openDatabase({ loadDataDir: new Blob([dump]) });
  }
  const name = `${target.prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: target.adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}" template "${target.templateName}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(target.adminUrl);
  url.pathname = `/${name}`;
  return openDatabase({ databaseUrl: url.toString(), poolMax: 5 });
}

export type TestDbTarget = { engine: 'pglite'; templatePath: string } | { engine: 'postgres'; adminUrl: string; templateName: string; prefix: string };

declare module 'vitest' {
  export interface ProvidedContext {
    testDb: TestDbTarget;
  }
}
