import { sql, type Kysely } from 'kysely';

// Carrier accounts: a workspace's connection to a carrier in one environment,
// through the simulated driver or the carrier's real API with its own credentials (sealed).
// Deleting one keeps the row (deleted_at): its shipments stay readable, trackable and voidable.
// The simulated default of each carrier is made on a workspace's first use (origin 'seed'; the
// partial unique index below makes that idempotent and never makes one again once deleted).
// carrier_exchanges keeps the last requests to the carrier per account (redacted), 7 days.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table carrier_accounts (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      environment text not null check (environment in ('test', 'live')),
      carrier text not null,
      driver text not null check (driver in ('simulated', 'api')),
      origin text not null default 'user' check (origin in ('user', 'seed')),
      mode text not null default 'sandbox' check (mode in ('sandbox', 'production')),
      description text,
      account_number text,
      credentials_sealed text,
      credentials_masked jsonb,
      base_url text,
      is_default boolean not null default false,
      enabled boolean not null default true,
      health_status text not null default 'unknown',
      health_checked_at timestamptz(3),
      health_latency_ms integer,
      health_message text,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now(),
      deleted_at timestamptz(3)
    )`.execute(db);
  await sql`create index carrier_accounts_scope on carrier_accounts (workspace_id, environment, created_at desc, id desc)`.execute(db);
  await sql`create unique index carrier_accounts_one_default on carrier_accounts (workspace_id, environment, carrier) where is_default and deleted_at is null`.execute(
    db,
  );
  await sql`create unique index carrier_accounts_one_seed on carrier_accounts (workspace_id, environment, carrier) where origin = 'seed'`.execute(db);
  await sql`
    create table carrier_exchanges (
      id text primary key,
      carrier_account_id text not null references carrier_accounts(id) on delete cascade,
      workspace_id text not null,
      environment text not null,
      operation text not null,
      method text not null,
      path text not null,
      status integer,
      duration_ms integer not null,
      outcome text not null,
      request_body jsonb,
      response_body jsonb,
      request_id text,
      created_at timestamptz(3) not null default now()
    )`.execute(db);
  await sql`create index carrier_exchanges_account on carrier_exchanges (carrier_account_id, created_at desc, id desc)`.execute(db);
  await sql`create index carrier_exchanges_age on carrier_exchanges (created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table carrier_exchanges`.execute(db);
  await sql`drop table carrier_accounts`.execute(db);
}
