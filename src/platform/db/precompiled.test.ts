import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/helpers/db.js';
import type { DatabaseHandle } from './database.js';
import type { Executor } from './types.js';
import { precompiled } from './precompiled.js';

interface ScratchRow {
  ws: string;
  env: string;
  id: string;
  note: string;
}

describe('precompiled', () => {
  let handle: DatabaseHandle;
  const scratch = (db: Executor) => (db as unknown as import('kysely').Kysely<{ precompiled_scratch: ScratchRow }>).selectFrom('precompiled_scratch');
  const find = precompiled(['ws', 'env', 'id'], (db, v) =>
    scratch(db)
      .selectAll()
      // Written in another order than the names, so the binding order is the compiler's.
      .where('id', '=', v.id as string)
      .where('env', '=', v.env as string)
      .where('ws', '=', v.ws as string),
  );

  beforeAll(async () => {
    handle = await openTestDatabase();
    await sql`create table precompiled_scratch (ws text, env text, id text, note text)`.execute(handle.db);
    await sql`insert into precompiled_scratch values ('w1', 'test', 'a', 'w1 test a'), ('w1', 'live', 'a', 'w1 live a'), ('w2', 'test', 'a', 'w2 test a')`.execute(
      handle.db,
    );
  });
  afterAll(async () => handle?.close());

  it('binds each call’s values to the once-compiled SQL, in the compiler’s parameter order', async () => {
    expect((await find(handle.db, { ws: 'w1', env: 'live', id: 'a' })).map((r) => r.note)).toEqual(['w1 live a']);
    expect((await find(handle.db, { ws: 'w2', env: 'test', id: 'a' })).map((r) => r.note)).toEqual(['w2 test a']);
    expect(await find(handle.db, { ws: 'w2', env: 'live', id: 'a' })).toEqual([]);
    // A value that looks like SQL is a value.
    expect(await find(handle.db, { ws: "w1' or '1'='1", env: 'test', id: 'a' })).toEqual([]);
  });

  it('runs inside the transaction it is given (sees its uncommitted rows)', async () => {
    await handle.db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into precompiled_scratch values ('w3', 'test', 'b', 'in trx')`.execute(trx);
        expect((await find(trx, { ws: 'w3', env: 'test', id: 'b' })).map((r) => r.note)).toEqual(['in trx']);
        throw new Error('roll back');
      })
      .catch(() => {});
    expect(await find(handle.db, { ws: 'w3', env: 'test', id: 'b' })).toEqual([]);
  });

  it('runs as a named prepared statement on PostgreSQL, still answering per call', async () => {
    if (handle.engine !== 'postgres') return;
    const named = precompiled(
      ['ws', 'id'],
      (db, v) =>
        scratch(db)
          .select('note')
          .where('ws', '=', v.ws as string)
          .where('id', '=', v.id as string),
      {
        statement: 'precompiled_test.by_ws_id',
      },
    );
    await handle.db.transaction().execute(async (trx) => {
      expect((await named(trx, { ws: 'w1', id: 'a' })).map((r) => r.note).sort()).toEqual(['w1 live a', 'w1 test a']);
      expect((await named(trx, { ws: 'w2', id: 'a' })).map((r) => r.note)).toEqual(['w2 test a']);
      const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(trx);
      expect(rows.map((r) => r.name)).toContain('precompiled_test.by_ws_id');
    });
  });

  describe('as a named prepared statement on the embedded engine', () => {
    const typed = precompiled(
      ['id', 'n'],
      (db, v) =>
        (db as unknown as import('kysely').Kysely<{ typed_scratch: { id: string; n: number; at: Date; doc: unknown } }>)
          .selectFrom('typed_scratch')
          .selectAll()
          .where('id', '=', v.id as string)
          .where('n', '>=', v.n as number),
      { statement: 'precompiled_test.typed' },
    );
    const unnamedRows = (id: string, n: number) => sql`select * from typed_scratch where id = ${id} and n >= ${n}`.execute(handle.db).then((r) => r.rows);

    beforeAll(async () => {
      await sql`create table typed_scratch (id text, n int, at timestamptz, doc jsonb)`.execute(handle.db);
      await sql`insert into typed_scratch values ('a', 1, '2026-03-02T15:00:00.123Z', '{"k":[1,"x",null]}'), ('b', 2, null, null)`.execute(handle.db);
    });

    it('answers what an unnamed query answers (dates, JSON, numbers, nulls), prepared once', async () => {
      if (handle.engine !== 'pglite') return;
      for (const [id, n] of [
        ['a', 0],
        ['b', 2],
        ['b', 3],
      ] as const)
        expect(await typed(handle.db, { id, n })).toEqual(await unnamedRows(id, n));
      expect((await typed(handle.db, { id: 'a', n: 1 }))[0]).toMatchObject({ at: new Date('2026-03-02T15:00:00.123Z'), doc: { k: [1, 'x', null] } });
      const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(handle.db);
      expect(rows.map((r) => r.name)).toEqual(['precompiled_test.typed']);
    });

    it('waits for a transaction open on the engine instead of running inside it', async () => {
      if (handle.engine !== 'pglite') return;
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let inserted!: () => void;
      const didInsert = new Promise<void>((r) => (inserted = r));
      // Straight on the engine (as the job queue uses it): Kysely's own connection lock would
      // hide a transaction opened through Kysely.
      const trx = handle.pglite!.transaction(async (t) => {
        await t.query(`insert into typed_scratch values ('c', 5, null, null)`);
        inserted();
        await held;
        await t.rollback();
      });
      await didInsert;
      const read = typed(handle.db, { id: 'c', n: 0 });
      // Let the read reach the engine (promise hops only) while the transaction is still open.
      await new Promise((r) => setTimeout(r, 50));
      release();
      await trx;
      // Had it run on the shared connection inside the transaction, it would see the row.
      expect(await read).toEqual([]);
    });

    it("rejects a bad value with PostgreSQL's error, and the engine goes on", async () => {
      if (handle.engine !== 'pglite') return;
      await expect(typed(handle.db, { id: 'a', n: 'not a number' as unknown as number })).rejects.toMatchObject({ code: '22P02' });
      expect(await typed(handle.db, { id: 'b', n: 0 })).toHaveLength(1);
    });

    it('runs inside a transaction as a named statement too: sees its rows, rolls back with it, fails it on a bad value', async () => {
      if (handle.engine !== 'pglite') return;
      const inTrx = precompiled(
        ['id'],
        (db, v) =>
          (db as unknown as import('kysely').Kysely<{ typed_scratch: { id: string; n: number } }>)
            .selectFrom('typed_scratch')
            .select('n')
            .where('id', '=', v.id as string),
        { statement: 'precompiled_test.in_trx' },
      );
      await handle.db
        .transaction()
        .execute(async (trx) => {
          await sql`insert into typed_scratch values ('d', 7, null, null)`.execute(trx);
          expect(await inTrx(trx, { id: 'd' })).toEqual([{ n: 7 }]);
          // Prepared by the transaction's own call (the named path, not query()).
          const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(trx);
          expect(rows.map((r) => r.name)).toContain('precompiled_test.in_trx');
          throw new Error('roll back');
        })
        .catch(() => {});
      expect(await inTrx(handle.db, { id: 'd' })).toEqual([]);
      // A statement that fails inside fails the transaction; nothing of it stays, the engine goes on.
      await expect(
        handle.db.transaction().execute(async (trx) => {
          await sql`insert into typed_scratch values ('e', 8, null, null)`.execute(trx);
          await typed(trx, { id: 'a', n: 'not a number' as unknown as number });
        }),
      ).rejects.toMatchObject({ code: '22P02' });
      expect(await inTrx(handle.db, { id: 'e' })).toEqual([]);
      expect(await typed(handle.db, { id: 'b', n: 0 })).toHaveLength(1);
    });
  });

  it('refuses a builder that does not use every value exactly once as a parameter', async () => {
    const bad = precompiled(['ws', 'id'], (db, v) =>
      scratch(db)
        .selectAll()
        .where('ws', '=', v.ws as string),
    );
    await expect(bad(handle.db, { ws: 'w1', id: 'a' })).rejects.toThrow(/exactly once/);
  });
});
