import { sql, type SelectQueryBuilder } from 'kysely';
import { AppError } from '../errors.js';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit)));
}

interface CursorPosition {
  t: string;
  id: string;
}

export function encodeCursor(createdAt: Date | string, id: string): string {
  const t = createdAt instanceof Date ? createdAt.toISOString() : new Date(createdAt).toISOString();
  return Buffer.from(JSON.stringify({ t, id } satisfies CursorPosition)).toString('base64url');
}

export function decodeCursor(cursor: string): CursorPosition {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as CursorPosition;
    if (typeof parsed.t !== 'string' || typeof parsed.id !== 'string' || Number.isNaN(Date.parse(parsed.t))) throw new Error();
    return parsed;
  } catch {
    throw new AppError('validation_failed', 'The cursor is not valid.', {
      details: [{ field: 'cursor', message: 'is not a cursor returned by this endpoint' }],
    });
  }
}

/**
 * Keyset pagination on (created_at, id), newest first: the page cost does not grow with the
 * table. `table` qualifies the columns when the query joins.
 */
export async function paginate<DB, TB extends keyof DB, O extends { id: string; created_at: Date | string }>(
  query: SelectQueryBuilder<DB, TB, O>,
  opts: { limit?: number; cursor?: string; table?: string; createdAtColumn?: string },
): Promise<Page<O>> {
  const limit = clampLimit(opts.limit);
  const col = (name: string) => sql.ref(opts.table ? `${opts.table}.${name}` : name);
  const createdCol = col(opts.createdAtColumn ?? 'created_at');
  let q = query;
  if (opts.cursor) {
    const pos = decodeCursor(opts.cursor);
    q = q.where(sql<boolean>`(${createdCol}, ${col('id')}) < (${pos.t}::timestamptz, ${pos.id})`);
  }
  const rows = await q
    .orderBy(createdCol, 'desc')
    .orderBy(col('id'), 'desc')
    .limit(limit + 1)
    .execute();
  const has_more = rows.length > limit;
  const data = has_more ? rows.slice(0, limit) : rows;
  const last = data[data.length - 1];
  const createdKey = (opts.createdAtColumn ?? 'created_at') as 'created_at';
  return { data, has_more, next_cursor: has_more && last ? encodeCursor(last[createdKey], last.id) : null };
}
