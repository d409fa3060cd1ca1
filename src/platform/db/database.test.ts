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

  it('stores and reads bytea byte for byte, from empty to a merged file’s size, as a Buffer on both engines', async () => {
    // On PGlite the hex text is made and read through Buffer (platform/db/pglite-config.ts), as node-postgres does.
    await sql`create table bytea_scratch (n int primary key, body bytea not null)`.execute(handle.db);
    const bodies = [0, 1, 255, 4097, 3 << 20].map((size, n) => ({ n, body: Buffer.from(Array.from({ length: size }, (_, i) => (i * 7 + n) & 0xff)) }));
    for (const { n, body } of bodies) await sql`insert into bytea_scratch (n, body) values (${n}, ${body})`.execute(handle.db);
    const { rows } = await sql<{ n: number; body: Uint8Array }>`select n, body from bytea_scratch order by n`.execute(handle.db);
    expect(rows.map((r) => r.n)).toEqual(bodies.map((b) => b.n));
    for (const [i, row] of rows.entries()) {
      expect(Buffer.isBuffer(row.body)).toBe(true);
      expect(Buffer.compare(Buffer.from(row.body), bodies[i]!.body)).toBe(0);
    }
    // A subarray sends only its own bytes.
    const whole = Buffer.from('0123456789');
    await sql`insert into bytea_scratch (n, body) values (99, ${whole.subarray(2, 5)})`.execute(handle.db);
    const part = await sql<{ text: string }>`select convert_from(body, 'UTF8') as text from bytea_scratch where n = 99`.execute(handle.db);
    expect(part.rows[0]!.text).toBe('234');
  });

  it.runIf(inject('testDb').engine === 'pglite')('closes the embedded instance of a handle closed before any query', async () => {
    const unused = await openTestDatabase();
    await unused.close();
    expect(unused.pglite!.closed).toBe(true);
  });
});
