import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../helpers/db.js';
import type { DatabaseHandle } from '../../src/platform/db/database.js';

describe('test database', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase();
  });
  afterAll(async () => handle.close());

  it('is migrated', async () => {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from accounts`.execute(handle.db);
    expect(rows[0].n).toBe(0);
  });
});
