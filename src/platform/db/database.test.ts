import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestDatabase } from '../../../test/helpers/db.js';
import type { DatabaseHandle } from './database.js';

/**
 * The third-party kysely-pglite dialect let a concurrent query join another
 * caller's open transaction, so a rollback removed a row inserted outside it. Kysely's built-in
 * PGliteDialect must serialise them instead (and PostgreSQL isolates them anyway).
 */
describe('openDatabase', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase();
    await sql`create table isolation_scratch (tag text primary key)`.execute(handle.db);
  });
  afterAll(async () => handle?.close());

  it('does not roll back a concurrent query together with another caller’s transaction', async () => {
    let inserted!: () => void;
    const insertedInTrx = new Promise<void>((resolve) => (inserted = resolve));

    const trx = handle.db.transaction().execute(async (tx) => {
      await sql`insert into isolation_scratch (tag) values ('inside')`.execute(tx);
      inserted();
      // Stay open while the independent insert is issued (it must not run inside us).
      await new Promise((r) => setTimeout(r, 100));
      throw new Error('roll back');
    });

    await insertedInTrx;
    const outside = sql`insert into isolation_scratch (tag) values ('outside')`.execute(handle.db);

    await expect(trx).rejects.toThrow('roll back');
    await outside;
    const { rows } = await sql<{ tag: string }>`select tag from isolation_scratch order by tag`.execute(handle.db);
    expect(rows.map((r) => r.tag)).toEqual(['outside']);
  });

  it.runIf(inject('testDb').engine === 'pglite')('closes the embedded instance of a handle closed before any query', async () => {
    const unused = await openTestDatabase();
    await unused.close();
    expect(unused.pglite!.closed).toBe(true);
  });
});
