import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openTestDatabase } from '../../../test/helpers/db.js';
import type { DatabaseHandle } from '../../platform/db/database.js';
import * as migration from '../../../migrations/2026-11-28-0020-locations-packages-trackers.js';
import * as locationIds from '../../../migrations/2026-11-29-0022-location-ids.js';

// The migration makes each workspace's origin address its default location (in both
// environments, in the origin state's time zone); workspaces without one get none. Run down and
// up again on this file's own copy of the migrated database, with workspaces already in it.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

it('turns each workspace origin into its default location, in test and live', async () => {
  const db = database.db;
  const origin = { company: 'Acme', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
  await sql`insert into workspaces (id, name, origin_address) values ('ws_with_origin', 'With', ${JSON.stringify(origin)}::jsonb), ('ws_without', 'Without', null)`.execute(
    db,
  );
  await locationIds.down(db); // its columns reference locations
  await migration.down(db);
  await migration.up(db);
  await locationIds.up(db);
  const rows = await db.selectFrom('locations').selectAll().orderBy('environment').execute();
  expect(rows.map((r) => [r.workspace_id, r.environment, r.is_default, r.timezone, r.pickup_cutoff, r.name])).toEqual([
    ['ws_with_origin', 'live', true, 'America/Los_Angeles', '17:00', 'Acme'],
    ['ws_with_origin', 'test', true, 'America/Los_Angeles', '17:00', 'Acme'],
  ]);
  expect(rows[0].address).toEqual(origin);
  for (const r of rows) expect(r.id).toMatch(/^loc_[0-9a-z]{26}$/);
});

it('gives what shipped from the origin its default location; an order with its own ship_from none', async () => {
  const db = database.db;
  const origin = { company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
  await sql`insert into workspaces (id, name, origin_address) values ('ws_orders', 'Orders', ${JSON.stringify(origin)}::jsonb)`.execute(db);
  await locationIds.down(db);
  await migration.down(db);
  await migration.up(db);
  const parcel = JSON.stringify({ weight_oz: 1, length_in: 1, width_in: 1, height_in: 1 });
  const to = JSON.stringify({ city: 'Reno', country: 'US' });
  await sql`insert into orders (id, workspace_id, environment, source, ship_to, ship_from, line_items, parcel) values
    ('ord_at_origin', 'ws_orders', 'live', 'api', ${to}::jsonb, null, '[]'::jsonb, ${parcel}::jsonb),
    ('ord_own_address', 'ws_orders', 'live', 'api', ${to}::jsonb, ${JSON.stringify(origin)}::jsonb, '[]'::jsonb, ${parcel}::jsonb)`.execute(db);
  await locationIds.up(db);
  const live = await db
    .selectFrom('locations')
    .select('id')
    .where('workspace_id', '=', 'ws_orders')
    .where('environment', '=', 'live')
    .executeTakeFirstOrThrow();
  const orders = await db.selectFrom('orders').select(['id', 'location_id']).where('workspace_id', '=', 'ws_orders').orderBy('id').execute();
  expect(orders).toEqual([
    { id: 'ord_at_origin', location_id: live.id },
    { id: 'ord_own_address', location_id: null },
  ]);
});
