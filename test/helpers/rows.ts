import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';

/**
 * Not counted: the migrator's bookkeeping, and rows written in the background after an earlier
 * request (label artifacts are rendered off the request path; /v1 request counts are flushed
 * once a minute, so a flush lands inside whichever request runs then), which would change under
 * any later request.
 */
const NOT_BUSINESS = new Set(['kysely_migration', 'kysely_migration_lock', 'shipment_labels', 'api_request_counts']);

/**
 * Tables a refused request may write to by design, per operation: a refused store push is
 * recorded (it drives integration health) and a health change is an event.
 */
export const writesOnRefusal: Record<string, string[]> = {
  integrationCreateOrder: ['integration_intake_failures', 'events'],
};

let tables: string[] | undefined;

/** Row counts of every business table (public schema), for "nothing written on a 4xx". */
export async function businessRowCounts(app: FastifyInstance): Promise<Record<string, number>> {
  const db = app.deps.db;
  tables ??= (
    await sql<{
      name: string;
    }>`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`.execute(db)
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
export function changedTables(before: Record<string, number>, after: Record<string, number>, allowed: string[] = []): string[] {
  return Object.keys({ ...before, ...after }).filter((t) => before[t] !== after[t] && !allowed.includes(t));
}
