import { sql, type Kysely } from 'kysely';

// Where each order, label, batch, manifest and pickup ships from: `location_id` (docs/api-conventions.md,
// "Locations"). A deleted location leaves its rows without one (they keep their stored addresses).
//
// Existing rows: what shipped from the workspace origin ships from its default location (the
// origin became that location in the previous migration). Orders and labels with an address of
// their own (`ship_from` on the order) keep none; every manifest so far covered the origin's
// labels; a pickup at the origin's address is the default location's. Batches keep none: each
// of their labels followed its own order.
const TABLES = ['orders', 'shipments', 'batches', 'manifests', 'pickups'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await sql`alter table ${sql.table(table)} add column location_id text references locations(id) on delete set null`.execute(db);
  }
  // The list filters (?location_id=) page within a location as the lists page within a scope.
  await sql`create index orders_location on orders (workspace_id, environment, location_id, created_at, id) where location_id is not null`.execute(db);
  await sql`create index shipments_location on shipments (workspace_id, environment, location_id, created_at, id) where location_id is not null`.execute(db);

  await sql`
    update orders o set location_id = l.id
    from locations l
    where l.workspace_id = o.workspace_id and l.environment = o.environment and l.is_default and o.ship_from is null`.execute(db);
  await sql`
    update shipments s set location_id = o.location_id
    from orders o
    where o.id = s.order_id and o.location_id is not null`.execute(db);
  await sql`
    update manifests m set location_id = l.id
    from locations l
    where l.workspace_id = m.workspace_id and l.environment = m.environment and l.is_default`.execute(db);
  await sql`
    update pickups p set location_id = l.id
    from locations l
    where l.workspace_id = p.workspace_id and l.environment = p.environment and l.is_default and l.address = p.address`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists orders_location`.execute(db);
  await sql`drop index if exists shipments_location`.execute(db);
  for (const table of TABLES) await sql`alter table ${sql.table(table)} drop column if exists location_id`.execute(db);
}
