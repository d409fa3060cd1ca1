import { sql, type Kysely } from 'kysely';

// End of day: manifests (a USPS SCAN form, a close report for the others) and
// carrier pickups, per workspace and environment. A shipment on a manifest carries its
// `manifest_id` (set when the manifest is created, cleared again when the carrier leaves it off
// or the manifest fails), which is what keeps it off a second form and refuses its void.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table manifests (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      environment text not null check (environment in ('test', 'live')),
      carrier text not null,
      carrier_account_id text not null,
      ship_date text not null,
      status text not null check (status in ('pending', 'ready', 'failed')),
      shipment_ids jsonb not null,
      rejected jsonb not null,
      batch_id text,
      document_type text,
      document_content_type text,
      document bytea,
      carrier_manifest_id text,
      error jsonb,
      ready_at timestamptz(3),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create index manifests_scope on manifests (workspace_id, environment, created_at, id)`.execute(db);
  await sql`alter table shipments add column manifest_id text`.execute(db);
  // The implicit manifest's query: an account's labels not yet on a form.
  await sql`create index shipments_unmanifested on shipments (workspace_id, environment, carrier_account_id) where manifest_id is null and status <> 'voided'`.execute(
    db,
  );

  await sql`
    create table pickups (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      environment text not null check (environment in ('test', 'live')),
      carrier text not null,
      carrier_account_id text not null,
      carrier_driver text not null check (carrier_driver in ('simulated', 'api')),
      status text not null check (status in ('scheduled', 'cancelled', 'completed', 'failed')),
      confirmation_number text not null,
      address jsonb not null,
      window_start timestamptz(3) not null,
      window_end timestamptz(3) not null,
      window_text jsonb not null,
      price_amount integer not null,
      price_currency text not null,
      cancel_by timestamptz(3) not null,
      shipment_ids jsonb not null,
      package_count integer not null,
      instructions text,
      cancelled_at timestamptz(3),
      completed_at timestamptz(3),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create index pickups_scope on pickups (workspace_id, environment, created_at, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table pickups`.execute(db);
  await sql`drop index shipments_unmanifested`.execute(db);
  await sql`alter table shipments drop column manifest_id`.execute(db);
  await sql`drop table manifests`.execute(db);
}
