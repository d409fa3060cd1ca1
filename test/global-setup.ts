import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/platform/db/database.js';
import { prepareDatabase } from '../src/bootstrap/database.js';

/**
 * Migrate one template database per run (copy it per test file rather than
 * migrating ~4 s of PGlite data dir each time). With TEST_DATABASE_URL the run targets
 * PostgreSQL: its databases are named after the run so parallel runs never collide.
 */
export default async function setup(project: TestProject) {
  const runId = `t${Date.now().toString(36)}${process.pid.toString(36)}`;
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const dir = path.resolve('.test-tmp', runId);
    await mkdir(dir, { recursive: true });
    const handle = await openDatabase({});
    await prepareDatabase(handle);
    const dump = await handle.pglite!.dumpDataDir('none');
    await handle.close();
    const templatePath = path.join(dir, 'template.tar');
    await writeFile(templatePath, Buffer.from(await dump.arrayBuffer()));
    project.provide('testDb', { engine: 'pglite', templatePath });
    return async () => {
      await rm(dir, { recursive: true, force: true });
    };
  }

  const templateName = `${runId}_tmpl`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${templateName}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${templateName}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), poolMax: 2 });
  await prepareDatabase(handle);
  await handle.close();
  project.provide('testDb', { engine: 'postgres', adminUrl, templateName, prefix: runId });
  return async () => {
    const { rows } = await admin.query<{ datname: string }>(`select datname from pg_database where datname like $1`, [`${runId}%`]);
    for (const { datname } of rows) {
      await admin.query(`drop database if exists "${datname}" with (force)`).catch(() => {});
    }
    await admin.end();
  };
}
