import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';

/**
 * Tables a refused request may legitimately write to: the intake failure log (a refused store
 * push is what drives integration health) and bookkeeping that is not business data.
 */
const NOT_BUSINESS = new Set(['kysely_migration', 'kysely_migration_lock', 'integration_intake_failures']);

let tables: string[] | undefined;

/** Row counts of every business table (public schema), for "nothing written on a 4xx". */
export async function businessRowCounts(app: FastifyInstance): Promise<Record<string, number>> {
  const db = app.deps.db;
  tables ??= (
    await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`.execute(db)
  ).rows
    .map((r) => r.name)
    .filter((n) => !NOT_BUSINESS.has(n));
  if (tables.length === 0) return {};
  const union = sql.join(
    tables.map((t) => sql`select ${t} as name, count(*)::int as n from ${sql.table(t)}`),
    sql` union all `,
  );
  const rows = (await sql<{ name: string; n: number }>`${union}`.execute(db)).rows;
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.n)]));
}

/** Tables whose count changed between two snapshots. */
export function changedTables(before: Record<string, number>, after: Record<string, number>): string[] {
  return Object.keys({ ...before, ...after }).filter((t) => before[t] !== after[t]);
}
