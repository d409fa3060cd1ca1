import { sql, type Kysely } from 'kysely';

// Packages (a workspace's own box presets) and trackers.
//
// Trackers: labels bought elsewhere, followed like our own (docs/api-conventions.md). The
// carrier's journey is kept on the row (`events`, oldest first, deduplicated by the carrier's
// own event identity), so a tracker needs no shipment and touches no shipment table.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table trackers (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      environment text not null check (environment in ('test', 'live')),
      carrier text not null,
      tracking_number text not null,
      carrier_account_id text,
      carrier_driver text not null check (carrier_driver in ('simulated', 'api')),
      service_code text not null,
      status text not null,
      status_detail text,
      events jsonb not null,
      estimated_delivery_at timestamptz(3),
      sandbox jsonb,
      next_check_at timestamptz(3),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  // One tracker per number and carrier in a scope: creating it again answers the existing one.
  await sql`create unique index trackers_number on trackers (workspace_id, environment, carrier, tracking_number)`.execute(db);
  await sql`create index trackers_scope on trackers (workspace_id, environment, created_at, id)`.execute(db);
  await sql`create index trackers_due on trackers (next_check_at) where next_check_at is not null`.execute(db);

  // Packages: a workspace's own box presets. The carriers' packaging is data in their folders.
  await sql`
    create table packages (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      environment text not null check (environment in ('test', 'live')),
      name text not null,
      length_in double precision not null,
      width_in double precision not null,
      height_in double precision not null,
      tare_weight_oz double precision not null,
      max_weight_oz double precision,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create index packages_scope on packages (workspace_id, environment, created_at, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists packages`.execute(db);
  await sql`drop table if exists trackers`.execute(db);
}
