import { CompiledQuery, type Compilable } from 'kysely';
import type { Executor } from './types.js';
import { nameStatement } from './database.js';

/**
 * A query whose shape never changes, compiled to SQL once. Kysely builds and compiles a query
 * tree on every call, which was ~10% of the order read's CPU; this keeps the SQL
 * text of the first compilation and only binds the values on each call. It still runs
 * through the executor it is given (root handle or transaction), so PGlite's single
 * connection and open transactions are respected.
 *
 * `build` receives one placeholder per named value and must use each as a plain value
 * (compared, inserted), never spliced into the SQL; compile checks that every name became
 * exactly one parameter. With a `statement` name, PostgreSQL runs it as a named prepared
 * statement (see nameStatement in database.ts).
 */
export function precompiled<N extends string, R>(
  names: readonly N[],
  build: (db: Executor, values: Record<N, unknown>) => Compilable<R>,
  opts: { statement?: string } = {},
) {
  let compiled: { sql: string; slots: N[] } | undefined;

  function compile(db: Executor) {
    const marker = (name: string) => `\u0000precompiled:${name}`;
    const query = build(db, Object.fromEntries(names.map((n) => [n, marker(n)])) as Record<N, unknown>).compile();
    const slots = query.parameters.map((p) => names.find((n) => marker(n) === p));
    if (slots.some((s) => s === undefined) || new Set(slots).size !== names.length || slots.length !== names.length) {
      throw new Error(`precompiled query must use each of ${names.join(', ')} exactly once as a parameter: ${query.sql}`);
    }
    if (opts.statement) nameStatement(query.sql, opts.statement);
    return { sql: query.sql, slots: slots as N[] };
  }

  return async function run(db: Executor, values: Record<N, unknown>): Promise<R[]> {
    compiled ??= compile(db);
    const parameters = compiled.slots.map((s) => values[s]);
    const result = await db.executeQuery<R>(CompiledQuery.raw(compiled.sql, parameters) as CompiledQuery<R>);
    return result.rows;
  };
}
